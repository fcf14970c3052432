"""A page's own typed tools (WebMCP) beside ours, end to end in a real Chromium (issue 40, item 5): a page
written here registers a read-only search and a booking through ``document.modelContext``; the model sees
them as ``page__…`` tools, the search answers without the gate, the booking passes it (never run under
deny, run once on a yes), and what they answer is narrated as page text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.test_blind_gate import Ledger, approvals, asking, finish, fresh, ledger, page
from webagent.agent.checkpoint import RunFolder
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.runs.runner import start_run
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply

__all__ = ["fresh", "ledger"]

REGISTERS = """
document.modelContext.registerTool({
  name: 'menu_search', description: 'Find dishes on this menu by a word',
  inputSchema: {type: 'object', properties: {query: {type: 'string'}}, required: ['query']},
  annotations: {readOnlyHint: true},
  execute: async ({query}) => ({content: [{type: 'text', text: 'Leek soup, Pea soup (for ' + query + ')'}]}),
});
document.modelContext.registerTool({
  name: 'book_table', description: 'Book a table for a number of guests',
  inputSchema: {type: 'object', properties: {guests: {type: 'integer'}}, required: ['guests']},
  execute: async ({guests}) => {
    rec('booked:' + guests);
    document.getElementById('s').textContent = 'Booked for ' + guests + '.';
    return {content: [{type: 'text', text: 'Table booked for ' + guests}]};
  },
});
document.modelContext.registerTool({
  name: 'press', description: 'A tool named like one of the agent\\'s', execute: async () => 'pressed',
});"""

TOOLS_PAGE = page(
    "<main><h1>Trattoria</h1><p id='s' role='status'></p></main>",
    title="Trattoria",
    view=False,
    script=REGISTERS,
)


def run(
    browser: Browser, url: str, runs: Path, moves: list[Any], **config: Any
) -> tuple[ScriptedModel, list[dict[str, Any]], list[str]]:
    model = ScriptedModel([*moves, finish])
    settings = RunConfig(goal="Book a table for two", shop_url=url, runs_dir=runs, **config)
    result = run_sync(start_run(settings, model=model, browser=browser))
    events = RunFolder(runs, result.run_id).transcript()
    return model, events, [str(e.get("narration", "")) for e in events if e["event"] == "tool"]


def test_the_pages_tools_are_offered_apart_and_a_read_only_one_answers_without_the_gate(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(TOOLS_PAGE)
    model, events, said = run(
        agent_browser, url, tmp_path, [reply(call("page__menu_search", query="soup"))], approve="deny"
    )
    offered = [tool["function"]["name"] for tool in model.calls[0][1]]
    assert {"page__menu_search", "page__book_table", "page__press", "press"} <= set(offered), offered
    assert offered.count("press") == 1  # the page's "press" shadows nothing
    assert (
        'The page\'s tool "menu_search" answered (page text): "Leek soup, Pea soup (for soup)"' in said[0]
    ), said
    assert approvals(events) == [] and fresh.hits == []


def test_a_booking_by_the_pages_tool_is_never_made_under_deny_and_made_once_on_a_yes(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(TOOLS_PAGE)
    book = reply(call("page__book_table", guests=2))
    _, events, said = run(agent_browser, url, tmp_path / "deny", [book], approve="deny")
    fresh.settle()
    assert fresh.hits == [], (fresh.hits, said)
    assert [a["decision"] for a in approvals(events)] == ["deny"], approvals(events)
    asked: list[str] = []
    model = ScriptedModel([book, finish])
    settings = RunConfig(goal="Book a table for two", shop_url=url, runs_dir=tmp_path / "yes", approve="ask")
    result = run_sync(start_run(settings, model=model, browser=agent_browser, prompt=asking("y", asked)))
    events = RunFolder(tmp_path / "yes", result.run_id).transcript()
    said = [str(e.get("narration", "")) for e in events if e["event"] == "tool"]
    fresh.settle(lambda: "booked:2" in fresh.hits)
    assert fresh.hits == ["booked:2"], (fresh.hits, said)
    assert len(asked) == 1 and "book_table" in asked[0], asked
    assert "Table booked for 2" in said[0] and 'Notice: "Booked for 2."' in said[0], said
