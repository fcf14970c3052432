"""A page nobody wrote an adapter for, written here (issue 39, items 2 and 4): a booking form whose
drop-down sits inside its label, whose party size is a fieldset of radios and whose results come from the
server after a delay drawn at random; a drop-down the page puts back; a line of text that changes and
nothing else; a clock that never stops. Each choice is seen held, the results are waited for by the
request in flight (no fixed wait) and narrated as a list with its first rows, and no change the page shows
is "No visible change"."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_blind_gate import page, press, run
from webagent.browser.session import Browser
from webagent.testing import call, reply

BOOKING = page(
    """<main><h1>Table for tonight</h1>
<form id='f'>
<label>Time <select name='t'><option value=''>Pick one</option><option>18:30</option><option>21:00</option></select></label>
<fieldset><legend>Party size</legend>
<label><input type='radio' name='p' value='3'> Three</label><label><input type='radio' name='p' value='5'> Five</label></fieldset>
<label><input type='checkbox' name='hc'> High chair</label>
<button>Find tables</button></form>
<section id='out'></section></main>""",
    title="Book",
    view=False,
    script="""
document.getElementById('f').addEventListener('submit', async (e) => {
  e.preventDefault();
  const rows = await (await fetch('/tables?size=' + new FormData(e.target).get('p'))).json();
  document.getElementById('out').innerHTML = '<h2>Free tables</h2><table><tr><th>Table</th><th>Seats</th></tr>'
    + rows.map((r) => `<tr><td>${r[0]}</td><td>${r[1]}</td></tr>`).join('') + '</table>';
});""",
)

STUBBORN = page(
    """<main><h1>Size</h1><label>Size <select id='s'><option value=''>Pick one</option><option>Large</option></select></label></main>""",
    title="Size",
    view=False,
    script="document.getElementById('s').addEventListener('change', (e) => { e.target.value = ''; });",
)

SAVED = page(
    """<main><h1>Reading list</h1><p id='n'>0 articles saved</p>
<button onclick="document.getElementById('n').textContent = '1 article saved'">Save for later</button></main>""",
    title="Reading list",
    view=False,
)

CLOCK = page(
    """<main><h1>Departures</h1><p id='t'></p><button onclick="document.title = 'Departures (refreshed)'">Refresh</button></main>""",
    title="Departures",
    view=False,
    script="setInterval(() => { document.getElementById('t').textContent = String(performance.now()); }, 40);",
)


class Server:
    """Serves the pages above, and ``/tables`` after a delay set per test."""

    def __init__(self) -> None:
        self.delay = 0.0
        self.pages = {"/book": BOOKING, "/stubborn": STUBBORN, "/saved": SAVED, "/clock": CLOCK}
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path.startswith("/tables"):
                    time.sleep(owner.delay)
                    self._send(b'[["Window", 5], ["Garden", 6]]', "application/json")
                    return
                body = owner.pages.get(self.path.split("?")[0])
                self._send((body or "<body>Not found</body>").encode(), "text/html; charset=utf-8")

            def _send(self, data: bytes, kind: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    served = Server()
    threading.Thread(target=served.http.serve_forever, daemon=True).start()
    yield served
    served.http.shutdown()
    served.http.server_close()


def test_choices_are_held_and_results_from_a_slow_server_are_narrated_as_a_list(
    agent_browser: Browser, server: Server, tmp_path: Path
) -> None:
    server.delay = random.uniform(0.05, 1.5)  # the results land at a moment the tools were not told of
    moves = [
        reply(call("choose_option", label="Time", choice="21:00")),
        reply(call("choose_option", label="Party size", choice="Five")),
        reply(call("choose_option", label="High chair", choice="High chair")),
        press("Find tables"),
    ]
    _, _, said = run(
        agent_browser, f"{server.url}/book", tmp_path, moves, goal="Find a table", approve="deny"
    )
    time_, size, chair, found = said[:4]
    assert time_.startswith('Chose "21:00" in "Time".'), time_
    assert size.startswith('Chose "Five" in "Party size".'), size
    assert chair.startswith('Ticked "High chair".'), chair
    assert 'form: "Time" (filled), "Party size" (filled), "High chair" (filled)' in chair, chair
    assert 'List "Free tables" appeared (2): "Window, 5", "Garden, 6".' in found, (server.delay, found)
    assert 'list "Free tables" (2)' in found.splitlines()[-1] or 'list "Free tables" (2)' in found, found
    assert not any("No visible change" in s for s in said[:4]), said


def test_a_choice_the_page_puts_back_is_a_failed_call_that_says_what_it_shows(
    agent_browser: Browser, server: Server, tmp_path: Path
) -> None:
    moves = [reply(call("choose_option", label="Size", choice="Large"))]
    _, events, said = run(
        agent_browser, f"{server.url}/stubborn", tmp_path, moves, goal="Large", approve="deny"
    )
    assert said[0].startswith('Chose "Large", but "Size" now shows "Pick one".'), said[0]
    tool = next(e for e in events if e["event"] == "tool")
    assert tool.get("ok") is False, tool


def test_a_change_of_text_alone_is_a_change(agent_browser: Browser, server: Server, tmp_path: Path) -> None:
    _, _, said = run(
        agent_browser, f"{server.url}/saved", tmp_path, [press("Save for later")], goal="Save it"
    )
    assert said[0].startswith('Pressed "Save for later". The page\'s text changed'), said[0]


def test_a_page_that_never_goes_still_is_read_at_the_bound(
    agent_browser: Browser, server: Server, tmp_path: Path
) -> None:
    _, _, said = run(agent_browser, f"{server.url}/clock", tmp_path, [press("Refresh")], goal="Refresh")
    assert said[0].startswith('Pressed "Refresh". The title is now "Departures (refreshed)".'), said[0]
