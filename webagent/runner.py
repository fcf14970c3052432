"""Running and resuming a run end to end: shop, browser, page session, model, loop, run folder.

This is the one code path behind ``webagent run``, ``webagent resume``, ``webagent eval`` and the pytest
plugin's ``agent`` fixture. The embedded shop is started here when no ``shop_url`` is given; the browser
is launched here unless the caller shares one (several runs as contexts of one browser).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from webagent.approval import ApprovalGate, HumanChannel
from webagent.browser import Browser, PageSession
from webagent.checkpoint import Checkpoint, RunFolder
from webagent.config import ApprovalPolicy, RunConfig
from webagent.errors import RunError, ShopUnreachable, UsageError
from webagent.loop import Agent, Listener, system_prompt
from webagent.model import Model, OpenAIModel
from webagent.narrate import Narration, narrate
from webagent.result import RunResult
from webagent.toolbox import Toolbox

__all__ = ["VoiceHooks", "goal_text", "make_model", "resume_run", "run_page", "start_run", "uses_planner"]

Prompt = Callable[[str], str]


class VoiceHooks(Protocol):
    """Speech around a run (`webagent.voice.run.RunVoice`): a spoken goal, a spoken ending."""

    async def opened(self, config: RunConfig, session: PageSession, folder: RunFolder) -> RunConfig:
        """Once the shop is open: the config to run (its goal transcribed from speech, say)."""
        ...

    async def finished(self, result: RunResult) -> None:
        """Once the run has ended or paused: say so."""
        ...


def uses_planner(config: RunConfig) -> bool:
    """The offline planner is the default when no model endpoint is configured."""
    if config.model == "planner":
        return True
    if config.model is not None or config.base_url:
        return False
    return not (os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL"))


def make_model(config: RunConfig, on_text: Callable[[str], None] | None = None) -> Model:
    """The planner, or an `OpenAIModel` for the configured endpoint."""
    if uses_planner(config):
        from webagent.planner import OrderSpec, Planner

        spec = OrderSpec.model_validate(config.order) if config.order is not None else None
        return Planner(config.goal, spec=spec, profile=config.profile)
    name = None if config.model in (None, "planner") else config.model
    return OpenAIModel(name, base_url=config.base_url, stream=on_text is not None, on_text=on_text)


def goal_text(config: RunConfig) -> str:
    """The goal as the model reads it, with the customer profile the goal may rely on."""
    if config.goal:
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
    known = {k: v for k, v in config.profile.model_dump().items() if v}
    profile = (
        (" Customer profile (use for details the goal does not give): " + json.dumps(known)) if known else ""
    )
    return goal + budget + profile


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
        if config.shop_url:
            shop_url = config.shop_url.rstrip("/")
        else:
            from demo_site import running_shop  # the embedded shop only when no URL is given

            try:
                shop_url = stack.enter_context(running_shop(db_path, config.clutter, config.seed)).url
            except (OSError, sqlite3.Error, RuntimeError) as error:
                raise ShopUnreachable(
                    f"the embedded shop could not start with database {db_path}: {error}"
                ) from error
        if browser is None:
            browser = await stack.enter_async_context(
                await Browser.launch(headed=config.headed, slow_mo=config.slow_mo)
            )
        session = await browser.new_session(
            shop_url, trace=config.trace, trace_title=f"webagent {folder.run_id}", storage_state=storage_state
        )
        try:
            yield session
        finally:
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
    gate = ApprovalGate(approve or config.approve, config.budget_cents, prompt)
    human = HumanChannel(answers, interactive=config.approve == "ask", prompt=prompt)
    return Agent(model or make_model(config), toolbox, gate, human, folder, state, listen)


async def _pause_point(state: Checkpoint, session: PageSession, folder: RunFolder) -> None:
    state.storage_state = await session.storage_state()
    state.url = session.page.url
    folder.save(state)


async def _refill_checkout(folder: RunFolder, toolbox: Toolbox, path: str) -> None:
    """Fill the checkout form again as the transcript says it was filled at the pause.

    The form lives only in the page (each visit to checkout renders it empty), so the reload on
    resume loses it; without this an approved order would be refused for missing details.
    """
    if path.rstrip("/") != "/checkout":
        return
    fills: list[str] = []
    for event in folder.transcript():
        if event.get("event") != "tool":
            continue
        if event.get("name") == "go_to_checkout":
            fills = []
        elif event.get("name") == "fill_delivery_details" and event.get("ok"):
            fills.append(str(event.get("arguments") or "{}"))
    for arguments in fills:
        await toolbox.call("fill_delivery_details", arguments)


async def start_run(
    config: RunConfig,
    *,
    model: Model | None = None,
    browser: Browser | None = None,
    listen: Listener | None = None,
    prompt: Prompt = input,
    voice: VoiceHooks | None = None,
) -> RunResult:
    """Run ``config`` from the start; returns when it is finished, failed or paused.

    With ``voice``, the goal may come from a recording (transcribed once the shop is open, before the
    agent acts) and the end of the run is spoken; ``model`` None then builds the model for that goal.
    """
    folder = RunFolder.create(config.runs_dir)
    db_path = Path(config.db_path) if config.db_path else folder.path / "shop.db"
    state = Checkpoint(
        run_id=folder.run_id,
        config=config,
        answers_left=list(config.answers),
        shop_url=config.shop_url,
        db_path=None if config.shop_url else str(db_path),
    )
    folder.record("started", config=config.model_dump(mode="json"))
    folder.save(state)  # from here on, `webagent resume` knows the run, whatever happens next
    async with run_page(config, folder, db_path, browser) as session:
        await session.open("/", clutter=config.clutter, seed=config.seed)
        if voice is not None:
            try:
                config = state.config = await voice.opened(config, session, folder)
            except RunError as error:  # the transcription endpoint gave out: end the run cleanly
                state.status = "finished"
                state.result = state.result_of("failed", str(error), str(folder.path))
                folder.record("finished", **state.result.model_dump(exclude={"run_dir"}))
                folder.save(state)
                return state.result
            folder.save(state)
        toolbox = Toolbox(session, screenshots=folder.path if config.screenshots else None)
        page = await toolbox.state()
        opening = narrate(
            Narration(
                said="The shop is open.", after=page, breadcrumbs=toolbox.new_breadcrumbs(), possible=[]
            )
        )
        goal = goal_text(config)
        state.messages = [
            {"role": "system", "content": system_prompt(goal)},
            {"role": "user", "content": f"{goal}\n\n{opening}"},
        ]
        folder.save(state)
        agent = _agent(config, state, folder, toolbox, model, listen, prompt, list(config.answers))
        result = await agent.run()
        if result.outcome == "paused":
            await _pause_point(state, session, folder)
        if voice is not None:
            await voice.finished(result)
        return result


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
) -> RunResult:
    """Continue a paused run: settle its pending call (approve/deny/answer) and go on from there."""
    folder = RunFolder.find(runs_dir, run_id)
    state = folder.load()
    if state.status != "paused":
        if state.result is not None:
            return state.result.model_copy(
                update={"message": f"run already {state.status}: {state.result.message}"}
            )
        raise UsageError(
            f"run {run_id} was interrupted before it finished or paused, so there is nothing to resume; "
            f"its transcript is in {folder.path}"
        )
    config = state.config.model_copy(
        update={k: v for k, v in (("headed", headed), ("slow_mo", slow_mo)) if v is not None}
    )
    state.config = config
    policy: ApprovalPolicy | None = None if approve is None else ("auto" if approve else "deny")
    answers = ([answer] if answer is not None else []) + state.answers_left
    folder.record("resumed", approve=approve, answer=answer)
    db_path = Path(state.db_path) if state.db_path else folder.path / "shop.db"
    async with run_page(config, folder, db_path, browser, state.storage_state) as session:
        # The embedded shop may come back on another port: keep the path, take the new origin.
        path = urlsplit(state.url or "/").path or "/"
        await session.open(path)
        toolbox = Toolbox(session, screenshots=folder.path if config.screenshots else None)
        await _refill_checkout(folder, toolbox, path)
        toolbox.new_breadcrumbs()  # the reload's own breadcrumbs are not news to the model
        agent = _agent(config, state, folder, toolbox, model, listen, prompt, answers, approve=policy)
        result = await agent.run()
        if result.outcome == "paused":
            await _pause_point(state, session, folder)
        return result
