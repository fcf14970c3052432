"""``webagent mcp --site any-page --url URL``: the server offers the tools that work on any page (no tool of
the demo shop's), says what it serves, and drives a page written here through the SDK's own client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client

from tests.served import Served
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.mcp_server import McpSettings, build_server
from webagent.sites.generic.site import ANY_PAGE
from webagent.sync import run_sync

PAGE = """<!doctype html><html><head><meta charset='utf-8'><title>Library card</title></head><body>
<main><h1>Renew your library card</h1><label>Reader number <input name='reader'></label>
<button type='button' onclick="document.getElementById('s').textContent = 'Checked: valid until 2027'">Check</button>
<p id='s'></p></main></body></html>"""


@pytest.fixture
def page_url() -> Iterator[str]:
    served = Served(PAGE, path="/renew")
    yield served.url
    served.close()


def test_the_server_offers_and_drives_any_page(agent_browser: Browser, page_url: str, tmp_path: Path) -> None:
    config = RunConfig(runs_dir=tmp_path / "runs", site="any-page", shop_url=page_url, approve="deny")
    served = build_server(McpSettings(config, approve_given=True), agent_browser)

    async def session() -> tuple[set[str], str, str]:
        async with Client(served, mode="legacy") as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            pressed = await client.call_tool("press", {"name": "Check"})
            said = "\n".join(block.text for block in pressed.content if block.type == "text")
            return names, said, str(client.instructions or "")

    names, said, instructions = run_sync(session())
    assert instructions.startswith("Act on the page the server opened"), instructions
    assert names == {tool.name for tool in ANY_PAGE.tools} - {"ask_human"} | {"start_run"}, names
    assert said.startswith('Pressed "Check". The page\'s text changed'), said
