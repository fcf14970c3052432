"""``webagent mcp`` through the SDK's own client, in process: tool list and schemas, an order end to end
on the real shop in real Chromium with approval by elicitation, a pause where the client cannot be
asked, two sessions at once, and arguments it was not written against."""

from __future__ import annotations

import json
import socket
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp_types import CallToolResult, ElicitRequestParams, ElicitResult

from demo_site import Shop
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.mcp_server import McpSettings, build_server
from webagent.mcp_server.server import compact_schema
from webagent.report.write import write_report
from webagent.runs.runner import resume_run
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync
from webagent.testing.scripted import ScriptedModel, call, reply

Elicit = Callable[[Any, ElicitRequestParams], Awaitable[ElicitResult]]

DETAILS = {"name": "Ada Demo", "address": "12 Oak Street", "phone": "555-0101", "payment_method": "Cash"}


def server(browser: Browser, tmp_path: Path, shop: Shop | None = None, **config: Any) -> Any:
    run = RunConfig(runs_dir=tmp_path / "runs", shop_url=shop.url if shop else None, **config)
    return build_server(McpSettings(run, approve_given="approve" in config, report=write_report), browser)


def text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


class Approver:
    """An MCP client's elicitation handler that answers as told and keeps what it was asked."""

    def __init__(self, approve: bool) -> None:
        self.approve = approve
        self.asked: list[str] = []

    async def __call__(self, context: Any, params: ElicitRequestParams) -> ElicitResult:
        self.asked.append(params.message)
        return ElicitResult(action="accept", content={"approve": self.approve})


async def order_three_dishes(client: Client) -> list[CallToolResult]:
    calls = [
        ("open_restaurant", {"name": "Italian Bistro"}),
        ("add_to_cart", {"dish": "Margherita Pizza", "quantity": 2, "options": ["Large"]}),
        ("add_to_cart", {"dish": "Tiramisu"}),
        ("go_to_checkout", {}),
        ("fill_delivery_details", DETAILS),
        ("place_order", {}),
    ]
    return [await client.call_tool(name, arguments) for name, arguments in calls]


def test_the_tools_and_their_schemas_are_the_sites_argument_models(
    agent_browser: Browser, tmp_path: Path
) -> None:
    async def listing() -> Any:
        async with Client(server(agent_browser, tmp_path), mode="legacy") as client:
            return (await client.list_tools()).tools

    tools = {tool.name: tool for tool in run_sync(listing())}
    site = {tool.name: tool for tool in DEMO_SHOP.tools}
    assert set(tools) == set(site) - {"ask_human"} | {"start_run"}
    assert tools.pop("start_run").input_schema["properties"] == {}
    for name, tool in tools.items():
        expected = site[name].args.model_json_schema()
        run = {"run": {"type": ["string", "null"]}}
        assert tool.input_schema["properties"] == compact_schema(expected)["properties"] | run, name
        assert tool.input_schema.get("additionalProperties") is False
        # No output schema a tool: 477 tokens each, 10k of a tools/list (issue 40); results carry PageView.
        assert tool.output_schema is None
    assert tools["place_order"].annotations.destructive_hint is True
    assert tools["add_to_cart"].annotations.destructive_hint is False
    # Every tool that can spend on some page is announced as destructive (issue 35): a press of
    # "Pay $50", Enter in a card form, a box that agrees to a charge.
    for name in ("press", "press_key", "fill_field", "choose_option"):
        assert tools[name].annotations.destructive_hint is True, name
    assert tools["scroll_to_text"].annotations.destructive_hint is False


def test_an_order_end_to_end_approved_through_elicitation(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    approver = Approver(approve=True)

    async def scenario() -> tuple[list[CallToolResult], CallToolResult]:
        async with Client(
            server(agent_browser, tmp_path, fresh_shop), mode="legacy", elicitation_callback=approver
        ) as client:
            results = await order_three_dishes(client)
            order = results[-1].structured_content["order_number"]
            finished = await client.call_tool(
                "finish", {"outcome": "ordered", "order_id": order, "summary": "Ordered."}
            )
            return results, finished

    results, finished = run_sync(scenario())
    added = results[1]
    assert not added.is_error and "Margherita Pizza" in text(added)
    assert added.structured_content["cart_count"] == 2 and added.structured_content["status"] == "running"
    placed = results[-1]
    assert not placed.is_error, text(placed)
    assert placed.structured_content["view"] == "confirmation"
    assert len(approver.asked) == 1 and "Margherita Pizza" in approver.asked[0]
    with sqlite3.connect(fresh_shop.db_path) as db:
        assert db.execute("select count(*) from orders").fetchone() == (1,)
    assert finished.structured_content["status"] == "finished" and not finished.is_error
    run = tmp_path / "runs" / placed.structured_content["run_id"]
    events = [json.loads(line)["event"] for line in (run / "transcript.jsonl").read_text().splitlines()]
    assert "approval" in events and "order_intent" in events and events[-1] == "finished"
    assert (run / "report.html").is_file()
    assert json.loads((run / "state.json").read_text())["status"] == "finished"


def test_a_yes_by_elicitation_approves_only_what_it_was_asked_about(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    """While the person reads the question, the page's delivery address changes: the yes was for the
    order as asked about, so nothing is ordered and the model is told to ask again (issue 35)."""

    class ChangesWhileAsked(Approver):
        async def __call__(self, context: Any, params: ElicitRequestParams) -> ElicitResult:
            page = agent_browser._browser.contexts[-1].pages[0]  # the session's page, from outside
            await page.fill("input[name=address]", "99 Elm Street")
            return await super().__call__(context, params)

    approver = ChangesWhileAsked(approve=True)

    async def scenario() -> CallToolResult:
        async with Client(
            server(agent_browser, tmp_path, fresh_shop), mode="legacy", elicitation_callback=approver
        ) as client:
            return (await order_three_dishes(client))[-1]

    placed = run_sync(scenario())
    assert placed.is_error and "changed while it was being approved" in text(placed), text(placed)
    assert len(approver.asked) == 1 and "12 Oak Street" in approver.asked[0]
    with sqlite3.connect(fresh_shop.db_path) as db:
        assert db.execute("select count(*) from orders").fetchone() == (0,)


def test_a_declined_approval_orders_nothing(agent_browser: Browser, fresh_shop: Shop, tmp_path: Path) -> None:
    async def scenario() -> CallToolResult:
        async with Client(
            server(agent_browser, tmp_path, fresh_shop),
            mode="legacy",
            elicitation_callback=Approver(approve=False),
        ) as client:
            return (await order_three_dishes(client))[-1]

    placed = run_sync(scenario())
    assert placed.is_error and text(placed).startswith("Not placed: the person declined in the MCP client")
    with sqlite3.connect(fresh_shop.db_path) as db:
        assert db.execute("select count(*) from orders").fetchone() == (0,)


def test_without_elicitation_the_run_pauses_and_says_what_needs_approving(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    async def scenario() -> tuple[CallToolResult, CallToolResult]:
        async with Client(server(agent_browser, tmp_path, fresh_shop), mode="legacy") as client:
            placed = (await order_three_dishes(client))[-1]
            return placed, await client.call_tool("view_cart", {})

    placed, after = run_sync(scenario())
    assert placed.is_error and placed.structured_content["status"] == "paused"
    assert "Approve the order of" in text(placed) and "webagent resume" in text(placed)
    assert "Margherita Pizza" in placed.structured_content["needs_approval"]
    assert after.structured_content["status"] == "paused"
    state = json.loads((tmp_path / "runs" / placed.structured_content["run_id"] / "state.json").read_text())
    assert state["status"] == "paused" and state["pending"]["kind"] == "approval"
    with sqlite3.connect(fresh_shop.db_path) as db:
        assert db.execute("select count(*) from orders").fetchone() == (0,)


def test_two_sessions_at_once_have_carts_of_their_own(
    agent_browser: Browser, shop: Shop, tmp_path: Path
) -> None:
    mcp = server(agent_browser, tmp_path, shop)

    async def scenario() -> tuple[CallToolResult, CallToolResult, CallToolResult]:
        async with Client(mcp, mode="legacy") as first, Client(mcp, mode="legacy") as second:
            await first.call_tool("open_restaurant", {"name": "Italian Bistro"})
            await second.call_tool("open_restaurant", {"name": "Italian Bistro"})
            await first.call_tool("add_to_cart", {"dish": "Tiramisu", "quantity": 3})
            seen_by_second = await second.call_tool("view_cart", {})
            await second.call_tool("add_to_cart", {"dish": "Margherita Pizza", "options": ["Large"]})
            return (
                await first.call_tool("view_cart", {}),
                seen_by_second,
                await second.call_tool("view_cart", {}),
            )

    first, second_before, second = run_sync(scenario())
    assert first.structured_content["run_id"] != second.structured_content["run_id"]
    assert [(line["name"], line["quantity"]) for line in first.structured_content["cart_lines"]] == [
        ("Tiramisu", 3)
    ]
    assert second_before.structured_content["cart_count"] == 0
    assert [line["name"] for line in second.structured_content["cart_lines"]] == ["Margherita Pizza (Large)"]


def test_a_disconnected_client_leaves_a_run_that_webagent_resume_goes_on_with(
    agent_browser: Browser, shop: Shop, tmp_path: Path
) -> None:
    async def scenario() -> str:
        async with Client(server(agent_browser, tmp_path, shop), mode="legacy") as client:
            await client.call_tool("open_restaurant", {"name": "Italian Bistro"})
            added = await client.call_tool("add_to_cart", {"dish": "Tiramisu", "quantity": 2})
            return str(added.structured_content["run_id"])

    run_id = run_sync(scenario())
    folder = tmp_path / "runs" / run_id
    assert json.loads((folder / "state.json").read_text())["status"] == "running"
    assert (folder / "report.html").is_file()
    model = ScriptedModel(
        [reply(call("view_cart")), reply(call("finish", outcome="done", summary="Left as is."))]
    )
    result = run_sync(resume_run(run_id, tmp_path / "runs", model=model, browser=agent_browser))
    assert result.outcome == "done"
    events = [json.loads(line) for line in (folder / "transcript.jsonl").read_text().splitlines()]
    [viewed] = [e for e in events if e["event"] == "tool" and e["name"] == "view_cart"]
    assert "Tiramisu" in viewed["narration"]  # the shop session outlived the client: the cart came back


def test_the_budget_refuses_an_order_before_anyone_is_asked(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    approver = Approver(approve=True)

    async def scenario() -> CallToolResult:
        mcp = server(agent_browser, tmp_path, fresh_shop, budget_cents=1000)
        async with Client(mcp, mode="legacy", elicitation_callback=approver) as client:
            return (await order_three_dishes(client))[-1]

    placed = run_sync(scenario())
    assert placed.is_error and "exceeds the budget $10.00" in text(placed) and approver.asked == []
    with sqlite3.connect(fresh_shop.db_path) as db:
        assert db.execute("select count(*) from orders").fetchone() == (0,)


def test_bad_input_gets_a_clear_answer_never_a_crash(
    agent_browser: Browser, shop: Shop, tmp_path: Path
) -> None:
    async def scenario() -> list[CallToolResult]:
        async with Client(server(agent_browser, tmp_path, shop), mode="legacy") as client:
            return [
                await client.call_tool("add_to_cart", {}),  # missing dish
                await client.call_tool("open_restaurant", {"name": "Italian Bistro"}),
                await client.call_tool("add_to_cart", {"dish": "Unicorn Steak"}),
                await client.call_tool("add_to_cart", {"dish": "Tiramisu", "quantiy": 2}),  # misspelled key
                await client.call_tool("view_cart", {}),
            ]

    missing, _, unknown, misspelled, cart = run_sync(scenario())
    assert missing.is_error and "dish" in text(missing) and "Field required" in text(missing)
    assert (
        unknown.is_error
        and "Unicorn Steak" in text(unknown)
        and unknown.structured_content["restaurant"] == "Italian Bistro"
    )
    assert misspelled.is_error and "quantiy" in text(misspelled)
    assert cart.structured_content["cart_count"] == 0 and not cart.is_error


def test_a_shop_that_does_not_answer_is_said_in_the_result(agent_browser: Browser, tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    run = RunConfig(runs_dir=tmp_path / "runs", shop_url=dead)
    mcp = build_server(McpSettings(run), agent_browser)

    async def scenario() -> tuple[CallToolResult, CallToolResult]:
        async with Client(mcp, mode="legacy") as client:
            return await client.call_tool("view_cart", {}), await client.call_tool("view_cart", {})

    first, again = run_sync(scenario())
    assert first.is_error and "has stopped" in text(first) and dead.split("//")[1] in text(first)
    assert again.is_error and again.structured_content["status"] == "finished"


ARGUMENTS = st.dictionaries(
    st.sampled_from(["dish", "quantity", "options", "name", "query", "max_chars", "outcome", "x"]),
    st.one_of(
        st.none(), st.integers(-5, 10_000), st.text(max_size=30), st.lists(st.text(max_size=5), max_size=3)
    ),
    max_size=4,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from(
        ["add_to_cart", "change_quantity", "read_page", "search_restaurants", "finish", "nope"]
    ),
    arguments=ARGUMENTS,
)
def test_any_arguments_give_a_result_or_an_error_result(
    agent_browser: Browser, shop: Shop, tmp_path: Path, name: str, arguments: dict[str, Any]
) -> None:
    mcp = server(agent_browser, tmp_path, shop)

    async def scenario() -> tuple[CallToolResult, CallToolResult]:
        async with Client(mcp, mode="legacy") as client:
            return await client.call_tool(name, arguments), await client.call_tool("view_cart", {})

    result, after = run_sync(scenario())
    assert text(result)  # something a model can read, whatever came in
    assert "Traceback" not in text(result)
    assert (after.structured_content is not None and after.structured_content["cart_count"] == 0) or (
        after.structured_content["status"] == "finished"
    )
