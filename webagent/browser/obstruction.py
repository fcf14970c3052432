"""Getting past whatever covers the element an action needs: popups nobody catalogued.

Before a tool presses, fills, checks or selects anything, `clear_way` asks the page what a person
would see at that spot: a modal dialog that does not hold the target, or anything else that would take
the click there (a fixed or sticky layer, a full-page div with no role at all). Wherever it is written: in
an open shadow root, as an iframe (a consent platform's wall, same-origin or not: its controls are read
through Playwright's frame locator), or as a see-through scrim beside the sheet that holds the buttons.
When something is in the way it is dismissed the way a careful person would — a way out found by what its
accessible name means ("×", "Close", "Not now", "Reject non-essential", "Continue without accepting";
`ways_out` in webagent/narration/consent.py), else Escape — and checked gone: no part of it still shown.
A control that accepts, subscribes, consents or sends data is never pressed: when nothing safe is offered,
`Obstructed` names the dialog and its buttons so the model can choose (the generic `press` tool), within
about a second rather than after the click timeout. Nothing is read while nothing is in the way.

`act` wraps one Playwright action: clear the way, act with a short timeout, and when the action still
times out (a popup that arrived mid-action) clear the way again — bounded, never an endless loop.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from webagent.browser.layers import covered_at, find_in_way, remembered
from webagent.narration.consent import decline_control
from webagent.narration.narrate import quote
from webagent.narration.said import blocked, dialog_phrase

__all__ = [
    "Blocker",
    "Obstructed",
    "act",
    "clear_way",
    "countdown",
    "covered",
    "describe_blocker",
    "reachable",
]

MAX_DISMISSALS = 4
"""Overlays dismissed for one action before giving up (stacked dialogs, one that comes back)."""
GONE_TIMEOUT_MS = 800
"""How long a dismissed overlay gets to disappear before the next way out is tried."""
LAST_LOOK_MS = 3_000
"""How long a layer that neither its decline button nor Escape seemed to close is given before it is reported."""
SLICE_MS = 2_500
"""An action's first try: long enough for a slow shop, short enough that a popup costs no 10 s wait."""

COUNTDOWN_MAX_S = 15
"""The longest a layer whose way out appears after a countdown ("Skip in 5") is waited out."""

CLEARED_SLICE_MS = 1_000
"""The first try of an action in a region cleared just before: a popup arriving meanwhile costs a second."""

T = TypeVar("T")

# Of the elements found, the index in ``containers`` (CSS selectors) of the container of each one shown
# that a click would reach: `covered`'s question for several controls at once.
REACHABLE_JS = """
(els, containers) => els.filter((el) => {
  const box = el.getBoundingClientRect();
  if (!box.width || !box.height || getComputedStyle(el).visibility === "hidden") return false;
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;
  const hit = document.elementFromPoint(x, y);
  return !hit || el.contains(hit);
}).map((el) => containers.findIndex((c) => el.closest(c)))
"""

_CONTROL = re.compile(r'^\s*- (button|link|menuitem) "((?:[^"\\]|\\.)*)"(?![^\n]*\[disabled\])', re.M)
"""A control a person could press now (a disabled "Skip in 5" is not one)."""
_COUNTDOWN = re.compile(r"\b(?:in|after|wait)\s+(\d{1,3})\s*(?:s|secs?|seconds?)\b", re.I)
"""A wait in seconds, its unit written: "close this ad in 5 s", "after 10 seconds" (not "in 3 steps")."""
_DISABLED_COUNT = re.compile(
    r'^\s*- (?:button|link) "[^"\n]*?\b(?:in|after)\s+(\d{1,3})\b[^"\n]*"[^\n]*\[disabled\]', re.M
)
"""A control that cannot be pressed yet and counts down in its name: a disabled "Skip in 5"."""
_NAMED = re.compile(
    r'^\s*- (?:dialog|alertdialog|heading|region|complementary|banner) "((?:[^"\\]|\\.)*)"', re.M
)
_TEXT = re.compile(r'^\s*- (?!button|link|menuitem|/url)[a-z]+(?: "[^"]*")?(?: \[[^\]]*\])*: (.+)$', re.M)


@dataclass(frozen=True)
class Blocker:
    """An overlay in the way, as its accessibility tree names it."""

    title: str
    controls: list[tuple[str, str]]
    """(role, accessible name) of each button and link, in page order."""
    modal: bool

    @property
    def names(self) -> list[str]:
        return [name for _, name in self.controls]

    def describe(self) -> str:
        """``a dialog "Quick survey"`` — how a narration names it."""
        return dialog_phrase(self.title)


class Obstructed(Exception):
    """Something covers the page and offers no safe way out; the message says what, for the model (its
    shape, and the planner's reader of it, are `said.blocked` and `said.read_blocked`)."""

    def __init__(self, blocker: Blocker, reason: str) -> None:
        self.blocker = blocker
        super().__init__(blocked(blocker.title, reason, blocker.names))


def describe_blocker(snapshot: str, modal: bool) -> Blocker:
    """A `Blocker` from the overlay's ARIA snapshot (`Locator.aria_snapshot`)."""
    controls = [(role, _unescape(name)) for role, name in _CONTROL.findall(snapshot)]
    named = _NAMED.search(snapshot)
    title = _unescape(named.group(1)) if named else ""
    if not title:
        text = _TEXT.search(snapshot)
        title = text.group(1).strip().strip('"') if text else ""
    return Blocker(title=" ".join(title.split())[:80], controls=controls, modal=modal)


def countdown(snapshot: str) -> int | None:
    """The seconds a layer says its way out will take to appear ("Skip in 5", "close this ad in 3 s"), or
    None when it names no such wait."""
    found = _DISABLED_COUNT.search(snapshot) or _COUNTDOWN.search(" ".join(snapshot.split()))
    return int(found.group(1)) if found else None


async def _wait_out(page: Page, found: _Found, level: int, seconds: int) -> bool:
    """Wait (up to ``seconds`` and a little) for the layer to offer a way out, or to go; whether it did."""
    deadline = time.monotonic() + seconds + 2
    while time.monotonic() < deadline:
        await page.wait_for_timeout(250)
        try:
            snapshot, _ = await _read(page, found, level)
        except PlaywrightTimeout:
            return True  # gone by itself
        if decline_control(describe_blocker(snapshot, False).names) is not None:
            return True
    return False


def _unescape(name: str) -> str:
    return name.replace('\\"', '"').replace("\\\\", "\\")


@dataclass(frozen=True)
class _Found:
    how: str
    """``covering`` (it takes the click at the target) or ``modal`` (it makes the page inert)."""
    framed: bool
    """Its controls are in an iframe, read through a frame locator."""


async def _find(target: Locator, level: int, timeout_ms: float) -> _Found | None:
    # This runs before every action, and nearly always finds the way clear: that is asked in one round trip
    # (the engine answers with the target itself). Anything else — the element not there yet, something in
    # the way — is asked again the full way: wait for the element (Playwright's handlers for the site's
    # known popups run then, and may clear the way by themselves), and ask what covers it.
    asked = find_in_way(target, level)
    if await asked.count():
        return None
    await target.first.wait_for(state="attached", timeout=timeout_ms)
    if await asked.count():
        return None
    page = target.page
    modal = await remembered(page, "modal", level).count()
    framed = await remembered(page, "frame", level).count()
    return _Found("modal" if modal else "covering", bool(framed))


async def covered(target: Locator) -> bool:
    """Whether something else would take a click on ``target`` now: an overlay over it."""
    try:
        return bool(await covered_at(target).count())  # one round trip; not there: not covered
    except PlaywrightError:
        return False


async def reachable(controls: Locator, containers: Sequence[str]) -> set[int]:
    """Which of ``containers`` (CSS selectors) hold one of ``controls`` that is shown and that nothing
    covers — by index, in one round trip."""
    try:
        return {int(i) for i in await controls.evaluate_all(REACHABLE_JS, list(containers)) if i >= 0}
    except PlaywrightError:
        return set()


def _shown(page: Page, level: int) -> Locator:
    """Any shown part of the layer found in the way (its shadow roots too)."""
    return remembered(page, "parts", level).filter(visible=True).first


async def _gone(page: Page, level: int, timeout_ms: float = GONE_TIMEOUT_MS) -> bool:
    """Whether no part of the layer found in the way is shown any more. Not the layer's own box alone: a shadow
    root's host, or a wrapper of fixed children, has none while what it shows still covers the page."""
    try:
        await _shown(page, level).wait_for(state="hidden", timeout=timeout_ms)
    except PlaywrightTimeout:
        return False
    return True


async def _read(page: Page, found: _Found, level: int) -> tuple[str, Locator]:
    """The blocker's ARIA snapshot and the locator its controls are pressed in (a frame's body, for a
    consent wall in an iframe, same-origin or not)."""
    panel = remembered(page, "panel", level).first
    snapshot = await panel.aria_snapshot(timeout=1_000)
    if not found.framed:
        return snapshot, panel
    body = remembered(page, "frame", level).first.content_frame.locator("body")
    return f"{snapshot}\n{await body.aria_snapshot(timeout=1_000)}", body


async def clear_way(
    page: Page, target: Locator, dismissed: list[str], timeout_ms: float = 10_000, level: int = 0
) -> None:
    """Dismiss what covers ``target`` until nothing does; `Obstructed` when no safe way out is left.

    Each dismissal is appended to ``dismissed`` as the narration says it: ``a dialog "…" with "Not now"``.
    ``level`` > 0 clears the way to a decline control that another popup covers (stacked popups).
    """
    seen: dict[str, int] = {}
    count = 0
    waited = ""
    for _ in range(MAX_DISMISSALS + 1):
        found = await _find(target, level, timeout_ms)
        if found is None:
            return
        try:
            snapshot, scope = await _read(page, found, level)
        except PlaywrightTimeout:
            continue  # it went away by itself meanwhile (a timed toast, or a known-overlay handler)
        blocker = describe_blocker(snapshot, found.how == "modal")
        key = blocker.title or ",".join(blocker.names)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 2:
            raise Obstructed(blocker, "keeps coming back after being dismissed")
        if count >= MAX_DISMISSALS:
            raise Obstructed(blocker, f"is still there after {MAX_DISMISSALS} overlays were dismissed")
        choice = decline_control(blocker.names)
        seconds = countdown(snapshot) if choice is None and not waited else None
        if seconds is not None:  # its way out comes after a countdown: waited out, within a bound
            if seconds > COUNTDOWN_MAX_S:
                raise Obstructed(
                    blocker,
                    f"says its way out appears in {seconds} s (webagent waits up to {COUNTDOWN_MAX_S} s)",
                )
            started = time.monotonic()
            appeared = await _wait_out(page, found, level, seconds)
            waited = f" once its way out appeared ({time.monotonic() - started:.0f} s)" if appeared else " "
            seen[key] -= 1
            continue
        if choice is not None:
            role = next(role for role, name in blocker.controls if name == choice)
            control = scope.get_by_role(role, name=choice, exact=True).first  # type: ignore[arg-type]
            try:
                # What covers a control inside a frame is the frame's business: the page cannot see it.
                if level < 2 and not found.framed:
                    await clear_way(page, control, dismissed, 2_000, level + 1)
                await control.click(timeout=1_500)
            except (PlaywrightError, Obstructed):
                # Moved, gone, or behind something that stays: Escape is tried next, unless the layer has
                # already gone (it is not narrated then: what made it go was not seen).
                if not await _shown(page, level).is_visible():
                    continue
            else:
                if await _gone(page, level):
                    dismissed.append(f"{blocker.describe()} with {quote(choice, 40)}{waited.rstrip()}")
                    count, waited = count + 1, ""
                    continue
        await page.keyboard.press("Escape")
        # Only what is no longer shown was dismissed: a layer still there after Escape is reported as such.
        if await _gone(page, level):
            dismissed.append(f"{blocker.describe()} with Escape")
            count += 1
            continue
        # A last, longer look before calling it stuck: on a loaded machine a layer its button closed (or a
        # known-overlay handler is closing) can take longer than GONE_TIMEOUT_MS to stop being shown.
        if await _gone(page, level, LAST_LOOK_MS):
            dismissed.append(f"{blocker.describe()} with {quote(choice, 40) if choice else 'Escape'}")
            count += 1
            continue
        if choice:
            reason = f"did not close with {quote(choice, 40)} or Escape"
        elif blocker.names:
            reason = "offers no way to decline it (Escape did not close it)"
        else:
            reason = "has no button or link to close it (Escape did not close it)"
        raise Obstructed(blocker, reason)
    raise Obstructed(describe_blocker("", False), "could not be cleared")


def delivered(error: PlaywrightTimeout) -> bool:
    """Whether a timed-out click had reached the page: its call log's last try performed it, and nothing
    took it instead. Playwright goes on waiting after it clicks (the page's answer to its hit-target
    check, a navigation the click started), and a timeout then comes after the click: clicking again
    would add a dish twice."""
    log = str(error)
    performed = log.rfind("performing click action")
    if performed < 0:
        return False
    after = log[performed:]
    return "intercepts pointer events" not in after and "retrying click action" not in after


async def act(
    page: Page,
    target: Locator,
    action: Callable[[float], Awaitable[T]],
    dismissed: list[str],
    timeout_ms: float = 10_000,
    cleared: bool = False,
    again: Callable[[], Awaitable[object]] | None = None,
) -> T:
    """Run ``action(timeout_ms)`` on ``target`` once nothing covers it; `Obstructed` if something must stay.

    The action first gets a short slice of the timeout; if it still times out, or a check did not take
    (`unchanged`) under a layer, the way is cleared again (a popup may have arrived mid-action) and the
    action retried, until the full timeout is spent — unless the click had already been performed
    (`delivered`): then the timeout stands, and the caller reads what the page did.
    ``cleared``: the way to a region holding ``target`` was just cleared (`clear_way`), so the action
    goes first, with a one-second slice, and the way is looked at only if it does not go through.
    ``again`` restores what the target lives in after a dismissal (Escape that closed a popup also
    closes the cart drawer holding the target).
    """
    if not cleared:
        await clear_way(page, target, dismissed, timeout_ms)
    deadline = (
        time.monotonic() + timeout_ms / 1000
    )  # after the way is clear: a countdown waited out is not the action's
    first = CLEARED_SLICE_MS if cleared else SLICE_MS
    while True:
        left_ms = (deadline - time.monotonic()) * 1000
        try:
            return await action(max(min(first, left_ms), 200))
        except PlaywrightTimeout as error:
            if left_ms <= SLICE_MS or delivered(error):
                raise
        except PlaywrightError as error:
            # Only a layer that took the click is a reason to check again: a box that stays as it was by
            # itself (its page refuses the change) is clicked once, not over and over.
            if left_ms <= SLICE_MS or not unchanged(error) or not await covered(target):
                raise
        # A popup may have arrived mid-action; if nothing is in the way the element is just slow.
        first = SLICE_MS
        await clear_way(page, target, dismissed, left_ms)
        if again is not None:
            await again()


def unchanged(error: PlaywrightError) -> bool:
    """Whether a check (or uncheck) left the box as it was: a layer that came between the press and the
    release took the click (the click went to what is under both) — `act` checks again only when a layer
    now covers the box; a check of a box already checked does nothing — or the page refused the change."""
    return "did not change its state" in str(error)
