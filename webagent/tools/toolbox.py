"""The toolbox: runs one tool call from raw model output to narration, never raising for the model's
mistakes.

    raw arguments ─► validate (pydantic) ─► precondition (the site's graph) ─► act (the site's tool)
                 ─► read the page ─► narrate(before, after, new breadcrumbs, dismissed overlays, blocked)
                                  └► seen(after): what the page showed, typed, for the transcript

Before a call runs, the loop asks whether it is consequential (`Toolbox.judge`): a site tool marked so
(`place_order`), or a generic press or Enter that would pay, buy or order on whatever page this is
(webagent/tools/consequence.py). The judgement — and the control it resolved — is kept for that call, so
the gate, the journal and the action itself all see one lookup of the control.

The tools, the precondition graph and the page reader come from the `Site` it is given
(webagent/tools/site.py). Invalid arguments, unknown names, refused preconditions, a site that answers
503 or too slowly, an element that never became clickable: each ends in a narration the model can act
on. Anything else is a bug and raises.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from webagent.browser.cards import CardField, card_fields, card_on_screen, card_words, clear_card, enter_card
from webagent.browser.crumbs import Breadcrumb
from webagent.browser.events import Answer, answering
from webagent.browser.obstruction import Blocker, Obstructed
from webagent.browser.quiet import quiet
from webagent.browser.session import PageSession
from webagent.errors import BrowserClosed
from webagent.narration import happened, said
from webagent.narration.narrate import Narration, changes, narrate, quote, shop_busy
from webagent.narration.said import Outcome, timed_out
from webagent.narration.seen import seen
from webagent.narration.state import PageState
from webagent.tools.base import Args
from webagent.tools.calls import describe_validation_error, parse_call, tool_schemas
from webagent.tools.consequence import NOT_CONSEQUENTIAL, Consequence, unclear
from webagent.tools.context import Judged, NotLoaded, ToolContext
from webagent.tools.dialogs import AnswerDialog, answer_consequence, same_answer
from webagent.tools.generic import (
    ChooseOption,
    FillField,
    Press,
    PressKey,
    judge_choose,
    judge_fill,
    judge_press,
    judge_press_key,
)
from webagent.tools.result import LOOP_REFUSALS, ToolResult, glance
from webagent.tools.site import Site
from webagent.tools.webmcp import PageTools, canonical, is_page_tool

__all__ = [
    "LOOP_REFUSALS",
    "ToolResult",
    "ToolRunner",
    "Toolbox",
    "describe_validation_error",
    "glance",
    "parse_call",
    "tool_schemas",
]


class ToolRunner(Protocol):
    """What the loop needs from the page side: schemas to offer, calls to run, the state to read."""

    @property
    def schemas(self) -> list[dict[str, Any]]: ...

    async def offered(self, *, unions: bool = False, state: PageState | None = None) -> list[dict[str, Any]]:
        """The schemas of the tools worth offering on the page as it is now, or as ``state`` read it
        (for small models)."""
        ...

    async def page_schemas(self) -> list[dict[str, Any]]:
        """The schemas of the page's own tools now (WebMCP), offered beside `schemas`."""
        ...

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str: ...

    async def is_consequential(self, name: str, arguments: str | dict[str, Any]) -> bool:
        """Whether this call would commit something (pay, order…): judged afresh on the page as it is."""
        ...

    async def judged(self, name: str, arguments: str | dict[str, Any]) -> Consequence:
        """The judgement of this call made by `is_consequential` just before (else a fresh one): why
        it is consequential, what it would do, the total it would commit."""
        ...

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult: ...

    async def state(self) -> PageState: ...

    async def card_fields(self) -> list[CardField]:
        """The payment card fields the page shows (webagent/browser/cards.py): typed only by the person."""
        ...

    async def enter_card(self, fields: list[CardField], values: dict[int, str]) -> list[str]:
        """Fill ``fields`` with the person's ``values``; the labels of those left empty."""
        ...

    async def clear_card(self) -> None: ...  # empty the card fields the person filled (a payment not made)


class Toolbox:
    """Runs the tool calls of one `Site`'s tools against one `PageSession` and narrates each result."""

    def __init__(
        self,
        session: PageSession,
        site: Site,
        *,
        screenshots: Path | None = None,
        every_call: bool = False,
        on_failure: Callable[[ToolResult], Awaitable[None]] | None = None,
    ) -> None:
        self.session = session
        self.site = site
        self.tools = {tool.name: tool for tool in site.tools}
        self.context = ToolContext(session, site)
        self.secrets = session.secrets
        """What the person entered into card fields this run: in memory only, hidden in every narration."""
        self.screenshots = screenshots
        """Where a small JPEG of the page is saved after a call (for report.html); None: none."""
        self.every_call = every_call
        """A picture after every call; else after a call that failed or left another view on screen
        (`PageState.view_key`): the cart's count going up is in the narration, not worth a picture."""
        self._last_view: str | None = None
        self._after: PageState | None = None
        self.on_failure = on_failure
        """Awaited after a call fails, before the loop goes on (``--pause-on-failure`` opens the inspector)."""
        self._narrated = len(session.breadcrumbs)
        # Page calls so far, pictures named after them: a resumed run goes on after the last picture.
        self._shots = max(
            (int(p.name[5:8]) for p in screenshots.glob("step-[0-9][0-9][0-9]-*.jpg")) if screenshots else (),
            default=0,
        )
        self.picture: tuple[str, str, int | None] | None = None
        """(tool name, file name in ``screenshots``, milliseconds it took — None while it is being taken) of
        the screenshot after the latest call."""
        self._picture: asyncio.Task[None] | None = None
        self._judged: tuple[tuple[str, str], Judged] | None = None
        """The last judgement (`judge`), by call name and arguments, until a call runs."""
        self._followed = 0
        """Tab changes (`PageEvents.followed`) the model has been told of."""
        self.page_tools = PageTools(session)
        """The page's own typed tools (WebMCP), offered beside the site's (webagent/tools/webmcp.py)."""
        self._done: tuple[tuple[str, str, str], str] | None = None
        self._prepared: tuple[tuple[str, str], str] | None = None
        """What the site did to set the page up for a call (`Site.before`), said when that call runs."""
        """The last call that a repeat would only echo: (name, arguments, the page it left), and what it said."""

    @property
    def schemas(self) -> list[dict[str, Any]]:
        return tool_schemas(self.site.tools)

    async def offered(self, *, unions: bool = False, state: PageState | None = None) -> list[dict[str, Any]]:
        """The site's tools worth offering on this page (`Site.offered`): a small model chooses among
        a handful instead of all of them, their arguments held to what the page shows (``state``, if the
        caller has just read it)."""
        offered = self.site.offered(state or await self.state(), self.schemas, unions=unions)
        answer = [s for s in self.schemas if s["function"]["name"] == "answer_dialog"]
        asked = self.session.events.asked
        own = [s for s in offered if s not in answer] + (answer if asked and asked.call else [])
        return own + await self.page_tools.offer()

    async def page_schemas(self) -> list[dict[str, Any]]:
        return await self.page_tools.offer()

    async def card_fields(self) -> list[CardField]:
        return await card_fields(self.session.page, self.secrets)

    async def enter_card(self, fields: list[CardField], values: dict[int, str]) -> list[str]:
        async with self.session.acting():  # the person's values, typed by the agent's hand on their behalf
            return await enter_card(self.session.page, fields, values, self.secrets)

    async def clear_card(self) -> None:
        """Empty what the person entered into card fields (the payment it was for did not go through)."""
        if self.secrets.values:
            async with self.session.acting():
                await clear_card(self.session.page)

    async def state(self, *, again: bool = True) -> PageState:
        """The page's state now; `BrowserClosed` when the page is gone (a closed window, a crash).

        ``again=False``: the tool's own last read, when nothing was done through the context after it
        (`ToolContext.read`) — the look after a call.
        """
        if again:
            self.context.forget()
        try:
            return await self.context.read()
        except PlaywrightError as error:
            if self.session.page.is_closed():
                raise BrowserClosed("the browser window was closed, so the run cannot go on") from error
            raise

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str:
        """The validated arguments, or a sentence saying what is wrong with them."""
        return parse_call(self.site.tools, name, arguments)

    async def is_consequential(self, name: str, arguments: str | dict[str, Any]) -> bool:
        """Whether this call would commit something — a consequential site tool (`place_order`), or a
        generic press or Enter that would pay, buy, order or book (webagent/tools/consequence.py) — so
        it must pass the approval gate and the budget. Judged afresh, and kept for the call."""
        return (await self.judge(name, arguments)).consequential

    async def judge(self, name: str, arguments: str | dict[str, Any]) -> Consequence:
        """The call's consequence on the page as it is now, kept for the call that follows.

        Never raises for the page: a page that cannot be asked (an evaluation error, a closed page)
        makes the case unclear, and unclear is consequential; `state` then says whether the browser is
        gone.
        """
        key, judged = await self._judge(name, arguments)
        replaced, self._judged = self._judged, (key, judged) if key is not None else None
        if replaced is not None:
            await replaced[1].release()
        return judged.consequence

    async def judged(self, name: str, arguments: str | dict[str, Any]) -> Consequence:
        """The judgement `judge` kept for this call, else a fresh one."""
        kept = self._kept(name, arguments)
        return kept.consequence if kept is not None else await self.judge(name, arguments)

    def _kept(self, name: str, arguments: str | dict[str, Any] | Args) -> Judged | None:
        if self._judged is None:
            return None
        if is_page_tool(name) and not isinstance(arguments, Args):
            return self._judged[1] if (name, canonical(arguments)) == self._judged[0] else None
        args = arguments if isinstance(arguments, Args) else self.parse(name, arguments)
        key = (name, args.model_dump_json()) if isinstance(args, Args) else None
        return self._judged[1] if key == self._judged[0] else None

    async def _judge(
        self, name: str, arguments: str | dict[str, Any] | Args
    ) -> tuple[tuple[str, str] | None, Judged]:
        if is_page_tool(name) and not isinstance(arguments, Args):
            return (name, canonical(arguments)), Judged(await self.page_tools.judge(name, arguments))
        tool = self.tools.get(name)
        args = arguments if isinstance(arguments, Args) else self.parse(name, arguments)
        if tool is None or isinstance(args, str):
            return None, Judged(NOT_CONSEQUENTIAL)  # nothing runs: the call narrates what is wrong
        key = (name, args.model_dump_json())
        if tool.consequential:
            return key, Judged(
                Consequence(True, f"{name} places an order", action="placing the order", typed=True)
            )
        if isinstance(args, AnswerDialog):
            return key, Judged(await self._judge_answer(args))
        if not isinstance(args, _JUDGED):
            return key, Judged(NOT_CONSEQUENTIAL)
        action = _action(args)
        await self.pictured()  # judging may close a drawer: not before the last call's picture is taken
        try:
            # As the call itself will (a drawer it does not work in closed first), so that what is
            # judged is what gets pressed; what that did is said when the call runs (`_prepared`).
            if (note := await self.site.before(self.context, name, await self.state())) is not None:
                self._prepared = (key, note)
                await self._still()
            if isinstance(args, Press):
                return key, await judge_press(self.context, args)
            if isinstance(args, FillField):
                return key, await judge_fill(self.context, args)
            if isinstance(args, ChooseOption):
                return key, await judge_choose(self.context, args)
            return key, await judge_press_key(self.context, args)
        except (PlaywrightError, Obstructed, BrowserClosed) as error:
            return key, Judged(unclear(action, _brief(error)))

    async def _judge_answer(self, args: AnswerDialog) -> Consequence:
        """`answer_dialog`'s consequence: the dialog's words, and the asking call judged as it would run."""
        consequence, again = await self._judge_again(args)
        if again is not None:
            await again[1].release()
        return consequence

    async def _judge_again(
        self, args: AnswerDialog
    ) -> tuple[Consequence, tuple[tuple[str, str], Judged] | None]:
        """The answer's consequence, and the asking call's judgement (its key and its control, unreleased)."""
        asked = self.session.events.asked
        if asked is None or asked.call is None or not args.accept:
            return NOT_CONSEQUENTIAL, None
        key, again = await self._judge(*asked.call)
        if key is None:  # the asking call no longer parses: nothing would be done again
            return NOT_CONSEQUENTIAL, None
        return answer_consequence(asked, args, again.consequence), (key, again)

    async def _answer(self, args: AnswerDialog) -> ToolResult:
        """Do the call that raised the last dialog again, with ``args``'s answer armed for that dialog —
        only while what it commits is what was judged (and approved) for this call; the call acts on the
        very control judged here (its judgement is handed to it, as the loop's is to any call)."""
        kept = self._kept("answer_dialog", args)
        events = self.session.events
        if events.asked is None or events.asked.call is None or not args.accept:
            asked, events.asked = events.asked, None
            why = (
                "no question of the page is waiting for an answer"
                if asked is None
                else "the page's question came while no action ran, so it cannot be asked again"
                if asked.call is None
                else "the page's question stays answered Cancel"
            )
            return await self._refuse("answer_dialog", f"Nothing was done: {why}.", refusal="precondition")
        if args.text and (kind := card_words(events.asked.message)):  # a prompt() asking for a card
            why = f"the page's question asks for a {kind}, which only the person enters, never the model"
            return await self._refuse("answer_dialog", f"Nothing was done: {why}.", refusal="precondition")
        now, again = await self._judge_again(args)
        asked, events.asked = events.asked, None
        parsed = self.parse(*again[0]) if again is not None else "gone"
        if (
            again is None
            or isinstance(parsed, str)
            or not same_answer(kept.consequence if kept else None, now)
        ):
            if again is not None:
                await again[1].release()
            return await self._refuse("answer_dialog", happened.answer_changed(), refusal="precondition")
        replaced, self._judged = self._judged, again  # released with the call (`call`)
        if replaced is not None:
            await replaced[1].release()
        self._done = None  # done again on purpose: not a repeat of the call the dialog cancelled
        with answering(events, Answer(asked.kind, asked.message, True, args.text)):
            result = await self.run(again[0][0], parsed)
        return replace(result, name="answer_dialog")

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        """Validate and run one call; every model mistake comes back as a narrated, failed result."""
        if self.session.watch:
            await self.pictured()  # the panel is on the page: the last call's picture must not show this one
        self.picture = None
        await self.session.show_call(
            f"{name} {arguments if isinstance(arguments, str) else json.dumps(arguments)}"
        )
        parsed = self.parse(name, arguments)
        async with self.session.acting():  # its presses are the agent's, never the person's
            try:
                if is_page_tool(name):
                    result = await self._page_call(name, arguments)
                elif isinstance(parsed, str):
                    result = await self._refuse(name, parsed, refusal="arguments")
                else:
                    result = await self.run(name, parsed)
            finally:
                kept, self._judged = self._judged, None  # a judgement holds for the one call it was made for
                if kept is not None:
                    await kept[1].release()
            if self.secrets.values:  # what the person entered for a card is said nowhere (read_page, a URL)
                result = dataclasses.replace(result, text=self.secrets.hide(result.text))
            await self._witness(result)
        return result

    async def _page_call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        """A page's own tool: called only as it was judged (and approved), narrated as page text."""
        kept = self._kept(name, arguments)
        before = await self.state()
        called = await self.page_tools.run(name, arguments, kept.consequence if kept else None)
        if called.refused:
            return await self._refuse(name, called.said, before, refusal="arguments")
        await self.session.sync_breadcrumbs()
        after = await self.state()
        return self._result(
            name, Outcome(f"{called.said} {changes(before, after)}".strip(), ok=called.ok), before, after
        )

    async def _witness(self, result: ToolResult) -> None:
        """After the narration: the screenshot, the on-page panel, the trace, a pause on failure."""
        self._shots += 1
        if self.screenshots is not None and self._worth_a_picture(result):
            await self.pictured()  # the last one's (a refused call did nothing to wait for it)
            file = self.screenshots / f"step-{self._shots:03d}-{result.name}.jpg"
            # Off the critical path: the capture is asked for now, and the narration returns while the
            # compositor draws and encodes it (~30 ms); the next call waits for it before acting.
            self.picture = (result.name, file.name, None)
            self._picture = asyncio.create_task(self._take(result.name, file))
        await self.session.show_result(result.ok, result.text)
        await self.session.trace_narration(result.text)
        if not result.ok and self.on_failure is not None:
            await self.on_failure(result)

    def _worth_a_picture(self, result: ToolResult) -> bool:
        """Whether this call's page gets a picture: every call's, or one that failed on the page or left
        another view than the call before it (as its narration's last look read the page)."""
        after, self._after, changed = self._after, None, False
        if after is not None:
            view = after.view_key()
            changed, self._last_view = view != self._last_view, view
        return self.every_call or changed or not (result.ok or result.refused)

    async def _take(self, name: str, path: Path) -> None:
        started = time.monotonic()
        try:
            if self.secrets.values and await card_on_screen(self.session.page):
                return  # card details on screen (the person's, entered for a payment) are never pictured
            await self.session.capture(path)
        except PlaywrightError:
            return  # a page that cannot be captured just has no picture
        if self.picture is not None and self.picture[1] == path.name:
            self.picture = (name, path.name, round((time.monotonic() - started) * 1000))

    async def pictured(self) -> None:
        """Wait for the latest call's screenshot to be saved (before acting again, or closing the page)."""
        picture, self._picture = self._picture, None
        if picture is not None:
            await picture

    async def run(self, name: str, args: Args) -> ToolResult:
        tool = self.tools[name]
        if isinstance(args, AnswerDialog):
            return await self._answer(args)
        events = self.session.events
        # A round trip first: every page event the driver sent before it has reached Python (a tab the page
        # opened while the model thought), and is followed before the check below.
        await self.session.sync_breadcrumbs()
        await events.settled()
        if events.armed is None:
            events.asked = None  # another call: a question left unanswered is left answered Cancel
        if events.followed != self._followed:  # a tab opened (or closed) between calls: look first
            self._followed = events.followed
            return await self._refuse(
                name,
                "Nothing was done: the tools act on another tab since the last call (see below).",
                refusal="precondition",
            )
        if tool.run is None:
            return await self._refuse(
                name, f"Refused: {name} is handled by the agent loop, not on the page.", refusal="arguments"
            )
        self.context.busy = []
        looked = await self.state()  # while the last call's picture is being taken
        # Nothing is done on the page before that picture is taken (a recovery may press "Try again").
        await self.pictured()
        before = await self.context.recover(looked)  # a page that failed to load first
        reason = self.site.refusal(name, before)
        if reason is not None:
            return await self._refuse(name, f"Refused: {reason}", before, refusal="precondition")
        call = (name, args.model_dump_json(), before.fingerprint())
        if tool.same_twice and self._done is not None and self._done[0] == call:
            return await self._refuse(name, said.same_again(name, self._done[1]), before, refusal="repeated")
        detail: str | None = None
        blocker: Blocker | None = None
        finished = False
        fresh: Judged | None = None
        followed = self.session.events.followed
        async with self.session.step(f"{name}({args.model_dump_json(exclude_none=True)})"):
            try:
                if (note := await self.site.before(self.context, name, before)) is not None:
                    self._prepared = ((name, args.model_dump_json()), note)
                    await self._still()
                    before = await self.state()  # what the call itself changes is told from here
                if isinstance(args, _JUDGED):
                    kept = self._kept(name, args)  # released with the call (`call`)
                    fresh = None if kept is not None else (await self._judge(name, args))[1]
                    self.context.judged = kept or fresh
                self.session.events.calling = (name, args.model_dump_json())
                outcome = await tool.run(self.context, args)
                await self.session.events.settled()  # a tab it opened is followed before the page is read
                finished = True
            except Obstructed as error:
                blocker = error.blocker
                outcome = Outcome(f"{name} could not act: {error}", ok=False, changes_expected=False)
            except NotLoaded as error:
                outcome = Outcome(
                    f"{name} could not finish: the page did not load ({quote(str(error))}).", ok=False
                )
            except PlaywrightTimeout as error:
                self.session.timeouts += 1
                detail = _brief(error)
                outcome = Outcome(timed_out(name), ok=False)
            except PlaywrightError as error:
                if self.session.page.is_closed():
                    raise BrowserClosed("the browser window was closed, so the run cannot go on") from error
                detail = _brief(error)
                outcome = Outcome(f"{name} could not finish: the page did not accept the action.", ok=False)
            finally:
                self.context.judged, self.session.events.calling = None, None
                if fresh is not None:
                    await fresh.release()
            # A generic tool may act on the page directly (a scroll), and a tool that raised may have
            # left off anywhere: their page is read again.
            # With the breadcrumbs the call caused: they reach Python on the session's own channel, not
            # the page read's, and the sync brings in every one dispatched before it.
            moved = followed != self.session.events.followed  # another tab is the page now
            self._followed = self.session.events.followed
            after, _ = await asyncio.gather(
                self.state(again=tool.generic or not finished or moved), self.session.sync_breadcrumbs()
            )
            self.context.forget()
        if not outcome.ok and detail is not None and after.errors:
            # The page's own words explain a failure better than the browser driver's.
            outcome = replace(
                outcome, said=f"{name} could not finish: the page shows {quote(after.errors[-1])}."
            )
        if tool.generic:
            outcome = replace(outcome, said=f"{outcome.said} {changes(before, after)}".strip())
        prepared, self._prepared = self._prepared, None
        if tool.generic and prepared is not None and prepared[0] == (name, args.model_dump_json()):
            # (a typed tool's narration says where it left the page; readers match its first words)
            outcome = replace(outcome, said=f"{prepared[1]} {outcome.said}")
        if self.context.busy:
            busy = shop_busy(self.context.busy[-1], len(self.context.busy))
            outcome = replace(outcome, said=f"{outcome.said}\n{busy}")
        result = self._result(name, outcome, before, after, blocker)
        # What a repeat of this call would find, while the page stays as it left it.
        done = (name, args.model_dump_json(), after.fingerprint())
        self._done = (done, outcome.said.split("\n", 1)[0]) if tool.same_twice and outcome.ok else None
        return replace(result, detail=detail)

    async def _still(self) -> None:
        """After the site set the page up (a drawer closed): the page done with it — the focus the closed part
        held moved on — before anything is judged or pressed there."""
        await quiet(self.session.page, self.session.events.traffic, 1_000)
        self.context.forget()

    async def _refuse(
        self, name: str, reason: str, state: PageState | None = None, *, refusal: str
    ) -> ToolResult:
        state = state or await self.state()
        outcome = Outcome(reason, ok=False, changes_expected=False)
        result = self._result(name, outcome, state, state)
        return replace(result, ok=False, changed=False, refused=True, refusal=refusal)

    def forget_looks(self) -> None:
        """Let the next look run even if it repeats the last one (a person spoke: a new request)."""
        self._done = None

    def new_breadcrumbs(self) -> list[str]:
        """Breadcrumbs not yet narrated — the model's actions and a person's clicks alike."""
        return [crumb.message for crumb in self.new_crumbs()]

    def new_crumbs(self) -> list[Breadcrumb]:
        """`new_breadcrumbs`, each saying whether it was the person's (`Breadcrumb.person`)."""
        fresh = self.session.breadcrumbs[self._narrated :]
        self._narrated = len(self.session.breadcrumbs)
        return fresh

    def _result(
        self, name: str, outcome: Outcome, before: PageState, after: PageState, blocker: Blocker | None = None
    ) -> ToolResult:
        self._after = after  # what the call left on screen: its picture's view (`_worth_a_picture`)
        text = narrate(
            Narration(
                said=outcome.said,
                before=before,
                after=after,
                breadcrumbs=self.new_breadcrumbs(),
                dismissed=self.session.take_dismissed(),
                blocked=self.session.take_blocked(),
                events=self.session.events.take(),
                possible=self.site.possible(after),
                changes_expected=outcome.changes_expected,
            )
        )
        changed = before.fingerprint() != after.fingerprint()
        shown = seen(after, blocker.title, blocker.names) if blocker else seen(after)
        return ToolResult(
            name,
            text,
            outcome.ok,
            changed,
            False,
            outcome.order_id,
            outcome.total_cents,
            seen=shown.record(),
            page=glance(after),
        )


_JUDGED = (Press, PressKey, FillField, ChooseOption)
"""The generic actions judged before they run: a press, a key, a field typed into, a choice made."""


def _action(args: Args) -> str:
    if isinstance(args, Press):
        return f"pressing {quote(args.name, 60)}"
    if isinstance(args, PressKey):
        return f"pressing {args.key}"
    if isinstance(args, FillField):
        return f"typing into {quote(args.label, 60)}"
    assert isinstance(args, ChooseOption)
    return f"choosing {quote(args.choice, 60)} in {quote(args.label, 60)}"


def _brief(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__
