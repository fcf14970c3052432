"""``webagent chat``: a conversation with the agent across the person's messages.

The person types, the agent acts on the page until it answers in words (or finishes), and the person
may click in the headed window too: those clicks are breadcrumbs, and they reach the agent with the
next message ("Page now: …"), so "I added two myself, go on" is read against the cart the shop shows.
What the person added counts as asked for when an order is approved automatically: the cart's growth
between the agent's last look and the person's next message, as our own read of the page sees it, and
only when their own trusted input (`Breadcrumb.person`) came in between. The words of an event — which a
page can dispatch itself, right after a real press — never widen it.

Each message is its own request. An order placed for one request is reported with the lines the shop's
confirmation shows — not what the agent believes it added — and the next request is a new attempt: the
loop's rules (one order, a finish that claims only a confirmed order) hold per request.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webagent.agent.approval import ApprovalGate, HumanChannel, ask_person
from webagent.agent.checkpoint import Checkpoint, PlacedOrder, RunFolder
from webagent.agent.loop import Agent, Listener
from webagent.agent.prompt import system_prompt
from webagent.agent.result import RunResult
from webagent.config import Profile, RunConfig
from webagent.llm.protocol import Model, close_model
from webagent.narration.money import money
from webagent.narration.narrate import Narration, narrate, restaurant_listing
from webagent.narration.seen import person_message
from webagent.narration.state import CartLine
from webagent.runs.site_choice import site_of, start_url
from webagent.tools.toolbox import Toolbox

if TYPE_CHECKING:
    from webagent.browser.session import PageSession
    from webagent.runs.runner import ReportHook

__all__ = [
    "ANY_PAGE_CHAT_GOAL",
    "CHAT_GOAL",
    "EXIT_WORDS",
    "ChatSession",
    "chat_goal",
    "chat_page",
    "chat_session",
    "converse",
    "grown",
    "is_exit",
]

EXIT_WORDS = ("exit", "quit", "stop")
"""What ends a conversation, typed or spoken."""

CHAT_GOAL = (
    "Help the person on this food-delivery site: order what they ask for, and answer their questions "
    "from what the pages show. Each message is a new request unless it says to go on."
)
"""A conversation's goal on the site's own pages (the demo shop's, or an adapter's)."""
ANY_PAGE_CHAT_GOAL = (
    "Help the person on this site: do what they ask, and answer their questions from what the pages "
    "show. Each message is a new request unless it says to go on."
)
"""A conversation's goal on a page nobody wrote an adapter for: it names no kind of site."""


def chat_goal(any_page: bool) -> str:
    """The conversation's goal: site-neutral on a page not the site's own (`PageState.any_page`), as the
    system prompt is (`system_prompt`'s ``any_page``, decided as a run decides it)."""
    return ANY_PAGE_CHAT_GOAL if any_page else CHAT_GOAL


@dataclass
class ChatSession:
    """Keeps one conversation (and one page) across the person's messages."""

    toolbox: Toolbox
    model: Model
    folder: RunFolder
    state: Checkpoint
    gate: ApprovalGate
    human: HumanChannel
    listen: Listener | None = None
    profile: Profile = field(default_factory=Profile)
    orders: list[PlacedOrder] = field(default_factory=list)
    """Every order placed in this conversation, oldest first."""
    cart_seen: list[CartLine] = field(default_factory=list)
    """The cart as the agent last left it (empty before the first message)."""

    def __post_init__(self) -> None:
        # The profile is the person's words too: the approval anchor reads it from the run's config.
        config = self.state.config
        self.state.config = config.model_copy(update={"profile": config.profile.merged_under(self.profile)})

    async def send(self, text: str) -> RunResult:
        """One request: the message (plus what the page shows now, with the person's own clicks) → the agent acts."""
        await self.toolbox.session.sync_breadcrumbs()
        self.toolbox.forget_looks()  # a new request may look again at what the last one saw
        page = await self.toolbox.state()
        said = "Page now."
        if page.view == "restaurants" and page.restaurants:
            said += f" Restaurants: {restaurant_listing(page.restaurants, limit=len(page.restaurants))}."
        crumbs = self.toolbox.new_crumbs()
        if any(crumb.person for crumb in crumbs):
            self.state.person_added += grown(self.cart_seen, page.cart_lines)
        seen = narrate(Narration(said=said, after=page, breadcrumbs=[crumb.message for crumb in crumbs]))
        if not self.state.messages:
            from webagent.runs.runner import profile_note

            goal = chat_goal(page.any_page) + profile_note(self.profile)
            self.state.messages = [{"role": "system", "content": system_prompt(goal, any_page=page.any_page)}]
        if self.state.placed:  # the last request ordered: this one is a new attempt of its own
            self.orders += self.state.placed
            self.state.placed, self.state.order_attempted = [], False
            self.state.spent = []  # the ledger, like the one-order rule, holds per request here
        self.state.messages.append(person_message(f"{text}\n\n{seen}", page))
        self.state.steps = 0  # the step limit counts per request
        self.state.status = "running"
        agent = Agent(
            self.model, self.toolbox, self.gate, self.human, self.folder, self.state, self.listen, chat=True
        )
        result = await agent.run()
        self.cart_seen = list((await self.toolbox.state()).cart_lines)
        confirmed = next((o for o in self.state.placed if o.order_id == result.order_id), None)
        if result.outcome == "ordered" and confirmed is not None and confirmed.lines:
            lines = ", ".join(confirmed.lines)
            result = result.model_copy(
                update={
                    "message": f"Placed order #{confirmed.order_id}, total {money(confirmed.total_cents)}: {lines}."
                }
            )
        return result


def grown(before: list[CartLine], after: list[CartLine]) -> list[CartLine]:
    """The lines ``after`` holds more of than ``before`` did, by how many more."""
    had: dict[str, int] = {}
    for line in before:
        had[line.name] = had.get(line.name, 0) + line.quantity
    found = []
    for line in after:
        more = line.quantity - had.pop(line.name, 0)
        if more > 0:
            found.append(line.model_copy(update={"quantity": more}))
    return found


def is_exit(text: str) -> bool:
    return text.strip().rstrip(".!").lower() in EXIT_WORDS


@asynccontextmanager
async def chat_page(
    config: RunConfig, *, report: ReportHook | None = None, **started: Any
) -> AsyncIterator[tuple[RunFolder, PageSession]]:
    """A conversation's run folder and open shop page; ``report`` writes its report when it ends."""
    from webagent.runs.runner import run_page

    folder = RunFolder.create(config.runs_dir)
    db_path = Path(config.db_path) if config.db_path else folder.path / "shop.db"
    folder.record("started", config=config.model_dump(mode="json"), **started)
    try:
        async with run_page(config, folder, db_path) as page:
            await page.goto(start_url(config, page.shop_url))
            yield folder, page
    finally:
        if report is not None:
            report(folder.path)


def chat_session(
    config: RunConfig,
    folder: RunFolder,
    page: PageSession,
    prompt: Callable[[str], str],
    listen: Listener | None,
) -> ChatSession:
    """The conversation on ``page``, each picture after a tool call recorded for the report."""
    from webagent.runs.runner import make_model, with_screenshots

    toolbox = Toolbox(
        page,
        site_of(config),
        screenshots=folder.path if config.screenshots != "off" else None,
        every_call=config.screenshots == "all",
    )
    return ChatSession(
        toolbox,
        make_model(config),
        folder,
        Checkpoint(run_id=folder.run_id, config=config, shop_url=page.shop_url),
        ApprovalGate(config.approve, config.budget_cents, prompt),
        HumanChannel(list(config.answers), interactive=True, prompt=prompt),
        with_screenshots(listen, toolbox, folder),
        profile=config.profile,
    )


async def converse(
    config: RunConfig,
    listen: Listener | None = None,
    prompt: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    report: ReportHook | None = None,
) -> None:
    """``webagent chat``: read the person's messages until ``exit`` (or end of input); the agent acts on each.

    ``report`` writes the conversation's report when it ends (`webagent.report.write.write_report`)."""
    async with chat_page(config, report=report) as (folder, page):
        say(
            f"Shop at {page.shop_url} — type what you want; 'exit' to leave. You can click in the window too."
        )
        conversation = chat_session(config, folder, page, prompt, listen)
        try:
            while True:
                text = await ask_person(prompt, "you> ")
                if text is None or is_exit(text):
                    return
                if not text.strip():
                    continue
                result = await conversation.send(text.strip())
                say(f"agent> {result.message}")
        finally:
            await conversation.toolbox.pictured()  # the last call's picture, before the page closes
            await close_model(conversation.model)
