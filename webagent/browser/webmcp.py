"""A page's own typed tools (WebMCP: ``document.modelContext.registerTool``), through Playwright's
``page.webmcp``: what the page registers now, and calling one.

Chromium offers them behind a feature switch (``--enable-features=WebMCP``, which `launch_args` adds); a
browser without it (an older one, or one connected to over CDP that was started without the switch)
answers that WebMCP is not enabled — `page_tools` then returns None, and the caller says so once.
Everything a page's tool says of itself (its name, description, schema, what it answered) is page text:
untrusted, read and never obeyed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

__all__ = ["LOOK_TIMEOUT_MS", "PageTool", "call_page_tool", "page_tools"]

LOOK_TIMEOUT_MS = 2_000
CALL_TIMEOUT_MS = 15_000
MAX_TOOLS = 16
"""Page tools taken from one page: a page cannot flood the model's tool list."""


@dataclass(frozen=True)
class PageTool:
    """One tool the page registers, as it describes it."""

    name: str
    description: str = ""
    schema: dict[str, Any] = field(default_factory=dict)
    """Its ``inputSchema`` (JSON Schema); empty when it takes no input."""
    read_only: bool = False
    """The page says it changes nothing (``readOnlyHint``)."""
    consequential: bool = False
    """The page says it commits something (Playwright's ``consequential`` annotation)."""


async def page_tools(page: Page) -> list[PageTool] | None:
    """The tools the page's main frame registers now; None where the browser has no WebMCP."""
    try:
        found = await page.webmcp.tools(timeout=LOOK_TIMEOUT_MS)
    except PlaywrightError as error:
        if "not enabled" in str(error) or "not supported" in str(error):
            return None
        return []  # a page between documents, or closed: none now
    tools = []
    for raw in found[:MAX_TOOLS]:
        name = str(raw.get("name") or "")
        if not name:
            continue
        schema = raw.get("inputSchema")
        annotations = raw.get("annotations") or {}
        tools.append(
            PageTool(
                name=name,
                description=str(raw.get("description") or ""),
                schema=schema if isinstance(schema, dict) else {},
                read_only=annotations.get("readOnly") is True,
                consequential=annotations.get("consequential") is True,
            )
        )
    return tools


async def call_page_tool(page: Page, name: str, arguments: dict[str, Any]) -> Any:
    """What the page's tool ``name`` answered; raises `PlaywrightError` when it threw or is gone."""
    return await page.webmcp.call_tool(name, arguments, timeout=CALL_TIMEOUT_MS)
