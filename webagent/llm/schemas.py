"""Tool schemas in OpenAI's strict subset of JSON Schema, and a checker for that subset.

A tool sent with ``"strict": true`` is accepted only if its parameters stay inside the subset OpenAI
documents for Structured Outputs, which function calling in strict mode shares ("Supported schemas",
https://platform.openai.com/docs/guides/structured-outputs#supported-schemas, and "Strict mode",
https://platform.openai.com/docs/guides/function-calling#strict-mode):

- the root is an object, not an ``anyOf``;
- every object sets ``additionalProperties: false`` and lists *every* property in ``required``
  ("All fields must be required"); an optional field is a union with ``null`` instead;
- types: string, number, integer, boolean, object, array, enum, ``anyOf`` (each branch itself in the
  subset), and null; ``$defs``/``$ref``, recursion included;
- the only type-specific keywords: ``pattern`` and ``format`` (date-time, time, date, duration, email,
  hostname, ipv4, ipv6, uuid) on strings; ``multipleOf``, ``maximum``, ``exclusiveMaximum``,
  ``minimum``, ``exclusiveMinimum`` on numbers; ``minItems``, ``maxItems`` on arrays. Composition
  (``allOf``, ``not``, ``if``/``then``/``else``, ``dependent*``) is not supported, and for fine-tuned
  models the length, range and item-count keywords are refused as well;
- at most 5000 object properties, 10 levels of nesting and 1000 enum values in one schema.

Anything else is refused with HTTP 400 ``invalid_function_parameters`` and a message naming the spot,
e.g. "Invalid schema for function 'collect_info': In context=('properties', 'preferred_name'),
'default' is not permitted." (reported against the real API in livekit/agents#1987; openai-node's own
helpers documentation warns that ``default``, ``minLength`` and ``maxLength`` are rejected in strict
mode). `strict_violations` applies these rules in those words, and `FakeOpenAI` answers with them, so
a schema that slips out of the subset fails a test instead of a user's first run.

`strict_tool` builds such a schema from a pydantic argument model. The SDK's
``openai.pydantic_function_tool`` only marks every property required: a field with a default stays
non-nullable and keeps its ``default``, and length limits stay as ``maxLength``. Here, instead:

- every property is required; one with a default becomes nullable, and ``null`` means "the default"
  (`webagent.tools.Args` turns an explicit ``null`` back into the field's default);
- limits and defaults move into the description the model reads ("At most 100 characters. null
  means 1."), while the pydantic model keeps enforcing them: a call that breaks one is narrated back.
  Even the documented numeric and item-count keywords are moved, so one schema works for fine-tuned
  models and for servers whose grammar engines know less of JSON Schema;
- titles go: the model reads names and descriptions, and titles only cost tokens.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import BaseModel

__all__ = ["STRICT_FORMATS", "strict_parameters", "strict_tool", "strict_violations", "tool_violations"]

STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
"""String formats the strict subset supports."""

_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
_ANY = frozenset({"type", "description", "title", "enum", "const", "anyOf", "$ref", "$defs", "definitions"})
_BY_TYPE = {
    "string": frozenset({"pattern", "format"}),
    "number": frozenset({"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"}),
    "array": frozenset({"items", "minItems", "maxItems"}),
    "object": frozenset({"properties", "required", "additionalProperties"}),
}
_BY_TYPE["integer"] = _BY_TYPE["number"]
_MAX_DEPTH, _MAX_PROPERTIES, _MAX_ENUM_VALUES = 10, 5000, 1000

# What the generated schemas keep; every other keyword is described in words instead.
_KEPT = frozenset(
    {"type", "description", "enum", "const", "anyOf", "items", "properties", "required", "$ref", "$defs"}
)


# -- generation -------------------------------------------------------------------------------------


def strict_tool(args: type[BaseModel], name: str, description: str | None = None) -> dict[str, Any]:
    """A Chat Completions tool for `args` with ``strict: true`` and a schema inside the strict subset.

    The description is `description`, else the model's docstring (as ``pydantic_function_tool`` does).
    """
    text = description if description is not None else (args.__doc__ or "").strip()
    function: dict[str, Any] = {"name": name, "strict": True, "parameters": strict_parameters(args)}
    if text:
        function["description"] = text
    return {"type": "function", "function": function}


def strict_parameters(args: type[BaseModel]) -> dict[str, Any]:
    """The argument model's JSON schema, rewritten into the strict subset (see the module docstring)."""
    schema = copy.deepcopy(args.model_json_schema())
    schema.pop("description", None)  # the function's description already says it
    defs = schema.get("$defs", {})
    result = _strict_object(schema, defs)
    if defs:
        result["$defs"] = {key: _strict_object(value, defs) for key, value in defs.items()}
    return result


def _strict_object(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "properties" not in schema and schema.get("type") != "object":
        return _strict_node(schema, defs)
    required = set(schema.get("required", []))
    properties = {}
    for key, field in schema.get("properties", {}).items():
        prop = _strict_node(field, defs)
        if key not in required:
            prop = _nullable(prop, field.get("default"), "default" in field)
        properties[key] = prop
    result: dict[str, Any] = {"type": "object", "properties": properties}
    if schema.get("description"):
        result["description"] = schema["description"]
    result["required"] = list(properties)
    result["additionalProperties"] = False
    return result


def _strict_node(schema: dict[str, Any], defs: dict[str, Any], *, say_limits: bool = True) -> dict[str, Any]:
    """One property (or array item): kept keywords stay, the rest become words in its description.

    A union's branches say nothing themselves: their limits are the property's, said once, there.
    """
    if "$ref" in schema and len(schema) > 1:
        # The subset wants a bare $ref; inline the definition so its siblings (a description) can stay.
        target = defs.get(str(schema["$ref"]).rsplit("/", 1)[-1], {})
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    if schema.get("type") == "object" or "properties" in schema:
        return _strict_object(schema, defs)
    notes = _limits(schema) if say_limits else []
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "anyOf":
            result["anyOf"] = [_strict_node(branch, defs, say_limits=False) for branch in value]
            notes += [note for branch in value for note in _limits(branch) if note not in notes]
        elif key == "items":
            result["items"] = _strict_node(value, defs)
        elif key in _KEPT:
            result[key] = value
    return _with_notes(result, notes)


def _nullable(prop: dict[str, Any], default: Any, has_default: bool) -> dict[str, Any]:
    """The property as a union with null, and what null means when the field has a default."""
    branches = prop.get("anyOf")
    nullable = isinstance(branches, list) and any(branch.get("type") == "null" for branch in branches)
    if not nullable:
        description = prop.pop("description", None)
        prop = {"anyOf": [prop, {"type": "null"}]}
        if description:
            prop["description"] = description
    if has_default and default is not None:
        prop = _with_notes(prop, [f"null means {_literal(default)}"])
    return prop


def _limits(schema: dict[str, Any]) -> list[str]:
    """The keywords left out of a generated schema, in words the model reads."""
    notes = []
    kind = "characters" if schema.get("type") == "string" else "items"
    low = schema.get("minLength", schema.get("minItems"))
    high = schema.get("maxLength", schema.get("maxItems"))
    if low is not None and high is not None:
        notes.append(f"From {low} to {high} {kind}")
    elif high is not None:
        notes.append(f"At most {high} {kind}")
    elif low is not None:
        notes.append(f"At least {low} {kind}")
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        notes.append(f"From {low} to {high}")
    elif high is not None:
        notes.append(f"At most {high}")
    elif low is not None:
        notes.append(f"At least {low}")
    if "exclusiveMinimum" in schema:
        notes.append(f"More than {schema['exclusiveMinimum']}")
    if "exclusiveMaximum" in schema:
        notes.append(f"Less than {schema['exclusiveMaximum']}")
    if "multipleOf" in schema:
        notes.append(f"A multiple of {schema['multipleOf']}")
    if "pattern" in schema:
        notes.append(f"Matching the pattern {schema['pattern']}")
    if "format" in schema:
        notes.append(f"In {schema['format']} format")
    if schema.get("uniqueItems"):
        notes.append("No duplicates")
    return notes


def _with_notes(prop: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """Append the notes the description does not already say ("1 to 50" is often written already)."""
    description = str(prop.get("description") or "")
    said = description.lower()
    fresh = [note for note in notes if note.lower().removeprefix("from ") not in said]
    if fresh:
        extra = " ".join(f"{note}." for note in fresh)
        prop["description"] = f"{description} {extra}".strip() if description else extra
    return prop


def _literal(value: Any) -> str:
    """A default as the model would write it: 'free_text', 1, true."""
    if isinstance(value, str):
        return repr(value)
    return str(value).lower() if isinstance(value, bool) else str(value)


# -- checking ---------------------------------------------------------------------------------------


def tool_violations(tool: dict[str, Any]) -> list[str]:
    """What the API would refuse in one ``tools[]`` entry sent with ``strict: true``, in its words.

    Empty when the tool is not strict: only strict tools are held to the subset.
    """
    function = tool.get("function") or {}
    if function.get("strict") is not True:
        return []
    parameters = function.get("parameters")
    name = str(function.get("name", ""))
    if not isinstance(parameters, dict):
        return [
            f"Invalid schema for function '{name}': In context=(), schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'."
        ]
    return strict_violations(parameters, name)


def strict_violations(schema: dict[str, Any], name: str) -> list[str]:
    """Every way `schema` (a function's parameters) leaves the strict subset, in the API's words.

    Each message reads "Invalid schema for function '<name>': In context=(<path>), <problem>", the
    path as a tuple of keys from the root (``()`` is the root itself), as the API reports it.
    """
    problems: list[tuple[tuple[str, ...], str]] = []
    if schema.get("type") != "object" or "anyOf" in schema:
        got = "anyOf" if "anyOf" in schema else schema.get("type")
        problems.append(((), f"schema must be a JSON Schema of 'type: \"object\"', got 'type: \"{got}\"'."))
    counts = {"properties": 0, "enum": 0}
    _check(schema, (), 0, schema, problems, counts)
    if counts["properties"] > _MAX_PROPERTIES:
        problems.append(((), f"a schema may have at most {_MAX_PROPERTIES} object properties in total."))
    if counts["enum"] > _MAX_ENUM_VALUES:
        problems.append(((), f"a schema may have at most {_MAX_ENUM_VALUES} enum values in total."))
    return [
        f"Invalid schema for function '{name}': In context={path!r}, {problem}" for path, problem in problems
    ]


def _check(
    node: Any,
    path: tuple[str, ...],
    depth: int,
    root: dict[str, Any],
    problems: list[tuple[tuple[str, ...], str]],
    counts: dict[str, int],
) -> None:
    if not isinstance(node, dict):
        problems.append((path, "schema must be an object."))
        return
    declared = node.get("type")
    types = declared if isinstance(declared, list) else [declared] if declared is not None else []
    for kind in types:
        if kind not in _TYPES:
            problems.append((path, f"'{kind}' is not a supported type."))
    allowed = set(_ANY)
    for kind in types:
        allowed |= _BY_TYPE.get(str(kind), frozenset())
    if not types and "properties" in node:
        allowed |= _BY_TYPE["object"]
    problems.extend((path, f"'{key}' is not permitted.") for key in node if key not in allowed)
    if "$ref" in node:
        if len(node) > 1 and set(node) - {"$ref", "description"}:
            problems.append((path, "'$ref' must not have sibling keywords."))
        if not _resolves(str(node["$ref"]), root):
            problems.append((path, f"reference '{node['$ref']}' could not be resolved."))
    if node.get("format") is not None and node["format"] not in STRICT_FORMATS:
        problems.append((path, f"'{node['format']}' is not a supported format."))
    if isinstance(node.get("enum"), list):
        counts["enum"] += len(node["enum"])
    if "object" in types or "properties" in node:
        if depth >= _MAX_DEPTH:
            problems.append((path, f"objects may be nested at most {_MAX_DEPTH} levels deep."))
        properties = node.get("properties") or {}
        counts["properties"] += len(properties)
        if node.get("additionalProperties") is not False:
            problems.append((path, "'additionalProperties' is required to be supplied and to be false."))
        required = node.get("required")
        missing = [key for key in properties if not isinstance(required, list) or key not in required]
        if missing:
            problems.append(
                (
                    path,
                    "'required' is required to be supplied and to be an array including every key in "
                    f"properties. Missing '{missing[0]}'.",
                )
            )
        for key, value in properties.items():
            _check(value, (*path, "properties", key), depth + 1, root, problems, counts)
    if "items" in node:
        _check(node["items"], (*path, "items"), depth, root, problems, counts)
    for index, branch in enumerate(node.get("anyOf") or []):
        _check(branch, (*path, "anyOf", str(index)), depth, root, problems, counts)
    for keyword in ("$defs", "definitions"):
        for key, value in (node.get(keyword) or {}).items():
            _check(value, (*path, keyword, key), depth, root, problems, counts)


def _resolves(ref: str, root: dict[str, Any]) -> bool:
    if ref == "#":
        return True
    match = re.fullmatch(r"#/(\$defs|definitions)/(.+)", ref)
    return match is not None and match.group(2) in (root.get(match.group(1)) or {})
