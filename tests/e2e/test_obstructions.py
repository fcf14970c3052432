"""Obstructions anywhere on the page: layers in frames, in shadow roots, sheets over part of the screen.

Each layer is written here, in the test, with wordings chosen before the code was changed and found in
none of its word lists (webagent/narration/consent.py): what is tested is that a way out is found by what
its words mean. Every accepting control records its press (a flag on the page, or a request to the fake
consent host the test serves), and every test asserts that none was pressed, that the tool's action went
through, and that the narration says what happened — nothing was "dismissed" that is still there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.async_api import Route

from webagent.agent.checkpoint import RunFolder
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.planner import Planner
from webagent.runs.runner import start_run
from webagent.sync import run_sync

from .conftest import Tools

OpenTools = Callable[..., Tools]

CONSENT_HOST = "https://consent.example"

# A consent platform's wall: a full-page iframe from another origin. Its buttons are in the frame; the
# frame asks its parent to remove it (postMessage), as consent platforms do. Accepting buttons tell the
# consent host (the test's route records it) before anything else.
WALL_PAGE = """<!doctype html><html lang="en"><body style="font:16px sans-serif;background:#fff;padding:40px">
<div role="dialog" aria-labelledby="h"><h2 id="h">Your privacy matters to us</h2>
<p>We and our 312 partners store and access information on your device.</p>
<button id="a1">Agree and proceed</button> <button id="a2">Accept every cookie</button>
<p><a href="#" id="out">Proceed without agreeing</a></p></div>
<script>
for (const id of ["a1", "a2"]) document.getElementById(id).addEventListener("click", () => {
  fetch("/accepted?" + id).finally(() => parent.postMessage("consent:done", "*"));
});
document.getElementById("out").addEventListener("click", (e) => {
  e.preventDefault(); parent.postMessage("consent:done", "*");
});
</script></body></html>"""

FRAME_WALL_JS = """
(src) => {
  const frame = document.createElement("iframe");
  frame.src = src;
  frame.title = "Consent";
  frame.style.cssText = "position:fixed;inset:0;width:100vw;height:100vh;border:0;z-index:2147483000;background:#fff";
  addEventListener("message", (e) => { if (e.data === "consent:done") frame.remove(); });
  document.body.append(frame);
}
"""

# The same kind of wall, same-origin this time (srcdoc), and with other words.
SAME_ORIGIN_WALL_JS = """
() => {
  window.__accepted = [];
  const frame = document.createElement("iframe");
  frame.style.cssText = "position:fixed;inset:0;width:100vw;height:100vh;border:0;z-index:2147483000";
  frame.srcdoc = `<!doctype html><body style="background:#fff;padding:40px">
    <h2>Cookie preferences</h2><p>Choose which cookies we may use.</p>
    <button id="a">Accept &amp; close</button> <button id="b">Consent to all</button>
    <button id="n">Necessary cookies only</button></body>`;
  frame.addEventListener("load", () => {
    const doc = frame.contentDocument;
    for (const id of ["a", "b"]) doc.getElementById(id).addEventListener("click", () => {
      parent.__accepted.push(doc.getElementById(id).textContent); frame.remove();
    });
    doc.getElementById("n").addEventListener("click", () => frame.remove());
  });
  document.body.append(frame);
}
"""

# A sheet inside an open shadow root, over the lower part of the screen and a transparent layer over the
# rest; its host has no size of its own. Escape does nothing (``escape`` false) or closes it. Styles are set
# through the CSSOM: the shop's Content-Security-Policy refuses inline style attributes.
SHADOW_SHEET_JS = """
([title, accepts, wayOut, escape]) => {
  window.__accepted = [];
  const host = document.createElement("div");
  host.id = "t-shadow-host";
  const root = host.attachShadow({ mode: "open" });
  const make = (tag, css, parent) => { const n = document.createElement(tag); n.style.cssText = css; parent.append(n); return n; };
  make("div", "position:fixed;inset:0;z-index:99998;background:transparent", root);
  const sheet = make("section", "position:fixed;left:0;right:0;bottom:0;height:40vh;z-index:99999;background:#fff;border-top:2px solid #333;padding:16px", root);
  sheet.setAttribute("role", "dialog");
  sheet.setAttribute("aria-label", title);
  make("h2", "", sheet).textContent = title;
  make("p", "", sheet).textContent = "Ordering is quicker there.";
  const close = () => host.remove();
  for (const label of accepts) {
    const b = make("button", "margin:4px", sheet);
    b.textContent = label;
    b.addEventListener("click", () => { window.__accepted.push(label); close(); });
  }
  if (wayOut) {
    const a = make("a", "margin:4px", sheet);
    a.href = "#";
    a.textContent = wayOut;
    a.addEventListener("click", (e) => { e.preventDefault(); close(); });
  }
  if (escape) document.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  document.body.append(host);
}
"""

# A bottom sheet over 40% of the screen with a see-through scrim as its sibling, both children of body:
# the scrim takes every click, the buttons are in the sheet.
BOTTOM_SHEET_JS = """
() => {
  window.__accepted = [];
  const scrim = document.createElement("div");
  scrim.style.cssText = "position:fixed;inset:0;z-index:5000;background:rgba(0,0,0,.05)";
  const sheet = document.createElement("div");
  sheet.style.cssText = "position:fixed;left:0;right:0;bottom:0;height:40vh;z-index:5001;background:#fff;padding:16px";
  sheet.innerHTML = "<h3>Hungry for deals?</h3><p>Weekly offers in your inbox.</p>";
  const close = () => { scrim.remove(); sheet.remove(); };
  for (const label of ["Yes, send me deals", "Sign me up"]) {
    const b = document.createElement("button");
    b.textContent = label;
    b.addEventListener("click", () => { window.__accepted.push(label); close(); });
    sheet.append(b);
  }
  const no = document.createElement("button");
  no.textContent = "Not right now";
  no.addEventListener("click", close);
  sheet.append(no);
  document.body.append(scrim, sheet);
}
"""


def evaluate(tools: Tools, script: str, arg: object = None) -> object:
    return run_sync(tools.session.page.evaluate(script, arg))


def accepted(tools: Tools) -> object:
    return evaluate(tools, "() => window.__accepted")


@pytest.fixture
def consent_host(open_tools: OpenTools) -> tuple[Tools, list[str]]:
    """A tools handle whose page serves ``https://consent.example/`` (another origin); accepting calls."""
    tools = open_tools()
    calls: list[str] = []

    async def serve(route: Route) -> None:
        url = route.request.url
        if "/accepted" in url:
            calls.append(url)
            await route.fulfill(status=204)
        else:
            await route.fulfill(status=200, content_type="text/html", body=WALL_PAGE)

    async def allow_the_platform(route: Route) -> None:
        # A site that embeds a consent platform lets its frames in: the shop's policy allows only its own.
        if route.request.resource_type != "document":
            await route.fallback()
            return
        response = await route.fetch()
        policy = response.headers.get("content-security-policy", "")
        headers = {**response.headers, "content-security-policy": f"{policy}; frame-src {CONSENT_HOST}"}
        await route.fulfill(response=response, headers=headers)

    page = tools.session.page
    run_sync(page.route(f"{CONSENT_HOST}/**", serve))
    run_sync(page.route(tools.session.url("/") + "**", allow_the_platform))
    run_sync(tools.session.goto(page.url))
    return tools, calls


def test_a_cross_origin_consent_wall_in_an_iframe_is_got_past_without_agreeing(
    consent_host: tuple[Tools, list[str]],
) -> None:
    tools, calls = consent_host
    evaluate(tools, FRAME_WALL_JS, f"{CONSENT_HOST}/wall.html")
    # The wall is there, its words in the frame, before the tool acts.
    frame = tools.session.page.frame_locator("iframe[title=Consent]")
    run_sync(frame.get_by_role("link", name="Proceed without agreeing").wait_for())
    result = tools("open_restaurant", name="Italian Bistro")
    assert result.ok and "Italian Bistro" in result.text, result.text
    assert calls == [], "an accepting button of the wall was pressed"
    assert 'with "Proceed without agreeing"' in result.text, result.text
    assert "Your privacy matters to us" in result.text, result.text
    assert tools.session.timeouts == 0


def test_a_same_origin_consent_wall_in_an_iframe_is_got_past_without_consenting(
    open_tools: OpenTools,
) -> None:
    tools = open_tools()
    evaluate(tools, SAME_ORIGIN_WALL_JS)
    run_sync(tools.session.page.frame_locator("iframe").get_by_text("Necessary cookies only").wait_for())
    result = tools("open_restaurant", name="Italian Bistro")
    assert result.ok, result.text
    assert accepted(tools) == []
    assert 'with "Necessary cookies only"' in result.text, result.text


@pytest.mark.parametrize(
    ("title", "accepts", "way_out"),
    [
        ("Better in the app", ["Open the app", "Allow and continue"], "Stay on this website"),
        ("Privacy settings", ["I agree to everything", "Accept and continue"], "Carry on to the shop without consenting"),
    ],
    ids=["app-sheet", "consent-sheet"],
)  # fmt: skip
def test_a_sheet_in_a_shadow_root_is_got_past_by_its_way_out(
    open_tools: OpenTools, title: str, accepts: list[str], way_out: str
) -> None:
    tools = open_tools()
    evaluate(tools, SHADOW_SHEET_JS, [title, accepts, way_out, False])
    result = tools("open_restaurant", name="Italian Bistro")
    assert result.ok and "Italian Bistro" in result.text, result.text
    assert accepted(tools) == []
    assert f'dismissed a dialog "{title}" with "{way_out}"' in result.text, result.text
    assert "with Escape" not in result.text, result.text
    assert run_sync(tools.session.page.locator("#t-shadow-host").count()) == 0


def test_a_bottom_sheet_whose_scrim_takes_the_clicks_is_got_past_by_its_sheets_way_out(
    open_tools: OpenTools,
) -> None:
    tools = open_tools()
    evaluate(tools, BOTTOM_SHEET_JS)
    result = tools("open_restaurant", name="Italian Bistro")
    assert result.ok and "Italian Bistro" in result.text, result.text
    assert accepted(tools) == []
    assert 'with "Not right now"' in result.text, result.text
    assert "Hungry for deals?" in result.text, result.text


def test_a_layer_escape_did_not_close_is_not_narrated_as_dismissed(open_tools: OpenTools) -> None:
    # Only accepting buttons, Escape ignored, in a shadow root whose host has no size: it stays.
    tools = open_tools()
    evaluate(tools, SHADOW_SHEET_JS, ["Members only", ["Allow everything", "Join the club"], None, False])
    result = tools("open_restaurant", name="Italian Bistro")
    assert not result.ok, result.text
    assert "dismissed" not in result.text and "with Escape" not in result.text, result.text
    assert 'a dialog "Members only" covers the page' in result.text, result.text
    assert "Escape did not close it" in result.text, result.text
    assert accepted(tools) == []
    assert tools.session.timeouts == 0


def test_a_layer_escape_closed_is_narrated_as_dismissed_with_escape(open_tools: OpenTools) -> None:
    tools = open_tools()
    evaluate(tools, SHADOW_SHEET_JS, ["Members only", ["Allow everything"], None, True])
    result = tools("open_restaurant", name="Italian Bistro")
    assert result.ok, result.text
    assert 'dismissed a dialog "Members only" with Escape' in result.text, result.text
    assert accepted(tools) == []


# -- a whole order through the planner, a consent wall in a frame arriving mid-run -----------------------------

PROFILE = Profile(name="Ana Tester", address="12 Oak Street", phone="555-0101", payment_method="Cash")
GOAL = "Order 2 Tiramisu and a Lasagna al Forno from Italian Bistro, pay cash"

# An init script: after the person's second click, a consent wall in a same-origin iframe (srcdoc: the
# shop's policy lets no foreign frame in, and a run's page takes no route from a test). Pressing an
# accepting button sends the shop page to accepted.invalid, which the allowlist blocks and narrates.
RUN_WALL_JS = """
(() => {
  if (window !== top) return;
  let clicks = 0;
  document.addEventListener("click", () => {
    clicks += 1;
    if (clicks !== 2) return;
    const frame = document.createElement("iframe");
    frame.style.cssText = "position:fixed;inset:0;width:100vw;height:100vh;border:0;z-index:2147483000;background:#fff";
    frame.srcdoc = `<!doctype html><body><h2>Before you continue</h2><p>We use cookies to personalise ads.</p>
      <button>Yes, I'm happy</button> <button>Agree to all</button> <button>Reject everything optional</button></body>`;
    frame.addEventListener("load", () => {
      for (const b of frame.contentDocument.querySelectorAll("button")) b.addEventListener("click", () => {
        if (b.textContent.startsWith("Reject")) frame.remove();
        else location.href = "https://accepted.invalid/" + encodeURIComponent(b.textContent);
      });
    });
    document.body.append(frame);
  }, true);
})();
"""


def test_an_order_is_placed_past_a_consent_wall_in_a_frame_without_accepting(
    agent_browser: Browser, tmp_path: Path
) -> None:
    script = tmp_path / "wall.js"
    script.write_text(RUN_WALL_JS, encoding="utf-8")
    config = RunConfig(
        goal=GOAL, approve="auto", runs_dir=tmp_path / "runs", profile=PROFILE, init_scripts=[script]
    )
    result = run_sync(start_run(config, model=Planner(), browser=agent_browser))
    folder = RunFolder(Path(result.run_dir).parent, result.run_id)
    said = [str(e["narration"]) for e in folder.transcript() if e["event"] == "tool"]
    assert result.outcome == "ordered", (result.message, said)
    assert not any("accepted.invalid" in text for text in said), said
    assert any('with "Reject everything optional"' in text for text in said), json.dumps(said)


# A same-origin frame over the page whose only button neither declines nor agrees: no tool presses it by
# itself; `press` (the model's or the planner's choice) finds it in the frame.
STILL_THERE_FRAME_JS = """
() => {
  const frame = document.createElement("iframe");
  frame.style.cssText = "position:fixed;inset:0;width:100vw;height:100vh;border:0;z-index:2147483000";
  frame.srcdoc = `<!doctype html><body><h2>Still there?</h2><button>I'm still browsing</button></body>`;
  frame.addEventListener("load", () => {
    frame.contentDocument.querySelector("button").addEventListener("click", () => frame.remove());
  });
  document.body.append(frame);
}
"""


def test_a_button_in_a_frame_is_named_and_can_be_pressed(open_tools: OpenTools) -> None:
    tools = open_tools()
    evaluate(tools, STILL_THERE_FRAME_JS)
    run_sync(tools.session.page.frame_locator("iframe").get_by_role("button").wait_for())
    blocked = tools("open_restaurant", name="Italian Bistro")
    assert not blocked.ok, blocked.text
    assert 'a dialog "Still there?" covers the page' in blocked.text, blocked.text
    assert 'its buttons: "I\'m still browsing"' in blocked.text, blocked.text
    pressed = tools("press", name="I'm still browsing")
    assert pressed.ok and pressed.text.startswith('Pressed "I\'m still browsing".'), pressed.text
    assert run_sync(tools.session.page.locator("iframe").count()) == 0
    assert tools("open_restaurant", name="Italian Bistro").ok
