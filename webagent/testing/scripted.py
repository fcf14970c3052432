"""`ScriptedModel`: a `Model` that plays back scripted turns, replacing the model slot entirely.

Build turns with `reply(call("add_to_cart", dish="Margherita"), content="Adding it.")`; a step may also
be a function of the messages so far. Called past its script it raises `ScriptExhausted`;
``assert_complete()`` checks every step ran.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterable
from typing import Any

from webagent.llm.protocol import Reply, ToolCall, Usage

__all__ = ["ScriptExhausted", "ScriptedModel", "Step", "call", "reply"]

Step = Reply | Callable[[list[dict[str, Any]]], Reply]
"""A scripted turn: a fixed `Reply`, or a function of the messages so far (to look at a narration)."""

_call_ids = itertools.count(1)


class ScriptExhausted(AssertionError):
    """A fake was called more times than its script has steps."""


def call(name: str, /, **arguments: Any) -> ToolCall:
    """A tool call with a fresh id (``call_1``, ``call_2``, … unique in this process)."""
    return ToolCall(id=f"call_{next(_call_ids)}", name=name, arguments=json.dumps(arguments))


def reply(*calls: ToolCall, content: str | None = None, usage: Usage | None = None) -> Reply:
    """An assistant turn making `calls` (in order) and/or saying `content`."""
    return Reply(
        content=content,
        tool_calls=list(calls),
        usage=usage or Usage(),
        finish_reason="tool_calls" if calls else "stop",
    )


class ScriptedModel:
    """A `Model` that plays back a script of turns and records what it was asked.

    ``calls`` holds one ``(messages, tools)`` pair per call; the messages are a deep copy, so later
    appends by the loop don't change what a test sees.
    """

    def __init__(self, steps: Iterable[Step]) -> None:
        self.steps: list[Step] = list(steps)
        self.calls: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]] = []

    @property
    def remaining(self) -> int:
        """How many scripted steps have not run yet."""
        return len(self.steps) - len(self.calls)

    def describe(self) -> str:
        """For logs, like `OpenAIModel.describe`."""
        return f"scripted model ({len(self.steps)} steps)"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """The next scripted turn. Raises `ScriptExhausted` past the end of the script."""
        if self.remaining <= 0:
            last = messages[-1].get("content") if messages else None
            raise ScriptExhausted(
                f"ScriptedModel called {len(self.calls) + 1} times but scripted for {len(self.steps)}; "
                f"last message: {last!r}"
            )
        messages = copy.deepcopy(messages)
        self.calls.append((messages, list(tools)))
        step = self.steps[len(self.calls) - 1]
        return step if isinstance(step, Reply) else step(messages)

    def assert_complete(self) -> None:
        """Raise `AssertionError` unless every scripted step ran."""
        if self.remaining > 0:
            raise AssertionError(
                f"ScriptedModel ran {len(self.calls)} of {len(self.steps)} steps; {self.remaining} never ran"
            )
