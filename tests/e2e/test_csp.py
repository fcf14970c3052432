"""The page's own defences stay on: the demo shop's Content-Security-Policy is in force in the agent's
browser contexts, and what the agent injects — the breadcrumb bridge, the headed panel and its outline,
the page reader and the waits — works under it without a single violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from demo_site import Shop
from webagent.browser.session import Browser
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync
from webagent.tools.toolbox import Toolbox

# Written down before any page script runs: every CSP violation in the page, by directive and source.
VIOLATIONS_JS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
}, true);
"""


def test_the_shops_csp_holds_and_the_agents_own_scripts_need_no_exemption(
    agent_browser: Browser, shop: Shop, tmp_path: Path
) -> None:
    recorder = tmp_path / "violations.js"
    recorder.write_text(VIOLATIONS_JS)

    async def scenario() -> dict[str, Any]:
        session = await agent_browser.new_session(shop.url, DEMO_SHOP, watch=True, init_scripts=[recorder])
        try:
            await session.goto(DEMO_SHOP.start_url(session.shop_url, {"clutter": 0, "seed": 7}))
            tools = Toolbox(session, DEMO_SHOP)
            searched = await tools.call("search_restaurants", {"query": "Italian"})
            opened = await tools.call("open_restaurant", {"name": "Italian Bistro"})
            added = await tools.call("add_to_cart", {"dish": "Tiramisu", "quantity": 1})
            pressed = await tools.call("press", {"name": "Orders"})
            page = session.page
            await page.wait_for_function("() => window.__webagentWatch.state().panel !== null")
            seen: dict[str, Any] = {
                "ok": [r.ok for r in (searched, opened, added, pressed)],
                "breadcrumbs": [crumb.message for crumb in session.breadcrumbs],
                "panel": await page.evaluate("window.__webagentWatch.state().panel"),
                "ours": await page.evaluate("window.__violations"),
            }
            # A script the page did not ship — as an injected inline script would be — is refused.
            seen["inline ran"] = await page.evaluate(
                """() => { const s = document.createElement("script");
                           s.textContent = "window.__inlineRan = true"; document.head.appendChild(s);
                           return window.__inlineRan === true; }"""
            )
            seen["inline style"] = await page.evaluate(
                """() => { const d = document.createElement("div"); d.setAttribute("style", "color: rgb(1, 2, 3)");
                           document.body.appendChild(d); return getComputedStyle(d).color; }"""
            )
            seen["all"] = await page.evaluate("window.__violations")
            return seen
        finally:
            await session.close()

    seen = run_sync(scenario())
    assert all(seen["ok"]), seen
    assert any("added 1 × Tiramisu" in crumb for crumb in seen["breadcrumbs"]), seen["breadcrumbs"]
    assert seen["panel"].startswith('▶ press {"name": "Orders"}')
    assert seen["ours"] == [], "what the agent injects broke the page's CSP"
    assert seen["inline ran"] is False
    assert seen["inline style"] != "rgb(1, 2, 3)"
    assert {v["directive"] for v in seen["all"]} >= {"script-src-elem", "style-src-attr"}, seen["all"]
