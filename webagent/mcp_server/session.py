"""One MCP connection's run: its own browser context and shop session, run folder and approval.

A session starts its run on its first tool call (`webagent.runs.runner.start_run`, with the client's
calls as the model's turns) and keeps it until the client disconnects, the run is finished, or it
pauses for a person. A client that disconnects leaves the run as an interrupted one (its checkpoint says
``running``): ``webagent resume RUN`` reconciles it with the shop and goes on.

The approval gate asks through MCP elicitation when the client can show a form — from inside the call on a
handshake connection, in rounds on the 2026-07-28 revision (webagent/mcp_server/rounds.py); otherwise the
run pauses and the tool result names what needs approving and how a person approves it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from webagent.agent.approval import CardEntry
from webagent.agent.checkpoint import new_run_id
from webagent.agent.result import RunResult
from webagent.browser.cards import CardField
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.errors import WebagentError
from webagent.mcp_server.bridge import Answer, ClientTurns
from webagent.mcp_server.cards import CardDesk
from webagent.mcp_server.rounds import Question, Rounds
from webagent.narration.state import PageState
from webagent.runs.runner import ReportHook, resume_run, start_run
from webagent.tools.toolbox import Toolbox

__all__ = ["GOAL", "Approval", "Ask", "ElicitPrompt", "McpSession"]

GOAL = "Carry out the tool calls of an MCP client for the person it works for."
"""The run's goal as its checkpoint and the approval anchor read it: it names no dish and no budget, so
automatic approval (``--approve auto``) asks a person unless a budget is given."""

Ask = Callable[[str], Coroutine[Any, Any, bool | None]]
"""Asks a person a yes/no question in the MCP client; None when nobody answered."""

SendTo = Callable[[str, str], Coroutine[Any, Any, bool | None]]
"""Sends the person to a link (message, URL: URL-mode elicitation); whether they went, None when nobody
answered."""

CARD_MESSAGE = (
    "The payment you approved is on a page that asks for card details. Enter them on this page of "
    "webagent's own: they go only into the shop page's fields, never through the agent or this client."
)


class Approval(BaseModel):
    """The form an approval is asked with (MCP elicitation allows flat, primitive fields only)."""

    approve: bool = Field(description="Place this order?")


class ElicitPrompt:
    """The approval gate's prompt, answered through MCP elicitation.

    The gate calls its prompt on a thread of its own (webagent/agent/approval.py `ask_person`); the
    question is sent from the session's event loop, on the tool call that asked, and the thread waits.
    """

    where = "in the MCP client"
    """How the gate's verdicts name where the person was asked."""

    def __init__(self, loop: asyncio.AbstractEventLoop, desk: CardDesk | None = None) -> None:
        self.loop = loop
        self.ask: Ask | None = None
        """The current tool call's way to ask; None when the client cannot be asked (no elicitation)."""
        self.send_to: SendTo | None = None
        """The current tool call's way to send the person to a link; None when the client opens none."""
        self.desk = desk

    @property
    def cards(self) -> CardEntry | None:
        """`CardEntry` while the person can be sent to a link (URL-mode elicitation), else None."""
        return self._cards if self.send_to is not None and self.desk is not None else None

    async def _cards(self, question: str, fields: Sequence[CardField]) -> dict[int, str] | None:
        """The person enters the card details on a card page of the server's own
        (webagent/mcp_server/cards.py), sent there by URL-mode elicitation; None when they enter none."""
        send_to, desk = self.send_to, self.desk
        if send_to is None or desk is None:
            return None
        page = desk.open(question, fields)
        went = await send_to(CARD_MESSAGE, page.url)
        if not went:  # declined (or nobody answered): nothing is entered, whatever the page was sent
            page.settle(None)
            desk.desks.pop(page.key, None)
            return None
        return await desk.entry(page)

    def __call__(self, question: str) -> str:
        ask = self.ask
        if ask is None:
            raise EOFError  # nobody to ask: the gate pauses (or, asked outright, denies)
        text = question.strip().removesuffix("approve? [y/N]").strip()
        answer: bool | None = asyncio.run_coroutine_threadsafe(ask(text), self.loop).result()
        if answer is None:
            raise EOFError
        return "y" if answer else "n"


@dataclass(frozen=True)
class Outcome:
    """A tool call's answer and, while the run goes on, the page state after it."""

    answer: Answer
    run_id: str
    page: PageState | None
    possible: tuple[str, ...] = ()
    """The tools worth calling next on this page (the site's precondition graph)."""
    asking: Question | None = None
    """The call waits on a person's approval, or on their going to a link, asked in rounds
    (webagent/mcp_server/rounds.py)."""


class McpSession:
    """The run behind one MCP connection; its tool calls go one at a time."""

    def __init__(
        self,
        config: RunConfig,
        browser: Browser,
        *,
        client: str,
        elicits: bool,
        report: ReportHook,
        approve_given: bool,
        resuming: str | None = None,
        rounds: bool = False,
        links: bool = False,
        desk: CardDesk | None = None,
    ) -> None:
        if not approve_given:  # ask where the client can ask; else wait for a person (never unattended)
            config = config.model_copy(update={"approve": "ask" if elicits else "pause"})
        self.config = config.model_copy(update={"goal": GOAL})
        self.browser = browser
        self.client = client
        self.elicits = elicits
        self.report = report
        self.run_id = resuming or new_run_id()
        self.resuming = resuming is not None
        """Whether the run goes on from its checkpoint (a handle used after the server restarted)."""
        self.turns = ClientTurns(client)
        self.prompt = ElicitPrompt(asyncio.get_running_loop(), desk)
        self.links = links
        """Whether the client opens links for its person (URL-mode elicitation)."""
        self.rounds = Rounds(asyncio.get_running_loop()) if elicits and rounds else None
        """The 2026-07-28 revision: a question returned from the call and answered on its retry."""
        if self.rounds is not None:
            self.prompt.ask = self.rounds.ask
            self.prompt.send_to = self.rounds.ask_url if links else None
        self._waiting: tuple[str, dict[str, Any], asyncio.Future[Answer]] | None = None
        """The call whose turn waits on an open question (asked in rounds): its retry picks it up."""
        self.toolbox: Toolbox | None = None
        self.result: RunResult | None = None
        self._task: asyncio.Task[None] | None = None
        self._one_at_a_time = asyncio.Lock()
        self._failure: str | None = None

    def adopt(self, *, elicits: bool, rounds: bool, links: bool) -> None:
        """Ask the way the client calling now can be asked: a run resumed by its handle (after a restart)
        has had no client yet; its first caller's capabilities stand, as a new run's would."""
        if self._task is not None:
            return
        self.elicits, self.links = elicits, links
        loop = asyncio.get_running_loop()
        self.rounds = Rounds(loop) if elicits and rounds else None
        if self.rounds is not None:
            self.prompt.ask = self.rounds.ask
            self.prompt.send_to = self.rounds.ask_url if links else None

    async def call(
        self,
        name: str,
        arguments: dict[str, Any],
        ask: Ask | None,
        *,
        answers: Mapping[str, Any] | None = None,
        state: str | None = None,
        send_to: SendTo | None = None,
    ) -> Outcome:
        """Run one tool call through the run's loop; the answer once the loop has settled it. Asked in
        rounds, a call that meets the gate returns the question (`Outcome.asking`) and its retry, with
        ``answers`` and ``state``, the answer."""
        async with self._one_at_a_time:
            if self.result is not None or self._failure is not None:
                return Outcome(self._over(), self.run_id, None)
            if self._task is None:
                self._task = asyncio.create_task(self._drive(), name=f"webagent-mcp-{self.run_id}")
            if self.rounds is not None:
                settled = await self._in_rounds(name, arguments, answers, state)
                if isinstance(settled, Outcome):
                    return settled
                answer = settled
            else:
                self.prompt.ask = ask if self.elicits else None
                self.prompt.send_to = send_to if self.links else None
                try:
                    answer = await self.turns.submit(name, arguments)
                finally:
                    self.prompt.ask = self.prompt.send_to = None
            if answer.status == "paused":
                answer = Answer(
                    self._paused_text(answer.needs_approval or ""), False, "paused", answer.needs_approval
                )
            page = await self._page() if answer.status == "running" else None
            possible = tuple(self.toolbox.site.possible(page)) if page and self.toolbox else ()
            return Outcome(answer, self.run_id, page, possible)

    async def _in_rounds(
        self, name: str, arguments: dict[str, Any], answers: Mapping[str, Any] | None, state: str | None
    ) -> Answer | Outcome:
        """The call's answer, or — while a question is open — the question, asked again until a retry of
        the very call that met it carries its answer."""
        assert self.rounds is not None
        if self._waiting is not None and self._waiting[:2] != (name, arguments):
            if self.rounds.open is not None:  # said as an error to this call, never the other call's form
                return Outcome(
                    Answer(
                        f"Not done: a person's approval is still open for an earlier {self._waiting[0]} call; "
                        "retry that call with the answer first.",
                        ok=False,
                    ),
                    self.run_id,
                    None,
                )
            await self._waiting[2]  # an earlier call the client let go of: its turn ends first, unheard
            self._waiting = None
        self.rounds.answer(answers, state)
        if self._waiting is None:
            self._waiting = (name, arguments, self.turns.submit(name, arguments))
        turn = self._waiting[2]
        asked: asyncio.Future[Any] = asyncio.ensure_future(self.rounds.asked())
        waits: set[asyncio.Future[Any]] = {turn, asked}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            asked.cancel()
        if not turn.done() and self.rounds.open is not None:
            return Outcome(Answer("", ok=False), self.run_id, None, asking=self.rounds.open)
        self._waiting = None
        return await turn

    async def close(self) -> None:
        """The client has gone: stop the run where it is (resumable), its browser context closed."""
        if self.rounds is not None:
            self.rounds.close()  # a question nobody will answer: the gate pauses, its thread let go
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.turns.ended(Answer("The MCP client disconnected; the run was stopped.", ok=False))

    async def _drive(self) -> None:
        try:
            hooks: dict[str, Any] = {
                "model": self.turns,
                "browser": self.browser,
                "listen": self.turns.listen,
            }
            hooks |= {"prompt": self.prompt, "report": self.report, "on_open": self._opened}
            # A handle minted, never used, then the server restarted: its run never started, so it starts.
            if self.resuming and (self.config.runs_dir / self.run_id / "state.json").is_file():
                self.result = await resume_run(
                    self.run_id, self.config.runs_dir, site=self.config.site, **hooks
                )
            else:
                self.result = await start_run(self.config, run_id=self.run_id, **hooks)
        except WebagentError as error:  # the shop, the browser or a flag: the waiting call says which
            self._failure = str(error)
            self.turns.ended(self._over())
            return
        except Exception as error:  # a bug: the waiting call raises it (the SDK logs it, the client
            self._failure = f"internal error: {error!r}"  # gets an error result without our details)
            self.turns.ended(error)
            return
        self.turns.ended(self._over())

    def _opened(self, toolbox: Toolbox) -> None:
        self.toolbox = toolbox

    async def _page(self) -> PageState | None:
        if self.toolbox is None:
            return None
        try:
            page = await self.toolbox.state()
        except WebagentError:  # the page went with the browser: the narration has said what it could
            return None
        secrets = self.toolbox.secrets
        return PageState.model_validate_json(secrets.hide(page.model_dump_json())) if secrets.values else page

    def _over(self) -> Answer:
        result = self.result
        if result is None:
            why = f": {self._failure}" if self._failure else ""
            return Answer(f"This session's run {self.run_id} has stopped{why}.", ok=False, status="finished")
        if result.outcome == "paused":
            return Answer(self._paused_text(result.message), False, "paused", result.message)
        return Answer(
            f"This session's run {self.run_id} has ended ({result.outcome}: {result.message}). "
            "Call start_run (or reconnect) for a new run to order again.",
            ok=result.outcome in ("ordered", "done"),
            status="finished",
        )

    def _paused_text(self, question: str) -> str:
        runs = self.config.runs_dir
        return (
            "Not placed: this needs a person's approval, which this session does not ask for (the client "
            f"shows no approval form, or --approve pause). Waiting for approval of:\n{question}\n"
            f"The run {self.run_id} is paused and its browser session closed; a person approves with "
            f"`webagent resume {self.run_id} --approve --runs-dir {runs}` (or refuses with --deny). "
            "Nothing was ordered."
        )
