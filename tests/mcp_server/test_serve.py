"""``webagent mcp`` as a process: a client in this process orders through it over streamable HTTP
(``--http 127.0.0.1:PORT``) and over stdio, as desktop clients and the OpenAI Agents SDK connect."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, ElicitRequestParams, ElicitResult

from demo_site import Shop
from webagent.sync import run_sync

ROOT = Path(__file__).resolve().parents[2]
DETAILS = {"name": "Ada Demo", "address": "12 Oak Street", "phone": "555-0101", "payment_method": "Cash"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


AUTO = ["--approve", "auto", "--budget", "100", "--name", "Ada Demo", "--address", "12 Oak Street"]
AUTO += ["--phone", "555-0101"]
"""Approval without a form: the 2026 revision's questions are round trips of their own (issue 40, item 2)."""


@pytest.fixture
def http_server(fresh_shop: Shop, tmp_path: Path) -> Iterator[str]:
    yield from _http_server(fresh_shop, tmp_path, [])


@pytest.fixture
def http_server_auto(fresh_shop: Shop, tmp_path: Path) -> Iterator[str]:
    yield from _http_server(fresh_shop, tmp_path, AUTO)


def _http_server(fresh_shop: Shop, tmp_path: Path, more: list[str]) -> Iterator[str]:
    """``webagent mcp --http 127.0.0.1:PORT`` in a process of its own, until it says it is listening."""
    port = free_port()
    command = [sys.executable, "-m", "webagent", "mcp", "--http", f"127.0.0.1:{port}", *more]
    command += ["--shop-url", fresh_shop.url, "--runs-dir", str(tmp_path / "runs")]
    process = subprocess.Popen(
        command, cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    assert process.stderr is not None
    for line in process.stderr:  # uvicorn says when it listens; no sleeping and hoping
        if "Uvicorn running on" in line:
            break
    else:
        pytest.fail(f"webagent mcp --http exited with {process.wait()} before listening")
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def approve(context: Any, params: ElicitRequestParams) -> ElicitResult:
    return ElicitResult(action="accept", content={"approve": True})


CALLS = [
    ("open_restaurant", {"name": "Italian Bistro"}),
    ("add_to_cart", {"dish": "Lasagna al Forno"}),
    ("go_to_checkout", {}),
    ("fill_delivery_details", DETAILS),
    ("place_order", {}),
]


def stdio_server(tmp_path: Path, *more: str) -> StdioServerParameters:
    """``webagent mcp`` as a desktop client runs it, with ``more`` flags."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "webagent", "mcp", "--runs-dir", str(tmp_path / "runs"), *more],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


async def order(server: Any) -> list[CallToolResult]:
    async with Client(server, mode="legacy", elicitation_callback=approve) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"open_restaurant", "add_to_cart", "place_order", "finish"} <= names
        return [await client.call_tool(name, arguments) for name, arguments in CALLS]


def test_a_client_in_another_process_orders_over_streamable_http(http_server: str, fresh_shop: Shop) -> None:
    placed = run_sync(order(http_server))[-1]
    assert not placed.is_error and placed.structured_content["view"] == "confirmation"
    with sqlite3.connect(fresh_shop.db_path) as db:
        assert db.execute("select dish_name, quantity from order_items").fetchall() == [
            ("Lasagna al Forno", 1)
        ]


def test_a_client_orders_over_stdio_on_the_embedded_shop(tmp_path: Path) -> None:
    placed = run_sync(order(stdio_server(tmp_path)))[
        -1
    ]  # nothing but the protocol on stdout, or the client would fail
    assert not placed.is_error and placed.structured_content["order_number"] is not None
    run = tmp_path / "runs" / placed.structured_content["run_id"]
    with sqlite3.connect(run / "shop.db") as db:  # the session's own shop, its database in the run folder
        assert db.execute("select dish_name from order_items").fetchall() == [("Lasagna al Forno",)]


async def order_by_handle(server: Any) -> list[CallToolResult]:
    """The 2026-07-28 revision: no handshake, no session; the run named by start_run's handle."""
    async with Client(server, mode="2026-07-28") as client:
        started = await client.call_tool("start_run", {})
        handle = (started.structured_content or {})["run"]
        return [await client.call_tool(name, {**arguments, "run": handle}) for name, arguments in CALLS]


def test_a_stateless_client_orders_by_handle_over_streamable_http(
    http_server_auto: str, fresh_shop: Shop
) -> None:
    placed = run_sync(order_by_handle(http_server_auto))[-1]
    assert not placed.is_error and (placed.structured_content or {})["view"] == "confirmation"
    with sqlite3.connect(fresh_shop.db_path) as db:
        assert db.execute("select dish_name, quantity from order_items").fetchall() == [
            ("Lasagna al Forno", 1)
        ]


def test_a_stateless_client_orders_by_handle_over_stdio(tmp_path: Path) -> None:
    placed = run_sync(order_by_handle(stdio_server(tmp_path, *AUTO)))[-1]
    assert not placed.is_error and (placed.structured_content or {})["order_number"] is not None
