"""Reading what a Chat Completions endpoint sends back, whole or streamed, into a `Reply`.

Tolerant of the servers people run (webagent/testing/servers.py describes them): arguments as a JSON
string or as an object; a missing, empty or repeated call id (one is made); tool calls whole in one
chunk or split across many, with or without an index; a refusal in place of text; any
``finish_reason``. A reply with nothing in it raises `BrokenReply`, which `OpenAIModel` retries.

Pure: it reads the SDK's objects by attribute and imports nothing of the SDK, so a stream of chunks can
be fed in by hand. Waiting on the stream (stalls, deadlines) is the client's part, not this.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from webagent.llm.protocol import Reply, ToolCall, Usage

__all__ = ["BrokenReply", "ErrorReply", "StreamedTurn", "reply_from_completion"]


class BrokenReply(Exception):
    """A reply that arrived broken (retried by the client); the message says how, for the final error."""


class ErrorReply(BrokenReply):
    """The endpoint sent an error object where a reply was due — llama.cpp streams its HTTP 500s (a tool
    call it could not parse, say) as a chunk ``{"error": {"code", "message"}}`` — said as the server
    said it, code and message, rather than as a reply with no choices."""

    def __init__(self, code: int | None, message: str) -> None:
        super().__init__(f"answered HTTP {code}: {message}" if code else f"answered with an error: {message}")
        self.code = code
        self.message = message


def error_in(sent: Any) -> ErrorReply | None:
    """The error object in a chunk or completion (as an attribute or a pydantic extra), if it has one."""
    error = getattr(sent, "error", None)
    if error is None:
        error = (getattr(sent, "model_extra", None) or {}).get("error")
    if not error:
        return None
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
    else:
        code, message = getattr(error, "code", None), getattr(error, "message", None)
    return ErrorReply(code if isinstance(code, int) else None, " ".join(str(message or error).split())[:300])


def _usage(usage: Any, sent: Any = None) -> Usage:
    """The reply's usage, with the server's own timings where it sends them (llama.cpp's ``timings``)."""
    if usage is None:
        return Usage()
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) if details is not None else None
    prompt_ms, generated_ms = _timings(sent)
    return Usage(
        prompt_tokens=getattr(usage, "prompt_tokens", None) or 0,
        completion_tokens=getattr(usage, "completion_tokens", None) or 0,
        cached_tokens=cached or 0,
        prompt_ms=prompt_ms,
        generated_ms=generated_ms,
    )


def _timings(sent: Any) -> tuple[float | None, float | None]:
    """(prompt, generation) milliseconds from a llama.cpp answer's ``timings``; (None, None) elsewhere."""
    timings = (getattr(sent, "model_extra", None) or {}).get("timings")
    if not isinstance(timings, dict):
        return None, None
    return _ms(timings.get("prompt_ms")), _ms(timings.get("predicted_ms"))


def _ms(value: Any) -> float | None:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
    return round(float(value), 1) if ok else None


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


def reply_from_completion(completion: Any) -> Reply:
    """A whole (not streamed) completion's first choice as a `Reply`."""
    choices = getattr(completion, "choices", None) or []
    if not choices and (error := error_in(completion)) is not None:
        raise error
    if not choices:
        raise BrokenReply("answered with no choices")
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
        raise BrokenReply("answered with an empty reply")
    return Reply(
        content=content,
        tool_calls=_with_ids(calls),
        usage=_usage(getattr(completion, "usage", None), completion),
        finish_reason=getattr(choice, "finish_reason", None),
    )


def _complete_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


class StreamedTurn:
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
        if (error := error_in(chunk)) is not None:
            raise error
        usage = getattr(chunk, "usage", None)
        if usage is not None:
            self.usage = _usage(usage, chunk)
        prompt_ms, generated_ms = _timings(chunk)  # the server's timings may come in a chunk of their own
        if prompt_ms is not None:
            self.usage = self.usage.model_copy(update={"prompt_ms": prompt_ms, "generated_ms": generated_ms})
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
            raise BrokenReply("streamed an empty reply")
        return Reply(
            content=content, tool_calls=_with_ids(calls), usage=self.usage, finish_reason=self.finish_reason
        )
