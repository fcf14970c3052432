"""A tool call from raw model output to typed arguments: the tools' strict schemas, and the parse of a
call against them that never raises for the model's mistakes (each is a sentence it can fix its call from).
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from pydantic import ValidationError

from webagent.llm.schemas import strict_tool
from webagent.tools.base import Args, Tool

__all__ = ["describe_validation_error", "parse_call", "tool_schemas"]


def tool_schemas(tools: tuple[Tool, ...]) -> list[dict[str, Any]]:
    """Strict Chat Completions tool schemas inside OpenAI's strict subset, from the argument models.

    Built once per tool (about 1.5 ms each) and copied for each caller, who may change its copy.
    """
    return copy.deepcopy([_schema(tool.args, tool.name) for tool in tools])


@functools.cache
def _schema(args: type[Args], name: str) -> dict[str, Any]:
    return strict_tool(args, name)


def describe_validation_error(error: ValidationError) -> str:
    """Pydantic's errors as one short sentence the model can fix its call from."""
    parts = []
    for item in error.errors()[:4]:
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


def parse_call(tools: tuple[Tool, ...], name: str, arguments: str | dict[str, Any]) -> Args | str:
    """The validated arguments for one of ``tools``, or a sentence saying what is wrong with them."""
    tool = next((tool for tool in tools if tool.name == name), None)
    if tool is None:
        return f"There is no tool called {name!r}. Tools: {', '.join(tool.name for tool in tools)}."
    try:
        raw = json.loads(arguments or "{}") if isinstance(arguments, str) else arguments
    except json.JSONDecodeError as error:
        return f"{name} arguments are not valid JSON ({error.msg} at position {error.pos}); nothing was done."
    if not isinstance(raw, dict):
        return f"{name} arguments must be a JSON object; nothing was done."
    try:
        return tool.args.model_validate(raw)
    except ValidationError as error:
        return f"Invalid arguments for {name}: {describe_validation_error(error)}. Nothing was done."
