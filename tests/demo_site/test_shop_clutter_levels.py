"""Clutter level 4 is reachable everywhere a level is chosen: the shop's page query, its command line,
`webagent run`/`shop`, run configs and eval tasks; level 5 is refused everywhere."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx2 as httpx
import pytest

from demo_site import Shop, ShopConfig
from demo_site.__main__ import _parser as shop_parser
from webagent.cli.parser import build_parser
from webagent.config import RunConfig
from webagent.evals.tasks import Task

ROOT = Path(__file__).resolve().parents[2]


def test_a_page_load_can_choose_level_4(shop: Shop) -> None:
    with httpx.Client(base_url=shop.url) as client:
        assert client.get("/", params={"clutter": 4, "seed": 11}).status_code == 200
        assert client.get("/api/session").json()["clutter"] == 4
        assert client.get("/", params={"clutter": 5}).status_code == 422


def test_every_config_bounds_the_level_to_those_the_shop_serves(shop: Shop) -> None:
    with httpx.Client(base_url=shop.url) as client:
        served = [
            level for level in range(8) if client.get("/", params={"clutter": level}).status_code == 200
        ]
    assert served == [0, 1, 2, 3, 4]
    # A config whose bounds lag behind the shop's (or run ahead of it) would refuse a level the shop
    # has, or take one it refuses.
    for model in (ShopConfig, RunConfig, Task):
        bounds = model.model_json_schema()["properties"]["clutter"]
        assert list(range(bounds["minimum"], bounds["maximum"] + 1)) == served, model.__name__


def test_command_lines_take_level_4() -> None:
    assert shop_parser().parse_args(["--clutter", "4"]).clutter == 4
    assert build_parser().parse_args(["run", "Order a Tiramisu", "--clutter", "4"]).clutter == 4
    assert build_parser().parse_args(["chat", "--clutter", "4"]).clutter == 4
    with pytest.raises(SystemExit):
        shop_parser().parse_args(["--clutter", "5"])


def test_python_m_demo_site_serves_level_4_by_default_when_asked(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "demo_site",
            "--port",
            "0",
            "--clutter",
            "4",
            "--db",
            str(tmp_path / "cli.db"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip().removeprefix("Shop running at ")
        assert httpx.get(f"{url}/api/session", timeout=30).json()["clutter"] == 4
    finally:
        process.terminate()
        process.wait(timeout=30)
