"""Runs by handle (issue 40, item 1): the SDK's client in the stateless revision orders through `start_run`'s
handle; a client that opens a new connection for every call still orders in one browser context; a handle
outlives a restart of the server (its run resumed from its checkpoint); a handle expires and says so; a
handle nobody minted names nothing."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from mcp import Client
from mcp_types import CallToolResult

from demo_site import Shop
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.mcp_server import McpSettings
from webagent.mcp_server.handles import HANDLE_FILE
from webagent.mcp_server.server import build_with_handles
from webagent.sync import run_sync

PROFILE = Profile(name="Ada Demo", address="12 Oak Street", phone="555-0101")
DETAILS = {**PROFILE.model_dump(exclude={"payment_method"}), "payment_method": "Cash"}


def settings(browser: Browser, tmp_path: Path, shop: Shop, **more: Any) -> McpSettings:
    config = RunConfig(
        runs_dir=tmp_path / "runs", shop_url=shop.url, approve="auto", budget_cents=10_000, profile=PROFILE
    )
    return McpSettings(config, approve_given=True, browser=browser, **more)


def text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def ordered(shop: Shop) -> list[tuple[str, int]]:
    with sqlite3.connect(shop.db_path) as db:
        return db.execute("select dish_name, quantity from order_items").fetchall()


ORDER = [
    ("open_restaurant", {"name": "Italian Bistro"}),
    ("add_to_cart", {"dish": "Tiramisu", "quantity": 2}),
    ("go_to_checkout", {}),
    ("fill_delivery_details", DETAILS),
    ("place_order", {}),
]


def test_a_stateless_client_orders_by_the_handle_start_run_returned(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    server, handles = build_with_handles(settings(agent_browser, tmp_path, fresh_shop), agent_browser)

    async def scenario() -> tuple[CallToolResult, CallToolResult, list[CallToolResult], str | None]:
        async with Client(server, mode="2026-07-28") as client:
            without = await client.call_tool("open_restaurant", {"name": "Italian Bistro"})
            started = await client.call_tool("start_run", {})
            handle = (started.structured_content or {})["run"]
            results = [
                await client.call_tool(name, {**arguments, "run": handle}) for name, arguments in ORDER
            ]
            version = client.protocol_version if hasattr(client, "protocol_version") else None
        await handles.close()
        return without, started, results, version

    without, started, results, _ = run_sync(scenario())
    assert without.is_error and "call start_run" in text(without)
    assert not started.is_error and started.structured_content is not None
    handle = started.structured_content["run"]
    assert len(handle) >= 32 and handle not in json.dumps(
        sorted(p.name for p in (tmp_path / "runs").rglob("*"))
    )
    placed = results[-1]
    assert not placed.is_error, text(placed)
    assert placed.structured_content is not None and placed.structured_content["order_number"] is not None
    assert ordered(fresh_shop) == [("Tiramisu", 2)]
    kept = json.loads((tmp_path / "runs" / started.structured_content["run_id"] / HANDLE_FILE).read_text())
    assert handle not in json.dumps(kept) and kept["expired"] is False  # only its digest is written


def test_a_client_that_connects_anew_for_every_call_orders_in_one_browser_context(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    server, handles = build_with_handles(settings(agent_browser, tmp_path, fresh_shop), agent_browser)

    async def once(name: str, arguments: dict[str, Any], mode: str) -> CallToolResult:
        async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
            return await client.call_tool(name, arguments)

    async def scenario() -> list[CallToolResult]:
        started = await once("start_run", {}, "legacy")
        handle = (started.structured_content or {})["run"]
        modes = ["2026-07-28", "legacy"]  # a gateway that speaks either, a new connection each time
        results = [
            await once(name, {**arguments, "run": handle}, modes[n % 2])
            for n, (name, arguments) in enumerate(ORDER)
        ]
        await handles.close()
        return results

    results = run_sync(scenario())
    assert all(not result.is_error for result in results), [text(r) for r in results]
    runs = {(result.structured_content or {})["run_id"] for result in results}
    assert len(runs) == 1  # one run: its cart survived every connection closing
    assert ordered(fresh_shop) == [("Tiramisu", 2)]


def test_a_handle_outlives_a_restart_of_the_server_and_its_run_goes_on(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    config = settings(agent_browser, tmp_path, fresh_shop)

    async def before() -> str:
        server, handles = build_with_handles(config, agent_browser)
        async with Client(server, mode="2026-07-28") as client:
            handle = str(((await client.call_tool("start_run", {})).structured_content or {})["run"])
            for name, arguments in ORDER[:2]:
                await client.call_tool(name, {**arguments, "run": handle})
        await handles.close()  # the server stops: its browser contexts go with it
        return handle

    async def after(handle: str) -> list[CallToolResult]:
        server, handles = build_with_handles(config, agent_browser)  # a new server process, as it were
        async with Client(server, mode="2026-07-28") as client:
            results = [await client.call_tool("view_cart", {"run": handle})]
            results += [await client.call_tool(n, {**a, "run": handle}) for n, a in ORDER[2:]]
        await handles.close()
        return results

    handle = run_sync(before())
    results = run_sync(after(handle))
    assert all(not result.is_error for result in results), [text(r) for r in results]
    assert "Tiramisu" in text(results[0])  # the cart came back with the run's shop session
    assert ordered(fresh_shop) == [("Tiramisu", 2)]


def test_a_handle_expires_and_says_so_here_and_after_a_restart(
    agent_browser: Browser, shop: Shop, tmp_path: Path
) -> None:
    config = settings(agent_browser, tmp_path, shop, handle_ttl=0.5)

    async def scenario() -> tuple[CallToolResult, CallToolResult, CallToolResult]:
        server, handles = build_with_handles(config, agent_browser)
        async with Client(server, mode="2026-07-28") as client:
            handle = str(((await client.call_tool("start_run", {})).structured_content or {})["run"])
            await client.call_tool("open_restaurant", {"name": "Italian Bistro", "run": handle})
            await asyncio.sleep(1.0)
            expired = await client.call_tool("view_cart", {"run": handle})
            unknown = await client.call_tool("view_cart", {"run": "x" * 32})
        await handles.close()
        again, more = build_with_handles(config, agent_browser)
        async with Client(again, mode="2026-07-28") as client:
            restarted = await client.call_tool("view_cart", {"run": handle})
        await more.close()
        return expired, unknown, restarted

    expired, unknown, restarted = run_sync(scenario())
    assert expired.is_error and "expired after 0.00833333 minutes" in text(expired)
    assert "webagent resume" in text(expired) and "call start_run" in text(expired)
    assert unknown.is_error and "No run has this handle" in text(unknown)
    assert restarted.is_error and "expired" in text(restarted)


def test_the_tool_list_says_how_long_a_client_may_keep_it(
    agent_browser: Browser, shop: Shop, tmp_path: Path
) -> None:
    server, _ = build_with_handles(settings(agent_browser, tmp_path, shop), agent_browser)

    async def listing() -> Any:
        async with Client(server, mode="2026-07-28") as client:
            return await client.list_tools()

    listed = run_sync(listing())
    assert listed.ttl_ms == 3_600_000 and listed.cache_scope == "public"


def test_a_handle_minted_and_never_used_still_starts_its_run_after_a_restart(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    config = settings(agent_browser, tmp_path, fresh_shop)

    async def scenario() -> list[CallToolResult]:
        server, handles = build_with_handles(config, agent_browser)
        async with Client(server, mode="2026-07-28") as client:
            handle = str(((await client.call_tool("start_run", {})).structured_content or {})["run"])
        await handles.close()
        again, more = build_with_handles(config, agent_browser)
        async with Client(again, mode="2026-07-28") as client:
            results = [
                await client.call_tool(name, {**arguments, "run": handle}) for name, arguments in ORDER
            ]
        await more.close()
        return results

    results = run_sync(scenario())
    assert all(not result.is_error for result in results), [text(r) for r in results]
    assert ordered(fresh_shop) == [("Tiramisu", 2)]


def test_a_client_that_walks_away_has_its_run_let_go_when_the_handle_expires(
    agent_browser: Browser, shop: Shop, tmp_path: Path
) -> None:
    config = settings(agent_browser, tmp_path, shop, handle_ttl=0.3)

    async def scenario() -> dict[str, Any]:
        server, handles = build_with_handles(config, agent_browser)
        async with Client(server, mode="2026-07-28") as client:
            started = await client.call_tool("start_run", {})
            handle = str((started.structured_content or {})["run"])
            await client.call_tool("open_restaurant", {"name": "Italian Bistro", "run": handle})
        await asyncio.sleep(1.5)  # no call at all: the sweep lets the run go
        run_id = str((started.structured_content or {})["run_id"])
        kept = json.loads((tmp_path / "runs" / run_id / HANDLE_FILE).read_text())
        await handles.close()
        return kept

    assert run_sync(scenario())["expired"] is True
