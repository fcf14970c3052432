"""`FakeOpenAI`: a fake OpenAI-compatible endpoint on ``httpx2.MockTransport``, behind the real SDK.

openai 3.x speaks httpx2, so respx cannot intercept it; the fake is a transport instead. It checks
each request as a given server does (OpenAI by default: strict tool schemas included; the profiles
are in webagent/testing/servers.py) and answers with scripted turns rendered as that server renders
them, or with `chat_json`, `chat_stream`, `status`, `unreachable`, and the faults `cut_stream`,
`stall`, `no_choices`, `hang`; read back `.requests`. It serves the audio endpoints too
(`transcription`, `speech`, refused as OpenAI refuses them). ``serve()`` puts it on a real local port
for a ``webagent`` subprocess. Called past its script it raises `ScriptExhausted`;
``assert_complete()`` checks every response was served.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import threading
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import httpx2
from openai import AsyncOpenAI

from webagent.llm.openai_client import OpenAIModel
from webagent.llm.protocol import Reply, ToolCall, Usage
from webagent.testing.scripted import ScriptExhausted, Step
from webagent.testing.servers import (
    PROFILES,
    REFUSALS,
    ServerProfile,
    models_listing,
    render_chunks,
    render_completion,
    request_problem,
)

__all__ = [
    "FAKE_BASE_URL",
    "SPEECH_FORMATS",
    "TRANSCRIPTION_FORMATS",
    "FakeOpenAI",
    "Fault",
    "Scripted",
    "audio_problem",
    "chat_json",
    "chat_stream",
    "cut_stream",
    "hang",
    "no_choices",
    "request_body",
    "speech",
    "stall",
    "status",
    "transcription",
    "unreachable",
]

FAKE_BASE_URL = "http://fake-openai.test/v1"
"""The base URL `FakeOpenAI.client()` points at; nothing listens there, the transport answers."""


@dataclass(frozen=True)
class Fault:
    """A reply that goes wrong on the way: see `cut_stream`, `stall`, `no_choices` and `hang`."""

    kind: Literal["cut", "stall", "no_choices", "hang"]
    turn: Reply | None = None
    after: int = 3


Scripted = httpx2.Response | Exception | Step | Fault
"""What `FakeOpenAI` serves for one request: a response as is, a transport error to raise, a scripted
turn (a `Reply`, or a function of the request's messages) rendered the way the server profile does,
or a `Fault`."""

_SOME_TURN = Reply(content="Let me open the restaurant and look at its menu now.")


def cut_stream(turn: Reply | None = None, *, after: int = 3) -> Fault:
    """A streamed reply whose connection drops after `after` chunks (the client sees a protocol error)."""
    return Fault("cut", turn or _SOME_TURN, after)


def stall(turn: Reply | None = None, *, after: int = 3) -> Fault:
    """A streamed reply that sends `after` chunks and then nothing more, the connection left open."""
    return Fault("stall", turn or _SOME_TURN, after)


def no_choices() -> Fault:
    """A 200 reply with an empty ``choices`` list (streamed: only a usage chunk)."""
    return Fault("no_choices")


def hang() -> Fault:
    """A request that is never answered: no status, no headers."""
    return Fault("hang")


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


class _Body(httpx2.AsyncByteStream):
    """A response body that ends cleanly, drops the connection, or goes silent after its parts."""

    def __init__(self, parts: list[bytes], then: Literal["end", "cut", "stall"]) -> None:
        self.parts, self.then = parts, then

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for part in self.parts:
            yield part
        if self.then == "cut":
            raise httpx2.RemoteProtocolError(
                "peer closed connection without sending complete message body (incomplete chunked read)"
            )
        if self.then == "stall":
            await asyncio.sleep(3600)


def _sse(chunks: list[dict[str, Any]], *, done: bool = True) -> list[bytes]:
    events = [f"data: {json.dumps(chunk)}\n\n".encode() for chunk in chunks]
    return events + ([b"data: [DONE]\n\n"] if done else [])


_SSE_HEADERS = {"content-type": "text/event-stream"}


class FakeOpenAI:
    """A fake OpenAI-compatible endpoint serving scripted responses through the real SDK.

    Each Chat Completions request is first checked as `profile`'s server checks it (webagent/testing/servers.py:
    ``openai`` by default, which holds ``strict`` tools to the strict subset and checks the
    conversation; ``vllm``, ``ollama``, ``llama.cpp``): a request the server would refuse gets that
    server's error and uses no scripted item. `refuses` adds refusals of request features
    (``strict``, ``parallel_tool_calls``, ``stream_options``, ``stream``, ``allowed_tools``) in documented
    wordings.

    Otherwise the request takes the next scripted item: an ``httpx2.Response`` is returned as is, an
    exception is raised (as a transport error), a `Reply` (or a function of the request's messages
    returning one) is rendered as the profile's server renders it — streamed when the request asks
    for a stream, with that server's call ids, chunking and usage — and a `Fault` goes wrong as it
    says. A profile's call ids replace the scripted ones, except OpenAI's, which keeps them.

    ``GET /models`` lists `models` in the server's shape, without using the script; with
    ``models=None`` there is no listing (404) and any model name is answered. Requests to other paths
    take the next scripted item as they come, whatever their body.

    ``requests`` holds every request body (refused ones too; `request_body` parses uploads), ``log``
    every request line, ``answers`` the status of every Chat Completions answer.
    """

    def __init__(
        self,
        responses: Iterable[Scripted],
        *,
        profile: str | ServerProfile = "openai",
        models: Sequence[str] | None = None,
        refuses: Iterable[str] = (),
    ) -> None:
        self.responses: list[Scripted] = list(responses)
        self.profile = PROFILES[profile] if isinstance(profile, str) else profile
        self.models = list(models) if models is not None else None
        self.refuses = frozenset(refuses)
        unknown = self.refuses - set(REFUSALS)
        if unknown:
            raise ValueError(f"FakeOpenAI cannot refuse {sorted(unknown)}; it knows {sorted(REFUSALS)}")
        self.requests: list[dict[str, Any]] = []
        self.log: list[str] = []
        self.answers: list[int] = []
        self.served = 0
        self.errors: list[BaseException] = []

    @property
    def remaining(self) -> int:
        """How many scripted responses have not been served yet."""
        return len(self.responses) - self.served

    async def handle(self, request: httpx2.Request) -> httpx2.Response:
        """The `httpx2.MockTransport` handler."""
        self.log.append(f"{request.method} {request.url.path}")
        path = request.url.path.rstrip("/")
        if request.method == "GET" and path.endswith("/models"):
            if self.models is None:
                return status(404, f"Invalid URL (GET {request.url.path})")
            return httpx2.Response(200, json=models_listing(self.profile, self.models))
        if request.method == "POST" and path.endswith("/chat/completions"):
            return await self._chat(request)
        body = request_body(request)  # an upload's form fields, files as dicts
        self.requests.append(body)
        refused = audio_problem(path, body) if request.method == "POST" else None
        if refused is not None:  # as OpenAI refuses it, using no scripted item
            return refused
        return await self._answer(self._next(request), None)

    async def _chat(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        refused = None
        if self.models is not None and body.get("model") not in self.models and self.profile.not_found:
            refused = self.profile.not_found(str(body.get("model")))
        refused = refused or request_problem(body, self.profile, self.refuses)
        if refused is not None:
            self.answers.append(refused.status_code)
            return refused
        answer = await self._answer(self._next(request), body)
        self.answers.append(answer.status_code)
        return answer

    def _next(self, request: httpx2.Request) -> Scripted:
        if self.remaining <= 0:
            # Raised, not served as an HTTP error, so the SDK neither retries it nor turns it into
            # a ModelError: the test fails with this message.
            raise ScriptExhausted(
                f"FakeOpenAI got request {len(self.log)} ({request.method} {request.url}) "
                f"but was scripted for {len(self.responses)}"
            )
        self.served += 1
        return self.responses[self.served - 1]

    async def _answer(self, scripted: Scripted, body: dict[str, Any] | None) -> httpx2.Response:
        if isinstance(scripted, Exception):
            raise scripted
        if isinstance(scripted, httpx2.Response):
            return scripted
        if body is None:
            raise TypeError(f"FakeOpenAI can render {scripted!r} only for a Chat Completions request")
        if isinstance(scripted, Fault):
            if scripted.kind == "hang":
                await asyncio.sleep(3600)
            return self._fault(scripted, body)
        turn = scripted if isinstance(scripted, Reply) else scripted(copy.deepcopy(body.get("messages", [])))
        if body.get("stream"):
            return httpx2.Response(
                200, content=b"".join(_sse(render_chunks(turn, self.profile, body))), headers=_SSE_HEADERS
            )
        return httpx2.Response(200, json=render_completion(turn, self.profile, body))

    def _fault(self, fault: Fault, body: dict[str, Any]) -> httpx2.Response:
        streams = bool(body.get("stream"))
        if fault.kind == "no_choices":
            usage = {"prompt_tokens": 10, "completion_tokens": 0, "total_tokens": 10}
            head = {"id": "chatcmpl-fake", "created": 0, "model": body.get("model")}
            if streams:
                chunk: dict[str, Any] = {
                    **head,
                    "object": "chat.completion.chunk",
                    "choices": [],
                    "usage": usage,
                }
                return httpx2.Response(200, content=b"".join(_sse([chunk])), headers=_SSE_HEADERS)
            return httpx2.Response(
                200, json={**head, "object": "chat.completion", "choices": [], "usage": usage}
            )
        turn = fault.turn or _SOME_TURN
        if not streams:  # a JSON body that stops half-way, or never comes
            text = json.dumps(render_completion(turn, self.profile, body)).encode()
            parts = [text[: len(text) // 2]]
            return httpx2.Response(200, stream=_Body(parts, "cut" if fault.kind == "cut" else "stall"))
        parts = _sse(render_chunks(turn, self.profile, body))[: fault.after]
        return httpx2.Response(
            200, stream=_Body(parts, "cut" if fault.kind == "cut" else "stall"), headers=_SSE_HEADERS
        )

    def transport(self) -> httpx2.MockTransport:
        """A transport answering from this script."""
        return httpx2.MockTransport(self.handle)

    def client(self, **options: Any) -> AsyncOpenAI:
        """An ``AsyncOpenAI`` wired to this fake (api key ``test``, base URL `FAKE_BASE_URL`)."""
        http_client = httpx2.AsyncClient(transport=self.transport())
        return AsyncOpenAI(api_key="test", base_url=FAKE_BASE_URL, http_client=http_client, **options)

    def model(self, model: str | None = None, **options: Any) -> OpenAIModel:
        """An `OpenAIModel` talking to this fake; `options` go to `OpenAIModel`."""
        # Short waits: nothing here should ever wait on the network.
        options.setdefault("timeout", 5.0)
        options.setdefault("retry_delay", 0.001)
        return OpenAIModel(model, client=self.client(), **options)

    @contextlib.contextmanager
    def serve(self) -> Iterator[str]:
        """Serve this fake over real HTTP on 127.0.0.1 (for a ``webagent`` subprocess); yields its base URL.

        Faults that take time (`stall`, `hang`, `cut_stream`) are not for this. An exception from
        the script (a `ScriptExhausted`) is kept in ``errors`` and answered with HTTP 500.
        """
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                content = self.rfile.read(int(self.headers.get("content-length") or 0))
                url = f"http://127.0.0.1:{port}{self.path}"
                request = httpx2.Request(self.command, url, headers=dict(self.headers), content=content)
                try:
                    response = asyncio.run(fake.handle(request))
                    body = response.read()
                except Exception as exc:
                    fake.errors.append(exc)
                    response, body = httpx2.Response(500), f"FakeOpenAI: {exc}".encode()
                self.send_response(response.status_code)
                self.send_header("content-type", response.headers.get("content-type", "application/json"))
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _serve

            def log_message(self, format: str, *args: Any) -> None:  # quiet: the test reads fake.log
                return

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        port = server.server_port
        thread = threading.Thread(target=server.serve_forever, name="fake-openai", daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/v1"
        finally:
            server.shutdown()
            server.server_close()

    def assert_complete(self) -> None:
        """Raise `AssertionError` unless every scripted response was served (and nothing went wrong)."""
        if self.errors:
            raise AssertionError(f"FakeOpenAI failed while serving: {self.errors[0]!r}")
        if self.remaining > 0:
            raise AssertionError(
                f"FakeOpenAI served {self.served} of {len(self.responses)} responses; "
                f"{self.remaining} never requested"
            )


# --- audio: the transcription and speech endpoints (webagent.voice) ------------------------------------


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


TRANSCRIPTION_FORMATS = ("json", "text", "srt", "verbose_json", "vtt", "diarized_json")
SPEECH_FORMATS = ("mp3", "opus", "aac", "flac", "wav", "pcm")


def audio_problem(path: str, body: dict[str, Any]) -> httpx2.Response | None:
    """OpenAI's 400 for an audio request it would refuse (a missing model, file, input or voice; an
    unknown format; text over 4096 characters); None when it would take it."""
    if path.endswith("/audio/transcriptions"):
        upload = body.get("file")
        if not body.get("model"):
            return status(400, "you must provide a model parameter")
        if not isinstance(upload, dict) or not upload.get("data"):
            return status(400, "Invalid file format. The file is empty or missing.")
        if body.get("response_format", "json") not in TRANSCRIPTION_FORMATS:
            return status(400, f"Invalid value for 'response_format': {body.get('response_format')!r}.")
    elif path.endswith("/audio/speech"):
        for field in ("model", "input", "voice"):
            if not body.get(field):
                return status(400, f"Missing required parameter: '{field}'.")
        if len(str(body["input"])) > 4096:
            return status(400, "String too long. Expected a string with maximum length 4096.")
        if body.get("response_format", "mp3") not in SPEECH_FORMATS:
            return status(400, f"Invalid value for 'response_format': {body.get('response_format')!r}.")
    return None


def transcription(text: str) -> httpx2.Response:
    """A 200 from ``/audio/transcriptions`` with ``response_format="json"``: ``{"text": …}``."""
    return httpx2.Response(200, json={"text": text, "usage": {"type": "duration", "seconds": 3}})


def speech(audio: bytes, content_type: str = "audio/wav") -> httpx2.Response:
    """A 200 from ``/audio/speech``: the audio bytes themselves."""
    return httpx2.Response(200, content=audio, headers={"content-type": content_type})
