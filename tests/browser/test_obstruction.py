"""Reading an overlay from its ARIA snapshot (the browser side is tested in tests/e2e/test_overlays.py), a
timed-out click that must not be made twice, and a check a popup took mid-press (in real Chromium)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import async_playwright

from webagent.browser.chromium import find_chromium
from webagent.browser.layers import install
from webagent.browser.obstruction import Blocker, Obstructed, act, describe_blocker
from webagent.sync import run_sync


def test_a_dialog_is_named_and_its_controls_listed_in_page_order() -> None:
    snapshot = """- dialog "Quick \\"survey\\"":
  - heading "Quick survey" [level=2]
  - paragraph: Tell us
  - button "Answer survey"
  - button "Close survey": ×
  - link "Not now":
    - /url: "#"
  - button "×\""""
    blocker = describe_blocker(snapshot, modal=True)
    assert blocker.title == 'Quick "survey"'
    assert blocker.controls == [
        ("button", "Answer survey"),
        ("button", "Close survey"),
        ("link", "Not now"),
        ("button", "×"),
    ]


def test_a_layer_without_a_role_is_named_by_its_first_words() -> None:
    blocker = describe_blocker('- note:\n  - strong: Free dessert today!\n  - button "Close": ✕', False)
    assert blocker.title == "Free dessert today!" and blocker.names == ["Close"]
    assert describe_blocker('- button "Allow"', False).describe() == "an overlay"


def test_the_refusal_names_the_dialog_and_every_button() -> None:
    blocker = Blocker(title="Stay updated", controls=[("button", "Allow notifications")], modal=True)
    message = str(Obstructed(blocker, "offers no way to decline it"))
    assert message.startswith('a dialog "Stay updated" covers the page and offers no way to decline it;')
    assert 'its buttons: "Allow notifications"' in message and "press" in message


# -- a click that times out after it reached the page is not made again (`obstruction.act`) -------------

BLOCKING_BUTTON = """<button onclick="window.clicks=(window.clicks||0)+1;
  const t = Date.now(); while (Date.now() - t < %d) {}">Add</button>"""

COVERED_BUTTON = """<button onclick="window.clicks=(window.clicks||0)+1">Add</button>
<div id="cover" style="position:fixed;inset:0;background:rgba(0,0,0,.3)"></div>
<script>setTimeout(() => document.getElementById("cover").remove(), %d)</script>"""


@dataclass(frozen=True)
class Acted:
    """What `act` left on a page written in a test."""

    clicks: int
    """``window.clicks``, which the page's handlers count."""
    checked: bool
    dismissed: list[str]
    raised: str | None
    """The first line of the Playwright error `act` let through, if any."""


def act_on(html: str, role: Literal["button", "checkbox", "radio"], name: str, timeout_ms: float) -> Acted:
    """Click (a button) or check (a box) the control ``role``/``name`` of ``html`` through `act`, as in a
    region whose way was just cleared: a one-second first try, then the way looked at."""

    async def run() -> Acted:
        async with async_playwright() as playwright:
            await install(playwright)
            browser = await playwright.chromium.launch(executable_path=find_chromium())
            try:
                page = await browser.new_page()
                await page.set_content(html)
                control = page.get_by_role(role, name=name)
                dismissed: list[str] = []
                raised = None
                try:
                    if role == "button":
                        await act(
                            page, control, lambda ms: control.click(timeout=ms), dismissed, timeout_ms, True
                        )
                    else:
                        await act(
                            page, control, lambda ms: control.check(timeout=ms), dismissed, timeout_ms, True
                        )
                except PlaywrightError as error:
                    raised = str(error).splitlines()[0]
                clicks = int(await page.evaluate("window.clicks || 0"))
                checked = role != "button" and await control.is_checked()
                return Acted(clicks, checked, dismissed, raised)
            finally:
                await browser.close()

    return run_sync(run())


@pytest.mark.parametrize("busy_ms", [1_300, 2_000])
def test_a_click_the_page_took_but_answered_late_is_not_made_twice(busy_ms: int) -> None:
    # The page's handler holds its main thread past the first try's timeout: Playwright had clicked, and
    # the timeout stands. (On a loaded machine the first try may time out before it clicks; the second
    # then clicks, and returns: still one click.)
    acted = act_on(BLOCKING_BUTTON % busy_ms, "button", "Add", 6_000)
    clicks, raised = acted.clicks, acted.raised
    assert clicks == 1, raised
    assert raised is None or "Timeout" in raised


def test_a_click_held_back_by_a_layer_is_tried_again_once_it_goes() -> None:
    # Playwright never clicked while the layer took the clicks: trying again is right, and clicks once.
    acted = act_on(COVERED_BUTTON % 1_500, "button", "Add", 6_000)
    clicks, raised = acted.clicks, acted.raised
    assert (clicks, raised) == (1, None)


# -- a popup that arrives between the press and the release takes the click (`obstruction.unchanged`) --

# The second radio brings up a dialog the first time it is pressed, at the moment named: the release then
# lands on the dialog, the click goes to what is under both, and the radio stays as it was.
RADIO_UNDER_A_POPUP = """<fieldset role="radiogroup" aria-label="Payment method">
<input type="radio" name="pay" id="card" checked><label for="card">Card</label>
<input type="radio" name="pay" id="cash"><label for="cash">Cash</label></fieldset>
<script>
let shown = false;
function popup() {
  const back = document.createElement("div");
  back.style = "position:fixed;inset:0;background:rgba(0,0,0,.4)";
  back.innerHTML = '<div role="dialog" aria-modal="true" aria-label="Are you still there?" '
    + 'style="background:#fff;margin:80px;padding:20px"><p>We kept your cart.</p><button>Close</button></div>';
  back.querySelector("button").onclick = () => back.remove();
  document.body.append(back);
}
document.getElementById("cash").addEventListener("%s", () => {
  if (shown) return;
  shown = true;
  %s
});
</script>"""


@pytest.mark.parametrize(
    ("event", "how"),
    [("pointerdown", "popup();"), ("mousedown", "popup();"), ("pointerdown", "queueMicrotask(popup);")],
)
def test_a_check_a_popup_took_mid_press_is_made_again_past_it(event: str, how: str) -> None:
    # As in a form whose way was just cleared (`ToolContext.cleared`).
    acted = act_on(RADIO_UNDER_A_POPUP % (event, how), "radio", "Cash", 10_000)
    checked, dismissed, raised = acted.checked, acted.dismissed, acted.raised
    assert (checked, raised) == (True, None)
    assert dismissed == ['a dialog "Are you still there?" with "Close"']


def test_a_box_that_refuses_to_change_is_clicked_once_not_over_and_over() -> None:
    # Nothing covers it: its page refuses the change (a server-backed "Extra sauce" that has not answered
    # yet looks the same). Clicking again would fire its handler again.
    sauce = "<label><input type=checkbox onclick='window.clicks=(window.clicks||0)+1; return false'> Extra sauce</label>"
    acted = act_on(sauce, "checkbox", "Extra sauce", 10_000)
    clicks, raised = acted.clicks, acted.raised
    assert clicks == 1
    assert raised is not None and "did not change its state" in raised
