"""The tool-calling path of a narrowed model (issue 38, item 6): every tool declared once per run in a fixed
order, so each request's prompt is the last one with its reply and the new narration after it; the turn's
narrowing sent as allowed tools and a hint; and a call outside the offer refused before it runs, since an
endpoint may take allowed tools and ignore them (llama.cpp does, measured on its server).
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.agent.conftest import DETAILS, Run
from webagent.agent.checkpoint import RunFolder
from webagent.agent.offer import outside_offer, read_cap, sized
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.testing import FakeOpenAI, call, reply
from webagent.tools.toolbox import tool_schemas


def tool(name: str, **properties: Any) -> dict[str, Any]:
    parameters = {"type": "object", "properties": properties, "required": list(properties)}
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.text("abcdefgh", min_size=1, max_size=6), min_size=1, max_size=4, unique=True),
    st.lists(st.text("xyz ", min_size=1, max_size=8), min_size=1, max_size=5, unique=True),
    st.text("xyz ", min_size=1, max_size=8),
    st.integers(1, 9),
)
def test_a_call_is_outside_the_offer_exactly_when_its_tool_or_a_held_value_is_not_offered(
    names: list[str], dishes: list[str], dish: str, quantity: int
) -> None:
    offered = [
        tool(name, dish={"type": "string", "enum": dishes}, quantity={"type": "integer"}) for name in names
    ]
    arguments = f'{{"dish": "{dish}", "quantity": {quantity}}}'
    why = outside_offer(names[0], arguments, offered)
    fold = " ".join(dish.split())  # a name written with other spacing is the name the tool finds
    assert (why is None) == (fold in {" ".join(d.split()) for d in dishes})
    if why is not None:
        assert why.startswith(f"Refused: {names[0]}'s dish is not what is offered now")
    unknown = "z" + names[0]
    if unknown not in names:
        assert outside_offer(unknown, arguments, offered) == (
            f"Refused: {unknown} is not offered now. The tools offered now: {', '.join(names)}."
        )
    # Left out, or an argument it does not know: the tool's own check says so, as for any model.
    assert outside_offer(names[0], "{}", offered) is None


def script() -> list[Any]:
    """One call a turn, as a small model on the tool-calling path sends them; the second is a dish the
    person did not ask for, which the endpoint was told is not allowed and may not hold it to."""
    return [
        reply(call("open_restaurant", name="Italian Bistro")),
        reply(call("add_to_cart", dish="Lasagna al Forno", quantity=1)),
        reply(call("add_to_cart", dish="Tiramisu", quantity=2)),
        reply(call("go_to_checkout")),
        reply(call("fill_delivery_details", **DETAILS)),
        reply(call("place_order")),
    ]


def _names(tools: list[dict[str, Any]]) -> list[str]:
    return [str(t["function"]["name"]) for t in tools]


@pytest.mark.parametrize("profile", ["openai", "llama.cpp"])
def test_the_tool_calling_path_declares_every_tool_once_and_the_prompt_only_grows(
    run: Run, profile: str
) -> None:
    fake = FakeOpenAI(script(), profile=profile)
    result = run(fake.model(narrow_tools=True, parallel_tool_calls=False))
    fake.assert_complete()
    assert result.outcome == "ordered" and "Lasagna" not in result.message and "Tiramisu" in result.message
    requests = fake.requests
    first = requests[0]["tools"]
    assert len(first) > 10 and all(request["tools"] == first for request in requests)  # the same, in order
    for before, after in pairwise(requests):
        kept = before["messages"]
        assert after["messages"][: len(kept)] == kept  # nothing before is rewritten or moved
        assert after["messages"][len(kept)]["role"] == "assistant"  # then the reply, as it came
    for request in requests:
        choice = request["tool_choice"]
        assert choice["type"] == "allowed_tools" and choice["allowed_tools"]["mode"] == "auto"
        allowed = _names([{"function": t["function"]} for t in choice["allowed_tools"]["tools"]])
        assert set(allowed) < set(_names(first))
        assert request["messages"][-1]["content"].endswith(f"Tools allowed now: {', '.join(allowed)}")
    assert "place_order" not in str(requests[0]["tool_choice"])  # the restaurant list offers no order
    folder = RunFolder(Path(result.run_dir).parent, result.run_id)
    refusals = [e for e in folder.transcript() if e["event"] == "tool" and e.get("refusal") == "not_offered"]
    assert [e["name"] for e in refusals] == ["add_to_cart"]
    assert refusals[0]["narration"].startswith("Refused: add_to_cart's dish is not what is offered now")
    assert "Lasagna al Forno" in refusals[0]["narration"] and "Tiramisu" in refusals[0]["narration"]


def test_an_endpoint_that_refuses_allowed_tools_is_narrowed_by_the_hint_and_the_loop(run: Run) -> None:
    fake = FakeOpenAI(script(), profile="vllm", refuses={"allowed_tools"})
    result = run(fake.model(narrow_tools=True, parallel_tool_calls=False))
    fake.assert_complete()
    assert result.outcome == "ordered" and "Lasagna" not in result.message
    sent = fake.requests[1:]  # the first was refused, and sent again without it
    assert "tool_choice" in fake.requests[0] and all("tool_choice" not in request for request in sent)
    assert all(request["tools"] == sent[0]["tools"] for request in sent)
    folder = RunFolder(Path(result.run_dir).parent, result.run_id)
    assert [e["feature"] for e in folder.transcript() if e["event"] == "downgrade"] == ["allowed_tools"]
    assert any(e.get("refusal") == "not_offered" for e in folder.transcript() if e["event"] == "tool")


@settings(max_examples=50, deadline=None)
@given(st.integers(256, 40_000))
def test_read_page_is_held_to_what_the_models_context_can_take(context: int) -> None:
    tools = tool_schemas(DEMO_SHOP.tools)
    held = sized(tools, context)
    cap = read_cap(context)
    assert [t for t in held if t["function"]["name"] != "read_page"] == [
        t for t in tools if t["function"]["name"] != "read_page"
    ]
    limit = min(cap, 12_000)
    assert outside_offer("read_page", f'{{"max_chars": {limit}}}', held) is None
    refused = outside_offer("read_page", f'{{"max_chars": {limit + 1}}}', held)
    assert refused is not None and refused.startswith("Refused: read_page's max_chars")
    assert sized(tools, None) is tools


def test_what_the_tool_itself_would_read_as_offered_is_not_refused() -> None:
    """A reviewer's cases: the tools parse ``"2"`` as 2 and match names whatever their case, and the loop
    checks finish and ask_human itself; the offer refuses only values outside it."""
    offered = [
        tool("add_to_cart", dish={"type": "string", "enum": ["Margherita Pizza"]}, quantity={"enum": [2]}),
        tool("finish", summary={"type": "string", "enum": ["Order #4: 1 × Tiramisu"]}),
    ]
    assert outside_offer("add_to_cart", '{"dish": "margherita  pizza", "quantity": "2"}', offered) is None
    assert outside_offer("finish", '{"summary": "Ordered one tiramisu."}', offered) is None
    assert outside_offer("add_to_cart", '{"dish": "Margherita Pizza", "quantity": "3"}', offered) is not None
