"""Tool schemas in OpenAI's strict subset: every registered tool (present and future), the checker on
schemas written here to break each rule, and FakeOpenAI refusing what the real API refuses."""

from __future__ import annotations

import json
from typing import Any, Literal, cast

import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, ValidationError

from webagent.llm.protocol import Downgrade
from webagent.llm.schemas import strict_tool, strict_violations, tool_violations
from webagent.sites.demo_shop import TOOLS
from webagent.sync import run_sync
from webagent.testing import FakeOpenAI, reply
from webagent.tools import Args
from webagent.tools.toolbox import tool_schemas

MESSAGES: list[dict[str, Any]] = [{"role": "user", "content": "Order a pizza."}]


def walk(node: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every schema node under `node`, with its path: written here, not taken from webagent.llm.schemas."""
    if not isinstance(node, dict):
        return []
    found = [(path, node)]
    for key, child in (node.get("properties") or {}).items():
        found += walk(child, (*path, "properties", key))
    if "items" in node:
        found += walk(node["items"], (*path, "items"))
    for index, branch in enumerate(node.get("anyOf") or []):
        found += walk(branch, (*path, "anyOf", str(index)))
    for key, child in (node.get("$defs") or {}).items():
        found += walk(child, (*path, "$defs", key))
    return found


# --- every tool in the registry ---------------------------------------------------------------------


@pytest.mark.parametrize("schema", tool_schemas(TOOLS), ids=[tool.name for tool in TOOLS])
def test_every_registered_tool_is_in_the_strict_subset(schema: dict[str, Any]) -> None:
    function = schema["function"]
    assert schema["type"] == "function" and function["strict"] is True and function["description"]
    assert tool_violations(schema) == []
    # The rules again, independently of the checker: objects closed and fully required, no defaults
    # or length limits anywhere.
    for path, node in walk(function["parameters"]):
        if node.get("type") == "object":
            assert node["additionalProperties"] is False, path
            assert sorted(node["required"]) == sorted(node["properties"]), path
        assert not {"default", "minLength", "maxLength", "title", "allOf"} & set(node), path


@pytest.mark.parametrize("tool", TOOLS, ids=[tool.name for tool in TOOLS])
def test_limits_and_defaults_move_into_the_description_and_stay_enforced(tool: Any) -> None:
    model: type[Args] = tool.args
    original = model.model_json_schema()
    generated = strict_tool(model, tool.name)["function"]["parameters"]["properties"]
    for name, field in original.get("properties", {}).items():
        described = generated[name]["description"]
        # Every limit pydantic puts in its schema reaches the model as words.
        nodes = [field, *field.get("anyOf", [])]
        for keyword in ("maxLength", "minLength", "maxItems", "minItems", "maximum", "minimum"):
            for node in nodes:
                if keyword in node:
                    assert str(node[keyword]) in described, (tool.name, name, keyword, described)
        if "default" in field and field["default"] is not None:
            assert f"null means {json.dumps(field['default']).replace(chr(34), chr(39))}" in described
            # ... and null gives the default back, for every such field of every tool.
            required = {key: value for key, value in _minimal(model).items()}
            assert getattr(model.model_validate({**required, name: None}), name) == field["default"]
        for node in nodes:  # a limit still holds: one past it is refused
            if "maxLength" in node:
                too_long = {**_minimal(model), name: "x" * (node["maxLength"] + 1)}
                with pytest.raises(ValidationError):
                    model.model_validate(too_long)


def _minimal(model: type[Args]) -> dict[str, Any]:
    """The required fields of `model`, filled with valid values."""
    values: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        if field.is_required():
            annotation = str(field.annotation)
            if "Literal" in annotation:
                values[name] = cast(Any, field.annotation).__args__[0]
            else:
                values[name] = 1 if "int" in annotation else "x"
    return values


def test_an_explicit_null_on_a_required_field_is_still_refused() -> None:
    tool = next(tool for tool in TOOLS if tool.name == "change_quantity")
    with pytest.raises(ValidationError, match="quantity"):
        tool.args.model_validate({"item": "Tiramisu", "quantity": None})


# --- models the generator was not shaped around -----------------------------------------------------


class Address(BaseModel):
    street: str = Field(min_length=3, max_length=80, description="Street and number.")
    floor: int | None = Field(None, ge=0, le=200)


class Awkward(BaseModel):
    """A tool with everything the strict subset refuses."""

    code: str = Field(pattern=r"^[A-Z]{3}$", description="Three capitals.")
    tags: list[str] = Field(default_factory=list, max_length=5, min_length=0)
    mode: Literal["fast", "slow"] = "slow"
    home: Address
    other: Address | None = None
    ratio: float = Field(0.5, gt=0, lt=1, multiple_of=0.05)
    flag: bool = True


def test_a_model_full_of_refused_keywords_comes_out_strict() -> None:
    raw = Awkward.model_json_schema()
    raw_tool = {"type": "function", "function": {"name": "awkward", "strict": True, "parameters": raw}}
    assert tool_violations(raw_tool), "pydantic's own schema must be refused, or this test proves nothing"

    tool = strict_tool(Awkward, "awkward")

    assert tool_violations(tool) == []
    properties = tool["function"]["parameters"]["properties"]
    assert properties["mode"]["description"] == "null means 'slow'."
    assert "Matching the pattern ^[A-Z]{3}$" in properties["code"]["description"]
    assert "More than 0. Less than 1. A multiple of 0.05." in properties["ratio"]["description"]
    assert "null means true" in properties["flag"]["description"]
    assert properties["home"] == {"$ref": "#/$defs/Address"}
    address = tool["function"]["parameters"]["$defs"]["Address"]
    assert address["properties"]["street"]["description"] == "Street and number. From 3 to 80 characters."
    assert address["required"] == ["street", "floor"] and address["additionalProperties"] is False


# --- the checker, against schemas written here ------------------------------------------------------


def closed(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
        **extra,
    }


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        (
            closed({"name": {"type": "string", "default": "Ada"}}),
            "In context=('properties', 'name'), 'default' is not permitted.",
        ),
        (
            closed({"query": {"anyOf": [{"type": "string", "maxLength": 100}, {"type": "null"}]}}),
            "In context=('properties', 'query', 'anyOf', '0'), 'maxLength' is not permitted.",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            "In context=(), 'additionalProperties' is required to be supplied and to be false.",
        ),
        (
            {**closed({"a": {"type": "string"}, "b": {"type": "integer"}}), "required": ["a"]},
            "In context=(), 'required' is required to be supplied and to be an array including every "
            "key in properties. Missing 'b'.",
        ),
        (
            closed(
                {"home": {"anyOf": [{"type": "object", "properties": {}, "required": []}, {"type": "null"}]}}
            ),
            "In context=('properties', 'home', 'anyOf', '0'), 'additionalProperties' is required to be "
            "supplied and to be false.",
        ),
        (
            closed({"x": {"allOf": [{"type": "string"}]}}),
            "In context=('properties', 'x'), 'allOf' is not permitted.",
        ),
        (
            closed({"when": {"type": "string", "format": "day-of-week"}}),
            "In context=('properties', 'when'), 'day-of-week' is not a supported format.",
        ),
        (
            {"anyOf": [closed({}), closed({"a": {"type": "string"}})]},
            "In context=(), schema must be a JSON Schema of 'type: \"object\"', got 'type: \"anyOf\"'.",
        ),
        (
            closed({"n": {"type": "integer", "minLength": 1}}),
            "In context=('properties', 'n'), 'minLength' is not permitted.",
        ),
        (
            closed({"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}),
            "In context=('properties', 'tags'), 'uniqueItems' is not permitted.",
        ),
    ],
    ids=[
        "default",
        "maxLength-in-anyOf",
        "open-root",
        "missing-required",
        "open-nested",
        "allOf",
        "format",
        "root-anyOf",
        "string-keyword-on-integer",
        "uniqueItems",
    ],
)
def test_the_checker_refuses_each_rule_in_the_apis_words(parameters: dict[str, Any], message: str) -> None:
    assert f"Invalid schema for function 'probe': {message}" in strict_violations(parameters, "probe")


def test_the_checker_accepts_what_the_documentation_shows() -> None:
    # The documented examples: nullable unions, number ranges, string patterns and formats, item
    # counts, definitions and recursion.
    node = closed(
        {"value": {"type": "number"}, "next": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}}
    )
    parameters = closed(
        {
            "unit": {"type": ["string", "null"], "enum": ["F", "C"]},
            "value": {"type": "number", "minimum": -130, "maximum": 130},
            "username": {"type": "string", "pattern": "^@[a-zA-Z0-9_]+$"},
            "email": {"type": "string", "format": "email"},
            "steps": {"type": "array", "items": {"$ref": "#/$defs/node"}, "minItems": 1, "maxItems": 9},
        },
        **{"$defs": {"node": node}},
    )
    assert strict_violations(parameters, "weather") == []


def test_a_tool_that_is_not_strict_is_not_held_to_the_subset() -> None:
    loose = {"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}
    assert tool_violations(loose) == []
    assert tool_violations({**loose, "function": {**loose["function"], "strict": True}})


def objects(inner: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), inner, min_size=1, max_size=3).map(
        lambda props: {"type": "object", "properties": props}
    )


schemas = st.recursive(
    st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "number", "boolean"])}),
    lambda inner: st.one_of(st.builds(lambda item: {"type": "array", "items": item}, inner), objects(inner)),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(schema=objects(schemas), data=st.data())
def test_any_object_left_open_somewhere_is_found(schema: dict[str, Any], data: st.DataObject) -> None:
    """Close every object, then open one again, chosen by the data: the checker names exactly that one.
    (The schema is an object at its top, so there is always one to open.)"""
    nodes = [path for path, node in walk(schema) if node.get("type") == "object"]
    for _, node in walk(schema):
        if node.get("type") == "object":
            node["required"], node["additionalProperties"] = list(node["properties"]), False
    root = closed({"root": schema})
    assert strict_violations(root, "t") == []
    open_path = data.draw(st.sampled_from(nodes), label="left open")
    target = root["properties"]["root"]
    for key in open_path:
        target = target[key] if not key.isdigit() else target[int(key)]
    del target["additionalProperties"]
    where = ("properties", "root", *open_path)
    assert strict_violations(root, "t") == [
        f"Invalid schema for function 't': In context={where!r}, 'additionalProperties' is required to be "
        "supplied and to be false."
    ]


# --- FakeOpenAI refuses what the API refuses --------------------------------------------------------


BAD_TOOL = {
    "type": "function",
    "function": {
        "name": "search_restaurants",
        "strict": True,
        "parameters": closed({"query": {"type": "string", "maxLength": 100}}),
    },
}


def test_fake_openai_answers_a_bad_strict_schema_as_the_api_does() -> None:
    fake = FakeOpenAI([])
    client = fake.client(max_retries=0)

    with pytest.raises(openai.BadRequestError) as raised:
        run_sync(
            client.chat.completions.create(
                model="m", messages=cast(Any, MESSAGES), tools=cast(Any, [BAD_TOOL])
            )
        )

    assert raised.value.status_code == 400
    assert raised.value.body == {
        "message": "Invalid schema for function 'search_restaurants': In context=('properties', 'query'), "
        "'maxLength' is not permitted.",
        "type": "invalid_request_error",
        "param": "tools[0].function.parameters",
        "code": "invalid_function_parameters",
    }
    assert fake.served == 0, "a refused request uses no scripted turn"


def test_a_refused_schema_is_sent_again_without_strict_and_the_downgrade_is_reported() -> None:
    fake = FakeOpenAI([reply(content="ok")])
    model = fake.model()

    got = run_sync(model.complete(MESSAGES, [BAD_TOOL]))

    assert got.content == "ok"
    assert [d.feature for d in got.downgrades] == ["strict"]
    assert isinstance(got.downgrades[0], Downgrade) and "maxLength" in got.downgrades[0].reason
    assert "strict" in fake.requests[0]["tools"][0]["function"]
    assert "strict" not in fake.requests[1]["tools"][0]["function"]
    assert fake.answers == [400, 200]


def test_the_real_tools_go_through_the_strict_fake_untouched() -> None:
    fake = FakeOpenAI([reply(content="ok")])

    got = run_sync(fake.model().complete(MESSAGES, tool_schemas(TOOLS)))

    assert got.downgrades == [] and fake.answers == [200]
    assert all(tool["function"]["strict"] is True for tool in fake.requests[0]["tools"])
