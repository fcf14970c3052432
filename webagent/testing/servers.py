"""The OpenAI-compatible servers people point webagent at, as `FakeOpenAI` plays them.

A `ServerProfile` is one server's documented behaviour as data: what it refuses, how it streams tool
calls, what call ids and usage it sends, how it says "no such model", and the flags it must be started
with. `FakeOpenAI(profile=...)` validates requests and renders scripted turns through a profile, so a
whole run can be tested against each server without the server (tests/testing/test_servers.py).

Each behaviour below is cited to the server's docs or issue tracker. Servers change between releases;
where behaviours come from different releases, the profile combines them, so the client copes with
every one of them (the docstring of each profile says which release does what):

- ``openai``: the reference. Holds ``strict`` tools to the strict subset (webagent/llm/schemas.py) and
  checks the conversation the way the API does.
- ``vllm``: ``vllm serve MODEL --enable-auto-tool-choice --tool-call-parser PARSER``.
- ``ollama``: ``ollama serve``, OpenAI-compatible under ``/v1``.
- ``llama.cpp``: ``llama-server -m MODEL.gguf --jinja``.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx2

from webagent.llm.protocol import Reply, ToolCall, Usage
from webagent.llm.schemas import tool_violations

__all__ = [
    "PROFILES",
    "REFUSALS",
    "ServerProfile",
    "error",
    "models_listing",
    "render_chunks",
    "render_completion",
    "request_problem",
]

CallIds = Literal["openai", "vllm", "ollama", "empty"]
ErrorStyle = Literal["openai", "vllm", "ollama", "llama.cpp"]


def error(style: ErrorStyle, status: int, message: str, **fields: Any) -> httpx2.Response:
    """An error response in the body shape each server uses."""
    if style == "vllm":  # top-level, not nested (vllm-project/vllm#3485)
        kind = {400: "BadRequestError", 404: "NotFoundError"}.get(status, "InternalServerError")
        body: dict[str, Any] = {
            "object": "error",
            "message": message,
            "type": kind,
            "param": None,
            "code": status,
        }
    elif style == "llama.cpp":  # {"error": {"code": 500, "message": ..., "type": "server_error"}}
        kind = "server_error" if status >= 500 else "invalid_request_error"
        body = {"error": {"code": status, "message": message, "type": kind}}
    else:
        kind = (
            "api_error"
            if style == "ollama"
            else ("server_error" if status >= 500 else "invalid_request_error")
        )
        body = {"error": {"message": message, "type": kind, "param": None, "code": None, **fields}}
    # The SDK retries 5xx answers; a 1 ms Retry-After (which it honours) keeps tests from waiting on
    # its backoff. Servers send none, so the SDK waits 0.5 s, 1 s, 2 s there.
    headers = {"retry-after-ms": "1"} if status >= 500 else {}
    return httpx2.Response(status, json=body, headers=headers)


@dataclass(frozen=True)
class ServerProfile:
    """How one OpenAI-compatible server behaves, as far as webagent meets it."""

    name: str
    errors: ErrorStyle
    call_ids: CallIds
    """openai ``call_`` + 24 characters; vllm ``chatcmpl-tool-`` + 32 hex; ollama ``call_`` + 8; or empty."""
    strict_schemas: bool = False
    """Refuses ``strict`` tools outside the strict subset (HTTP 400 ``invalid_function_parameters``)."""
    checks_conversation: bool = False
    """Refuses tool messages without their call, calls without their results, arguments not a string,
    ``parallel_tool_calls`` without tools, ``stream_options`` without streaming."""
    refuses_stream_with_tools: bool = False
    """Answers a streamed request with tools with HTTP 500 "Cannot use tools with stream"."""
    whole_calls_in_stream: bool = False
    """Streams each tool call whole in one chunk, every one at index 0, instead of id and name first and
    the arguments in pieces."""
    stream_tool_finish: str = "tool_calls"
    """The ``finish_reason`` that ends a streamed turn with tool calls."""
    arguments_as_object: bool = False
    """Sends tool-call arguments as a JSON object rather than a JSON string."""
    stream_usage: bool = True
    """Sends a usage chunk at the end of a stream when asked (``stream_options.include_usage``)."""
    not_found: Callable[[str], httpx2.Response] | None = None
    """The answer to a model it does not serve; None: it answers under any model name."""
    owned_by: str = "openai"
    flags: str = ""
    """What the server needs to be started with for webagent, for the README."""
    sources: tuple[str, ...] = field(default=())


OPENAI = ServerProfile(
    name="openai",
    errors="openai",
    call_ids="openai",
    strict_schemas=True,
    checks_conversation=True,
    not_found=lambda model: error(
        "openai",
        404,
        f"The model `{model}` does not exist or you do not have access to it.",
        code="model_not_found",
    ),
    owned_by="openai",
    sources=(
        "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
        "https://platform.openai.com/docs/api-reference/chat/create (stream_options, parallel_tool_calls)",
        "livekit/agents#1987 (the 400 invalid_function_parameters body, word for word)",
    ),
)
"""OpenAI's API: strict tools held to the subset, the conversation checked, usage when asked."""

VLLM = ServerProfile(
    name="vllm",
    errors="vllm",
    call_ids="vllm",
    not_found=lambda model: error("vllm", 404, f"The model `{model}` does not exist."),
    owned_by="vllm",
    flags="--enable-auto-tool-choice --tool-call-parser PARSER (hermes for Qwen, llama3_json, mistral, …)",
    sources=(
        "https://docs.vllm.ai/en/latest/features/tool_calling.html (the flags; without them: 400 "
        '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser, vllm#9986)',
        "vllm#32006: `strict` is accepted and ignored ('The following fields were present in the "
        "request but ignored')",
        "vllm#9451, fixed by vllm#26233 (0.11): parallel_tool_calls ignored before",
        "vllm#3485: errors are {'object': 'error', 'message': ..., 'code': 404} at the top level",
    ),
)
"""vLLM: OpenAI-shaped streams and ids ``chatcmpl-tool-…``; ``strict`` ignored; usage when asked."""

OLLAMA = ServerProfile(
    name="ollama",
    errors="ollama",
    call_ids="ollama",
    whole_calls_in_stream=True,
    stream_tool_finish="stop",
    stream_usage=False,
    not_found=lambda model: error("ollama", 404, f'model "{model}" not found, try pulling it first'),
    owned_by="library",
    flags="OLLAMA_CONTEXT_LENGTH=16384 (the default context, 2048 or 4096 tokens, cuts the prompt off)",
    sources=(
        "https://github.com/ollama/ollama/blob/main/docs/openai.md (strict, parallel_tool_calls not "
        "supported: ignored)",
        "ollama#9092: with tools, a stream carries each tool call whole in one chunk",
        "ollama#15457: every streamed tool call has index 0",
        "ollama PR #7963 / earendil-works/pi#1125 (0.15.1): a streamed tool turn ends with finish_reason 'stop'",
        "ollama#5200, #4448: before 0.5.2, stream_options is ignored: no usage in a stream",
        "ollama#5902, #2722: default context 2048 tokens; OLLAMA_CONTEXT_LENGTH raises it",
        "netease-youdao/QAnything#555: 404 'model \"x\" not found, try pulling it first'",
    ),
)
"""Ollama's ``/v1``: whole tool calls at index 0 in streams, ``finish_reason`` "stop", no stream usage."""

LLAMA_CPP = ServerProfile(
    name="llama.cpp",
    errors="llama.cpp",
    call_ids="empty",
    refuses_stream_with_tools=True,
    arguments_as_object=True,
    not_found=None,
    owned_by="llamacpp",
    flags="--jinja (tools need it: '500 tools param requires --jinja flag'; the default in recent builds)",
    sources=(
        "llama.cpp#12279: tool_call.id returned empty",
        "simonw/llm-llama-server#3: '500 Cannot use tools with stream' before llama.cpp#12379 (May 2025)",
        "llama.cpp#20198 (March 2026 builds): arguments returned as a JSON object",
        "defilantech/LLMKube#126: '500 tools param requires --jinja flag'",
        "/v1/models lists the one loaded model with owned_by 'llamacpp'; the request's model name is "
        "not checked",
    ),
)
"""llama.cpp's ``llama-server``: no streaming with tools, empty call ids, arguments as objects."""

PROFILES: dict[str, ServerProfile] = {p.name: p for p in (OPENAI, VLLM, OLLAMA, LLAMA_CPP)}
"""The profiles by name: openai, vllm, ollama, llama.cpp."""


def _strict_refused(style: ErrorStyle) -> httpx2.Response:
    # DeepSeek, Upstage and other strict-less endpoints (Zoo-Code-Org/Zoo-Code#1036).
    return error(
        style,
        400,
        "Invalid value: 'true'. The value 'true' isn't supported yet. For now, please use 'false' for this setting.",
        param="tools[0].function.strict",
    )


REFUSALS: dict[str, Callable[[ErrorStyle], httpx2.Response]] = {
    "strict": _strict_refused,
    # OpenAI's reasoning models refuse it; gateways too.
    "parallel_tool_calls": lambda style: error(
        style,
        400,
        "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.",
        param="parallel_tool_calls",
    ),
    # Gateways and older Azure API versions (QuantumNous/new-api#418).
    "stream_options": lambda style: error(
        style, 400, "Unknown parameter: 'stream_options'.", param="stream_options", code="unknown_parameter"
    ),
    # llama.cpp before #12379.
    "stream": lambda style: error(style, 500, "Cannot use tools with stream"),
    # Servers whose tool_choice is "none", "auto", "required" or one named function (vLLM's request model).
    "allowed_tools": lambda style: error(
        style,
        400,
        "Invalid value for 'tool_choice': 'allowed_tools' is not supported; expected 'none', 'auto', "
        "'required' or a named function.",
        param="tool_choice",
    ),
}
"""Documented refusals of each request feature `OpenAIModel` can drop, for ``FakeOpenAI(refuses=...)``."""


# -- checking a request -------------------------------------------------------------------------------


def request_problem(
    body: dict[str, Any], profile: ServerProfile, refuses: frozenset[str]
) -> httpx2.Response | None:
    """The error the server answers this Chat Completions request with, or None when it accepts it."""
    tools = body.get("tools") or []
    style = profile.errors
    if "strict" in refuses and any("strict" in (tool.get("function") or {}) for tool in tools):
        return REFUSALS["strict"](style)
    if "parallel_tool_calls" in refuses and "parallel_tool_calls" in body:
        return REFUSALS["parallel_tool_calls"](style)
    if "stream_options" in refuses and "stream_options" in body:
        return REFUSALS["stream_options"](style)
    if "allowed_tools" in refuses and isinstance(body.get("tool_choice"), dict):
        return REFUSALS["allowed_tools"](style)
    streams = bool(body.get("stream"))
    if streams and tools and ("stream" in refuses or profile.refuses_stream_with_tools):
        return REFUSALS["stream"](style)
    if profile.checks_conversation:
        problem = _conversation_problem(body)
        if problem is not None:
            return problem
    if profile.strict_schemas:
        for index, tool in enumerate(tools):
            violations = tool_violations(tool)
            if violations:
                return error(
                    style,
                    400,
                    violations[0],
                    param=f"tools[{index}].function.parameters",
                    code="invalid_function_parameters",
                )
    return None


def _conversation_problem(body: dict[str, Any]) -> httpx2.Response | None:
    """What OpenAI refuses in a request's shape and conversation, in its words."""
    if "parallel_tool_calls" in body and not body.get("tools"):
        return error(
            "openai",
            400,
            "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
            param="parallel_tool_calls",
        )
    if "stream_options" in body and not body.get("stream"):
        return error(
            "openai",
            400,
            "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
            param="stream_options",
        )
    for index, tool in enumerate(body.get("tools") or []):
        name = str((tool.get("function") or {}).get("name", ""))
        if not name or len(name) > 64 or any(c not in _NAME_CHARS for c in name):
            return error(
                "openai",
                400,
                f"Invalid 'tools[{index}].function.name': string does not match pattern. Expected a string "
                "that matches the pattern '^[a-zA-Z0-9_-]+$'.",
                param=f"tools[{index}].function.name",
            )
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "allowed_tools":
        declared = {str((tool.get("function") or {}).get("name")) for tool in body.get("tools") or []}
        for named in (choice.get("allowed_tools") or {}).get("tools") or []:
            name = str((named.get("function") or {}).get("name"))
            if name not in declared:
                return error(
                    "openai",
                    400,
                    f"Invalid 'tool_choice': tool '{name}' is not in 'tools'.",
                    param="tool_choice.allowed_tools.tools",
                )
    waiting: list[str] = []
    for index, message in enumerate(body.get("messages") or []):
        role = message.get("role")
        unexpected = sorted(set(message) - MESSAGE_KEYS.get(str(role), set(message)))
        if unexpected:
            return error(
                "openai",
                400,
                f"Invalid 'messages[{index}]': additional properties are not allowed "
                f"({', '.join(repr(key) for key in unexpected)} {'was' if len(unexpected) == 1 else 'were'} unexpected).",
                param=f"messages[{index}]",
            )
        if role == "tool":
            if message.get("tool_call_id") not in waiting:
                return error(
                    "openai",
                    400,
                    "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                    "message with 'tool_calls'.",
                    param=f"messages.[{index}].role",
                )
            waiting.remove(message["tool_call_id"])
            continue
        if waiting:
            return error(
                "openai",
                400,
                "An assistant message with 'tool_calls' must be followed by tool messages responding to "
                f"each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                f"{', '.join(waiting)}",
                param=f"messages.[{index}].role",
            )
        if role == "assistant" and "tool_calls" in message:
            calls = message["tool_calls"]
            if not calls:
                return error(
                    "openai",
                    400,
                    f"Invalid 'messages[{index}].tool_calls': empty array. Expected an array with minimum "
                    "length 1, but got an empty array instead.",
                    param=f"messages[{index}].tool_calls",
                )
            for number, call in enumerate(calls):
                arguments = (call.get("function") or {}).get("arguments")
                if not isinstance(arguments, str):
                    return error(
                        "openai",
                        400,
                        f"Invalid type for 'messages[{index}].tool_calls[{number}].function.arguments': "
                        "expected a string, but got an object instead.",
                        param=f"messages[{index}].tool_calls[{number}].function.arguments",
                    )
            waiting = [str(call.get("id")) for call in calls]
    if waiting:
        return error(
            "openai",
            400,
            "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
            f"'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(waiting)}",
            param="messages",
        )
    return None


_NAME_CHARS = frozenset(string.ascii_letters + string.digits + "_-")
MESSAGE_KEYS: dict[str, set[str]] = {
    role: {"role", *keys.split()}
    for role, keys in (
        ("developer", "content name"),
        ("system", "content name"),
        ("user", "content name"),
        ("assistant", "audio content function_call name refusal tool_calls"),
        ("tool", "content tool_call_id"),
        ("function", "content name"),
    )
}
"""What each role's message may hold in the API reference (platform.openai.com/docs/api-reference/chat/
create, ``messages``): OpenAI answers 400 for any other key. The fake's own table, not the client's."""


# -- rendering a scripted turn ------------------------------------------------------------------------


def _call_id(profile: ServerProfile, scripted: str) -> str:
    chars = string.ascii_lowercase + string.digits
    if profile.call_ids == "openai":
        return scripted or "call_" + "".join(random.choices(string.ascii_letters + string.digits, k=24))
    if profile.call_ids == "vllm":
        return "chatcmpl-tool-" + "".join(random.choices("0123456789abcdef", k=32))
    if profile.call_ids == "ollama":
        return "call_" + "".join(random.choices(chars, k=8))
    return ""


def _arguments(profile: ServerProfile, call: ToolCall) -> Any:
    if profile.arguments_as_object:
        try:
            return json.loads(call.arguments)
        except ValueError:
            return call.arguments  # malformed arguments stay text: the server passes the model's output on
    return call.arguments


def _usage(turn: Reply, body: dict[str, Any]) -> dict[str, Any]:
    """The scripted usage, or a plausible count (about 4 characters a token) when none was scripted."""
    usage = turn.usage
    if usage == Usage():
        sent = json.dumps(body.get("messages", [])) + json.dumps(body.get("tools", []))
        said = (turn.content or "") + "".join(c.name + c.arguments for c in turn.tool_calls)
        usage = Usage(prompt_tokens=len(sent) // 4 + 1, completion_tokens=len(said) // 4 + 1)
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.prompt_tokens + usage.completion_tokens,
        "prompt_tokens_details": {"cached_tokens": usage.cached_tokens},
    }


def _head(body: dict[str, Any], kind: str) -> dict[str, Any]:
    return {"id": "chatcmpl-fake", "object": kind, "created": 0, "model": body.get("model", "fake-model")}


def render_completion(turn: Reply, profile: ServerProfile, body: dict[str, Any]) -> dict[str, Any]:
    """A scripted turn as this server's non-streamed Chat Completion."""
    message: dict[str, Any] = {"role": "assistant", "content": turn.content}
    if turn.tool_calls:
        message["tool_calls"] = [
            {
                "id": _call_id(profile, c.id),
                "type": "function",
                "function": {"name": c.name, "arguments": _arguments(profile, c)},
            }
            for c in turn.tool_calls
        ]
    finish = turn.finish_reason or ("tool_calls" if turn.tool_calls else "stop")
    return {
        **_head(body, "chat.completion"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": _usage(turn, body),
    }


def render_chunks(
    turn: Reply, profile: ServerProfile, body: dict[str, Any], piece: int = 4
) -> list[dict[str, Any]]:
    """A scripted turn as this server's stream of chunks (without the final ``[DONE]``).

    Text comes in `piece`-character deltas. Tool calls come as the profile streams them: id and name
    first and the arguments in `piece`-character fragments (OpenAI, vLLM), or each call whole, at
    index 0 (Ollama). Then the finish chunk and, when asked for and sent, a usage-only chunk.
    """
    head = _head(body, "chat.completion.chunk")

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}

    chunks = [chunk({"role": "assistant", "content": ""})]
    text = turn.content or ""
    chunks += [chunk({"content": text[i : i + piece]}) for i in range(0, len(text), piece)]
    for index, call in enumerate(turn.tool_calls):
        call_id = _call_id(profile, call.id)
        if profile.whole_calls_in_stream:
            whole = {
                "index": 0,
                "id": call_id,
                "type": "function",
                "function": {"name": call.name, "arguments": _arguments(profile, call)},
            }
            chunks.append(chunk({"tool_calls": [whole]}))
            continue
        first = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        chunks.append(chunk({"tool_calls": [first]}))
        chunks += [
            chunk(
                {"tool_calls": [{"index": index, "function": {"arguments": call.arguments[i : i + piece]}}]}
            )
            for i in range(0, len(call.arguments), piece)
        ]
    finish = turn.finish_reason or ("tool_calls" if turn.tool_calls else "stop")
    if finish == "tool_calls":
        finish = profile.stream_tool_finish
    chunks.append(chunk({}, finish))
    wants_usage = bool((body.get("stream_options") or {}).get("include_usage"))
    if wants_usage and profile.stream_usage:
        chunks.append({**head, "choices": [], "usage": _usage(turn, body)})
    return chunks


def models_listing(profile: ServerProfile, models: list[str]) -> dict[str, Any]:
    """``GET /models`` as this server answers it."""
    data = [{"id": model, "object": "model", "created": 0, "owned_by": profile.owned_by} for model in models]
    if profile.name == "llama.cpp":
        for entry in data:
            entry["aliases"] = []
    return {"object": "list", "data": data}
