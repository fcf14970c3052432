"""Fakes for tests, shipped in the package so users' tests can drive webagent without a model endpoint.

Two levels:

- `ScriptedModel` replaces the model slot entirely: each call returns the next scripted `Reply`.
  Build replies with `reply(call("add_to_cart", dish="Margherita"), content="Adding it.")`.
- `FakeOpenAI` keeps the real ``openai`` SDK and fakes only the HTTP endpoint, on
  ``httpx2.MockTransport`` (openai 3.x speaks httpx2, so respx cannot intercept it). Script its
  responses with `chat_json`, `chat_stream`, `status` and `unreachable`; read back `.requests`.

Both raise `ScriptExhausted` when called past their script, and have ``assert_complete()``.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import httpx2
from openai import AsyncOpenAI

from webagent.model import OpenAIModel, Reply, ToolCall, Usage

__all__ = [
    "FAKE_BASE_URL",
    "FakeOpenAI",
    "ScriptExhausted",
    "ScriptedModel",
    "Step",
    "call",
    "chat_json",
    "chat_stream",
    "reply",
    "request_body",
    "speech",
    "spoken_wav",
    "status",
    "transcription",
    "unreachable",
]

FAKE_BASE_URL = "http://fake-openai.test/v1"
"""The base URL `FakeOpenAI.client()` points at; nothing listens there, the transport answers."""

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


# --- the fake HTTP endpoint -------------------------------------------------------------------------

Scripted = httpx2.Response | Exception
"""What `FakeOpenAI` serves for one request: a response, or a transport error to raise."""

# Milliseconds, not `retry-after: 0`: the SDK ignores a zero delay and falls back to its exponential
# backoff (0.5 s, 1 s, …), while 1 ms is honoured, so retry tests run instantly.
_INSTANT_RETRY = {"retry-after-ms": "1"}


def _split_turn(
    reply_or_content: Reply | str | None, tool_calls: Sequence[ToolCall], usage: Usage | None
) -> tuple[str | None, list[ToolCall], Usage, str | None]:
    if isinstance(reply_or_content, Reply):
        turn = reply_or_content
        return turn.content, [*turn.tool_calls, *tool_calls], usage or turn.usage, turn.finish_reason
    return reply_or_content, list(tool_calls), usage or Usage(), None


def _usage_json(usage: Usage) -> dict[str, Any]:
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.prompt_tokens + usage.completion_tokens,
        "prompt_tokens_details": {"cached_tokens": usage.cached_tokens},
    }


def chat_json(
    reply_or_content: Reply | str | None = None,
    *,
    tool_calls: Sequence[ToolCall] = (),
    usage: Usage | None = None,
    model: str = "fake-model",
) -> httpx2.Response:
    """A 200 Chat Completion as JSON: a `Reply`, or text plus `tool_calls`."""
    content, calls, usage, finish = _split_turn(reply_or_content, tool_calls, usage)
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ]
    body = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {"index": 0, "message": message, "finish_reason": finish or ("tool_calls" if calls else "stop")}
        ],
        "usage": _usage_json(usage),
    }
    return httpx2.Response(200, json=body)


def _pieces(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def chat_stream(
    reply_or_content: Reply | str | None = None,
    *,
    tool_calls: Sequence[ToolCall] = (),
    usage: Usage | None = None,
    model: str = "fake-model",
    piece: int = 4,
) -> httpx2.Response:
    """A 200 ``text/event-stream`` of chunks, shaped like OpenAI's.

    Text arrives in `piece`-character deltas; each tool call's id and name come in its first delta and
    its arguments in `piece`-character fragments after it; then a finish chunk, a usage-only chunk
    (as with ``stream_options={"include_usage": True}``), and ``data: [DONE]``.
    """
    content, calls, usage, finish = _split_turn(reply_or_content, tool_calls, usage)
    head = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model}

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
        return {**head, "choices": [choice]}

    chunks = [chunk({"role": "assistant", "content": ""})]
    chunks += [chunk({"content": text}) for text in _pieces(content or "", piece)]
    for index, c in enumerate(calls):
        first = {
            "index": index,
            "id": c.id,
            "type": "function",
            "function": {"name": c.name, "arguments": ""},
        }
        chunks.append(chunk({"tool_calls": [first]}))
        chunks += [
            chunk({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]})
            for fragment in _pieces(c.arguments, piece)
        ]
    chunks.append(chunk({}, finish or ("tool_calls" if calls else "stop")))
    chunks.append({**head, "choices": [], "usage": _usage_json(usage)})
    events = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    return httpx2.Response(200, content=events.encode(), headers={"content-type": "text/event-stream"})


def status(code: int, message: str, *, type: str | None = None) -> httpx2.Response:
    """An error response in OpenAI's shape. 429 and 5xx ask for an immediate retry."""
    error = {"message": message, "type": type or ("server_error" if code >= 500 else "invalid_request_error")}
    headers = _INSTANT_RETRY if code == 429 or code >= 500 else {}
    return httpx2.Response(code, json={"error": {**error, "param": None, "code": None}}, headers=headers)


def unreachable(message: str = "connection refused") -> httpx2.ConnectError:
    """A connection failure, as if nothing listened at the endpoint (the SDK retries these)."""
    return httpx2.ConnectError(message)


class FakeOpenAI:
    """A fake Chat Completions endpoint serving scripted responses through the real SDK.

    Each request takes the next scripted item: an ``httpx2.Response`` is returned, an exception is
    raised (as a transport error). ``requests`` holds every request body, parsed from JSON.
    """

    def __init__(self, responses: Iterable[Scripted]) -> None:
        self.responses: list[Scripted] = list(responses)
        self.requests: list[dict[str, Any]] = []

    @property
    def remaining(self) -> int:
        """How many scripted responses have not been served yet."""
        return len(self.responses) - len(self.requests)

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        """The `httpx2.MockTransport` handler."""
        if self.remaining <= 0:
            # Raised, not served as an HTTP error, so the SDK neither retries it nor turns it into
            # a ModelError: the test fails with this message.
            raise ScriptExhausted(
                f"FakeOpenAI got request {len(self.requests) + 1} ({request.method} {request.url}) "
                f"but was scripted for {len(self.responses)}"
            )
        self.requests.append(request_body(request))
        scripted = self.responses[len(self.requests) - 1]
        if isinstance(scripted, Exception):
            raise scripted
        return scripted

    def transport(self) -> httpx2.MockTransport:
        """A transport answering from this script."""
        return httpx2.MockTransport(self.handle)

    def client(self, **options: Any) -> AsyncOpenAI:
        """An ``AsyncOpenAI`` wired to this fake (api key ``test``, base URL `FAKE_BASE_URL`)."""
        http_client = httpx2.AsyncClient(transport=self.transport())
        return AsyncOpenAI(api_key="test", base_url=FAKE_BASE_URL, http_client=http_client, **options)

    def model(self, model: str | None = None, **options: Any) -> OpenAIModel:
        """An `OpenAIModel` talking to this fake; `options` go to `OpenAIModel`."""
        # A short timeout: nothing here should ever wait on the network.
        options.setdefault("timeout", 5.0)
        return OpenAIModel(model, client=self.client(), **options)

    def assert_complete(self) -> None:
        """Raise `AssertionError` unless every scripted response was served."""
        if self.remaining > 0:
            raise AssertionError(
                f"FakeOpenAI served {len(self.requests)} of {len(self.responses)} responses; "
                f"{self.remaining} never requested"
            )


# --- audio: the transcription and speech endpoints (webagent.voice) ---------------------------------


def request_body(request: httpx2.Request) -> dict[str, Any]:
    """A request's body as `FakeOpenAI.requests` records it: parsed JSON, or a multipart upload's fields.

    An upload (``/audio/transcriptions``) becomes ``{"model": "…", …, "file": {"filename": …,
    "content_type": …, "data": b"…"}}``: every form field by name, files as dicts.
    """
    content = request.read()
    if not content:
        return {}
    kind = request.headers.get("content-type", "")
    if not kind.startswith("multipart/form-data"):
        return dict(json.loads(content))
    from email.parser import BytesParser
    from email.policy import HTTP

    message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + kind.encode() + b"\r\n\r\n" + content)
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        filename = part.get_filename()
        if filename is not None:
            fields[str(name)] = {"filename": filename, "content_type": part.get_content_type(), "data": data}
        else:
            fields[str(name)] = data.decode()
    return fields


def transcription(text: str) -> httpx2.Response:
    """A 200 from ``/audio/transcriptions`` with ``response_format="json"``: ``{"text": …}``."""
    return httpx2.Response(200, json={"text": text, "usage": {"type": "duration", "seconds": 3}})


def speech(audio: bytes, content_type: str = "audio/wav") -> httpx2.Response:
    """A 200 from ``/audio/speech``: the audio bytes themselves."""
    return httpx2.Response(200, content=audio, headers={"content-type": content_type})


def spoken_wav(text: str, path: Any, *, rate: int = 16_000, pad_s: float = 0.3) -> Any:
    """``text`` spoken by espeak-ng into ``path`` as 16-bit mono WAV at ``rate`` (sox resamples).

    A recording for tests of speech input; needs the ``espeak-ng`` and ``sox`` programs.
    """
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    for program in ("espeak-ng", "sox"):
        if shutil.which(program) is None:
            raise RuntimeError(f"spoken_wav needs {program}: apt-get install espeak-ng sox (make setup does)")
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(raw), "--", text], check=True)
        # -D: no dither, so the same text always gives the same samples.
        subprocess.run(
            [
                "sox",
                "-D",
                str(raw),
                "-r",
                str(rate),
                "-c",
                "1",
                "-b",
                "16",
                str(path),
                "pad",
                str(pad_s),
                str(pad_s),
            ],
            check=True,
        )
    return path
