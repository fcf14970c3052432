"""A `PageSession` on a page written inside a test, served at a made-up origin through routing."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import Route

from webagent.browser.session import Browser, Overlay, PageSession


@dataclass(frozen=True)
class PageSite:
    """A site adapter for a page written in a test: no known overlays, its own breadcrumb event."""

    rendered_js: str
    breadcrumb_event: str | None
    overlays: tuple[Overlay, ...] = ()


async def open_served(browser: Browser, origin: str, site: PageSite, html: str) -> PageSession:
    """A new session showing ``html`` at ``origin``, once ``site.rendered_js`` holds."""
    session = await browser.new_session(origin, site)

    async def serve(route: Route) -> None:
        await route.fulfill(body=html, content_type="text/html; charset=utf-8")

    await session.context.route(f"{origin}/**", serve)
    await session.open("/")
    return session
