"""A site's breadcrumbs on their way to Python: the bridge scripts a `PageSession` installs in each page,
and the record of one breadcrumb.

On Chromium the trusted bridge runs in an isolated world with a CDP binding that page scripts can neither
see nor call; it also notes trusted input, so that a breadcrumb can be told to be a person's
(webagent/browser/session.py says when). Elsewhere the plain bridge forwards them through an exposed
binding, and none is the person's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.async_api import BrowserContext, CDPSession, Page
from playwright.async_api import Error as PlaywrightError

__all__ = ["BREADCRUMB_BRIDGE", "BRIDGE_BINDING", "TRUSTED_BRIDGE", "WORLD", "Breadcrumb", "trusted_bridge"]

# Forwards every breadcrumb the site dispatches (the event its adapter names) to Python as it happens.
# Registered before any page script runs, so the first "opened …" of a page load is caught too. Without
# CDP only: there the page could call the binding itself, so no breadcrumb counts as the person's.
BREADCRUMB_BRIDGE = """
window.addEventListener(%s, (event) => {
  try { window.__webagentBreadcrumb(event.detail); } catch (e) { /* binding not ready */ }
});
"""

WORLD = "webagent"
"""The isolated world the trusted bridge runs in: it shares the DOM, not the page's JavaScript."""
BRIDGE_BINDING = "__webagentBridge"
# In the isolated world: the page's scripts cannot reach the binding, and `isTrusted` is true only for
# input the browser delivered (a person's, or the driver's during a tool call). Capture listeners on
# window, added before any page script, see every press first.
TRUSTED_BRIDGE = """
(() => {
  const send = (kind, detail) => { try { %(binding)s(JSON.stringify({kind, detail})); } catch (e) {} };
  window.addEventListener('pointerdown', (e) => { if (e.isTrusted) send('input', 'pointer'); }, true);
  window.addEventListener('keydown', (e) => {
    if (e.isTrusted && (e.key === 'Enter' || e.key === ' ')) send('input', e.key);
  }, true);
  window.addEventListener(%(event)s, (e) => {
    let detail = null;
    try { detail = JSON.parse(JSON.stringify(e.detail)); } catch (x) { /* not data */ }
    send('crumb', detail);
  });
})();
"""


async def trusted_bridge(
    context: BrowserContext,
    page: Page,
    event: str,
    on_binding: Callable[[dict[str, Any]], None],
    *,
    loaded: bool,
) -> CDPSession | None:
    """The trusted bridge in ``page``'s isolated world, for every document it loads from now on — and, when
    it has ``loaded`` one already (a tab the page opened), for that one too; None where there is no CDP."""
    try:
        cdp = await context.new_cdp_session(page)
    except PlaywrightError:
        return None
    cdp.on("Runtime.bindingCalled", on_binding)
    source = TRUSTED_BRIDGE % {"binding": BRIDGE_BINDING, "event": json.dumps(event)}
    await cdp.send("Runtime.enable")
    await cdp.send("Page.enable")
    await cdp.send("Runtime.addBinding", {"name": BRIDGE_BINDING, "executionContextName": WORLD})
    await cdp.send("Page.addScriptToEvaluateOnNewDocument", {"source": source, "worldName": WORLD})
    if loaded:
        tree = await cdp.send("Page.getFrameTree")
        world = await cdp.send(
            "Page.createIsolatedWorld", {"frameId": tree["frameTree"]["frame"]["id"], "worldName": WORLD}
        )
        await cdp.send("Runtime.evaluate", {"expression": source, "contextId": world["executionContextId"]})
    return cdp


@dataclass(frozen=True)
class Breadcrumb:
    """One ``@action:`` line the shop recorded, as it dispatched it."""

    message: str
    at: str
    kind: str
    person: bool = False
    """It followed trusted input a person made while no tool call was acting (see the module doc)."""
