"""The model slot: the `Model` protocol the loop talks to, and `OpenAIModel` over Chat Completions.

The loop needs one thing from a model: given the conversation and the tool schemas, the next assistant
turn — text, tool calls with ids, token usage. `Reply` is that turn in a provider-neutral shape, and
`Reply.to_message()` turns it back into the Chat Completions assistant message to append.

Tool-call arguments stay the raw JSON string the model sent. The toolbox validates them with each
tool's own pydantic model and narrates a validation error back, so one malformed call never fails the
whole turn (which is why the SDK's ``.parse()`` helpers are not used here).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Protocol, cast

import httpx2
import openai
from openai import AsyncOpenAI
from openai.types import CompletionUsage
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionMessageParam,
    ChatCompletionToolUnionParam,
)
from openai.types.chat.completion_create_params import (
    CompletionCreateParamsBase,
    CompletionCreateParamsStreaming,
)
from pydantic import BaseModel, Field

from webagent.errors import ModelError, UsageError

__all__ = ["DEFAULT_MODEL", "Model", "OpenAIModel", "Reply", "ToolCall", "Usage"]

DEFAULT_MODEL = "gpt-5.4-mini"
"""Used when neither the `model` argument nor ``WEBAGENT_MODEL`` names one: small, current, cheap.

(``gpt-5-mini`` is in the SDK's list too, but its shutdown is already announced.)"""

# Local servers (vLLM, Ollama, llama.cpp) ignore the key, but the SDK refuses to start without one.
_PLACEHOLDER_KEY = "not-needed"


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

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
        )


class Reply(BaseModel):
    """One assistant turn: its text, its tool calls (with ids), what it cost, and why it stopped."""

    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    finish_reason: str | None = None

    def to_message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation, in Chat Completions format."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        # An empty `tool_calls` list is rejected by some servers, so the key is left out instead.
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ]
        return message


class Model(Protocol):
    """What the loop needs from a model. `OpenAIModel`, the planner and `ScriptedModel` implement it."""

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """The next assistant turn for `messages`, given Chat Completions `tools` schemas."""
        ...


class OpenAIModel:
    """A model behind an OpenAI-compatible Chat Completions endpoint, through ``AsyncOpenAI``.

    The model name comes from `model`, else ``WEBAGENT_MODEL``, else `DEFAULT_MODEL`. The key and the
    endpoint come from `api_key`/`base_url`, else ``OPENAI_API_KEY``/``OPENAI_BASE_URL`` (read by the
    SDK). With a `base_url` but no key (a local server) a placeholder key is sent.

    Retries (429, 5xx, connection errors, with backoff honouring ``Retry-After``) and timeouts are the
    SDK's own; `max_retries` and `timeout` are applied to a given `client` as well, so they always mean
    the same thing. Once the SDK gives up, `complete` raises `ModelError` with a one-line message.

    With `stream=True`, text arrives through `on_text` as the model writes it; the returned `Reply` is
    the same as without streaming.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        client: AsyncOpenAI | None = None,
        stream: bool = False,
        on_text: Callable[[str], None] | None = None,
        max_retries: int = 3,
        timeout: float = 60.0,
        parallel_tool_calls: bool = True,
        temperature: float | None = None,
    ) -> None:
        self.model = model or os.environ.get("WEBAGENT_MODEL") or DEFAULT_MODEL
        self.stream = stream
        self.on_text = on_text
        self.parallel_tool_calls = parallel_tool_calls
        self.temperature = temperature
        self.timeout = timeout
        self.max_retries = max_retries
        if client is not None:
            if base_url is not None or api_key is not None:
                raise UsageError("pass either client= or base_url=/api_key=, not both")
            self.client = client.with_options(max_retries=max_retries, timeout=timeout)
            return
        has_endpoint = base_url is not None or bool(os.environ.get("OPENAI_BASE_URL"))
        if api_key is None and not os.environ.get("OPENAI_API_KEY") and has_endpoint:
            api_key = _PLACEHOLDER_KEY
        try:
            self.client = AsyncOpenAI(
                api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=timeout
            )
        except openai.OpenAIError as exc:
            raise ModelError(
                "no API key for the model endpoint: "
                "set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)"
            ) from exc

    @property
    def base_url(self) -> str:
        """The endpoint requests go to, e.g. ``https://api.openai.com/v1``."""
        return str(self.client.base_url).rstrip("/")

    def describe(self) -> str:
        """Model and endpoint for logs, e.g. ``gpt-5.4-mini @ https://api.openai.com/v1``."""
        return f"{self.model} @ {self.base_url}"

    def __repr__(self) -> str:
        return f"OpenAIModel({self.describe()!r}, stream={self.stream})"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """Send the conversation; return the assistant's turn. Raises `ModelError` once retries are spent."""
        try:
            if self.stream:
                return await self._complete_streaming(messages, tools)
            completion = await self.client.chat.completions.create(**self._request(messages, tools))
        except openai.APIError as exc:
            raise self._error(exc) from exc
        except httpx2.TransportError as exc:
            # The SDK retries failures to connect; a stream cut off half-way surfaces here unwrapped.
            raise ModelError(f"lost the connection to the model endpoint at {self.base_url}: {exc}") from exc
        return _reply_from_completion(completion)

    def _request(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> CompletionCreateParamsBase:
        request: CompletionCreateParamsBase = {
            "model": self.model,
            "messages": cast(list[ChatCompletionMessageParam], messages),
        }
        if tools:
            request["tools"] = cast(list[ChatCompletionToolUnionParam], tools)
            # Only alongside tools: the API rejects `parallel_tool_calls` on a request without them.
            request["parallel_tool_calls"] = self.parallel_tool_calls
        if self.temperature is not None:
            request["temperature"] = self.temperature
        return request

    async def _complete_streaming(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        request: CompletionCreateParamsStreaming = {
            **self._request(messages, tools),
            "stream": True,
            # Without this, the stream carries no token counts at all.
            "stream_options": {"include_usage": True},
        }
        stream = await self.client.chat.completions.create(**request)
        turn = _StreamedTurn()
        async with stream:
            async for chunk in stream:
                text = turn.add(chunk)
                if text and self.on_text is not None:
                    self.on_text(text)
        return turn.reply()

    def _error(self, exc: openai.APIError) -> ModelError:
        where = f"the model endpoint at {self.base_url}"
        if isinstance(exc, openai.AuthenticationError):
            reason = _server_message(exc)
            message = f"{where} rejected the API key (HTTP 401: {reason}); check OPENAI_API_KEY"
        elif isinstance(exc, openai.APIStatusError):
            reason = _server_message(exc)
            message = f"{where} answered HTTP {exc.status_code} for model {self.model}: {reason}"
        elif isinstance(exc, openai.APITimeoutError):
            message = f"{where} did not answer within {self.timeout:g}s ({self.max_retries} retries)"
        elif isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc.message
            message = f"could not reach {where}: {cause}"
        else:
            message = f"{where} reported an error: {_server_message(exc)}"
        return ModelError(" ".join(message.split()))


def _server_message(exc: openai.APIError) -> str:
    """The server's own words: OpenAI's ``{"error": {"message": ...}}``, or whatever body it sent."""
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    if isinstance(body, str) and body:
        return body
    return exc.message


def _usage(usage: CompletionUsage | None) -> Usage:
    if usage is None:
        return Usage()
    details = usage.prompt_tokens_details
    cached = details.cached_tokens if details is not None else None
    return Usage(
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cached_tokens=cached or 0,
    )


def _reply_from_completion(completion: ChatCompletion) -> Reply:
    if not completion.choices:
        return Reply(usage=_usage(completion.usage))
    choice = completion.choices[0]
    message = choice.message
    calls = []
    for call in message.tool_calls or []:
        if call.type == "function":
            calls.append(ToolCall(id=call.id, name=call.function.name, arguments=call.function.arguments))
        else:  # a custom (free-text) tool: its input plays the part of the arguments
            calls.append(ToolCall(id=call.id, name=call.custom.name, arguments=call.custom.input))
    return Reply(
        # A refusal is the model's answer too; the loop should see it rather than an empty turn.
        content=message.content if message.content is not None else message.refusal,
        tool_calls=calls,
        usage=_usage(completion.usage),
        finish_reason=choice.finish_reason,
    )


class _StreamedTurn:
    """Accumulates streamed chunks into a `Reply`. Tool-call pieces are joined by their index."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.refusal: list[str] = []
        self.calls: dict[int, dict[str, str]] = {}
        self.usage = Usage()
        self.finish_reason: str | None = None

    def add(self, chunk: ChatCompletionChunk) -> str | None:
        """Take one chunk in; return its text delta, if any."""
        if chunk.usage is not None:
            self.usage = _usage(chunk.usage)
        text = None
        for choice in chunk.choices:
            if choice.index != 0:
                continue
            delta = choice.delta
            if delta.content:
                text = delta.content
                self.text.append(text)
            if delta.refusal:
                self.refusal.append(delta.refusal)
            for piece in delta.tool_calls or []:
                call = self.calls.setdefault(piece.index, {"id": "", "name": "", "arguments": ""})
                if piece.id:
                    call["id"] = piece.id
                if piece.function is not None:
                    # Concatenated like the arguments: the SDK's own accumulator treats names the same way.
                    call["name"] += piece.function.name or ""
                    call["arguments"] += piece.function.arguments or ""
            if choice.finish_reason is not None:
                self.finish_reason = choice.finish_reason
        return text

    def reply(self) -> Reply:
        content = "".join(self.text) if self.text else ("".join(self.refusal) if self.refusal else None)
        calls = [ToolCall(**self.calls[index]) for index in sorted(self.calls)]
        return Reply(content=content, tool_calls=calls, usage=self.usage, finish_reason=self.finish_reason)
