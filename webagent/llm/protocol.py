"""The model slot's seam: the `Model` protocol the loop talks to, and the values a model returns.

The loop needs one thing from a model: given the conversation and the tool schemas, the next assistant
turn — text, tool calls with ids, token usage. `Reply` is that turn in a provider-neutral shape, and
`Reply.to_message()` turns it back into the Chat Completions assistant message to append.

Tool-call arguments stay the raw JSON text the model sent. The toolbox validates them with each
tool's own pydantic model and narrates a validation error back, so one malformed call never fails the
whole turn (which is why the SDK's ``.parse()`` helpers are not used here).

A model that cannot give a turn raises `webagent.errors.ModelError` (or one of its kinds). Pure: only
pydantic, so the loop, the planner and the fakes import this without the openai SDK.
"""

from __future__ import annotations

import json
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

__all__ = ["Downgrade", "Feature", "Model", "Reply", "ToolCall", "Usage", "close_model"]

Feature = Literal[
    "strict",
    "parallel_tool_calls",
    "stream_options",
    "stream",
    "max_completion_tokens",
    "response_format",
    "tool_choice",
    "allowed_tools",
]
"""A request feature an endpoint may refuse, and that is then turned off (see `Downgrade`)."""


class ToolCall(BaseModel):
    """One tool call from the model, arguments exactly as sent (a JSON string, possibly malformed)."""

    id: str
    name: str
    arguments: str


class Usage(BaseModel):
    """Token counts of one or more model calls; add them up with ``+``."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = Field(default=0, description="Prompt tokens served from the provider's cache.")
    estimated: bool = Field(
        default=False, description="Counted here with a tokenizer: the endpoint reported no usage."
    )
    new_tokens: int | None = Field(
        default=None,
        description="Prompt tokens beyond the previous call's prompt and reply: what a prompt that only grows "
        "has to evaluate (prompt − cached is what the server did evaluate).",
    )
    prompt_ms: float | None = Field(
        default=None, description="The server's own time evaluating the prompt (llama.cpp's timings)."
    )
    generated_ms: float | None = Field(
        default=None, description="The server's own time generating the reply (llama.cpp's timings)."
    )

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            estimated=self.estimated or other.estimated,
            new_tokens=None
            if self.new_tokens is None and other.new_tokens is None
            else (self.new_tokens or 0) + (other.new_tokens or 0),
            prompt_ms=_plus(self.prompt_ms, other.prompt_ms),
            generated_ms=_plus(self.generated_ms, other.generated_ms),
        )


def _plus(one: float | None, other: float | None) -> float | None:
    return None if one is None and other is None else (one or 0.0) + (other or 0.0)


class Downgrade(BaseModel):
    """A request feature the endpoint refused, turned off for the rest of the run."""

    feature: Feature
    reason: str = Field(description="Why: the endpoint's own words, or the flag that turned it off.")


class Reply(BaseModel):
    """One assistant turn: its text, its tool calls (with ids), what it cost, and why it stopped."""

    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    finish_reason: str | None = None
    downgrades: list[Downgrade] = Field(default_factory=list)
    """Features turned off while getting this turn; the loop records them in the transcript."""
    without_model: bool = False
    """Taken without asking the model: the only step the tools allowed, every argument fixed (`fixed_step`)."""
    prompted: str | None = None
    """The turn's hint (the tools allowed then), and for a structured step ``step`` its text as generated:
    kept in the conversation so that the next prompt repeats them where they were (webagent/llm/steps.py,
    webagent/llm/sent.py)."""
    step: str | None = None

    def event(self) -> dict[str, Any]:
        """The transcript's ``model`` event: what was said and called, the usage, and whether the turn was
        taken without the model."""
        taken = {"without_model": True} if self.without_model else {}
        calls = [call.model_dump() for call in self.tool_calls]
        return {"content": self.content, "calls": calls, "usage": self.usage.model_dump(), **taken}

    def to_message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation, in Chat Completions format."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        # An empty `tool_calls` list is rejected by some servers, so the key is left out instead.
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ]
        if self.prompted is not None:  # not sent as such: see webagent/llm/sent.py
            message["prompted"] = self.prompted
        if self.step is not None:
            message["step"] = self.step
        return message


class Model(Protocol):
    """What the loop needs from a model. `OpenAIModel`, the planner and `ScriptedModel` implement it."""

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """The next assistant turn for `messages`, given Chat Completions `tools` schemas."""
        ...


async def close_model(model: object) -> None:
    """Release what a model holds (an `OpenAIModel`'s HTTP client), when it has an ``aclose``."""
    close = getattr(model, "aclose", None)
    if close is not None:
        await close()


def fixed_step(tools: list[dict[str, Any]], turn: int) -> Reply | None:
    """The turn the tool schemas leave no choice in, taken without a model call: exactly one tool, and
    every one of its arguments held to a single value (``enum`` of one, or ``const``). None otherwise."""
    if len(tools) != 1:
        return None
    function = tools[0].get("function") or {}
    properties = (function.get("parameters") or {}).get("properties") or {}
    arguments: dict[str, Any] = {}
    for key, prop in properties.items():
        if "const" in prop:
            arguments[key] = prop["const"]
        elif isinstance(prop.get("enum"), list) and len(prop["enum"]) == 1:
            arguments[key] = prop["enum"][0]
        else:
            return None
    call = ToolCall(id=f"fixed_{turn}", name=str(function.get("name")), arguments=json.dumps(arguments))
    return Reply(tool_calls=[call], finish_reason="tool_calls", without_model=True)
