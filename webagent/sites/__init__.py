"""Site adapters: everything webagent knows of one particular site, and which one a run drives.

- `demo_shop` — the bundled demo shop's adapter, `DEMO_SHOP` (a `webagent.tools.site.Site`);
- `generic` — `ANY_PAGE`: a page nobody wrote an adapter for, read as a person reads any page.

A run names its site (`RunConfig.site`, ``--site``): ``demo-shop`` (the default), ``any-page``, or an
adapter of your own as ``package.module:NAME`` (an object implementing `webagent.tools.site.Site`).
`site_named` is the one place the name becomes the adapter, so the runner, chat, replay and the MCP
server name no site. An adapter may import the generic layers (tools, browser, narration); none of them
imports an adapter.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from webagent.tools.site import Site

__all__ = ["SITES", "UnknownSite", "site_named"]

SITES = {
    "demo-shop": "webagent.sites.demo_shop:DEMO_SHOP",
    "any-page": "webagent.sites.generic.site:ANY_PAGE",
}
"""The adapters webagent ships, by the name a run gives (imported only when a run names one)."""

EMBEDDED = "demo-shop"
"""The site a run without a URL opens: the shop that ships with webagent, started for the run."""


class UnknownSite(ValueError):
    """A site name that is neither shipped nor an importable ``package.module:NAME``."""


def site_named(name: str) -> Site:
    """The adapter ``name`` means: a shipped one, or ``package.module:NAME``; `UnknownSite` otherwise."""
    where = SITES.get(name, name)
    module, _, attribute = where.partition(":")
    if not module or not attribute:
        raise UnknownSite(
            f"unknown site {name!r}: use {', '.join(SITES)} or an adapter of your own as package.module:NAME"
        )
    try:
        site = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as error:
        raise UnknownSite(f"site {name!r} could not be loaded: {error}") from error
    missing = [part for part in ("tools", "read", "offered", "start_url") if not hasattr(site, part)]
    if missing:
        raise UnknownSite(f"site {name!r} is not a site adapter (it has no {', '.join(missing)})")
    return site  # type: ignore[no-any-return]
