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

import copy
import json
import re
from collections.abc import Sequence
from typing import Any

from jsonschema import Draft202012Validator

__all__ = ["outside_offer", "read_cap", "sized"]


def outside_offer(name: str, arguments: str, offered: Sequence[dict[str, Any]]) -> str | None:
    """Why a call of ``name`` with ``arguments`` (JSON text) is not one of ``offered`` (Chat Completions
    tool schemas), in words the model can act on; None when it is."""
    functions = {
        str((tool.get("function") or {}).get("name")): tool.get("function") or {} for tool in offered
    }
    allowed = ", ".join(functions)
    if name not in functions:
        return f"Refused: {name} is not offered now. The tools offered now: {allowed}."
    if name in OWN_CHECKS:
        return None
    try:
        values = _lax(json.loads(arguments or "{}"))
    except ValueError:
        return None  # not JSON at all: the tool's own check narrates it
    schema = functions[name].get("parameters") or {}
    errors = [e for e in Draft202012Validator(schema).iter_errors(values) if not _forgiven(e)]
    if not errors:
        return None
    error = min(errors, key=_depth)
    where = ".".join(str(part) for part in error.absolute_path)
    what = f"{name}'s {where} is" if where else f"{name}'s arguments are"
    return f"Refused: {what} not what is offered now: {_short(error.message)}."


LEFT_TO_THE_TOOL = frozenset({"required", "additionalProperties", "type"})
"""What the tool's own check narrates (an argument left out takes its default; one it does not know is
named; ``"2"`` for 2 is parsed as pydantic parses it): the offer holds the values given, not the shape of
the call."""
OWN_CHECKS = frozenset({"finish", "ask_human"})
"""Tools whose arguments the loop checks itself, against what the shop showed and what the person said
(webagent/agent/controls.py): held here by name only."""


def _forgiven(error: Any, branch: bool = False) -> bool:
    """An error the tool would not make: a shape left to it, a name written in another case or spacing than
    the one offered ("margherita pizza"), or a union one of whose branches fails on such things only (a
    branch of another type is one not taken: ``null`` for a number over the maximum forgives nothing)."""
    if error.validator in LEFT_TO_THE_TOOL and not (branch and error.validator == "type"):
        return True
    if error.validator == "enum" and isinstance(error.instance, str):
        return any(isinstance(v, str) and _fold(v) == _fold(error.instance) for v in error.validator_value)
    if error.validator in ("anyOf", "oneOf") and error.context:
        branches: dict[Any, list[Any]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        return any(all(_forgiven(sub, branch=True) for sub in subs) for subs in branches.values())
    return False


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _lax(value: Any) -> Any:
    """Numbers written as text read as numbers (``"2"`` → 2), as the tools' own models read them."""
    if isinstance(value, dict):
        return {key: _lax(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_lax(item) for item in value]
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        return int(value)
    return value


def _depth(error: Any) -> int:
    return -len(error.absolute_path)  # the deepest first: "dish" rather than "the arguments"


def _short(message: str) -> str:
    return message if len(message) <= 240 else message[:237] + "…"


def read_cap(context_tokens: int) -> int:
    """The most characters ``read_page`` may return to a model with ``context_tokens`` of context: a quarter
    of it, at about 3.5 characters a token (an 8,192-token slot: 7,168)."""
    return max(200, context_tokens * 7 // 8)


def sized(offered: list[dict[str, Any]], context_tokens: int | None) -> list[dict[str, Any]]:
    """``offered`` with ``read_page``'s ``max_chars`` held to what the model's context can take (`read_cap`):
    a 12,000-character page in an 8,192-token context leaves no room for the rest of the run."""
    if context_tokens is None:
        return offered
    cap = read_cap(context_tokens)
    out = []
    for tool in offered:
        function = tool.get("function") or {}
        prop = ((function.get("parameters") or {}).get("properties") or {}).get("max_chars")
        if function.get("name") != "read_page" or not isinstance(prop, dict):
            out.append(tool)
            continue
        tool = copy.deepcopy(tool)
        prop = tool["function"]["parameters"]["properties"]["max_chars"]
        words = str(prop.get("description") or "")
        stated = re.search(r"to (\d+)\.", words)  # strict schemas carry the tool's own bound in words
        most = min(cap, int(stated.group(1))) if stated else cap
        for branch in prop.get("anyOf") or [prop]:
            if branch.get("type") == "integer":
                branch["maximum"] = min(int(branch.get("maximum", most)), most)
        if stated:
            prop["description"] = words.replace(stated.group(0), f"to {most}.")
        out.append(tool)
    return out
