"""A real language model drives the loop: llama.cpp's server (xllamacpp) with the default local model,
through the real openai SDK, the real shop and Chromium; judged in the shop's database.

Skipped where the ``local`` extra is not installed — except under ``WEBAGENT_REQUIRE_LOCAL=1`` (set by
.ci/run), where a missing runtime or weights fail the test instead of hiding it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from webagent.config import Profile, RunConfig
from webagent.errors import LocalModelError
from webagent.llm import local
from webagent.runs.runner import start_run
from webagent.sync import run_sync

pytestmark = pytest.mark.slow

PROFILE = Profile(name="Ada Demo", address="12 Oak Street", phone="555-0101")


def _local_or_skip() -> None:
    required = os.environ.get("WEBAGENT_REQUIRE_LOCAL") == "1"
    try:
        import xllamacpp  # noqa: F401

        local.check_available(local.DEFAULT_LOCAL)
    except (ImportError, LocalModelError) as error:
        if required:
            raise
        pytest.skip(f"no local model here: {error}")


def _order(db: Path) -> tuple[list[int], list[tuple[str, int, str]]]:
    with sqlite3.connect(db) as conn:
        orders = [row[0] for row in conn.execute("select id from orders")]
        lines = conn.execute("select dish_name, quantity, options_json from order_items").fetchall()
    return orders, sorted(lines)


CORRECTION = "two lasagna al forno, no wait, three, from italian bistro, pay cash"
"""The goal the 1.5B got wrong before (issue 36): the rules kept "two", the model added two, and automatic
approval took the cart that matched the rules' partial reading."""


def test_the_local_model_drives_the_correction_goal_and_orders_three_or_asks_never_two(
    tmp_path: Path,
) -> None:
    """``--model local`` with automatic approval: the 1.5B drives the loop, held to the reading the rules and
    the same model agree on (webagent/agent/understand.py). The order the shop holds is three Lasagna al Forno,
    or there is none and the run asked; never two — the wrong order of issue 36."""
    _local_or_skip()
    db = tmp_path / "shop.db"
    config = RunConfig(
        goal=CORRECTION,
        model="local",
        approve="auto",
        budget_cents=8000,
        profile=PROFILE,
        db_path=db,
        runs_dir=tmp_path / "runs",
        max_steps=10,
    )
    result = run_sync(start_run(config))
    events = [json.loads(line) for line in Path(result.run_dir, "transcript.jsonl").read_text().splitlines()]
    readings = [e for e in events if e["event"] == "reading"]
    calls = [(e["name"], e["arguments"], e["ok"]) for e in events if e["event"] == "tool"]
    orders, lines = _order(db)
    assert len(orders) <= 1, calls
    if orders:
        assert [(dish, qty) for dish, qty, _ in lines] == [("Lasagna al Forno", 3)], (lines, readings)
        assert result.outcome == "ordered" and orders == [result.order_id], result.message
    else:
        assert result.outcome in ("paused", "failed"), result.message
    # The model read the goal once, and that reading is what the run was held to.
    assert len(readings) == 1 and readings[0]["restaurant"] == "Italian Bistro", readings


def test_the_planner_reads_with_the_local_model_and_orders_what_the_person_meant(tmp_path: Path) -> None:
    """``--consult local``: the planner's rules leave "no wait, three" unplaced; the 1.5B reads the goal in one
    structured call, the reading is put to the words (webagent/planner/accounts.py) and, agreed, ordered and
    approved automatically. Judged in the shop's database: three, or nothing and a question — never two."""
    _local_or_skip()
    db = tmp_path / "shop.db"
    config = RunConfig(
        goal=CORRECTION,
        consult="local",
        approve="auto",
        budget_cents=8000,
        profile=PROFILE,
        db_path=db,
        runs_dir=tmp_path / "runs",
    )
    result = run_sync(start_run(config))
    orders, lines = _order(db)
    events = [json.loads(line) for line in Path(result.run_dir, "transcript.jsonl").read_text().splitlines()]
    [reading] = [e for e in events if e["event"] == "reading"]
    if orders:
        assert [(dish, qty) for dish, qty, _ in lines] == [("Lasagna al Forno", 3)], lines
        assert reading["verdict"] == "agreed", reading
    else:  # the model read something the words do not bear out: the person is asked, never guessed for
        assert result.outcome == "paused" and reading["verdict"] in ("differ", "unread"), reading


CORPUS_GOALS = (
    "4 carnitas tacos from taco fiesta... actually make it 2",
    "taco fiesta, 2 carnitas tacos and a horchata.. swap the horchata for a margarita",
    "two california rolls per person from sushi house, 3 people",
    "sushi house: 3 salmon nigiri - no, 4 - and a miso soup",
    "athens grill chicken souvlaki plate x2, greek salad; hold the baklava",
    "butter chicken hot, wait no medium, from curry palace, and 2 garlic naan",
)
"""Three corrections, a swap, a count per person and a leaving-out from tests/corpus/reading.yaml — each a goal
the rules cannot read and the 1.5B read right when the benchmark ran (benchmarks/reading.py); the leaving-out
only at its second look, the last correction only told why neither look was agreed (`read_agreed`). (Split choices, "3 butter chicken: 2 mild, 1 hot", were here until the rules
read them: tests/planner/test_splits.py.)"""


@pytest.mark.parametrize("goal", CORPUS_GOALS)
def test_the_local_model_reads_what_the_rules_cannot(goal: str) -> None:
    """The real 1.5B reads a goal the rules leave in doubt, judged by the typed reading against the corpus's
    final order: a test that fails when the model (or its prompt) reads wrong."""
    _local_or_skip()
    import yaml

    from webagent.llm.reader import LLMReader
    from webagent.planner.goal import read_goal
    from webagent.planner.menu import Menu
    from webagent.planner.reading import read_agreed

    root = Path(__file__).resolve().parents[2]
    catalog = {
        r["name"]: r for r in json.loads((root / "demo_site" / "catalog.json").read_text())["restaurants"]
    }
    [entry] = [
        e
        for e in yaml.safe_load((root / "tests" / "corpus" / "reading.yaml").read_text())
        if e["goal"] == goal
    ]
    menu = Menu.from_catalog(catalog[entry["restaurant"]])
    rules = read_goal(goal, list(catalog), menu)
    agreement, _ = read_agreed(goal, rules, LLMReader(local.DEFAULT_LOCAL), menu)
    assert agreement.verdict == "agreed", agreement
    assert agreement.reading is not None
    expected = {
        (item["dish"], frozenset(item.get("choices") or ())): item["quantity"] for item in entry["items"]
    }
    assert dict(agreement.reading.counts()) == expected, agreement.reading


NEWSLETTER = """<!doctype html><html><head><meta charset="utf-8"><title>River Wye Newsletter</title></head><body>
<main><h1>Get the river news</h1><p>Once a month, no spam.</p>
<form id="f"><label>Email <input type="email" name="email" required></label>
<fieldset><legend>How often</legend><label><input type="radio" name="o" value="monthly" required> Monthly</label>
<label><input type="radio" name="o" value="weekly"> Weekly</label></fieldset>
<button>Subscribe</button></form><p id="done" role="status"></p></main>
<script>
document.getElementById('f').addEventListener('submit', async (e) => {
  e.preventDefault();
  const data = new FormData(e.target);
  await fetch('/subscribe', { method: 'POST', body: data.get('email') + ' ' + data.get('o') });
  document.getElementById('done').textContent = 'Thanks! ' + data.get('email') + ' is subscribed.';
});
</script></body></html>"""
"""A page nobody wrote an adapter for (issue 39): no test ids, no view marker, no activity log."""


@pytest.mark.parametrize("site", ["demo-shop", "any-page"])
def test_the_local_model_does_a_small_task_on_a_page_nobody_wrote_an_adapter_for(
    tmp_path: Path, site: str
) -> None:
    """``webagent run --url … --model local``: the 1.5B signs a person up on a newsletter page written here,
    through the generic tools and the any-page prompt; the send passes the gate (the person says yes to a
    question about "Subscribe"). Judged by what the page's server received: exactly that address, weekly —
    a test that fails when the model fills the form wrong or gives up. With the demo shop's adapter (a URL
    given, no ``--site``: its pages are read as any page's) and with ``--site any-page`` (no adapter)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    _local_or_skip()
    received: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self._send(NEWSLETTER.encode())

        def do_POST(self) -> None:
            received.append(self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode())
            self._send(b"ok")

        def _send(self, data: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    asked: list[str] = []
    try:
        config = RunConfig(
            goal="Sign up ada@example.com for the weekly newsletter",
            shop_url=f"http://127.0.0.1:{server.server_address[1]}/news",
            model="local",
            approve="ask",
            runs_dir=tmp_path / "runs",
            max_steps=10,
            site=site,
        )
        result = run_sync(start_run(config, prompt=lambda question: asked.append(question) or "y"))
    finally:
        server.shutdown()
        server.server_close()
    events = [json.loads(line) for line in Path(result.run_dir, "transcript.jsonl").read_text().splitlines()]
    calls = [(e["name"], e["arguments"], e["ok"]) for e in events if e["event"] == "tool"]
    # the send was put to the person, naming its button (with --site any-page the 1.5B also asked first
    # whether to subscribe at all: a question too many, not a wrong act)
    assert any('"Subscribe"' in question for question in asked) and len(asked) <= 2, asked
    assert received == ["ada@example.com weekly"], (received, calls, result.message)
    assert result.outcome == "done" and "Paid" not in result.message, (result.outcome, result.message)
