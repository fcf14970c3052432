"""Structured steps: the next tool call as a JSON document the endpoint's decoder is held to.

Small models on local servers often cannot use Chat Completions tool calling: they answer in prose, or
write the call as JSON text in ``content`` where the server's parser does not find it. What they can
do, on a server with constrained decoding (llama.cpp, vLLM, Ollama), is answer to a ``response_format``
JSON schema — the 12-factor agents' "tools as structured outputs". In this mode `OpenAIModel` sends:

- no ``tools``: the schema `step_format` builds from the tools offered this turn, a union of one branch
  per tool (``{"tool": "<its name>", "arguments": <its strict parameters>}``) under one ``step``
  property, so that a reply *is* a valid call of an allowed tool;
- the conversation with tool calls and results written as plain turns (`as_plain_messages`): servers
  render those for any chat template, and a history that reads the same every turn lets the server reuse
  its evaluated prefix (llama.cpp's prompt cache), so a later turn costs only what is new;
- a last, per-turn user message (`step_hint`) naming the tools allowed now, with a line for each tool (and
  its arguments) the conversation has not seen described as it is now. The hint and the reply as generated
  stay in the conversation where they were (`Reply.prompted`, `Reply.step`), so each turn's prompt is the
  last one with the reply and the new narration after it: the server's prompt cache keeps all the rest.

The reply's text is read back into an ordinary `ToolCall` (`step_call`). The schema keeps to OpenAI's
strict subset (a root object, every property required, ``$defs`` at the root), so the same mode runs
against OpenAI's Structured Outputs too. Pure: the standard library only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["STEP_SCHEMA_NAME", "as_plain_messages", "step_call", "step_format", "step_hint", "step_schema"]

STEP_SCHEMA_NAME = "next_step"


def step_schema(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON schema of one step: ``{"step": {"tool": name, "arguments": {...}}}`` for one of `tools`.

    Each tool's ``$defs`` move to the root under ``<tool>.<name>``, their ``$ref``s rewritten to match.
    """
    branches, defs = [], {}
    for tool in tools:
        function = tool.get("function") or {}
        name = str(function.get("name", ""))
        parameters = json.loads(json.dumps(function.get("parameters") or {"type": "object"}))
        own = parameters.pop("$defs", {})
        renamed = {key: f"{name}.{key}" for key in own}
        for key, value in own.items():
            defs[renamed[key]] = _rewrite_refs(value, renamed)
        branches.append(
            {
                "type": "object",
                "properties": {
                    "tool": {"type": "string", "enum": [name]},
                    "arguments": _rewrite_refs(parameters, renamed),
                },
                "required": ["tool", "arguments"],
                "additionalProperties": False,
            }
        )
    step: dict[str, Any] = branches[0] if len(branches) == 1 else {"anyOf": branches}
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"step": step},
        "required": ["step"],
        "additionalProperties": False,
    }
    if defs:
        schema["$defs"] = defs
    return schema


def step_format(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``response_format`` of a request in structured-step mode."""
    return {
        "type": "json_schema",
        "json_schema": {"name": STEP_SCHEMA_NAME, "strict": True, "schema": step_schema(tools)},
    }


def _rewrite_refs(node: Any, renamed: dict[str, str]) -> Any:
    if isinstance(node, dict):
        out = {key: _rewrite_refs(value, renamed) for key, value in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            key = ref.removeprefix("#/$defs/")
            out["$ref"] = f"#/$defs/{renamed.get(key, key)}"
        return out
    if isinstance(node, list):
        return [_rewrite_refs(item, renamed) for item in node]
    return node


# -- the per-turn hint -------------------------------------------------------------------------------


STEP_FORM = 'Choose the next step: one tool call, as JSON {"step": {"tool": "<name>", "arguments": {...}}}.'


def step_hint(
    tools: list[dict[str, Any]], messages: Sequence[Mapping[str, Any]] = (), form: bool = True
) -> str:
    """The last message of a structured-step request: the tools allowed now by name, after a line for each
    one the conversation's earlier hints (``prompted`` on its steps) have not described as it is now, and
    for each whose arguments are held to the page's values (a dish of the open menu, the restaurant named).

    Each hint stays in the conversation where it was sent, so the next prompt is this one, the reply as
    generated and the new narration: nothing before it changes, and the server's prompt cache keeps it
    all (issue 38). The decoding grammar holds the step to the allowed tools and their arguments."""
    earlier = "\n".join(str(m.get("prompted")) for m in messages if m.get("prompted"))
    lines = [
        line
        for tool in tools
        if (line := _tool_line(tool.get("function") or {})) not in earlier or _held(line)
    ]
    names = ", ".join(str((tool.get("function") or {}).get("name")) for tool in tools)
    head = "" if earlier or not form else STEP_FORM + "\n"  # the tool-calling path has no JSON form
    return head + "".join(f"{line}\n" for line in lines) + f"Tools allowed now: {names}"


def _held(line: str) -> bool:
    """Whether a tool's line holds an argument to values of the page now (``dish: "Tiramisu"``): written
    again each turn it is allowed, as the step that makes progress is usually among them."""
    return '"' in line.split("):", 1)[0]


def _tool_line(function: dict[str, Any]) -> str:
    parameters = function.get("parameters") or {}
    defs = parameters.get("$defs") or {}
    shapes = parameters.get("anyOf") or [parameters]  # a union: one shape per choice (a dish each)
    kinds: dict[str, list[str]] = {}
    for shape in shapes:
        for key, value in (shape.get("properties") or {}).items():
            kinds.setdefault(key, []).append(_brief(value, defs))
    arguments = ", ".join(f"{key}: {'|'.join(dict.fromkeys(found))}" for key, found in kinds.items())
    description = _first_sentence(str(function.get("description") or ""))
    return f"- {function.get('name')}({arguments}): {description}"


def _brief(node: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> str:
    """A property's type in a few characters: ``string``, ``integer|null``, ``[{dish, quantity}]``."""
    if "$ref" in node:
        node = defs.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
    if "anyOf" in node:
        kinds = [_brief(branch, defs, depth) for branch in node["anyOf"]]
        return "|".join(dict.fromkeys(kinds))
    if "enum" in node:
        return "|".join(json.dumps(value) for value in node["enum"][:8])
    kind = node.get("type")
    if kind == "array":
        return f"[{_brief(node.get('items') or {}, defs, depth + 1)}]"
    if kind == "object" or "properties" in node:
        keys = list(node.get("properties") or {})
        if depth >= 1:
            return "{" + ", ".join(keys) + "}"
        inner = ", ".join(
            f"{key}: {_brief(value, defs, depth + 1)}"
            for key, value in (node.get("properties") or {}).items()
        )
        return "{" + inner + "}"
    return str(kind or "any")


def _first_sentence(text: str) -> str:
    # A sentence ends before a capital letter or at the end ("e.g. Escape" does not end one).
    match = re.match(r"(.+?(?<!e\.g)[.!?])(\s+(?=[A-Z(])|$)", " ".join(text.split()))
    return match.group(1) if match else " ".join(text.split())


# -- reading a reply, writing the history --------------------------------------------------------------


def step_call(content: str | None) -> tuple[str, str] | None:
    """(tool name, arguments as JSON text) from a structured step's text; None when it is no step."""
    try:
        document = json.loads(content or "")
    except ValueError:
        return None
    step = document.get("step") if isinstance(document, dict) else None
    if isinstance(step, dict) and isinstance(step.get("tool"), str):
        arguments = step.get("arguments")
        return step["tool"], json.dumps(arguments if isinstance(arguments, dict) else {})
    return None


def as_plain_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation without tool-call structure: each call as the step the model wrote (its text as
    generated, after the hint it answered, where the step keeps them), each result as a user turn that names
    its tool. Deterministic, so every turn's history starts the same."""
    names: dict[str, str] = {}
    plain: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role == "assistant" and message.get("prompted") and message.get("step"):
            for call in message.get("tool_calls") or ():
                names[str(call.get("id"))] = str((call.get("function") or {}).get("name"))
            plain.append({"role": "user", "content": str(message["prompted"]), "hint": True})
            plain.append({"role": "assistant", "content": str(message["step"])})
        elif role == "assistant" and message.get("tool_calls"):
            steps = []
            for call in message["tool_calls"]:
                function = call.get("function") or {}
                names[str(call.get("id"))] = str(function.get("name"))
                try:
                    arguments = json.loads(function.get("arguments") or "{}")
                except ValueError:
                    arguments = function.get("arguments")
                steps.append(json.dumps({"step": {"tool": function.get("name"), "arguments": arguments}}))
            plain.append({"role": "assistant", "content": "\n".join(steps)})
        elif role == "tool":
            name = names.get(str(message.get("tool_call_id")), "tool")
            plain.append({"role": "user", "content": f"Result of {name}:\n{message.get('content') or ''}"})
        else:
            plain.append({"role": role, "content": message.get("content") or ""})
    return _merged(plain)


def _merged(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive turns of one role joined into one: some chat templates insist that roles alternate."""
    out: list[dict[str, Any]] = []
    for message in messages:
        joins = not message.get("hint") and not (out and out[-1].get("hint"))  # a hint stands as it was sent
        if joins and out and out[-1]["role"] == message["role"] and message["role"] != "system":
            out[-1] = {**out[-1], "content": f"{out[-1]['content']}\n\n{message['content']}"}
        else:
            out.append(dict(message))
    return [{"role": m["role"], "content": m["content"]} for m in out]
