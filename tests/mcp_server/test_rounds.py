"""Approvals by elicitation on the 2026-07-28 revision (issue 40, item 2): the call that meets the gate
returns the approval form as an `InputRequiredResult`, the SDK's client shows it (its elicitation handler)
and retries the call with the answer; the order is placed on a yes, and never on a no, a cancel, or an
answer carried for another question. Judged in the shop's database."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from mcp import Client
from mcp_types import CallToolResult, ElicitRequestParams, ElicitResult

from demo_site import Shop
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.mcp_server import McpSettings
from webagent.mcp_server.rounds import Rounds, decide
from webagent.mcp_server.server import build_with_handles
from webagent.sync import run_sync

PROFILE = Profile(name="Ada Demo", address="12 Oak Street", phone="555-0101")
DETAILS = {**PROFILE.model_dump(exclude={"payment_method"}), "payment_method": "Cash"}
ORDER = [
    ("open_restaurant", {"name": "Italian Bistro"}),
    ("add_to_cart", {"dish": "Tiramisu", "quantity": 2}),
    ("go_to_checkout", {}),
    ("fill_delivery_details", DETAILS),
    ("place_order", {}),
]


class Person:
    """The client's elicitation handler: answers as told, keeps what it was asked."""

    def __init__(self, answer: ElicitResult) -> None:
        self.answer = answer
        self.asked: list[str] = []

    async def __call__(self, context: Any, params: ElicitRequestParams) -> ElicitResult:
        self.asked.append(params.message)
        return self.answer


def ordered(shop: Shop) -> list[tuple[str, int]]:
    with sqlite3.connect(shop.db_path) as db:
        return db.execute("select dish_name, quantity from order_items").fetchall()


def order_by_handle(browser: Browser, shop: Shop, runs: Path, person: Person) -> list[CallToolResult]:
    config = RunConfig(runs_dir=runs, shop_url=shop.url, profile=PROFILE)  # no --approve: the person is asked
    server, handles = build_with_handles(McpSettings(config, browser=browser), browser)

    async def scenario() -> list[CallToolResult]:
        async with Client(server, mode="2026-07-28", elicitation_callback=person) as client:
            started = await client.call_tool("start_run", {})
            handle = (started.structured_content or {})["run"]
            results = [await client.call_tool(n, {**a, "run": handle}) for n, a in ORDER]
        await handles.close()
        return results

    return run_sync(scenario())


def text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def test_a_yes_in_the_clients_form_places_the_order_it_was_asked_about(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    person = Person(ElicitResult(action="accept", content={"approve": True}))
    results = order_by_handle(agent_browser, fresh_shop, tmp_path / "runs", person)
    placed = results[-1]
    assert not placed.is_error, text(placed)
    assert placed.structured_content is not None and placed.structured_content["order_number"] is not None
    assert ordered(fresh_shop) == [("Tiramisu", 2)]
    assert len(person.asked) == 1 and "Tiramisu" in person.asked[0], person.asked


def test_a_no_or_a_cancel_places_nothing(agent_browser: Browser, shop: Shop, tmp_path: Path) -> None:
    for n, answer in enumerate(
        [ElicitResult(action="accept", content={"approve": False}), ElicitResult(action="decline")]
    ):
        before = ordered(shop)
        person = Person(answer)
        results = order_by_handle(agent_browser, shop, tmp_path / f"runs{n}", person)
        assert results[-1].is_error and "Not placed" in text(results[-1]), text(results[-1])
        assert ordered(shop) == before and len(person.asked) == 1


@given(st.text(max_size=30), st.one_of(st.none(), st.text(max_size=40)), st.booleans())
def test_an_answer_is_taken_only_for_the_question_it_answers(
    question: str, state: str | None, yes: bool
) -> None:
    async def scenario() -> tuple[bool, bool | None, bool]:
        rounds = Rounds(asyncio.get_running_loop())
        asked = asyncio.ensure_future(rounds.ask(question))
        await rounds.asked()
        assert rounds.open is not None
        key = rounds.open.key
        reply = {"action": "accept", "content": {"approve": yes}}
        wrong = rounds.answer({state or "": reply}, state) if state != key else False
        right = rounds.answer({key: reply}, key)
        return wrong, await asked, right

    wrong, answer, right = run_sync(scenario())  # (a browser fixture may hold this thread's loop)
    assert not wrong and right and answer is yes


def test_what_is_not_a_yes_is_not_a_yes() -> None:
    assert decide(ElicitResult(action="accept", content={"approve": True})) is True
    assert decide({"action": "accept", "content": {"approve": "yes"}}) is None
    assert decide(ElicitResult(action="cancel")) is None
    assert decide(ElicitResult(action="decline")) is False
    assert decide("yes") is None


def test_a_run_asked_in_rounds_is_asked_from_inside_the_call_on_a_handshake_connection(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    """A handle goes anywhere: the run starts on the 2026 revision, and its order is placed over a handshake
    connection — whose client cannot take an `InputRequiredResult`, so it is asked from inside the call."""
    config = RunConfig(runs_dir=tmp_path / "runs", shop_url=fresh_shop.url, profile=PROFILE)
    server, handles = build_with_handles(McpSettings(config, browser=agent_browser), agent_browser)
    person = Person(ElicitResult(action="accept", content={"approve": True}))

    async def once(name: str, arguments: dict[str, Any], mode: str) -> CallToolResult:
        async with Client(server, mode=mode, elicitation_callback=person) as client:  # type: ignore[arg-type]
            return await client.call_tool(name, arguments)

    async def scenario() -> list[CallToolResult]:
        started = await once("start_run", {}, "2026-07-28")
        handle = (started.structured_content or {})["run"]
        results = [
            await once(
                name, {**arguments, "run": handle}, "legacy" if name == "place_order" else "2026-07-28"
            )
            for name, arguments in ORDER
        ]
        await handles.close()
        return results

    results = run_sync(scenario())
    assert not results[-1].is_error, text(results[-1])
    assert ordered(fresh_shop) == [("Tiramisu", 2)] and len(person.asked) == 1, person.asked


def test_another_call_while_a_question_is_open_is_told_so_and_never_shown_the_form(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    """Found by a reviewer: a second call on the handle while a person reads the question was shown the
    first call's form (2026 revision) or asked it without end (handshake connection). It is an error result
    naming the open call; the person is asked once; their yes places the order asked about."""
    config = RunConfig(runs_dir=tmp_path / "runs", shop_url=fresh_shop.url, profile=PROFILE)
    server, handles = build_with_handles(McpSettings(config, browser=agent_browser), agent_browser)
    meanwhile: list[CallToolResult] = []
    handle: dict[str, str] = {}

    class Busy(Person):
        async def __call__(self, context: Any, params: ElicitRequestParams) -> ElicitResult:
            for mode in ("2026-07-28", "legacy"):
                async with Client(server, mode=mode, elicitation_callback=self) as other:  # type: ignore[arg-type]
                    meanwhile.append(
                        await other.call_tool(
                            "open_restaurant", {"name": "Sushi House", "run": handle["run"]}
                        )
                    )
            return await super().__call__(context, params)

    person = Busy(ElicitResult(action="accept", content={"approve": True}))

    async def scenario() -> list[CallToolResult]:
        async with Client(server, mode="2026-07-28", elicitation_callback=person) as client:
            started = await client.call_tool("start_run", {})
            handle["run"] = (started.structured_content or {})["run"]
            results = [await client.call_tool(n, {**a, "run": handle["run"]}) for n, a in ORDER]
        await handles.close()
        return results

    results = run_sync(asyncio.wait_for(scenario(), 120))
    assert not results[-1].is_error, text(results[-1])
    assert ordered(fresh_shop) == [("Tiramisu", 2)] and len(person.asked) == 1, person.asked
    assert len(meanwhile) == 2 and all(r.is_error and "still open" in text(r) for r in meanwhile), [
        text(r) for r in meanwhile
    ]


def test_a_handle_used_after_a_restart_is_approved_by_the_clients_form(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    """Issue 40's first test: the server restarted between two calls of the same handle, then the order
    approved in the client's form — the run resumed from its checkpoint asks the client that calls it."""
    config = RunConfig(runs_dir=tmp_path / "runs", shop_url=fresh_shop.url, profile=PROFILE)
    person = Person(ElicitResult(action="accept", content={"approve": True}))

    async def before() -> str:
        server, handles = build_with_handles(McpSettings(config, browser=agent_browser), agent_browser)
        async with Client(server, mode="2026-07-28", elicitation_callback=person) as client:
            handle = str(((await client.call_tool("start_run", {})).structured_content or {})["run"])
            for name, arguments in ORDER[:2]:
                await client.call_tool(name, {**arguments, "run": handle})
        await handles.close()  # the server stops
        return handle

    async def after(handle: str) -> list[CallToolResult]:
        server, handles = build_with_handles(McpSettings(config, browser=agent_browser), agent_browser)
        async with Client(server, mode="2026-07-28", elicitation_callback=person) as client:
            results = [await client.call_tool(n, {**a, "run": handle}) for n, a in ORDER[2:]]
        await handles.close()
        return results

    results = run_sync(after(run_sync(before())))
    assert not results[-1].is_error, text(results[-1])
    assert ordered(fresh_shop) == [("Tiramisu", 2)] and len(person.asked) == 1, person.asked
