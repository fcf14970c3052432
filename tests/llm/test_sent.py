"""The conversation as sent: fitted to a model's context by leaving out the oldest narrations (and nothing
else), the same ones turn after turn; a local run's slot named in every request."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.llm.protocol import Reply
from webagent.llm.sent import KEPT_LAST, LEFT_OUT, fitted
from webagent.sync import run_sync
from webagent.testing import FakeOpenAI, call


def count(text: str) -> int:
    return len(text.split())


@st.composite
def conversations(draw: st.DrawFn) -> list[dict[str, Any]]:
    words = st.text("abc ", min_size=0, max_size=60)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": draw(words)},
        {"role": "user", "content": draw(words)},
    ]
    for turn in range(draw(st.integers(0, 8))):
        calls = [
            {"id": f"c{turn}_{n}", "type": "function", "function": {"name": "view_cart", "arguments": "{}"}}
            for n in range(draw(st.integers(1, 2)))
        ]
        messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        messages += [{"role": "tool", "tool_call_id": c["id"], "content": draw(words)} for c in calls]
        if draw(st.booleans()):
            messages.append({"role": "user", "content": draw(words)})
    return messages


def longer(message: dict[str, Any]) -> bool:
    """A narration the placeholder would shorten."""
    return count(str(message.get("content") or "")) > count(LEFT_OUT)


def total(messages: list[dict[str, Any]]) -> int:
    return sum(6 + count(str(m.get("content") or "")) for m in messages) + sum(
        count("{}") for m in messages for _ in m.get("tool_calls") or ()
    )


@settings(max_examples=200, deadline=None)
@given(conversations(), st.integers(0, 400), st.integers(0, 200))
def test_only_the_oldest_narrations_are_left_out_and_the_same_ones_as_the_room_shrinks(
    messages: list[dict[str, Any]], room: int, less: int
) -> None:
    out = fitted(messages, room, count)
    assert len(out) == len(messages)
    changed = [i for i, (a, b) in enumerate(zip(messages, out, strict=True)) if a != b]
    for i in changed:  # only narrations, only their text, never the last turns
        assert messages[i]["role"] == "tool" and out[i] == {**messages[i], "content": LEFT_OUT}
        assert i < len(messages) - KEPT_LAST
    if changed:  # the oldest first: every narration before the last one left out is left out too
        older = [i for i, m in enumerate(messages[: max(changed) + 1]) if m["role"] == "tool"]
        assert all(out[i]["content"] == LEFT_OUT or not longer(out[i]) for i in older)
    assert total(out) <= total(messages)  # leaving out never makes the conversation longer
    left = [
        i
        for i, m in enumerate(out[: len(out) - KEPT_LAST])
        if m["role"] == "tool" and m["content"] != LEFT_OUT and longer(m)
    ]
    assert total(out) <= room or not left  # it fits, or nothing more may go
    assert total(messages) > room or out is messages  # what fits is sent as it is
    tighter = fitted(messages, max(room - less, 0), count)  # a later turn, less room: a superset left out
    assert all(tighter[i]["content"] == LEFT_OUT for i in changed)
    assert fitted(out, room, count) == out


def test_a_local_runs_requests_name_its_slot_and_leave_out_what_its_context_cannot_hold() -> None:
    fake = FakeOpenAI([Reply(tool_calls=[call("view_cart")])], profile="llama.cpp")
    model = fake.model("qwen", slot=1, context_tokens=1200, max_reply_tokens=100)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "Order food."},
        {"role": "user", "content": "Go."},
    ]
    for turn in range(6):
        calls = [{"id": f"c{turn}", "type": "function", "function": {"name": "view_cart", "arguments": "{}"}}]
        messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        messages.append(
            {"role": "tool", "tool_call_id": f"c{turn}", "content": f"Cart {turn}: " + "pizza " * 300}
        )
    run_sync(
        model.complete(messages, [{"type": "function", "function": {"name": "view_cart", "parameters": {}}}])
    )
    [sent] = fake.requests
    assert sent["id_slot"] == 1
    narrations = [m["content"] for m in sent["messages"] if m["role"] == "tool"]
    assert narrations[0] == LEFT_OUT and narrations[-1].startswith("Cart 5:")
    assert len(json.dumps(sent["messages"])) < len(json.dumps(messages))
