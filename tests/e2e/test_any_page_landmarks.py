"""A page nobody wrote an adapter for, written here (issue 39, item 2): how it is laid out and what it
announces. Its landmarks are named on the first look, bounded however many it has; what a live region
announces after a press (a setting saved on the server) is said in that press's result, and a live region
that is also a status message is said once."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_blind_gate import Ledger, fresh, ledger, page, press, run
from webagent.agent.checkpoint import RunFolder
from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.testing import call, reply

__all__ = ["fresh", "ledger"]

SITE = "any-page"
"""The adapter for a page nobody wrote one for: the one that reads landmarks and live regions."""

NEWS = page(
    """<header><a href='#'>Daily Post</a></header>
<nav aria-label='Site'><a href='#world'>World</a> <a href='#sport'>Sport</a></nav>
<search><form><label>Search <input name='q'></label></form></search>
<main aria-labelledby='top'><h1 id='top'>Top stories</h1><p>Rain again.</p></main>
<aside aria-label='Most read'><p>Cats</p></aside>
<footer>© Daily Post</footer>""",
    title="Daily Post",
    view=False,
)

SETTINGS = page(
    """<main><h1>Settings</h1>
<button aria-pressed='false' id='dark' onclick='toggle()'>Dark mode</button>
<p id='said' aria-live='polite'></p></main>""",
    title="Settings",
    view=False,
    script="""
async function toggle() {
  const on = document.getElementById('dark').getAttribute('aria-pressed') !== 'true';
  document.getElementById('dark').setAttribute('aria-pressed', String(on));
  await rec('dark:' + on);  // the setting is saved on the server, then the page says so
  document.getElementById('said').textContent = 'Saved';
}""",
)

TWICE = page(
    """<main><h1>Newsletter</h1><button onclick="rec('join').then(() => {
  document.getElementById('s').textContent = 'You are on the list'; })">Join</button>
<div id='s' role='status' aria-live='polite'></div>
<div aria-live='assertive'><span role='alert' id='a'></span></div></main>""",
    title="Newsletter",
    view=False,
)

CROWDED = page(
    "<main><h1>Directory</h1></main>"
    + "".join(f"<nav aria-label='Section {n} {'x' * 80}'><a href='#{n}'>{n}</a></nav>" for n in range(20)),
    title="Directory",
    view=False,
)


def test_the_landmarks_are_named_on_the_first_look(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(NEWS)
    result, _, said = run(
        agent_browser, url, tmp_path, [reply(call("read_page"))], goal="Read the news", site=SITE
    )
    first = _opening(tmp_path, result)
    landmarks = 'Landmarks: banner, navigation "Site", search, main "Top stories", complementary "Most read"'
    assert landmarks + ", contentinfo" in first, first
    assert "Landmarks" not in said[0], said[0]  # said once, on the first look, not on every step


def test_a_live_region_announcing_after_a_press_is_said_in_that_press(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(SETTINGS)
    _, _, said = run(agent_browser, url, tmp_path, [press("Dark mode")], goal="Turn dark mode on", site=SITE)
    assert "dark:true" in fresh.hits, (fresh.hits, said)
    assert said[0].startswith('Pressed "Dark mode".') and 'Notice: "Saved".' in said[0], said[0]
    assert "Landmarks" not in said[0], said[0]  # a bare main adds nothing


def test_a_live_region_that_is_also_a_status_is_said_once(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(TWICE)
    _, _, said = run(agent_browser, url, tmp_path, [press("Join")], goal="Join the newsletter", site=SITE)
    assert said[0].count("You are on the list") == 1, said[0]
    assert 'Notice: "You are on the list".' in said[0], said[0]


def test_twenty_landmarks_are_named_in_brief(agent_browser: Browser, fresh: Ledger, tmp_path: Path) -> None:
    url, _ = fresh.add(CROWDED)
    result, _, _ = run(agent_browser, url, tmp_path, [], goal="Find the sport section", site=SITE)
    line = next(line for line in _opening(tmp_path, result).splitlines() if line.startswith("Landmarks: "))
    assert line.count("navigation") == 5 and line.endswith(" and 15 more"), line
    assert len(line) < 300, line


# Written after the reader: shapes it was not developed against.

SEARCH = page(
    """<header><nav aria-label='Main'><a href='#'>Home</a></nav></header>
<div role='search'><label>Find a recipe <input id='q'></label><button onclick='find()'>Search</button></div>
<div class='layout'><main><h1>Recipes</h1><div id='results'></div></main>
<aside id='side' hidden aria-labelledby='fh'><h2 id='fh'>Filters</h2>
<label><input type='checkbox'> Vegetarian</label><p class='sr' aria-live='assertive' id='count'></p></aside></div>""",
    title="Recipes",
    view=False,
    script="""
async function find() {
  await rec('q:' + document.getElementById('q').value);
  document.getElementById('side').hidden = false;
  document.getElementById('results').innerHTML = '<ul><li>Leek soup</li><li>Pea soup</li><li>Miso soup</li></ul>';
  document.getElementById('count').textContent = '3 results found';
}""",
)

CHAT = page(
    """<main><h1>Help</h1><div role='log' aria-label='Chat'><p>Bot: Hello! How can I help?</p></div>
<label>Message <input id='m'></label><button onclick='send()'>Ask</button></main>""",
    title="Help",
    view=False,
    script="""
async function send() {
  const log = document.querySelector('[role=log]');
  log.insertAdjacentHTML('beforeend', '<p>You: ' + document.getElementById('m').value + '</p>');
  await rec('chat');
  log.insertAdjacentHTML('beforeend', '<p>Bot: Your parcel left the depot today.</p>');
}""",
)


def test_a_results_count_announced_in_a_sidebar_is_said_with_the_sidebar(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(SEARCH)
    moves = [reply(call("fill_field", label="Find a recipe", text="soup")), press("Search")]
    result, _, said = run(agent_browser, url, tmp_path, moves, goal="Find a soup", site=SITE)
    assert 'Landmarks: banner, navigation "Main", search, main\n' in _opening(tmp_path, result) + "\n"
    searched = said[1]
    assert "q:soup" in fresh.hits, (fresh.hits, said)
    assert 'Notice: "3 results found".' in searched and searched.count("3 results found") == 1, searched
    assert 'complementary "Filters"' in searched, searched  # the sidebar it appeared in: a change of layout
    assert "Landmarks" not in said[0], said[0]


def test_a_chat_log_says_its_newest_entry(agent_browser: Browser, fresh: Ledger, tmp_path: Path) -> None:
    url, _ = fresh.add(CHAT)
    moves = [reply(call("fill_field", label="Message", text="Where is my parcel?")), press("Ask")]
    _, _, said = run(agent_browser, url, tmp_path, moves, goal="Ask where my parcel is", site=SITE)
    assert len(said) > 1 and 'Notice: "Bot: Your parcel left the depot today."' in said[1], said
    assert "How can I help" not in said[1], said[1]


def _opening(runs: Path, result: RunResult) -> str:
    """The first look the run's model was given: the person's message, the page narrated after it."""
    messages = RunFolder(runs, result.run_id).load().messages
    return str(next(m["content"] for m in messages if m["role"] == "user"))
