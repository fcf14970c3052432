"""Browsers elsewhere: a real ``playwright run-server`` and a real Chrome DevTools endpoint on this machine.

The server finds its browser as Playwright does on any machine — in its browser registry
(``PLAYWRIGHT_BROWSERS_PATH``) — so the fixture lays out a registry whose Chromium is the one webagent
found here, as ``playwright install chromium`` would on a machine with downloads. While a test runs,
``WEBAGENT_CHROMIUM`` names no browser at all: an order can only go through the remote one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import playwright
import pytest

from demo_site import Shop
from demo_site.db import ShopDB
from webagent.browser.chromium import find_chromium, launch_args
from webagent.cli.main import main

pytest_plugins = ["pytester"]

ORDER = {
    "restaurant": "Italian Bistro",
    "items": [{"dish": "Tiramisu", "quantity": 3}],
    "payment_method": "Cash",
}
PROFILE = ["--name", "Remote Customer", "--address", "3 Far Street", "--phone", "555-0103"]


@pytest.fixture(scope="module")
def chromium() -> str:
    """The headless Chromium found here, looked up before any test hides it."""
    return find_chromium(headless=True)


@pytest.fixture(scope="module")
def headed_chromium() -> str:
    """The full Chromium found here (the same as `chromium` when no headless shell is installed)."""
    return find_chromium(headless=False)


def _registry(root: Path, chromium: str, headed_chromium: str) -> Path:
    """A Playwright browser registry whose Chromium (full and headless shell) is this machine's."""
    browsers = json.loads((Path(playwright.__file__).parent / "driver/package/browsers.json").read_text())
    revision = {b["name"]: b["revision"] for b in browsers["browsers"]}
    for name, path, found in (
        ("chromium", "chrome-linux64/chrome", headed_chromium),
        ("chromium-headless-shell", "chrome-headless-shell-linux64/chrome-headless-shell", chromium),
    ):
        executable = root / f"{name.replace('-', '_')}-{revision[name]}" / path
        executable.parent.mkdir(parents=True)
        executable.symlink_to(found)
    return root


def _started(process: subprocess.Popen[str], pattern: str, what: str) -> re.Match[str]:
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    seen = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            break
        seen.append(line)
        if found := re.search(pattern, line):
            return found
    raise AssertionError(f"{what} did not start: {''.join(seen)}")


def _end_group(process: subprocess.Popen[str]) -> None:
    """End ``process`` and everything it started (``python -m playwright`` runs node; Debian's
    chromium-headless-shell is a shell script around the browser): terminating the first alone leaves
    the rest running after the tests."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def browser_server(
    chromium: str, headed_chromium: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """``playwright run-server`` on a free port; its ws:// URL."""
    registry = _registry(tmp_path_factory.mktemp("ms-playwright"), chromium, headed_chromium)
    process = subprocess.Popen(
        [sys.executable, "-m", "playwright", "run-server", "--port", "0", "--host", "127.0.0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PLAYWRIGHT_BROWSERS_PATH": str(registry)},
        start_new_session=True,  # its group ended whole: the driver it starts, the browsers those start
    )
    try:
        yield _started(process, r"Listening on (ws://\S+)", "playwright run-server").group(1)
    finally:
        _end_group(process)


@pytest.fixture(scope="module")
def devtools(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A headless Chromium with its DevTools endpoint open; its http:// URL."""
    profile = tmp_path_factory.mktemp("chrome-profile")
    process = subprocess.Popen(
        [
            chromium,
            "--headless",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            *launch_args(headless=True),
            "about:blank",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        found = _started(process, r"DevTools listening on ws://([\d.]+:\d+)/", "Chromium")
        yield f"http://{found.group(1)}"
    finally:
        _end_group(process)


@pytest.fixture
def no_local_browser(
    chromium: str, headed_chromium: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Any attempt to launch a browser here fails: what orders must have gone through the remote one."""
    monkeypatch.setenv("WEBAGENT_CHROMIUM", str(tmp_path / "no-such-chromium"))


def _order_file(tmp_path: Path) -> Path:
    path = tmp_path / "order.json"
    path.write_text(json.dumps(ORDER), encoding="utf-8")
    return path


def _the_order(shop: Shop) -> dict[str, Any]:
    [order] = ShopDB(shop.db_path).orders()
    assert [(i["dish_name"], i["quantity"]) for i in order["items"]] == [("Tiramisu", 3)]
    assert (order["name"], order["payment_method"]) == ("Remote Customer", "Cash")
    return order


@pytest.mark.usefixtures("no_local_browser")
@pytest.mark.parametrize("flag", ["--browser-ws", "--cdp"])
def test_an_order_runs_through_a_browser_reached_by_url(
    flag: str, fresh_shop: Shop, tmp_path: Path, capsys: Any, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("browser_server" if flag == "--browser-ws" else "devtools")
    code = main(
        [
            "run",
            "--order",
            str(_order_file(tmp_path)),
            flag,
            url,
            "--shop-url",
            fresh_shop.url,
            "--approve",
            "auto",
            "--runs-dir",
            str(tmp_path / "runs"),
            "--json",
            *PROFILE,
        ]
    )

    result = json.loads(capsys.readouterr().out)
    assert (code, result["outcome"]) == (0, "ordered"), result["message"]
    assert _the_order(fresh_shop)["id"] == result["order_id"]


@pytest.mark.usefixtures("no_local_browser")
def test_a_batch_runs_its_lines_as_contexts_of_a_remote_browser(
    browser_server: str, fresh_shop: Shop, tmp_path: Path, capsys: Any
) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text(
        json.dumps({"id": "one", "order": ORDER}) + "\n" + json.dumps({"id": "two", "order": ORDER}) + "\n"
    )

    code = main(
        [
            "batch",
            str(batch),
            "--browser-ws",
            browser_server,
            "--shop-url",
            fresh_shop.url,
            "--approve",
            "auto",
            "--workers",
            "2",
            "--runs-dir",
            str(tmp_path / "runs"),
            "--json",
            *PROFILE,
        ]
    )

    assert (code, json.loads(capsys.readouterr().out)["orders"]) == (0, 2)
    orders = ShopDB(fresh_shop.db_path).orders()
    assert len(orders) == 2 and len({order["session_id"] for order in orders}) == 2


def test_a_browser_url_with_nothing_behind_it_is_one_line_and_exit_1(
    fresh_shop: Shop, tmp_path: Path, capsys: Any
) -> None:
    code = main(
        [
            "run",
            "--order",
            str(_order_file(tmp_path)),
            "--browser-ws",
            "ws://127.0.0.1:9/",
            "--shop-url",
            fresh_shop.url,
            "--approve",
            "auto",
            "--runs-dir",
            str(tmp_path / "runs"),
        ]
    )

    error = capsys.readouterr().err
    assert code == 1
    assert error.startswith("webagent: no browser answered at ws://127.0.0.1:9/")
    assert len(error.strip().splitlines()) == 1
    assert ShopDB(fresh_shop.db_path).orders() == []


def test_the_pytest_plugin_runs_the_agent_in_a_remote_browser(
    browser_server: str, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBAGENT_CHROMIUM", str(pytester.path / "no-such-chromium"))
    # This checkout's plugin, whichever webagent the environment has installed.
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    pytester.makepyfile(
        test_user=textwrap.dedent(
            """
            def test_orders(demo_shop, agent):
                result = agent.run("Order a Tiramisu and 2 Lemonade from Italian Bistro, pay cash")

                assert result.outcome == "ordered", result.message
                [order] = demo_shop.orders()
                assert order["id"] == result.order_id
            """
        )
    )

    outcome = pytester.runpytest_subprocess(f"--webagent-browser-ws={browser_server}")

    outcome.assert_outcomes(passed=1)
