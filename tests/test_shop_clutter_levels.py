"""Clutter level 4 is reachable everywhere a level is chosen: the shop's page query, its command line,
`webagent run`/`shop`, run configs and eval tasks; level 5 is refused everywhere."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx2 as httpx
import pytest
from pydantic import ValidationError

from demo_site import Shop, ShopConfig
from demo_site.__main__ import _parser as shop_parser
from webagent.cli.parser import build_parser
from webagent.config import RunConfig
from webagent.evals.tasks import Task

ROOT = Path(__file__).resolve().parents[1]


def test_a_page_load_can_choose_level_4(shop: Shop) -> None:
    with httpx.Client(base_url=shop.url) as client:
        assert client.get("/", params={"clutter": 4, "seed": 11}).status_code == 200
        assert client.get("/api/session").json()["clutter"] == 4
        assert client.get("/", params={"clutter": 5}).status_code == 422


def test_level_4_in_every_config_and_level_5_in_none(tmp_path: Path) -> None:
    assert ShopConfig(db_path=tmp_path / "shop.db", clutter=4).clutter == 4
    assert RunConfig(goal="Order a Tiramisu", clutter=4).clutter == 4
    assert Task(id="t", goal="Order a Tiramisu", clutter=4, expect={"ordered": True}).clutter == 4
    for build in (
        lambda: ShopConfig(db_path=tmp_path / "shop.db", clutter=5),
        lambda: RunConfig(goal="Order a Tiramisu", clutter=5),
        lambda: Task(id="t", goal="Order a Tiramisu", clutter=5, expect={"ordered": True}),
    ):
        with pytest.raises(ValidationError):
            build()


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
