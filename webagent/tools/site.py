"""`Site`: the seam between the generic layers and a site adapter.

The toolbox, the browser session and the runs talk to a site only through this Protocol; an adapter
(the demo shop's is `webagent.sites.demo_shop.DEMO_SHOP`) implements it without inheriting. What a
tool's context needs (`SitePage`: reading the page, the site's waits) and what a browser session needs
(`SessionSite`: known overlays, when a page has rendered) are declared where they are used and
gathered here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from webagent.browser.session import SessionSite
from webagent.narration.state import PageState
from webagent.tools.base import Tool
from webagent.tools.context import SitePage, ToolContext

__all__ = ["Site"]


class Site(SessionSite, SitePage, Protocol):
    """Everything the generic layers need from one site."""

    @property
    def tools(self) -> tuple[Tool, ...]:
        """The tools the model is offered on this site, in the order it reads them (loop tools last)."""
        ...

    def refusal(self, tool: str, state: PageState) -> str | None:
        """Why ``tool`` may not run on this page and which tool gets there, or None when it may."""
        ...

    def possible(self, state: PageState) -> list[str]:
        """The tools worth naming as next steps on this page (the precondition graph's answer)."""
        ...

    def offered(
        self, state: PageState, schemas: list[dict[str, Any]], *, unions: bool = False
    ) -> list[dict[str, Any]]:
        """Of ``schemas``, those to offer a model shown only what it can use on this page (a small
        model), their arguments held to what the page shows; ``unions``: a parameters root may be a
        union (for a structured step, not a strict function)."""
        ...

    async def before(self, ctx: ToolContext, tool: str, state: PageState) -> str | None:
        """Set the page up for ``tool`` as a person would first (close a drawer it does not work in); what
        it did, in a sentence the call's narration starts with, or None when it did nothing."""
        ...

    def start_url(self, base_url: str, clutter: int | None = None, seed: int | None = None) -> str:
        """The page a run opens first, for a site at ``base_url`` (``clutter``/``seed``: the demo shop's)."""
        ...

    async def restore(
        self,
        call: Callable[[str, str], Awaitable[object]],
        path: str,
        transcript: Sequence[Mapping[str, Any]],
    ) -> None:
        """After the page at ``path`` was loaded again (a resumed run), put back what only the page held —
        a form the run filled — by ``call``-ing its tools (name, arguments JSON) as the run's ``transcript``
        says they were called."""
        ...

    def order_history_path(self, order_id: int | None = None) -> str:
        """The path of the session's order history, or of one order's page: how recovery asks the site."""
        ...
