"""The conversation and the tools as an endpoint is sent them on the tool-calling path.

- **The API's own keys only** (`as_sent`): the run keeps typed records beside each message's text
  (webagent/narration/seen.py) and the hint a turn answered (``prompted``), for itself; OpenAI refuses any
  key it does not know.
- **Fitted to the context** (`fitted`): where a model's context is known (a local server's slot), the
  oldest narrations are left out, each replaced by one line saying so, before the prompt would overflow —
  the system prompt, the person's words and the last turns kept whole. Until then nothing is changed, so
  the prompt only grows; after, each turn leaves out the same ones and more, so it grows again from there.
- **A prefix that only grows** (issue 38): for a model that is offered only what the page allows now
  (``narrow_tools``), the tool list at the top of the prompt would change and reorder every turn, which
  breaks the prompt cache of llama.cpp and OpenAI alike ("mask, don't remove"). So every tool is declared
  once per run, in a fixed order (`OpenAIModel.declare`), and the turn's narrowing goes three ways at once:
  ``tool_choice``'s allowed tools (`allowed_tools`, where the endpoint takes them: OpenAI does; llama.cpp
  takes the object and ignores it), a short hint after the narration (the tools allowed now and the
  arguments held to the page's values, `webagent.llm.steps.step_hint`) that stays in the conversation
  where it was sent (`with_hints`), and the loop, which refuses a call outside the turn's offer before it
  runs (webagent/agent/offer.py).

Pure: the standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

__all__ = ["API_KEYS", "LEFT_OUT", "allowed_tools", "as_sent", "declared_with", "fitted", "with_hints"]

LEFT_OUT = "(An earlier narration, left out to fit the model's context.)"
KEPT_LAST = 4
"""The last messages always kept whole: the page now and the turn that led to it."""

API_KEYS = {
    "system": {"role", "content", "name"},
    "developer": {"role", "content", "name"},
    "user": {"role", "content", "name"},
    "assistant": {"role", "content", "name", "tool_calls", "refusal", "audio", "function_call"},
    "tool": {"role", "content", "tool_call_id"},
}
"""The keys the Chat Completions API takes on each role's message; OpenAI refuses any other."""


def as_sent(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation as an endpoint is sent it: each message with the API's own keys only (the run
    keeps typed records beside the text, webagent/narration/seen.py, for itself)."""
    return [
        {
            key: value
            for key, value in message.items()
            if key in API_KEYS.get(str(message.get("role")), {"role", "content"})
        }
        for message in messages
    ]


def with_hints(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation with each turn's hint put back where it was sent: the user message just before the
    reply that answered it (kept on the reply as ``prompted``). Deterministic, so every turn's prompt
    starts with the last one's."""
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.get("role") == "assistant" and message.get("prompted"):
            out.append({"role": "user", "content": str(message["prompted"])})
        out.append(message)
    return as_sent(out)


def allowed_tools(tools: Sequence[dict[str, Any]], mode: Literal["auto", "required"]) -> dict[str, Any]:
    """``tool_choice`` narrowing the declared tools to ``tools`` for this turn (OpenAI's allowed tools)."""
    names = [str((tool.get("function") or {}).get("name")) for tool in tools]
    return {
        "type": "allowed_tools",
        "allowed_tools": {
            "mode": mode,
            "tools": [{"type": "function", "function": {"name": name}} for name in names],
        },
    }


def declared_with(declared: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The run's declared tools, and after them any offered now that were not declared (a page's own
    tools, webagent/tools/webmcp.py): the fixed prefix stays as it was."""
    names = {str((tool.get("function") or {}).get("name")) for tool in declared}
    return [
        *declared,
        *(tool for tool in tools if str((tool.get("function") or {}).get("name")) not in names),
    ]


def fitted(messages: list[dict[str, Any]], room: int, count: Callable[[str], int]) -> list[dict[str, Any]]:
    """``messages`` as they are when they ``count`` at most ``room`` tokens; else with the oldest tool
    narrations replaced by `LEFT_OUT` until they do, or until none is left to replace (the system prompt,
    the person's messages, the last `KEPT_LAST` messages and narrations no longer than `LEFT_OUT` itself
    stay whole). A copy: the run keeps them all."""
    sizes = [_size(message, count) for message in messages]
    over = sum(sizes) - room
    if over <= 0:
        return messages
    out = list(messages)
    saved = count(LEFT_OUT)
    for index, message in enumerate(messages[: max(len(messages) - KEPT_LAST, 0)]):
        if message.get("role") != "tool" or sizes[index] <= saved + 6:
            continue  # not a narration, or one the placeholder would not shorten
        out[index] = {**message, "content": LEFT_OUT}
        over -= sizes[index] - saved
        if over <= 0:
            break
    return out


def _size(message: dict[str, Any], count: Callable[[str], int]) -> int:
    """A message's tokens as sent (its text, calls, and a turn's hint and step), with its framing."""
    parts = [message.get("content"), message.get("prompted"), message.get("step")]
    calls = message.get("tool_calls") or ()
    parts += [str((call.get("function") or {}).get("arguments")) for call in calls]
    return 6 + sum(count(str(part)) for part in parts if part)
