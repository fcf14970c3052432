"""Popups nobody catalogued: overlays written here, in the test, injected into the real shop.

None of these overlays is known to webagent — no test ids, labels chosen here — so what is tested is
the generic handling (webagent/browser/obstruction.py): dismiss by a decline or close control, else Escape,
never accept; fail fast and name the dialog when there is no safe way out; never wait out the click
timeout. Accepting controls here navigate to ``https://accepted.invalid/…``, which the allowlist blocks
and narrates, so a transcript shows it if the agent ever pressed one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webagent.agent.checkpoint import RunFolder
from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.llm.protocol import Model
from webagent.planner import Planner
from webagent.runs.runner import start_run
from webagent.sync import run_sync

from .conftest import Tools

OpenTools = Callable[..., Tools]
PROFILE = Profile(name="Ana Tester", address="12 Oak Street", phone="555-0101", payment_method="Cash")
GOAL = "Order 2 Tiramisu and a Lasagna al Forno from Italian Bistro, pay cash"

# A popup generator written for these tests only. `cfg` says how it looks and how it goes away.
OVERLAY_JS = """
(() => {
  const cfg = __CFG__;
  let shown = 0;
  let clicks = 0;
  const button = (parent, text, label) => {
    const b = document.createElement(cfg.linkDecline && !label ? "a" : "button");
    if (b.tagName === "A") b.href = "#";
    b.textContent = text;
    if (label) b.setAttribute("aria-label", label);
    b.style.margin = "4px";
    parent.append(b);
    return b;
  };
  const show = () => {
    if (shown >= cfg.times || !document.body) return;
    shown += 1;
    const root = document.createElement("div");
    root.style.cssText = cfg.corner
      ? "position:fixed;left:8px;bottom:8px;z-index:9999;background:#fff;border:1px solid #333;padding:12px"
      : "position:fixed;inset:0;z-index:9999;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center";
    const box = document.createElement("div");
    box.style.cssText = "background:#fff;padding:20px;max-width:420px;position:relative;left:" + cfg.shift + "px";
    if (cfg.role) {
      box.setAttribute("role", cfg.role);
      if (cfg.modal) box.setAttribute("aria-modal", "true");
      box.setAttribute("aria-labelledby", "t-overlay-title-" + shown);
    }
    const title = document.createElement("h2");
    title.id = "t-overlay-title-" + shown;
    title.textContent = cfg.title;
    const text = document.createElement("p");
    text.textContent = cfg.text;
    box.append(title, text);
    const close = () => { if (cfg.stubborn) return; root.remove(); if (cfg.again) show(); };
    for (const label of cfg.accept) {
      button(box, label).addEventListener("click", () => { location.href = "https://accepted.invalid/" + encodeURIComponent(label); });
    }
    if (cfg.decline) {
      const b = button(box, cfg.decline);
      b.addEventListener("click", (e) => {
        e.preventDefault();
        if (cfg.moving) { b.remove(); button(box, cfg.decline).addEventListener("click", () => {}); return; }
        close();
      });
    }
    if (cfg.icon) button(box, "×", cfg.icon).addEventListener("click", close);
    if (cfg.escape) document.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
    root.append(box);
    document.body.append(root);
  };
  if (cfg.delayMs !== null) setTimeout(show, cfg.delayMs);
  document.addEventListener("click", () => { clicks += 1; if (clicks === cfg.afterClicks) setTimeout(show, 0); }, true);
})();
"""


def overlay(**cfg: Any) -> str:
    settings_: dict[str, Any] = {
        "title": "Quick survey",
        "text": "Two minutes of your time would help us a lot.",
        "role": "dialog",
        "modal": True,
        "accept": ["Answer survey"],
        "decline": None,
        "icon": None,
        "escape": False,
        "times": 1,
        "again": False,
        "stubborn": False,
        "moving": False,
        "linkDecline": False,
        "corner": False,
        "shift": 0,
        "delayMs": None,
        "afterClicks": 1,
        **cfg,
    }
    return OVERLAY_JS.replace("__CFG__", json.dumps(settings_))


@pytest.fixture
def run(agent_browser: Browser, tmp_path: Path) -> Callable[..., RunResult]:
    def go(script: str | None = None, model: Model | None = None, **overrides: Any) -> RunResult:
        scripts = []
        if script is not None:
            path = tmp_path / f"overlay-{len(list(tmp_path.glob('overlay-*.js')))}.js"
            path.write_text(script, encoding="utf-8")
            scripts.append(path)
        settings_: dict[str, Any] = {
            "goal": GOAL,
            "approve": "auto",
            "runs_dir": tmp_path / "runs",
            "profile": PROFILE,
            "init_scripts": scripts,
            **overrides,
        }
        config = RunConfig(**settings_)
        return run_sync(start_run(config, model=model or Planner(), browser=agent_browser))

    return go


def narrations(result: RunResult) -> list[str]:
    folder = RunFolder(Path(result.run_dir).parent, result.run_id)
    return [str(e["narration"]) for e in folder.transcript() if e["event"] == "tool"]


def ordered_lines(result: RunResult) -> list[tuple[str, int]]:
    with sqlite3.connect(Path(result.run_dir) / "shop.db") as db:
        return sorted(db.execute("select dish_name, quantity from order_items").fetchall())


def assert_ordered_through(result: RunResult) -> list[str]:
    said = narrations(result)
    assert result.outcome == "ordered", (result.message, said)
    assert ordered_lines(result) == [("Lasagna al Forno", 1), ("Tiramisu", 2)]
    assert not any("accepted.invalid" in text for text in said), "an accepting control was pressed"
    assert not any("did not respond in time" in text for text in said), "a call waited out a timeout"
    return said


def test_an_unknown_survey_is_dismissed_with_its_decline_button(run: Callable[..., RunResult]) -> None:
    result = run(overlay(decline="Not now", accept=["Answer survey", "Sign me up"], afterClicks=1))
    said = assert_ordered_through(result)
    assert any('dismissed a dialog "Quick survey" with "Not now"' in text for text in said), said


def test_the_shops_clutter_3_is_handled_with_the_known_list_switched_off(
    run: Callable[..., RunResult],
) -> None:
    result = run(clutter=3, overlay_shortcuts=False)
    said = assert_ordered_through(result)
    assert any("dismissed a dialog" in text for text in said), said


CLOSE_LABELS = ["Close", "Dismiss", "Close this window", "Close dialog", "Hide"]
DECLINES = ["Not now", "No thanks", "Maybe later", "Skip", "I'll pass", "Continue without signing up"]
ACCEPTS = ["Accept all", "Subscribe", "Allow notifications", "Join now", "Yes, sign me up", "Take the survey"]


@st.composite
def unknown_overlays(draw: st.DrawFn) -> str:
    """A popup the agent was not written against: how it goes away, where, when, and what it says."""
    way = draw(st.sampled_from(["icon", "decline", "escape", "decline-link"]))
    return overlay(
        title=draw(st.sampled_from(["Before you go…", "Win a free dinner", "Rate us", "Stay in the loop"])),
        role=draw(st.sampled_from(["dialog", "alertdialog", None])),
        modal=draw(st.booleans()),
        accept=draw(st.lists(st.sampled_from(ACCEPTS), min_size=1, max_size=2, unique=True)),
        icon=draw(st.sampled_from(CLOSE_LABELS)) if way == "icon" else None,
        decline=draw(st.sampled_from(DECLINES)) if way.startswith("decline") else None,
        linkDecline=way == "decline-link",
        escape=way == "escape",
        shift=draw(st.integers(-200, 200)),
        delayMs=draw(st.one_of(st.none(), st.integers(0, 2500))),
        afterClicks=draw(st.integers(1, 8)),
    )


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=unknown_overlays())
def test_any_unknown_popup_at_a_random_moment_is_got_past(run: Callable[..., RunResult], script: str) -> None:
    assert_ordered_through(run(script))


# -- no safe way out: fail fast, say what blocks, never loop ---------------------------------------


def inject(tools: Tools, script: str) -> None:
    run_sync(tools.session.page.evaluate(script))


@pytest.mark.parametrize(
    ("cfg", "words"),
    [
        ({"accept": ["Allow notifications"], "title": "Stay updated"}, "offers no way to decline it"),
        ({"decline": "Not now", "stubborn": True}, 'did not close with "Not now" or Escape'),
        ({"decline": "Not now", "moving": True}, "did not close"),
        ({"decline": "Not now", "again": True, "times": 9}, "keeps coming back"),
    ],
    ids=["accept-only", "never-closes", "moving-button", "reappears"],
)
def test_no_safe_way_out_is_named_fast(open_tools: OpenTools, cfg: dict[str, Any], words: str) -> None:
    tools = open_tools()
    inject(tools, overlay(delayMs=0, afterClicks=0, **cfg))
    result = tools("open_restaurant", name="Italian Bistro")
    assert not result.ok and words in result.text, result.text
    title = cfg.get("title", "Quick survey")
    assert f'a dialog "{title}" covers the page' in result.text
    assert "accepted.invalid" not in result.text
    assert tools.session.timeouts == 0


def test_two_stacked_popups_are_both_dismissed(open_tools: OpenTools) -> None:
    tools = open_tools()
    inject(tools, overlay(title="Newsletter", decline="No thanks", delayMs=0, afterClicks=0))
    inject(tools, overlay(title="Rate us", icon="Close", delayMs=0, afterClicks=0, role=None))
    result = tools("open_restaurant", name="Italian Bistro")
    assert result.ok, result.text
    assert 'a dialog "Rate us" with "Close"' in result.text
    assert 'a dialog "Newsletter" with "No thanks"' in result.text
    assert tools.session.timeouts == 0


# -- the planner, when no tool can get past a popup ------------------------------------------------


def test_the_planner_presses_a_neutral_button_to_get_past(run: Callable[..., RunResult]) -> None:
    # Only one button, and it neither declines nor agrees to anything; Escape does nothing.
    script = overlay(
        title="Still browsing?", accept=[], decline="I'm still browsing", stubborn=False, afterClicks=2
    )
    # "I'm still browsing" is no decline word: the tool stops and names it; the planner presses it.
    result = run(script)
    said = assert_ordered_through(result)
    assert any('could not act: a dialog "Still browsing?" covers the page' in text for text in said), said
    assert any(text.startswith('Pressed "I\'m still browsing".') for text in said), said


def test_a_popup_that_only_accepts_is_reported_and_never_pressed(run: Callable[..., RunResult]) -> None:
    script = overlay(title="Stay updated", accept=["Allow notifications", "Join now"], afterClicks=2)
    paused = run(script)
    assert paused.outcome == "paused" and paused.waiting_for == "answer", paused.message
    assert paused.question == (
        'A popup "Stay updated" blocks the page and offers only "Allow notifications", "Join now". '
        "Which should I press, or should I stop?"
    )
    assert paused.choices == ["Allow notifications", "Join now", "Stop"]
    stopped = run(script, answers=["Stop"])
    assert stopped.outcome == "done" and ordered_lines(stopped) == []
    assert not any("accepted.invalid" in text for text in narrations(stopped))


def test_an_escape_only_popup_over_the_open_cart_does_not_cost_a_timeout(open_tools: OpenTools) -> None:
    # Seen in CI: Escape closed the popup and the cart drawer with it, and the checkout click waited 10 s.
    tools = open_tools()
    assert tools("open_restaurant", name="Italian Bistro").ok
    assert tools("add_to_cart", dish="Tiramisu", quantity=2, options=None).ok
    assert tools("view_cart").ok
    inject(tools, overlay(title="Before you go…", escape=True, delayMs=0, afterClicks=0))
    result = tools("go_to_checkout")
    assert result.ok and "At checkout" in result.text, result.text
    assert "with Escape" in result.text and tools.session.timeouts == 0


# A modal whose only button neither declines nor agrees, as a shop's "are you still there?" check: written
# here, under (z-index 80) whatever popup arrives next.
STILL_HERE_JS = """
(() => {
  const backdrop = document.createElement("div");
  backdrop.style.cssText = "position:fixed;inset:0;z-index:80;background:rgba(0,0,0,.4);display:flex;align-items:center;justify-content:center";
  const box = document.createElement("div");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-modal", "true");
  box.setAttribute("aria-label", "Anyone home?");
  box.style.cssText = "background:#fff;padding:24px";
  const here = document.createElement("button");
  here.textContent = "Yes, keep my basket";
  here.addEventListener("click", () => backdrop.remove());
  box.append(here);
  backdrop.append(box);
  document.body.append(backdrop);
})();
"""


@pytest.mark.parametrize(
    "upper",
    [
        {"role": None, "decline": "No thanks"},
        {"role": "dialog", "modal": False, "decline": "Maybe later"},
        {"role": "dialog", "modal": True, "icon": "Close"},
        {"role": "alertdialog", "modal": False, "corner": True, "decline": "Not now"},
    ],
    ids=["no-role", "non-modal", "modal-icon", "corner"],
)
def test_a_popup_over_a_modal_is_dismissed_before_the_modal_is_answered(
    open_tools: OpenTools, upper: dict[str, Any]
) -> None:
    # Seen in the shipped eval (c4-03): a popup arrived over the shop's "Are you still there?" modal; the
    # way to the popup's decline was judged blocked by the modal underneath it, and the press was refused.
    tools = open_tools()
    inject(tools, STILL_HERE_JS)
    inject(
        tools, overlay(title="Members eat for less", accept=["Join now"], delayMs=0, afterClicks=0, **upper)
    )
    result = tools("press", name="Yes, keep my basket")
    assert result.ok, result.text
    assert "accepted.invalid" not in result.text
    assert run_sync(tools.session.page.get_by_role("dialog", name="Anyone home?").count()) == 0
    assert tools.session.timeouts == 0
