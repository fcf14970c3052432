"""Pages nobody wrote an adapter for (issue 39, item 6): six shapes written here — a multi-step checkout, a
booking form, a search with a results list, a login wall, an article behind a consent wall, a settings page
with toggles — each walked by the generic tools through a `Toolbox`, and by hand with bare Playwright.

    python benchmarks/any_page.py [--rounds 5] [--site any-page|demo-shop]
    python benchmarks/any_page.py --model scripted|local

Per page: the tokens (cl100k_base) of each narration against the page's ARIA snapshot (``body``, mode="ai")
after the same step, the steps narrated "No visible change" though the page changed, the slowest step (no
10 s settle anywhere), and the tools' median time against the same actions made by hand (the hand knows the
page: it presses the way out of a wall it was told about, and waits for nothing). Benchmarks are not tests;
the seconds depend on the machine and what else it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.async_api import Page
from tokens import encoder

from webagent.browser.session import Browser
from webagent.sites import site_named
from webagent.tools.toolbox import Toolbox

Hand = Callable[[Page], Awaitable[Any]]


@dataclass(frozen=True)
class Step:
    tool: str
    args: dict[str, Any]
    hand: Hand
    """The same step by hand, with bare Playwright."""


SEEN_JS = "function seen(what) { fetch('/seen?' + what).then((r) => r.text()); }"
"""What a page tells its server (the model tasks are judged by it), its reply read: the walk's seconds stay
comparable with runs before it (webagent/browser/quiet.py: an unread reply is waited on `ANSWERED_S`)."""


def _page(title: str, body: str, script: str = "") -> str:
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title><script>{SEEN_JS}</script>"
        f"</head><body>{body}<script>{script}</script></body></html>"
    )


def click(role: str, name: str) -> Hand:
    return lambda page: page.get_by_role(role, name=name, exact=True).click()  # type: ignore[arg-type]


def fill(label: str, text: str) -> Hand:
    return lambda page: page.get_by_label(label, exact=True).fill(text)


WIZARD_JS = """
function show(n) {
  seen('step=' + n);
  document.querySelectorAll('section').forEach((s, i) => { s.hidden = i + 1 !== n; });
  document.getElementById('h').textContent = ['Delivery address', 'Payment', 'Review'][n - 1];
}"""

PAGES: dict[str, tuple[str, list[Step]]] = {
    "multi-step checkout": (
        _page(
            "Checkout",
            """<main><h1 id='h'>Delivery address</h1>
<section><label>Street <input required></label><label>City <input required></label>
<button onclick='show(2)'>Continue</button></section>
<section hidden><label>Gift message <input></label><button onclick='show(3)'>Continue to review</button></section>
<section hidden><p>2 items · Total $42.00</p><button onclick="seen('paid')">Pay $42.00</button></section></main>""",
            WIZARD_JS,
        ),
        [
            Step("fill_field", {"label": "Street", "text": "12 Oak Street"}, fill("Street", "12 Oak Street")),
            Step("fill_field", {"label": "City", "text": "Leeds"}, fill("City", "Leeds")),
            Step("press", {"name": "Continue"}, click("button", "Continue")),
            # (not a card number: the model never types one — webagent/browser/cards.py)
            Step("fill_field", {"label": "Gift message", "text": "Enjoy"}, fill("Gift message", "Enjoy")),
            Step("press", {"name": "Continue to review"}, click("button", "Continue to review")),
        ],
    ),
    "booking form": (
        _page(
            "Book a table",
            """<main><h1>Book a table</h1><form onsubmit="event.preventDefault();
seen(new URLSearchParams(new FormData(this)).toString());
document.getElementById('r').innerHTML = '<h2>Available</h2><ul><li>19:00</li><li>19:30</li></ul>'">
<label>Date <input name='d' required></label>
<label>Time <select name='t'><option value=''>Choose</option><option>19:00</option><option>20:00</option></select></label>
<fieldset><legend>Guests</legend><label><input type='radio' name='g' value='2'>2</label><label><input type='radio' name='g' value='4'>4</label></fieldset>
<button>Check availability</button></form><div id='r' role='region' aria-label='Results'></div></main>""",
        ),
        [
            Step("fill_field", {"label": "Date", "text": "2026-12-24"}, fill("Date", "2026-12-24")),
            Step(
                "choose_option",
                {"label": "Time", "choice": "19:00"},
                lambda page: page.get_by_label("Time").select_option(label="19:00"),
            ),
            Step(
                "choose_option",
                {"label": "Guests", "choice": "2"},
                lambda page: page.get_by_role("radio", name="2", exact=True).check(),
            ),
            Step("press", {"name": "Check availability"}, click("button", "Check availability")),
        ],
    ),
    "search with results": (
        _page(
            "Recipes",
            """<main><h1>Recipes</h1><form role='search' onsubmit="event.preventDefault();
const q = this.q.value; seen('q=' + q); document.getElementById('r').innerHTML = '<h2>3 results for ' + q + '</h2><ol>'
+ ['Soup', 'Stew', 'Pie'].map((x) => '<li><a href=\\'#' + x + '\\'>' + q + ' ' + x + '</a></li>').join('') + '</ol>'">
<label>Search <input name='q'></label><button>Search</button></form><div id='r'></div></main>""",
        ),
        [
            Step("fill_field", {"label": "Search", "text": "leek"}, fill("Search", "leek")),
            Step("press_key", {"key": "Enter"}, lambda page: page.get_by_label("Search").press("Enter")),
            Step(
                "scroll_to_text",
                {"text": "leek Pie"},
                lambda page: page.get_by_text("leek Pie").scroll_into_view_if_needed(),
            ),
        ],
    ),
    "login wall": (
        _page(
            "The long read",
            """<main><h1>The long read</h1><p>First paragraph.</p><button onclick="document.getElementById('more').hidden=false">Read more</button>
<p id='more' hidden>The rest of the story.</p></main>
<div id='wall' role='dialog' aria-modal='true' aria-label='Sign in to keep reading'
 style='position:fixed;inset:0;background:#fffe;padding:60px'><p>Sign in to keep reading.</p>
<button onclick="seen('signed-in')">Sign in</button><button onclick="document.getElementById('wall').remove()">Not now</button></div>""",
            "document.querySelector('main button').addEventListener('click', () => seen('read-more'));",
        ),
        [
            Step(
                "press",
                {"name": "Read more"},
                lambda page: _then(click("button", "Not now"), click("button", "Read more"))(page),
            ),
        ],
    ),
    "consent wall": (
        _page(
            "City news",
            """<main><h1>City news</h1><nav><a href='#sport'>Sport</a></nav><h2 id='sport'>Sport</h2><p>Results.</p></main>
<div id='c' role='dialog' aria-label='We value your privacy' style='position:fixed;inset:0;background:#fff;padding:60px'>
<p>We and our 412 partners use cookies.</p><button onclick="seen('accepted')">Accept all</button>
<button onclick="document.getElementById('c').remove()">Reject all</button><button>Manage options</button></div>""",
            "addEventListener('hashchange', () => seen('at=' + location.hash.slice(1)));",
        ),
        [
            Step(
                "press",
                {"name": "Sport"},
                lambda page: _then(click("button", "Reject all"), click("link", "Sport"))(page),
            ),
        ],
    ),
    "settings with toggles": (
        _page(
            "Settings",
            """<main><h1>Settings</h1><label><input type='checkbox' id='e'> Email notifications</label>
<label>Language <select><option>English</option><option>Deutsch</option></select></label>
<button onclick="seen('email=' + e.checked + '&lang=' + document.querySelector('select').value);
document.getElementById('s').textContent='Saved.'">Save</button><p id='s' role='status'></p></main>""",
        ),
        [
            Step(
                "choose_option",
                {"label": "Email notifications", "choice": "Email notifications"},
                lambda page: page.get_by_label("Email notifications").check(),
            ),
            Step(
                "choose_option",
                {"label": "Language", "choice": "Deutsch"},
                lambda page: page.get_by_label("Language").select_option(label="Deutsch"),
            ),
            Step("press", {"name": "Save"}, click("button", "Save")),
        ],
    ),
}


def _then(first: Hand, second: Hand) -> Hand:
    async def both(page: Page) -> None:
        await first(page)
        await second(page)

    return both


@dataclass(frozen=True)
class Task:
    """A small task a person might give on one page, judged by what the page told its server."""

    goal: str
    done: Callable[[list[str]], bool]


TASKS: dict[str, Task] = {
    "multi-step checkout": Task(
        "Enter the delivery address 12 Oak Street, Leeds and go on to the review step. Do not pay.",
        lambda seen: "step=3" in seen and "paid" not in seen,
    ),
    "booking form": Task(
        "Check whether a table for 2 guests is free on 2026-12-24 at 19:00.",
        lambda seen: any(all(w in s for w in ("d=2026-12-24", "t=19:00", "g=2")) for s in seen),
    ),
    "search with results": Task("Search the recipes for leek.", lambda seen: "q=leek" in seen),
    "login wall": Task(
        "Read the rest of the story, without signing in.",
        lambda seen: "read-more" in seen and "signed-in" not in seen,
    ),
    "consent wall": Task(
        "Go to the Sport section. Do not accept the cookies.",
        lambda seen: "at=sport" in seen and "accepted" not in seen,
    ),
    "settings with toggles": Task(
        "Turn on email notifications, switch the language to Deutsch and save.",
        lambda seen: "email=true&lang=Deutsch" in seen,
    ),
}
"""Each page's task, written with the pages; a model run is judged by ``done`` over the page's reports."""

LATER: dict[str, tuple[str, Task, list[tuple[str, dict[str, Any]]]]] = {
    "unsubscribe": (
        _page(
            "Email preferences",
            """<main><h1>Email preferences</h1><form onsubmit="event.preventDefault();
seen(new URLSearchParams(new FormData(this)).toString()); document.getElementById('s').textContent = 'You are unsubscribed.'">
<label>Email address <input name='email' type='email' required></label>
<fieldset><legend>Why are you leaving?</legend><label><input type='radio' name='why' value='many'> Too many emails</label>
<label><input type='radio' name='why' value='irrelevant'> Not relevant</label></fieldset>
<button>Unsubscribe</button></form><p id='s' role='status'></p></main>""",
        ),
        Task(
            "Unsubscribe bob@example.com; the reason is too many emails.",
            lambda seen: "email=bob@example.com&why=many" in seen,
        ),
        [
            ("fill_field", {"label": "Email address", "text": "bob@example.com"}),
            ("choose_option", {"label": "Why are you leaving?", "choice": "Too many emails"}),
            ("press", {"name": "Unsubscribe"}),
        ],
    ),
    "product filters": (
        _page(
            "Lamps",
            """<main><h1>Lamps</h1><label>Sort by <select id='o'><option>Popular</option><option>Price, low to high</option>
<option>Newest</option></select></label><label><input type='checkbox' id='k'> In stock only</label>
<button onclick="seen('sort=' + o.value + '&stock=' + k.checked);
document.getElementById('r').innerHTML = '<h2>4 lamps</h2><ul><li>Desk lamp $19</li><li>Floor lamp $49</li></ul>'">Apply</button>
<div id='r'></div></main>""",
        ),
        Task(
            "Show only lamps in stock, cheapest first.",
            lambda seen: "sort=Price, low to high&stock=true" in seen,
        ),
        [
            ("choose_option", {"label": "Sort by", "choice": "Price, low to high"}),
            ("choose_option", {"label": "In stock only", "choice": "In stock only"}),
            ("press", {"name": "Apply"}),
        ],
    ),
    "questions and answers": (
        _page(
            "Help",
            """<main><h1>Help</h1><h2><button aria-expanded='false' onclick="this.setAttribute('aria-expanded', 'true');
document.getElementById('a1').hidden = false; seen('opened=reset')">How do I reset my password?</button></h2>
<p id='a1' hidden>Use the link on the sign-in page.</p>
<h2><button onclick="seen('opened=delete')">How do I delete my account?</button></h2></main>""",
        ),
        Task(
            "Find out how to reset my password.",
            lambda seen: "opened=reset" in seen and "opened=delete" not in seen,
        ),
        [("press", {"name": "How do I reset my password?"})],
    ),
}
"""Three more pages and tasks, written after the first six's local-model run (2026-12-07) and before any
change to the any-page prompt made for them: their model rows are read on pages the change never saw."""


def serve(seen: list[str] | None = None) -> tuple[ThreadingHTTPServer, str]:
    pages = {f"/p/{index}": html for index, (html, _) in enumerate(PAGES.values())}
    pages |= {f"/later/{index}": html for index, (html, _, _) in enumerate(LATER.values())}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.startswith("/seen?") and seen is not None:
                seen.append(urllib.parse.unquote(self.path[len("/seen?") :]))
            body = pages.get(self.path.split("?")[0], "<body>Not found</body>").encode()
            self.send_response(200 if self.path.split("?")[0] in pages else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@dataclass
class Walk:
    narration: list[int]
    aria: list[int]
    tool_s: list[float]
    hand_s: list[float]
    unchanged: int = 0
    failed: int = 0


async def walk(
    browser: Browser, url: str, steps: list[Step], rounds: int, show: bool = False, site: str = "any-page"
) -> Walk:
    count = encoder()
    out = Walk([], [], [], [])
    for _ in range(rounds):
        adapter = site_named(site)
        session = await browser.new_session(url, adapter)
        try:
            await session.goto(url)
            toolbox = Toolbox(session, adapter)
            for step in steps:
                started = time.perf_counter()
                result = await toolbox.call(step.tool, step.args)
                out.tool_s.append(time.perf_counter() - started)
                out.failed += not result.ok
                out.unchanged += "No visible change" in result.text.splitlines()[0]
                out.narration.append(len(count.encode(result.text)))
                if show:
                    print(f"  {step.tool}({step.args}) ->\n    " + result.text.replace("\n", "\n    "))
                snapshot = await session.page.locator("body").aria_snapshot(mode="ai")  # type: ignore[call-arg]
                out.aria.append(len(count.encode(snapshot)))
        finally:
            await session.close()
        hand = await browser.new_session(url, None)
        try:
            await hand.page.goto(url, wait_until="domcontentloaded")
            for step in steps:
                started = time.perf_counter()
                await step.hand(hand.page)
                out.hand_s.append(time.perf_counter() - started)
        finally:
            await hand.close()
    return out


def model_tasks(model: str, runs: Path) -> None:
    """Each page's task run end to end (`start_run`, ``--site any-page``) by ``model``: ``scripted`` (the
    page's steps as a `ScriptedModel`'s moves, then finish) or a model name (``local``: the 1.5B). The
    person answers yes to every question, but no to one about paying. Prints done or not, turns, seconds."""
    from webagent.config import RunConfig
    from webagent.runs.runner import start_run
    from webagent.sync import run_sync
    from webagent.testing import ScriptedModel, call, reply

    seen: list[str] = []
    server, base = serve(seen)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} · model {model} · --site any-page · each task once")
    print("page                    done  turns  asked  seconds  outcome")
    try:
        every = [
            (name, f"/p/{index}", TASKS[name], [(step.tool, step.args) for step in steps])
            for index, (name, (_, steps)) in enumerate(PAGES.items())
        ]
        every += [
            (name, f"/later/{i}", task, moved) for i, (name, (_, task, moved)) in enumerate(LATER.items())
        ]
        for name, path, task, steps in every:
            seen.clear()
            asked: list[str] = []

            def person(question: str, asked: list[str] = asked) -> str:
                asked.append(question)
                return "no" if "pay" in question.lower() else "yes"

            scripted = None
            if model == "scripted":
                moves = [reply(call(tool, **args)) for tool, args in steps]
                scripted = ScriptedModel([*moves, reply(call("finish", outcome="done", summary="Done."))])
            config = RunConfig(
                goal=task.goal,
                shop_url=base + path,
                site="any-page",
                model=None if model == "scripted" else model,
                approve="ask",
                runs_dir=runs,
                max_steps=12,
            )
            started = time.perf_counter()
            result = run_sync(start_run(config, model=scripted, prompt=person))
            seconds = time.perf_counter() - started
            time.sleep(0.3)  # the page's last report lands
            transcript = Path(result.run_dir, "transcript.jsonl").read_text()
            turns = transcript.count('"event": "tool"')
            print(
                f"{name:<23} {'yes' if task.done(seen) else 'NO':>4} {turns:>6} {len(asked):>6} {seconds:>8.0f}"
                f"  {result.outcome}: {result.message[:70]!r}"
            )
            if not task.done(seen):
                print(f"    the page reported: {seen}; asked: {asked}")
    finally:
        server.shutdown()


async def main(rounds: int, show: bool = False, site: str = "any-page") -> None:
    server, base = serve()
    print(f"# {time.strftime('%Y-%m-%d')} · {rounds} rounds · --site {site} · tokens cl100k_base · medians")
    print(
        "page                    steps  narration/step  ARIA/step  ratio  no-visible-change  failed  tool ms  hand ms  ratio  slowest ms"
    )
    try:
        async with await Browser.launch() as browser:
            for index, (name, (_, steps)) in enumerate(PAGES.items()):
                w = await walk(browser, f"{base}/p/{index}", steps, rounds, show, site)
                n, a = statistics.median(w.narration), statistics.median(w.aria)
                t, h = statistics.median(w.tool_s) * 1000, statistics.median(w.hand_s) * 1000
                print(
                    f"{name:<23} {len(steps):>5} {n:>15.0f} {a:>10.0f} {n / a:>6.2f} {w.unchanged:>18} {w.failed:>7}"
                    f" {t:>8.0f} {h:>8.0f} {t / h:>6.1f} {max(w.tool_s) * 1000:>11.0f}"
                )
    finally:
        server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--show", action="store_true", help="print every narration")
    parser.add_argument(
        "--site", default="any-page", help="the adapter the tools run with (default any-page)"
    )
    parser.add_argument(
        "--model",
        help="instead: each page's small task run end to end by this model (scripted, local, …)",
    )
    options = parser.parse_args()
    if options.model:
        with tempfile.TemporaryDirectory() as runs:
            model_tasks(options.model, Path(runs))
    else:
        asyncio.run(main(options.rounds, options.show, options.site))
