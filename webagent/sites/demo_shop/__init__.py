"""The one place that knows the bundled demo shop: `DEMO_SHOP`, its adapter (a `webagent.tools.site.Site`).

- `site` — `DEMO_SHOP`: the tools in order, overlays, order control, start URL, order-history pages;
- `browsing`, `ordering` — its typed tools (find food; the cart, checkout and order);
- `reader` — its page reader (the DOM by ``data-testid`` into a `PageState`);
- `waits` — its activity log, rendered view, menu, cart drawer and Home link;
- `graph` — its precondition graph over its views and tools (`webagent graph` prints it);
- `vocabulary` — the scripts the voice vocabulary reads restaurant and menu names with.

It may import the generic layers (tools, browser, narration); none of them imports it. runs/ and the
people-facing edges choose it.
"""

from __future__ import annotations

from webagent.sites.demo_shop.site import DEMO_SHOP, TOOLS, DemoShop

__all__ = ["DEMO_SHOP", "TOOLS", "DemoShop"]
