"""Reading an element's facts where the page's own scripts cannot lie about them: in an isolated world.

A page's scripts share the main world with anything evaluated there, so they can patch `closest`,
`getAttribute` or `innerText` and make a "Pay $50" button read as "Close". On Chromium the element that
a click at the centre of a control would hit is found by the browser itself (`DOM.getNodeForLocation`),
resolved into an isolated world of our own — same DOM, pristine prototypes — and the script runs there.
The element read must be the control asked about: its box must be the box Playwright has for the
locator, else (a control covered by an overlay, one inside a frame, no CDP here) there is no isolated
reading and the caller reads in the main world as before.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from playwright.async_api import BrowserContext, CDPSession, Locator, Page
from playwright.async_api import Error as PlaywrightError

__all__ = ["FACTS_WORLD", "IsolatedReader"]

FACTS_WORLD = "webagent-facts"
"""The isolated world facts are read in (its own: the breadcrumb bridge's holds a binding)."""

# Called on the element hit at the control's centre: up to the control it belongs to, then the script.
_WRAP = """
function (arg) {
  const controls = 'button, a[href], input, select, textarea, [role=button], [role=link], [role=checkbox],'
    + ' [role=radio], [role=switch], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option]';
  let el = this.nodeType === 1 ? this : this.parentElement;
  const control = el && el.closest(controls);
  if (control) el = control;
  else if (el && el.closest('label') && el.closest('label').control) el = el.closest('label').control;
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return { facts: (%s)(el, arg), box: [r.x, r.y, r.width, r.height] };
}
"""


class IsolatedReader:
    """Evaluates a facts script on the element a locator names, in an isolated world (Chromium only)."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self._context = context
        self._page = page
        self._cdp: CDPSession | None = None
        self._unavailable = False

    async def _session(self) -> CDPSession | None:
        if self._cdp is None and not self._unavailable:
            try:
                self._cdp = await self._context.new_cdp_session(self._page)
                await self._cdp.send("DOM.enable")
            except PlaywrightError:
                self._unavailable = True  # not Chromium, or connected without CDP
        return self._cdp

    async def evaluate(self, locator: Locator, script: str, arg: Any) -> Any | None:
        """``script`` (a function of the element and ``arg``) run on ``locator``'s element in the isolated
        world, or None when that cannot be done faithfully (see the module doc)."""
        try:
            box = await locator.bounding_box(timeout=2_000)
        except PlaywrightError:
            return None
        cdp = await self._session() if box is not None and box["width"] > 0 and box["height"] > 0 else None
        if cdp is None or box is None:
            return None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        object_id = None
        try:
            hit = await cdp.send("DOM.getNodeForLocation", {"x": round(x), "y": round(y)})
            world = await cdp.send(
                "Page.createIsolatedWorld", {"frameId": hit["frameId"], "worldName": FACTS_WORLD}
            )
            node = await cdp.send(
                "DOM.resolveNode",
                {"backendNodeId": hit["backendNodeId"], "executionContextId": world["executionContextId"]},
            )
            object_id = node["object"]["objectId"]
            answer = await cdp.send(
                "Runtime.callFunctionOn",
                {
                    "functionDeclaration": _WRAP % script.strip(),
                    "objectId": object_id,
                    "arguments": [{"value": arg}],
                    "returnByValue": True,
                },
            )
        except (PlaywrightError, KeyError):
            return None
        finally:
            if object_id is not None:
                with contextlib.suppress(PlaywrightError):
                    await cdp.send("Runtime.releaseObject", {"objectId": object_id})
        value = answer.get("result", {}).get("value")
        if "exceptionDetails" in answer or not isinstance(value, dict):
            return None
        found = value.get("box") or []
        expected = (box["x"], box["y"], box["width"], box["height"])
        if len(found) != 4 or any(abs(float(a) - b) > 2 for a, b in zip(found, expected, strict=True)):
            return None  # the point hits something else (an overlay on top, a frame): not this control
        return value.get("facts")

    async def evaluate_focused(self, script: str, arg: Any) -> Any | None:
        """``script`` run on the element that has the focus in the top document, in the isolated world;
        None where that cannot be done."""
        cdp = await self._session()
        if cdp is None:
            return None
        try:
            tree = await cdp.send("Page.getFrameTree")
            world = await cdp.send(
                "Page.createIsolatedWorld",
                {"frameId": tree["frameTree"]["frame"]["id"], "worldName": FACTS_WORLD},
            )
            answer = await cdp.send(
                "Runtime.evaluate",
                {
                    "expression": f"({script.strip()})(document.activeElement, {json.dumps(arg)})",
                    "contextId": world["executionContextId"],
                    "returnByValue": True,
                },
            )
        except (PlaywrightError, KeyError):
            return None
        value = answer.get("result", {}).get("value")
        return value if "exceptionDetails" not in answer and isinstance(value, dict) else None
