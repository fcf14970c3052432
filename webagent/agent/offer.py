"""A call outside the turn's offer, refused before it runs.

A model offered only what the page allows now (``narrow_tools``: the tools allowed, their arguments held to
the page's values and the person's words, webagent/agent/stated.py) is held to that offer by the endpoint
where it can be: the decoding grammar of a structured step, ``tool_choice``'s allowed tools on OpenAI. Where
it cannot — llama.cpp takes allowed tools and ignores them, every tool is declared each turn so the prompt
only grows (webagent/llm/sent.py), a server's grammar is off — this is what holds it: a call to a tool not
offered, or with arguments the offered schema does not take, is refused with what was offered, and runs
nothing. Pure: no browser code.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from jsonschema import Draft202012Validator

__all__ = ["outside_offer"]


def outside_offer(name: str, arguments: str, offered: Sequence[dict[str, Any]]) -> str | None:
    """Why a call of ``name`` with ``arguments`` (JSON text) is not one of ``offered`` (Chat Completions
    tool schemas), in words the model can act on; None when it is."""
    functions = {
        str((tool.get("function") or {}).get("name")): tool.get("function") or {} for tool in offered
    }
    allowed = ", ".join(functions)
    if name not in functions:
        return f"Refused: {name} is not offered now. The tools offered now: {allowed}."
    try:
        values = json.loads(arguments or "{}")
    except ValueError:
        return None  # not JSON at all: the tool's own check narrates it
    schema = functions[name].get("parameters") or {}
    errors = [
        e for e in Draft202012Validator(schema).iter_errors(values) if e.validator not in LEFT_TO_THE_TOOL
    ]
    if not errors:
        return None
    error = min(errors, key=_depth)
    where = ".".join(str(part) for part in error.absolute_path)
    what = f"{name}'s {where} is" if where else f"{name}'s arguments are"
    return f"Refused: {what} not what is offered now: {_short(error.message)}."


LEFT_TO_THE_TOOL = frozenset({"required", "additionalProperties"})
"""What the tool's own check narrates (an argument left out takes its default; one it does not know is
named): the offer holds the values given, not the shape of the call."""


def _depth(error: Any) -> int:
    return -len(error.absolute_path)  # the deepest first: "dish" rather than "the arguments"


def _short(message: str) -> str:
    return message if len(message) <= 240 else message[:237] + "…"
