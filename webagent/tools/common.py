"""Tools every site gets: reading the page's main region, asking the person, and finishing the run.

`ask_human` and `finish` are settled by the agent loop (approval, pause, finish integrity), never on
the page; `read_page` reads the page as an accessibility snapshot, whatever site it is.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from webagent.narration import said
from webagent.narration.said import Outcome
from webagent.tools.base import Args, Tool
from webagent.tools.context import ToolContext

__all__ = ["LOOP_TOOLS", "READ_PAGE", "AskHuman", "Finish", "ReadPage", "read_page"]


class ReadPage(Args):
    """Read the page's main region as an accessibility snapshot, when the narration is not enough."""

    max_chars: int = Field(3000, ge=200, le=12_000, description="Upper bound on the text returned.")


class AskHuman(Args):
    """Ask the person you work for, when the goal is ambiguous, impossible, or details are missing."""

    question: str = Field(max_length=500, description="One clear question.")
    context: str | None = Field(None, max_length=1000, description="What you found that makes you ask.")
    format: Literal["yes_no", "free_text", "multiple_choice"] = Field(
        "free_text", description="The kind of answer expected."
    )
    choices: list[str] | None = Field(None, max_length=10, description="The options, for multiple_choice.")
    urgency: Literal["low", "normal", "high"] = Field("normal", description="How soon an answer is needed.")


class Finish(Args):
    """End the run: 'ordered' (with the order id the shop showed), 'done' or 'failed', with a summary."""

    outcome: Literal["ordered", "done", "failed"] = Field(description="What happened.")
    summary: str = Field(max_length=1000, description="One or two sentences for the person.")
    order_id: int | None = Field(None, description="The order number the shop confirmed, if any.")


async def read_page(ctx: ToolContext, args: ReadPage) -> Outcome:
    """The page's main region (``main``, or ``role=main``); on a page that marks none, its body."""
    main = ctx.page.locator("main, [role=main]").filter(visible=True).first
    region = main if await main.count() else ctx.page.locator("body")
    snapshot = await region.aria_snapshot(mode="ai")
    return said.page_content(snapshot, args.max_chars)


READ_PAGE = Tool("read_page", ReadPage, read_page)
LOOP_TOOLS: tuple[Tool, ...] = (
    Tool("ask_human", AskHuman, None, loop_controlled=True),
    Tool("finish", Finish, None, loop_controlled=True),
)
"""Loop-controlled tools, last in any site's list: finish closes the list the model reads."""
