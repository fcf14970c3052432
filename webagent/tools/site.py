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

__all__ = ["OrderSessions", "Site"]


class OrderSessions(Protocol):
    """Sessions of a site a run may be put in before it starts, and each one's orders, asked of the site
    itself and not through a browser: how a batch never orders a line twice (webagent/fleet/settle.py) and an
    eval on a shared shop finds a task's orders. The demo shop's is its session API
    (webagent/sites/demo_shop/session_api.py)."""

    identity: str
    """What the attempt log records as the site: its URL, or the embedded shop's database."""

    async def open(self) -> dict[str, str]:
        """A fresh session: the cookies that name it."""
        ...

    async def orders(self, cookies: dict[str, str]) -> list[dict[str, Any]]:
        """The orders of the session these cookies name, newest first."""
        ...

    def storage_state(self, cookies: dict[str, str]) -> dict[str, Any]:
        """A Playwright storage state that puts a browser context in that session."""
        ...


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

    def start_url(self, base_url: str, settings: Mapping[str, Any]) -> str:
        """The page a run opens first, for a site at ``base_url``; ``settings`` are the run's (a `RunConfig`'s
        fields), of which a site reads those it knows (the demo shop: its clutter and seed)."""
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

    def order_sessions(self, url: str, identity: str | None = None) -> OrderSessions | None:
        """Sessions of the site at ``url`` and their orders (`OrderSessions`); None when the site keeps no
        history of a session's orders to ask — then nothing can promise a line of a batch is never ordered
        twice, and a batch refuses the site."""
        ...
