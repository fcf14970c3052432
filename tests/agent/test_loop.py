"""The agent loop on the real shop: scripted and fake-OpenAI models, approval, questions, pause/resume,
integrity of `finish`, and every limit."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.agent.conftest import DETAILS, Run
from webagent.agent.checkpoint import RunFolder
from webagent.agent.result import RunResult
from webagent.agent.stated import held_to_order
from webagent.browser.session import Browser
from webagent.llm.protocol import Reply, Usage, fixed_step
from webagent.llm.schemas import strict_violations
from webagent.report.record import WITHOUT_MODEL, read_run
from webagent.runs.runner import resume_run
from webagent.sync import run_sync
from webagent.testing import FakeOpenAI, ScriptedModel, call, chat_stream, reply, status
from webagent.tools.common import LOOP_TOOLS
from webagent.tools.toolbox import tool_schemas


def orders(result: RunResult) -> list[tuple[Any, ...]]:
    with sqlite3.connect(Path(result.run_dir) / "shop.db") as db:
        return db.execute("select id, total_cents, name from orders").fetchall()


def last_tool_text(messages: list[dict[str, Any]]) -> str:
    return next(m["content"] for m in reversed(messages) if m["role"] == "tool")


def finish_with_order(messages: list[dict[str, Any]]) -> Reply:
    """A scripted step that reads the order number from the narration, as a model would."""
    number = int(re.search(r"Order #(\d+) placed", last_tool_text(messages)).group(1))  # type: ignore[union-attr]
    return reply(call("finish", outcome="ordered", summary="Ordered 2 Tiramisu.", order_id=number))


def order_script(*, then: list[Any] | None = None) -> list[Any]:
    return [
        reply(
            call("open_restaurant", name="Italian Bistro"), call("add_to_cart", dish="Tiramisu", quantity=2)
        ),
        reply(call("go_to_checkout"), call("fill_delivery_details", **DETAILS), call("place_order")),
        *(then if then is not None else [finish_with_order]),
    ]


def test_scripted_order_is_placed_and_in_the_database(run: Run) -> None:
    model = ScriptedModel(order_script())
    result = run(model)
    model.assert_complete()
    assert result.outcome == "ordered" and result.exit_code == 0
    assert orders(result) == [(result.order_id, result.total_cents, "Ana Tester")]
    assert (result.steps, result.model_calls, result.tool_calls) == (3, 3, 6)
    folder = RunFolder(Path(result.run_dir).parent, result.run_id)
    state = folder.load()
    assert state.status == "finished" and state.result == result
    # Every tool call id is answered, in order, and only model-facing messages were sent.
    roles = [m["role"] for m in state.messages]
    assert roles == [
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "tool",
        "tool",
        "tool",
        "assistant",
        "tool",
    ]
    assert {m["role"] for m in model.calls[-1][0]} == {"system", "user", "assistant", "tool"}
    asked = [c["id"] for m in state.messages if m["role"] == "assistant" for c in m["tool_calls"]]
    answered = [m["tool_call_id"] for m in state.messages if m["role"] == "tool"]
    assert asked == answered
    events = [event["event"] for event in folder.transcript()]
    assert events[0] == "started" and events[-1] == "finished" and events.count("tool") == 6
    # Each page call's event keeps what the page showed after it, typed; the model reads only narrations.
    seen = {e["name"]: e.get("seen") for e in folder.transcript() if e["event"] == "tool"}
    menu = seen["open_restaurant"].pop("menu")
    assert len(menu) == 8 and {"name": "Tiramisu", "price_cents": 750} in menu
    assert seen["open_restaurant"] == {
        "view": "restaurant",
        "restaurant": "Italian Bistro",
        "dishes": 8,
        "min_order_cents": 1500,
    }
    assert seen["add_to_cart"] is not None and seen["add_to_cart"]["cart"] == [["Tiramisu", 2]]
    assert seen["add_to_cart"]["subtotal_cents"] == 1500 and seen["add_to_cart"]["min_reached"] is True
    assert seen["fill_delivery_details"] is not None and seen["fill_delivery_details"]["view"] == "checkout"
    assert seen["fill_delivery_details"]["total_cents"] == result.total_cents
    assert seen["place_order"] == {"view": "confirmation", "order": result.order_id}
    assert seen["finish"] is None
    narrated = [e["narration"] for e in folder.transcript() if e["event"] == "tool"]
    assert [m["content"] for m in state.messages if m["role"] == "tool"] == narrated
    # The conversation keeps the same typed records beside the text (the anchor reads them, not sentences).
    kept = [m.get("seen") for m in state.messages if m["role"] == "tool"]
    assert kept == [e.get("seen") for e in folder.transcript() if e["event"] == "tool"]


def test_openai_model_through_the_fake_transport(run: Run) -> None:
    fake = FakeOpenAI(
        [
            chat_stream(
                tool_calls=[
                    call("open_restaurant", name="Italian Bistro"),
                    call("add_to_cart", dish="Tiramisu", quantity=1),
                ],
                usage=Usage(prompt_tokens=900, completion_tokens=40, cached_tokens=512),
            ),
            status(503, "overloaded"),
            chat_stream(tool_calls=[call("add_to_cart", dish="Tiramisu")]),
            chat_stream(tool_calls=[call("teleport", where="moon")]),
            chat_stream(
                "Nothing more to do.",
                tool_calls=[call("finish", outcome="done", summary="Added a tiramisu.")],
            ),
        ]
    )
    result = run(fake.model(stream=True))
    assert result.outcome == "done" and result.model_calls == 4
    assert result.tokens.prompt >= 900 and result.tokens.cached >= 512
    assert len(fake.requests) == 5  # the 503 was retried by the SDK, not by us
    sent = fake.requests[-1]
    assert sent["parallel_tool_calls"] is True and {t["function"]["name"] for t in sent["tools"]} >= {
        "finish",
        "add_to_cart",
    }
    tool_messages = [m for m in sent["messages"] if m["role"] == "tool"]
    assert "There is no tool called 'teleport'" in tool_messages[-1]["content"]
    assert tool_messages[1]["content"].startswith('Added 1 × "Tiramisu"')


def test_a_malformed_call_fails_alone(run: Run) -> None:
    bad = Reply(tool_calls=[call("open_restaurant", name="Italian Bistro")])
    bad.tool_calls.append(
        bad.tool_calls[0].model_copy(
            update={"id": "call_bad", "name": "add_to_cart", "arguments": '{"dish": "Tiramisu", "quantity": '}
        )
    )
    model = ScriptedModel(
        [bad, lambda m: reply(call("finish", outcome="done", summary=last_tool_text(m)[:40]))]
    )
    result = run(model)
    text = model.calls[-1][0][-1]["content"]
    assert text.startswith("add_to_cart arguments are not valid JSON") and result.outcome == "done"
    assert model.calls[-1][0][-2]["content"].startswith('Opened "Italian Bistro"')


@pytest.mark.parametrize(
    ("policy", "answer", "ordered", "narration"),
    [
        ("auto", "", True, "Order #"),
        ("deny", "", False, "Not placed: the approval policy denies orders. Nothing was ordered."),
        ("ask", "y", True, "Order #"),
        ("ask", "no", False, "Not placed: the person declined at the terminal. Nothing was ordered."),
    ],
)
def test_approval_policies(run: Run, policy: str, answer: str, ordered: bool, narration: str) -> None:
    prompts: list[str] = []

    def person(question: str) -> str:
        prompts.append(question)
        return answer

    then = [finish_with_order] if ordered else [reply(call("finish", outcome="done", summary="Not ordered."))]
    result = run(ScriptedModel(order_script(then=then)), prompt=person, approve=policy)
    state = RunFolder(Path(result.run_dir).parent, result.run_id).load()
    place_result = [m for m in state.messages if m["role"] == "tool"][4]["content"]
    assert place_result.startswith(narration)
    assert bool(orders(result)) is ordered and result.outcome == ("ordered" if ordered else "done")
    if policy == "ask":
        assert "Place this order?" in prompts[0] and "Total: $" in prompts[0] and "Tiramisu" in prompts[0]


def test_budget_cap_refuses_whatever_the_model_says(run: Run) -> None:
    result = run(
        ScriptedModel(order_script(then=[reply(call("finish", outcome="failed", summary="Over budget."))])),
        budget_cents=1000,
    )
    state = RunFolder(Path(result.run_dir).parent, result.run_id).load()
    refusal = [m for m in state.messages if m["role"] == "tool"][4]["content"]
    assert re.match(
        r"Not placed: the total \$\d+\.\d\d exceeds the budget \$10\.00\. Nothing was ordered\.", refusal
    )
    assert orders(result) == [] and result.outcome == "failed"


def test_ask_human_scripted_interactive_and_paused(run: Run, agent_browser: Browser) -> None:
    browser = agent_browser
    ask = reply(
        call("ask_human", question="Which size?", format="multiple_choice", choices=["Regular", "Large"])
    )
    echo = [ask, lambda m: reply(call("finish", outcome="done", summary=last_tool_text(m)))]
    scripted = run(ScriptedModel(echo), answers=["Large"])
    assert scripted.message == 'The person answered: "Large"' and scripted.asked_human

    questions: list[str] = []
    at_terminal = run(ScriptedModel(echo), prompt=lambda q: questions.append(q) or "Regular", approve="ask")
    assert at_terminal.message == 'The person answered: "Regular"'
    assert "Which size?" in questions[0] and "Choices: Regular | Large" in questions[0]

    paused = run(ScriptedModel([ask]), approve="pause")
    assert paused.outcome == "paused" and paused.exit_code == 3 and paused.question == "Which size?"
    resumed = run_sync(
        resume_run(
            paused.run_id,
            Path(paused.run_dir).parent,
            answer="Large",
            model=ScriptedModel(echo[1:]),
            browser=browser,
        )
    )
    assert resumed.outcome == "done" and resumed.message == 'The person answered: "Large"'


def test_pause_for_approval_then_resume_in_another_process(run: Run, tmp_path: Path) -> None:
    paused = run(ScriptedModel(order_script(then=[])), approve="pause")
    assert (
        paused.outcome == "paused"
        and paused.question
        and paused.question.startswith("Approve the order of $")
    )
    assert orders(paused) == []
    runs_dir = str(Path(paused.run_dir).parent)
    script = (
        "import sys; from pathlib import Path; from webagent.runs.runner import resume_run; "
        "from webagent.sync import run_sync; "
        f"print(run_sync(resume_run({paused.run_id!r}, Path({runs_dir!r}), approve=True)).model_dump_json())"
    )
    first = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    resumed = RunResult.model_validate_json(first.stdout.strip().splitlines()[-1])
    assert resumed.outcome == "ordered" and resumed.order_id is not None
    second = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    again = RunResult.model_validate_json(second.stdout.strip().splitlines()[-1])
    assert again.order_id == resumed.order_id and "already finished" in again.message
    assert len(orders(paused)) == 1


def test_resume_after_the_cart_was_ordered_elsewhere_places_nothing(run: Run, agent_browser: Browser) -> None:
    browser = agent_browser
    paused = run(ScriptedModel(order_script(then=[])), approve="pause")
    folder = RunFolder(Path(paused.run_dir).parent, paused.run_id)
    state = folder.load()
    # Meanwhile the same person orders that cart in another tab, straight through the shop's API.
    cookies = {c["name"]: c["value"] for c in (state.storage_state or {}).get("cookies", [])}
    with sqlite3.connect(Path(paused.run_dir) / "shop.db") as db:
        assert db.execute("select count(*) from orders").fetchone()[0] == 0
    assert state.pending is not None
    resume_model = ScriptedModel(
        [lambda m: reply(call("finish", outcome="done", summary=last_tool_text(m)[:60]))]
    )
    shop_db = Path(paused.run_dir) / "shop.db"
    from demo_site import running_shop

    with running_shop(db_path=shop_db) as shop, httpx2.Client(base_url=shop.url, cookies=cookies) as client:
        cart = client.get("/api/cart").json()
        placed = client.post(
            "/api/orders",
            json={
                **DETAILS,
                "delivery_slot": "ASAP",
                "payment_method": "Cash",
                "checkout_token": cart["checkout_token"],
            },
        )
        assert placed.status_code == 201
    result = run_sync(
        resume_run(paused.run_id, folder.path.parent, approve=True, model=resume_model, browser=browser)
    )
    assert result.outcome == "done" and result.message.startswith("Not placed: the order changed")
    assert len(orders(paused)) == 1  # the one from the other tab, and no second


def test_resume_approve_covers_the_pending_order_once_and_a_second_place_order_is_refused(
    run: Run, agent_browser: Browser
) -> None:
    """The person's yes on resume places the order asked about; the model's next place_order (after
    adding one more dish) is not covered by it: the run places one order (issue 35)."""
    paused = run(ScriptedModel(order_script(then=[])), approve="pause")
    folder = RunFolder(Path(paused.run_dir).parent, paused.run_id)
    again = [
        reply(
            call("open_restaurant", name="Italian Bistro"), call("add_to_cart", dish="Tiramisu", quantity=2)
        ),
        reply(call("go_to_checkout"), call("fill_delivery_details", **DETAILS), call("place_order")),
        lambda m: reply(call("finish", outcome="ordered", summary="Ordered.", order_id=orders(paused)[0][0])),
    ]
    model = ScriptedModel(again)
    asked: list[str] = []
    result = run_sync(
        resume_run(
            paused.run_id, folder.path.parent, approve=True, model=model, browser=agent_browser,
            prompt=lambda q: asked.append(q) or "y",
        )
    )  # fmt: skip
    assert len(orders(paused)) == 1 and result.outcome == "ordered"
    tools = [m["content"] for m in folder.load().messages if m["role"] == "tool"]
    second = tools[-2]
    assert second.startswith("Refused: order #") and "places at most one order" in second
    assert asked == []  # the pending order was the one approved; nothing else needed asking


def test_resume_approve_on_a_changed_cart_asks_again_and_is_not_automatic(
    run: Run, agent_browser: Browser
) -> None:
    """Meanwhile a third Tiramisu lands in the cart: the yes was for two, so the pending order is refused
    as changed, and the model's next place_order is not covered by that yes — it goes to the run's own
    policy (pause), with the note that the cart holds more than was asked; nothing is ordered."""
    paused = run(ScriptedModel(order_script(then=[])), approve="pause")
    folder = RunFolder(Path(paused.run_dir).parent, paused.run_id)
    state = folder.load()
    cookies = {c["name"]: c["value"] for c in (state.storage_state or {}).get("cookies", [])}
    from demo_site import running_shop

    with (
        running_shop(db_path=Path(paused.run_dir) / "shop.db") as shop,
        httpx2.Client(base_url=shop.url, cookies=cookies) as client,
    ):
        line = client.get("/api/cart").json()["lines"][0]
        assert client.patch(f"/api/cart/items/{line['line_id']}", json={"quantity": 3}).status_code == 200
    model = ScriptedModel(
        [
            reply(call("place_order")),
            lambda m: reply(call("finish", outcome="done", summary=last_tool_text(m)[:80])),
        ]
    )
    asked: list[str] = []
    result = run_sync(
        resume_run(
            paused.run_id, folder.path.parent, approve=True, model=model, browser=agent_browser,
            prompt=lambda q: asked.append(q) or "y",
        )
    )  # fmt: skip
    assert orders(paused) == []
    tools = [m["content"] for m in folder.load().messages if m["role"] == "tool"]
    assert any(t.startswith("Not placed: the order changed since approval") for t in tools), tools
    assert asked == [] and result.outcome == "paused" and result.question, result.message
    assert '3 × "Tiramisu", but the goal asks for 2' in result.question


def approvals_of(result: RunResult) -> list[tuple[str, str]]:
    events = RunFolder(Path(result.run_dir).parent, result.run_id).transcript()
    return [(e["decision"], e["reason"]) for e in events if e["event"] == "approval"]


def test_resume_approve_under_auto_asks_again_for_a_changed_cart_and_stays_anchored(
    run: Run, agent_browser: Browser
) -> None:
    """An ``auto`` run whose order paused (3 Tiramisu, the goal asks for 2) is approved on resume — but a
    fourth landed in the cart meanwhile. The yes was for three: the pending order is refused, and the
    model's next place_order reaches the gate, which asks (not approves) — the cart is beyond the goal. Once
    the model sets the cart to what the goal asks, automatic approval, still anchored, places it."""
    three = [
        reply(
            call("open_restaurant", name="Italian Bistro"), call("add_to_cart", dish="Tiramisu", quantity=3)
        ),
        reply(call("go_to_checkout"), call("fill_delivery_details", **DETAILS), call("place_order")),
    ]
    paused = run(ScriptedModel(three))
    assert paused.outcome == "paused" and paused.question is not None, paused
    assert '3 × "Tiramisu", but the goal asks for 2' in paused.question
    folder = RunFolder(Path(paused.run_dir).parent, paused.run_id)
    cookies = {c["name"]: c["value"] for c in (folder.load().storage_state or {}).get("cookies", [])}
    from demo_site import running_shop

    with (
        running_shop(db_path=Path(paused.run_dir) / "shop.db") as shop,
        httpx2.Client(base_url=shop.url, cookies=cookies) as client,
    ):
        line = client.get("/api/cart").json()["lines"][0]
        assert client.patch(f"/api/cart/items/{line['line_id']}", json={"quantity": 4}).status_code == 200
    model = ScriptedModel(
        [
            reply(call("place_order")),
            reply(call("change_quantity", item="Tiramisu", quantity=2), call("place_order")),
            finish_with_order,
        ]
    )
    asked: list[str] = []
    result = run_sync(
        resume_run(
            paused.run_id, folder.path.parent, approve=True, model=model, browser=agent_browser,
            prompt=lambda q: asked.append(q) or "n",
        )
    )  # fmt: skip
    model.assert_complete()
    tools = [m["content"] for m in folder.load().messages if m["role"] == "tool"]
    assert any(t.startswith("Not placed: the order changed since approval") for t in tools), tools
    assert len(asked) == 1 and '4 × "Tiramisu", but the goal asks for 2' in asked[0], asked
    decisions = approvals_of(result)
    assert decisions[-2][0] == "deny" and decisions[-2][1].startswith("the person declined at the terminal")
    assert decisions[-1] == ("approve", "approved automatically (within budget)"), decisions
    assert result.outcome == "ordered" and [row[1:] for row in orders(result)] == [
        (result.total_cents, "Ana Tester")
    ]
    with sqlite3.connect(Path(result.run_dir) / "shop.db") as db:
        assert db.execute("select sum(quantity) from order_items").fetchone() == (2,)


def test_an_unasked_tip_on_the_form_is_asked_about_not_approved(run: Run) -> None:
    """The goal says nothing of a tip; the model puts $3.00 on the form. Under ``auto`` the gate asks the
    person, naming the tip, and (declined) nothing is ordered."""
    script = [
        reply(
            call("open_restaurant", name="Italian Bistro"), call("add_to_cart", dish="Tiramisu", quantity=2)
        ),
        reply(
            call("go_to_checkout"),
            call("fill_delivery_details", **DETAILS, tip_cents=300),
            call("place_order"),
        ),
        lambda m: reply(call("finish", outcome="done", summary=last_tool_text(m)[:120])),
    ]
    asked: list[str] = []
    result = run(ScriptedModel(script), prompt=lambda q: asked.append(q) or "n")
    assert len(asked) == 1 and "a tip of $3.00 they never asked for" in asked[0], asked
    assert approvals_of(result)[0][0] == "deny" and orders(result) == []
    assert result.outcome == "done" and result.message.startswith("Not placed: the person declined")


def test_a_false_finish_is_refused_and_the_loop_goes_on(run: Run) -> None:
    model = ScriptedModel(
        [
            reply(call("finish", outcome="ordered", summary="Done!", order_id=999)),
            lambda m: reply(call("finish", outcome="done", summary=last_tool_text(m))),
        ]
    )
    result = run(model)
    assert result.outcome == "done" and result.order_id is None
    assert result.message.startswith(
        "Refused: finish claims order #999, but no order was confirmed by the shop"
    )


def test_an_order_is_never_placed_twice_in_a_run(run: Run) -> None:
    def finish_after_refusal(messages: list[dict[str, Any]]) -> Reply:
        refusal = last_tool_text(messages)
        assert refusal.startswith("Refused: order #") and "a run places at most one order" in refusal
        number = int(re.search(r"order #(\d+)", refusal).group(1))  # type: ignore[union-attr]
        return reply(call("finish", outcome="ordered", summary="Ordered once.", order_id=number))

    result = run(ScriptedModel(order_script(then=[reply(call("place_order")), finish_after_refusal])))
    assert result.outcome == "ordered" and len(orders(result)) == 1


@pytest.mark.parametrize(
    ("script", "overrides", "message"),
    [
        (
            [reply(call("view_cart")), reply(call("read_page")), reply(call("recent_actions"))] * 2,
            {"max_steps": 2},
            "stopped after 2 steps without finishing",
        ),
        ([reply(call("add_to_cart", dish="Tiramisu"))] * 3, {}, "stopped after 3 failed tool calls in a row"),
        (
            [reply(call("view_cart"))] * 3,
            {},
            "stopped: view_cart repeated with the same arguments and no page change",
        ),
        (
            [Reply(tool_calls=[call("view_cart")], usage=Usage(prompt_tokens=600, completion_tokens=10))] * 2,
            {"max_tokens": 1000},
            "stopped: 1220 tokens used, over the limit of 1000",
        ),
        ([Reply(content="I think I am done.")] * 3, {}, "stopped: 3 replies in a row called no tool"),
    ],
    ids=["steps", "failures", "repeats", "tokens", "words-only"],
)
def test_limits_end_the_run_clearly(
    run: Run, script: list[Any], overrides: dict[str, Any], message: str
) -> None:
    result = run(ScriptedModel(script), **overrides)
    assert result.outcome == "failed" and result.message == message and result.exit_code == 1


class NarrowScripted(ScriptedModel):
    """A scripted model that asks, as the local model's profile does, for the tools the page allows now."""

    narrow_tools = True


def test_a_narrowed_model_is_offered_only_what_the_goal_still_lacks(run: Run) -> None:
    """The tools offered each turn, with the real shop's cart: what the goal asks for and the cart lacks."""
    model = NarrowScripted(
        [
            reply(call("open_restaurant", name="Italian Bistro")),
            reply(call("add_to_cart", dish="Tiramisu", quantity=1)),
            reply(call("change_quantity", item="Tiramisu", quantity=2)),
            reply(call("add_to_cart", dish="Margherita Pizza", quantity=1, options=["Size: Large"])),
            reply(call("go_to_checkout")),
        ]
    )  # (then nothing is left to ask nor to give up on: the run stops at its step limit, at the checkout)
    run(model, goal="Order 2 Tiramisu and a Margherita Pizza (Large) from Italian Bistro", max_steps=5)
    model.assert_complete()

    def offered(turn: int) -> dict[str, dict[str, Any]]:
        return {tool["function"]["name"]: tool["function"]["parameters"] for tool in model.calls[turn][1]}

    def enum(parameters: dict[str, Any], key: str) -> list[Any]:
        return parameters["properties"][key]["enum"]  # type: ignore[no-any-return]

    one_tiramisu = offered(2)
    assert "go_to_checkout" not in one_tiramisu
    assert enum(one_tiramisu["add_to_cart"], "dish") == ["Margherita Pizza", "Tiramisu"]
    assert enum(one_tiramisu["change_quantity"], "item") == ["Tiramisu"]
    assert enum(one_tiramisu["change_quantity"], "quantity") == [2]
    two_tiramisu = offered(3)
    assert "change_quantity" not in two_tiramisu and "go_to_checkout" not in two_tiramisu
    assert enum(two_tiramisu["add_to_cart"], "dish") == ["Margherita Pizza"]
    everything = offered(4)
    assert "add_to_cart" not in everything and "go_to_checkout" in everything
    # Nothing left to ask and nothing to give up on: the way on is the checkout (issue 38).
    assert "ask_human" not in everything and "finish" not in everything


def test_once_the_shop_shows_the_order_a_narrowed_model_has_nothing_left_to_decide(run: Run) -> None:
    """The 1.5B went back to the list and opened the cart three times after its order was confirmed, then
    took a 15 s turn to say so. Once the shop shows the order, the only step offered is `finish`, held to
    `ordered`, the number and what the shop confirmed: every argument fixed, so the loop takes it without
    a model call, and the transcript says so (issue 38: no turn without a decision)."""
    model = NarrowScripted(order_script(then=[]))  # no finish turn scripted: the model is not asked
    result = run(model)
    model.assert_complete()
    assert result.outcome == "ordered" and result.model_calls == 2 and result.steps == 3
    assert result.message.startswith(f"Placed order #{result.order_id} (") and "Tiramisu" in result.message
    folder = RunFolder(Path(result.run_dir).parent, result.run_id)
    taken = [e for e in folder.transcript() if e["event"] == "model"]
    assert [e.get("without_model", False) for e in taken] == [False, False, True]
    assert taken[-1]["calls"][0]["name"] == "finish" and taken[-1]["usage"]["prompt_tokens"] == 0
    assert read_run(Path(result.run_dir)).turns[-1].content == WITHOUT_MODEL  # the report says so too
    everything = tool_schemas(LOOP_TOOLS)
    [finish] = held_to_order(everything, result.order_id or 0, result.message)
    assert strict_violations(finish["function"]["parameters"], "finish") == []
    assert fixed_step([finish], 1) is not None


@given(st.data())
@settings(max_examples=80, deadline=None)
def test_only_a_step_with_every_argument_fixed_is_taken_without_the_model(data: st.DataObject) -> None:
    """`fixed_step` over generated schemas: one tool whose every property is held to one value is taken,
    with exactly those values; a second tool, or any property with a choice left, asks the model."""
    values = st.one_of(st.integers(), st.text(max_size=20), st.booleans())
    fixed = data.draw(st.dictionaries(st.text("abcdefgh", min_size=1, max_size=6), values, max_size=4))
    properties: dict[str, Any] = {
        key: ({"const": value} if data.draw(st.booleans()) else {"type": "string", "enum": [value]})
        for key, value in fixed.items()
    }
    free = data.draw(st.sampled_from([None, {"type": "string"}, {"enum": ["a", "b"]}, {"type": "integer"}]))
    if free is not None:
        properties["free_" + data.draw(st.text("xyz", min_size=1, max_size=3))] = free
    tool = {"type": "function", "function": {"name": "finish", "parameters": {"properties": properties}}}
    tools = [tool] * data.draw(st.integers(1, 2))
    step = fixed_step(tools, 7)
    if free is not None or len(tools) == 2:
        assert step is None
    else:
        assert step is not None and step.without_model and step.usage.prompt_tokens == 0
        [taken] = step.tool_calls
        assert taken.name == "finish" and json.loads(taken.arguments) == fixed and taken.id == "fixed_7"


def test_a_drawer_closed_for_a_key_is_said_and_a_key_pressed_on_nothing_says_so(run: Run) -> None:
    """The 1.5B pressed Enter three times at the open cart drawer (benchmarks/local_model.py --wide): the
    drawer was closed while the key was judged, unsaid, and each press read "No visible change". Through the
    loop (judged, then pressed) the narration says the drawer was closed first, and that the key landed on
    no control."""
    model = ScriptedModel(
        [
            reply(call("open_restaurant", name="Italian Bistro")),
            reply(call("add_to_cart", dish="Tiramisu", quantity=2)),
            reply(call("view_cart")),
            reply(call("press_key", key="Enter")),
            reply(call("finish", outcome="failed", summary="Stopped.")),
        ]
    )
    result = run(model)
    events = RunFolder(Path(result.run_dir).parent, result.run_id).transcript()
    [pressed] = [e["narration"] for e in events if e["event"] == "tool" and e["name"] == "press_key"]
    assert pressed.startswith(
        "Closed the cart drawer first (press_key acts on the page behind it). Pressed Enter where no control had "
        "the focus."
    ), pressed
    page_line = next(line for line in pressed.splitlines() if line.startswith("Page: "))
    assert "cart drawer open" not in page_line, pressed
