"""Running and resuming a run end to end: shop, browser, page session, model, loop, run folder.

This is the one code path behind ``webagent run``, ``webagent resume``, ``webagent eval`` and the pytest
plugin's ``agent`` fixture. The embedded shop is started here when no ``shop_url`` is given; the browser
is launched here unless the caller shares one (several runs as contexts of one browser).

Whatever stops a run, its folder says why: a run that cannot start is closed out (``finished``,
outcome ``failed``, the reason) before the error propagates; a run interrupted mid-way (killed,
Ctrl-C) keeps ``running`` and is continued by `resume_run`, which first reconciles with the shop
(webagent/runs/recovery.py).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError

from webagent.agent.approval import ApprovalGate, HumanChannel
from webagent.agent.checkpoint import ActionRecord, Checkpoint, RunFolder
from webagent.agent.loop import Agent, Listener
from webagent.agent.prompt import system_prompt
from webagent.agent.result import RunResult
from webagent.browser.session import Browser, PageSession
from webagent.browser.watch import Pause, Stay, inspect
from webagent.browser.watch import keep_open as keep_window_open
from webagent.config import ApprovalPolicy, Profile, RunConfig
from webagent.errors import RunError, ShopUnreachable, UsageError
from webagent.llm.openai_client import ensure_served
from webagent.llm.protocol import Model, close_model
from webagent.narration.narrate import Narration, narrate, restaurant_listing
from webagent.narration.seen import person_message
from webagent.narration.state import PageState
from webagent.runs.model_choice import describe_model, make_model, make_reader, uses_planner
from webagent.runs.site_choice import check_embedded, named_by_you, site_of, start_url
from webagent.runs.recovery import (
    Journal,
    load_page,
    off_the_shop,
    on_origin,
    reconcile,
    resume_note,
    resume_path,
    settle_interrupted_turn,
    true_to_the_shop,
)
from webagent.tools.toolbox import Toolbox, ToolResult

__all__ = [
    "ReportHook",
    "VoiceHooks",
    "check_shop_url",
    "goal_text",
    "launched_browser",
    "make_model",
    "opening_said",
    "profile_note",
    "resume_run",
    "run_page",
    "start_run",
    "uses_planner",
    "with_screenshots",
]

Prompt = Callable[[str], str]

ReportHook = Callable[[Path], object]
"""Writes a run folder's report (`webagent.report.write.write_report`), passed in: this layer imports none."""


def _no_report(folder: Path) -> None:
    """The default report hook: none (the CLI, the eval, the batch and the pytest plugin pass theirs)."""


class VoiceHooks(Protocol):
    """Speech around a run (`webagent.voice.run.RunVoice`): a spoken goal, a spoken ending."""

    async def opened(self, config: RunConfig, session: PageSession, folder: RunFolder) -> RunConfig:
        """Once the shop is open: the config to run (its goal transcribed from speech, say)."""
        ...

    async def finished(self, result: RunResult) -> None:
        """Once the run has ended or paused: say so."""
        ...


def config_lacks_goal(config: RunConfig) -> bool:
    """A run whose goal is still to come (a recording not yet transcribed)."""
    return not config.goal and config.order is None


def goal_text(config: RunConfig) -> str:
    """The goal as the model reads it, with the customer profile the goal may rely on."""
    if config.goal and config.order == {}:  # nothing to order yet; the goal says why (speech not understood)
        goal = "Place exactly this order: {}\n" + config.goal
    elif config.goal:
        goal = config.goal
    elif config.order is not None:
        goal = "Place exactly this order: " + json.dumps(config.order, ensure_ascii=False)
    else:
        raise UsageError("a run needs a goal or an order")
    budget = (
        f" Budget: at most ${config.budget_cents / 100:.2f} in total."
        if config.budget_cents is not None
        else ""
    )
    return goal + budget + profile_note(config.profile)


def profile_note(profile: Profile) -> str:
    """The customer's standing details, as the model (and the planner) reads them after the goal."""
    known = {k: v for k, v in profile.model_dump().items() if v}
    return (
        (" Customer profile (use for details the goal does not give): " + json.dumps(known)) if known else ""
    )


def opening_said(page: PageState) -> str:
    """The run's first narration: the shop is open, and the restaurants its list shows (names only). On a
    page with no restaurant list too: "The page is open." there (tried 2026-12-07) turned the local 1.5B's
    newsletter signup into a question it never acted on (tests/llm/test_local_model.py)."""
    if not page.restaurants:
        return "The shop is open."
    listing = restaurant_listing(page.restaurants, limit=len(page.restaurants))
    return f"The shop is open. Restaurants: {listing}."


def check_shop_url(url: str) -> str:
    """The shop's base URL without a trailing slash; `UsageError` unless it is an http(s) address.

    Without this, ``localhost:8000`` reaches the browser as a URL of scheme ``localhost``: every request
    is outside the "shop's origin", and the run fails with a baffling ERR_BLOCKED_BY_CLIENT.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        bare = url.strip().split("://", 1)[-1].lstrip("/")
        raise UsageError(
            f"the shop URL {url!r} is not an http:// or https:// address; did you mean http://{bare}?"
        )
    return url.strip().rstrip("/")


def _check_display(headed: bool) -> None:
    """A headed Chromium on Linux needs an X or Wayland display; say so before Chromium says it in 60 lines."""
    if headed and sys.platform.startswith("linux"):
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            raise RunError(
                "--headed needs a display, and this session has none (DISPLAY is not set): run it under "
                "xvfb-run (xvfb-run -a webagent …), or headless (leave out --headed; chat --headless)"
            )


@asynccontextmanager
async def launched_browser(config: RunConfig) -> AsyncIterator[Browser]:
    """A Chromium for ``config`` (this run's own, or one that runs share as contexts); closed on exit,
    quietly if it is already gone."""
    _check_display(config.headed)
    try:
        browser = await Browser.launch(headed=config.headed, slow_mo=config.slow_mo)
    except PlaywrightError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise RunError(f"Chromium could not start: {first}") from error
    try:
        yield browser
    finally:
        with suppress(PlaywrightError):
            await browser.close()


@asynccontextmanager
async def run_page(
    config: RunConfig,
    folder: RunFolder,
    db_path: Path,
    browser: Browser | None = None,
    storage_state: dict[str, Any] | None = None,
) -> AsyncIterator[PageSession]:
    """The shop (embedded unless ``config.shop_url``), a browser (unless shared) and this run's page.

    Everything is torn down in reverse on exit; the trace, when recording, is written first.
    """
    async with AsyncExitStack() as stack:
        check_embedded(config)
        if config.shop_url:
            shop_url = check_shop_url(config.shop_url)
        else:
            from demo_site import running_shop  # the embedded shop only when no URL is given

            try:
                shop_url = stack.enter_context(running_shop(db_path, config.clutter, config.seed)).url
            except (OSError, sqlite3.Error, RuntimeError) as error:
                raise ShopUnreachable(
                    f"the embedded shop could not start with database {db_path}: {error}"
                ) from error
        if browser is None:
            browser = await stack.enter_async_context(launched_browser(config))
        session = await browser.new_session(
            shop_url,
            site_of(config),
            trace=config.trace,
            trace_title=f"webagent {folder.run_id}",
            storage_state=storage_state,
            known_overlays=config.overlay_shortcuts,
            init_scripts=config.init_scripts,
            watch=config.headed,
        )
        try:
            yield session
        finally:
            # Best effort: after Ctrl-C or a crash the browser may already be gone, and an error here
            # would hide the one that ended the run.
            with suppress(PlaywrightError):
                await session.close(folder.trace_path if config.trace else None)


def _agent(
    config: RunConfig,
    state: Checkpoint,
    folder: RunFolder,
    toolbox: Toolbox,
    model: Model | None,
    listen: Listener | None,
    prompt: Prompt,
    answers: list[str],
    approve: ApprovalPolicy | None = None,
) -> Agent:
    # A person's --approve (or --deny) on resume is their word on the action the run paused on, that one
    # action once (`ActionRecord`); every other goes to the run's own policy, anchored to their words.
    # A prompt that asks elsewhere than the terminal says where (``webagent mcp``: in the MCP client).
    where = getattr(prompt, "where", ApprovalGate.where)
    gate = ApprovalGate(config.approve, config.budget_cents, prompt, where=where)
    pending = state.pending
    if approve is not None and pending is not None and pending.kind == "approval":
        # (a checkpoint written before records has none: its token is compared, and the yes binds the
        # action as the page shows it then — webagent/agent/controls.py)
        asked = pending.record or ActionRecord(action=pending.question)
        if approve == "auto":
            gate.granted = asked
        else:
            gate.declined = asked
    human = HumanChannel(answers, interactive=config.approve == "ask", prompt=prompt)
    journal = Journal(toolbox, state, folder)  # every page call checkpointed before and after it acts
    model = model or make_model(config)
    reader = None if getattr(model, "reader", None) else make_reader(config)  # a planner brings its own
    return Agent(model, journal, gate, human, folder, state, listen, reader=reader)


def _toolbox(config: RunConfig, session: PageSession, folder: RunFolder, pause: Pause) -> Toolbox:
    async def stop(result: ToolResult) -> None:
        await pause(session.page, f"{result.name} failed: {result.text.splitlines()[0]}")

    return Toolbox(
        session,
        site_of(config),
        screenshots=folder.path if config.screenshots != "off" else None,
        every_call=config.screenshots == "all",
        on_failure=stop if config.pause_on_failure else None,
    )


def with_screenshots(listen: Listener | None, toolbox: Toolbox, folder: RunFolder) -> Listener:
    """The listener, after recording which screenshot shows the page after each tool call.

    The loop has just written the call's ``tool`` event; a ``screenshot`` event follows it, naming the
    call and the file, so report.html can put each picture beside its narration. The picture may still
    be being saved then (`Toolbox.pictured`): its time is written when it is known already.
    """

    def on_event(kind: str, fields: dict[str, Any]) -> None:
        picture = toolbox.picture  # the latest call's, if it was this call (finish is not on the page)
        if kind == "tool" and picture is not None and picture[0] == fields.get("name"):
            name, file, ms = picture
            folder.record("screenshot", id=fields.get("id"), name=name, file=file, ms=ms)
        if listen is not None:
            listen(kind, fields)

    return on_event


async def _after_run(
    config: RunConfig,
    session: PageSession,
    folder: RunFolder,
    result: RunResult,
    pause: Pause,
    stay: Stay,
    report: ReportHook,
) -> None:
    """The headed-debugging stops at the end: the inspector on a failed run, then keep the window open."""
    if config.pause_on_failure and result.outcome == "failed":
        await pause(session.page, f"the run failed: {result.message}")
    if config.keep_open:
        report(folder.path)  # readable while the window stays; written again, with the trace, at the end
        await stay(session.page)


async def _remember_page(state: Checkpoint, session: PageSession, folder: RunFolder) -> None:
    """Save where the page is and the browser's storage state (the shop's session cookie)."""
    state.storage_state = await session.storage_state()
    state.url = session.secrets.hide(session.page.url)
    folder.save(state)


async def _open_conversation(state: Checkpoint, toolbox: Toolbox, folder: RunFolder) -> None:
    page = await toolbox.context.recover(await toolbox.state())  # a first page the busy shop failed
    crumbs = toolbox.new_breadcrumbs()
    opening = narrate(Narration(said=opening_said(page), after=page, breadcrumbs=crumbs, possible=[]))
    goal = goal_text(state.config)
    state.messages = [
        {"role": "system", "content": system_prompt(goal, any_page=page.any_page)},
        person_message(f"{goal}\n\n{opening}", page),
    ]
    folder.save(state)


def _close_failed(state: Checkpoint, folder: RunFolder, error: BaseException) -> None:
    """Close out a run that could not go on — unless it is paused or an order may exist (then resume);
    one that pressed a consequential control elsewhere says so (`off_the_shop`)."""
    if state.status != "running" or (state.order_attempted and not state.placed):
        return
    reason = str(error) if isinstance(error, UsageError | RunError) else f"internal error: {error!r}"
    ended = off_the_shop(state, f"Then the run stopped: {reason}", str(folder.path))
    result = state.close(ended or state.result_of("failed", reason, str(folder.path)))
    folder.save(state)
    folder.record("finished", **result.model_dump(exclude={"run_dir"}))


async def start_run(
    config: RunConfig,
    *,
    model: Model | None = None,
    browser: Browser | None = None,
    listen: Listener | None = None,
    prompt: Prompt = input,
    on_text: Callable[[str], None] | None = None,
    run_id: str | None = None,
    storage_state: dict[str, Any] | None = None,
    pause: Pause = inspect,
    stay: Stay = keep_window_open,
    voice: VoiceHooks | None = None,
    report: ReportHook = _no_report,
    on_open: Callable[[Toolbox], object] | None = None,
) -> RunResult:
    """Run ``config`` from the start; returns when it is finished, failed or paused.

    A run that cannot start (no Chromium, no display for ``headed``, the shop not answering, no model
    endpoint) raises — `RunError`, or `UsageError` for a malformed shop URL — after closing out its run
    folder with the reason. ``model`` defaults to `make_model` (``on_text`` receives streamed text).
    ``run_id`` names the run folder (default: a fresh id). ``storage_state`` starts the browser context
    with those cookies — a shop session the caller opened and wrote down first, so that whatever happens
    to this process the caller can ask the shop what that session ordered (webagent/fleet/batch.py does).

    ``report`` writes the run folder's report at the end, whatever happened (and before a kept-open window
    waits): pass `webagent.report.write.write_report` for ``report.html``. ``pause`` is the stop at a
    failure (``config.pause_on_failure``; Playwright's inspector by default) and ``stay`` the stop after
    the run (``config.keep_open``; until the window is closed or Enter pressed) — parameters, so that
    tests pass their own.

    With ``voice``, the goal may come from a recording (transcribed once the shop is open, before the
    agent acts) and the end of the run is spoken.

    ``on_open`` is called with the run's toolbox once the conversation is open, before the first model
    turn (``webagent mcp`` reads the page state through it for its structured results).
    """
    folder = RunFolder.create(config.runs_dir, run_id)
    db_path = Path(config.db_path) if config.db_path else folder.path / "shop.db"
    state = Checkpoint(
        run_id=folder.run_id,
        config=config,
        answers_left=list(config.answers),
        shop_url=config.shop_url,
        db_path=None if config.shop_url else str(db_path),
        storage_state=storage_state,
    )
    folder.record("started", config=config.model_dump(mode="json"))
    folder.save(state)  # from here on, `webagent resume` knows the run, whatever happens next
    made = model is None  # a model made here is closed here
    with folder.lock():
        try:
            model = model or make_model(config, on_text=on_text)
            folder.record("endpoint", model=describe_model(model))
            await ensure_served(model)  # a model the endpoint does not serve: one line, before the browser
            async with run_page(config, folder, db_path, browser, storage_state) as session:
                await session.goto(start_url(config, session.shop_url))
                if voice is not None:
                    try:
                        config = state.config = await voice.opened(config, session, folder)
                    except RunError as error:  # the transcription endpoint gave out: end the run cleanly
                        result = state.close(state.result_of("failed", str(error), str(folder.path)))
                        folder.record("finished", **result.model_dump(exclude={"run_dir"}))
                        folder.save(state)
                        return result
                    folder.save(state)
                toolbox = _toolbox(config, session, folder, pause)
                await _remember_page(state, session, folder)  # the shop session, for any resume
                await _open_conversation(state, toolbox, folder)
                if on_open is not None:
                    on_open(toolbox)
                result = await _drive(
                    config, state, folder, session, toolbox, model, listen, prompt, list(config.answers)
                )
                if voice is not None:
                    await voice.finished(result)
                await _after_run(config, session, folder, result, pause, stay, report)
                return result
        except Exception as error:
            _close_failed(state, folder, error)
            raise
        finally:
            if made and model is not None:
                await close_model(model)
            report(folder.path)  # after the page closed, so the trace it links to is written


async def _drive(
    config: RunConfig,
    state: Checkpoint,
    folder: RunFolder,
    session: PageSession,
    toolbox: Toolbox,
    model: Model,
    listen: Listener | None,
    prompt: Prompt,
    answers: list[str],
    approve: ApprovalPolicy | None = None,
) -> RunResult:
    await toolbox.pictured()  # a refilled form's pictures belong to no call of the model's
    listen = with_screenshots(listen, toolbox, folder)
    agent = _agent(config, state, folder, toolbox, model, listen, prompt, answers, approve=approve)
    try:
        result = await agent.run()
    finally:
        await toolbox.pictured()  # the last call's picture, before the page closes
    if result.outcome == "paused":
        await _remember_page(state, session, folder)
    return await true_to_the_shop(result, state, folder, toolbox)


async def _go_on_after_interruption(state: Checkpoint, folder: RunFolder, toolbox: Toolbox) -> None:
    """Nothing was ordered: reopen where the run was, settle the interrupted turn, tell the model."""
    if not state.messages:  # killed before the conversation began: begin it as `start_run` does
        await toolbox.session.goto(start_url(state.config, toolbox.session.shop_url))
        await _remember_page(state, toolbox.session, folder)
        await _open_conversation(state, toolbox, folder)
        return
    path = resume_path(state)
    await load_page(toolbox, path, site_view=False)
    transcript = folder.transcript()
    flight = state.in_flight
    if flight is not None and flight.result is not None:  # it returned before its tool event was written:
        done = {"event": "tool", "name": flight.name, "arguments": flight.arguments}  # what it filled too
        transcript = [*transcript, {**done, "ok": not flight.kept.get("refusal")}]
    await toolbox.site.restore(toolbox.call, path, transcript)
    page = await toolbox.state()
    taken_back = settle_interrupted_turn(state.messages, state.in_flight, page.cart_count)
    toolbox.new_breadcrumbs()  # the reload's own breadcrumbs are not news to the model
    state.messages.append(
        person_message(resume_note(taken_back, page, [], toolbox.site.possible(page)), page)
    )
    state.in_flight, state.remaining_calls = None, []
    state.url = toolbox.session.page.url
    folder.record("continued", taken_back=taken_back, url=state.url)
    folder.save(state)


async def resume_run(
    run_id: str,
    runs_dir: Path,
    *,
    approve: bool | None = None,
    answer: str | None = None,
    model: Model | None = None,
    browser: Browser | None = None,
    listen: Listener | None = None,
    prompt: Prompt = input,
    headed: bool | None = None,
    slow_mo: float | None = None,
    on_text: Callable[[str], None] | None = None,
    keep_open: bool | None = None,
    pause_on_failure: bool | None = None,
    pause: Pause = inspect,
    stay: Stay = keep_window_open,
    report: ReportHook = _no_report,
    on_open: Callable[[Toolbox], object] | None = None,
    site: str | None = None,
) -> RunResult:
    """Continue a paused or interrupted run; a finished one just reports its result. A run on an adapter of
    one's own is continued only when ``site`` names it (`site_choice.named_by_you`).

    The report is written again at the end, covering the whole run; ``keep_open`` and
    ``pause_on_failure`` override the run's settings, ``pause``, ``stay``, ``report`` and ``on_open`` as in
    `start_run`.

    A paused run settles its pending call (approve/deny/answer) and goes on. An interrupted one (killed
    mid-way: its checkpoint still says ``running``) first asks the shop whether its order exists —
    then reports it — and otherwise goes on from its checkpoint. A resume that cannot start raises
    `RunError` and leaves the run as it was, to be resumed again.
    """
    folder = RunFolder.find(runs_dir, run_id)
    with folder.lock():
        state = folder.load()
        if state.status == "finished" and state.result is not None:
            return state.result.model_copy(
                update={"message": f"run already {state.status}: {state.result.message}"}
            )
        named_by_you(state.config, site)
        interrupted = state.status == "running"
        if interrupted and config_lacks_goal(state.config):
            # Stopped while its spoken goal was being transcribed: nothing was done, nothing to go on with.
            message = "the run stopped before its spoken goal was transcribed; start it again"
            result = state.close(state.result_of("failed", message, str(folder.path)))
            folder.record("finished", **result.model_dump(exclude={"run_dir"}))
            folder.save(state)
            report(folder.path)
            return result
        changes = (
            ("headed", headed),
            ("slow_mo", slow_mo),
            ("keep_open", keep_open),
            ("pause_on_failure", pause_on_failure),
        )
        config = state.config.model_copy(update={k: v for k, v in changes if v is not None})
        state.config = config
        policy: ApprovalPolicy | None = None if approve is None else ("auto" if approve else "deny")
        answers = ([answer] if answer is not None else []) + state.answers_left
        folder.record("resumed", approve=approve, answer=answer, interrupted=interrupted)
        db_path = Path(state.db_path) if state.db_path else folder.path / "shop.db"
        made = model is None
        try:
            model = model or make_model(config, on_text=on_text)
            folder.record("endpoint", model=describe_model(model))
            await ensure_served(model)
            async with run_page(config, folder, db_path, browser, state.storage_state) as session:
                toolbox = _toolbox(config, session, folder, pause)
                if interrupted:
                    ended = await reconcile(toolbox, state, folder)
                    if ended is not None:
                        return ended
                    await _go_on_after_interruption(state, folder, toolbox)
                else:
                    # The embedded shop may come back on another port: keep the path, take the new origin.
                    path = resume_path(state)
                    await session.goto(on_origin(session.shop_url, path))
                    await toolbox.site.restore(toolbox.call, path, folder.transcript())
                    toolbox.new_breadcrumbs()  # the reload's own breadcrumbs are not news to the model
                if on_open is not None:
                    on_open(toolbox)
                result = await _drive(
                    config, state, folder, session, toolbox, model, listen, prompt, answers, policy
                )
                await _after_run(config, session, folder, result, pause, stay, report)
                return result
        except RunError as error:
            folder.record("resume_failed", reason=str(error))
            raise
        finally:
            if made and model is not None:
                await close_model(model)
            report(folder.path)
