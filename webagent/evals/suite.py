"""Running a suite: each task in a fresh shop (or a shop session of its own), verified as it ends.

A task's run goes through `start_run` like any other run (its report.html written), then the verifier
judges it from the shop's database and the run's transcript (webagent/evals/verify.py). Tasks run up to
``workers`` at once as contexts of one shared browser; on Ray, webagent/evals/on_ray.py runs them.

``--model null|ask|random|gullible|namer`` runs a baseline agent (webagent/planner/baselines.py);
``--baselines`` runs them all after the model under test and reports their scores beside its own
(`run_baselines`).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from webagent.agent.approval import no_terminal
from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.errors import RunError, UsageError
from webagent.evals.shop_facts import ShopFacts
from webagent.evals.summary import SuiteReport, TaskResult, summarize
from webagent.evals.tasks import DEFAULT_PROFILE, Task
from webagent.evals.verify import bought_beyond, read_orders, read_transcript, verify, wrong_order
from webagent.llm.openai_client import DEFAULT_MODEL
from webagent.planner.baselines import BASELINES
from webagent.report.progress import ProgressBar
from webagent.report.write import write_report
from webagent.runs.runner import start_run, uses_planner
from webagent.runs.site_choice import sessions_of, site_of

__all__ = ["model_label", "run_baselines", "run_suite", "run_task"]


def model_label(
    model: str | None, base_url: str | None, gguf: Path | None = None, consult: str | None = None
) -> str:
    """Which agent ran the suite, as the scores name it: the planner (with the local model it reads with),
    a baseline, or the model's name."""
    if uses_planner(RunConfig(model=model, base_url=base_url, gguf=gguf)):
        return f"planner+{consult}" if consult else "planner"
    if gguf is not None:
        return f"local {gguf.name}"
    return model or os.environ.get("WEBAGENT_MODEL") or DEFAULT_MODEL


def _task_config(
    task: Task,
    runs_dir: Path,
    model: str | None,
    base_url: str | None,
    gguf: Path | None,
    screenshots: bool,
    consult: str | None = None,
    **where: Any,
) -> RunConfig:
    """The run a task asks for; ``where`` is its shop (``db_path``, or ``shop_url`` for a shared one)."""
    return RunConfig(
        goal=task.goal,
        profile=task.profile or DEFAULT_PROFILE,
        clutter=task.clutter,
        seed=task.seed,
        model=model,
        gguf=gguf,
        consult=consult,
        base_url=base_url,
        approve=task.approve,
        budget_cents=task.budget_cents,
        answers=list(task.answers),
        init_scripts=[Path(task.init_script)] if task.init_script else [],
        runs_dir=runs_dir,
        screenshots="views" if screenshots else "off",
        **where,
    )


async def run_task(
    task: Task,
    *,
    runs_dir: Path,
    browser: Browser | None = None,
    model: str | None = None,
    base_url: str | None = None,
    shop_url: str | None = None,
    gguf: Path | None = None,
    screenshots: bool = True,
    consult: str | None = None,
) -> TaskResult:
    """Run one task through `start_run` in a fresh shop database, then verify it.

    With ``shop_url`` (a shop shared by many runs) the task runs in a shop session of its own instead,
    and is verified against that session's order history. ``screenshots`` takes a picture for report.html
    after each call that changed the view (`RunConfig.screenshots` "views"); False none, for runs nobody
    looks at.
    """
    started = time.monotonic()
    demo = RunConfig()  # the suite's tasks are the demo shop's (`RunConfig.site`'s default)
    shop = sessions_of(site_of(demo), demo, shop_url) if shop_url else None
    db_path = runs_dir / "shops" / f"{task.id}-{secrets.token_hex(4)}.db"
    cookies: Any = None

    async def orders() -> list[dict[str, Any]]:
        if shop is None:
            return read_orders(db_path)
        return list(reversed(await shop.orders(cookies))) if cookies is not None else []  # oldest first

    try:
        if shop is None:
            db_path.parent.mkdir(parents=True, exist_ok=True)
            config = _task_config(
                task, runs_dir, model, base_url, gguf, screenshots, consult, db_path=db_path
            )
            storage = None
        else:
            config = _task_config(
                task, runs_dir, model, base_url, gguf, screenshots, consult, shop_url=shop_url
            )
            cookies = await shop.open()
            storage = shop.storage_state(cookies)
        # Nobody watches an eval: a question for a person (an approval the goal does not vouch for) waits.
        result: RunResult = await start_run(
            config, browser=browser, prompt=no_terminal, storage_state=storage, report=write_report
        )
        found = await orders()
    except RunError as error:  # e.g. the model endpoint failed: this task fails, the suite goes on
        placed = await orders()
        return TaskResult(
            id=task.id,
            passed=False,
            reason=f"run error: {error}",
            outcome="error",
            needs_action=task.needs_action,
            bought_beyond_goal=bought_beyond(task.expect, placed),
            wrong_order=wrong_order(task.expect, placed),
            wall_s=round(time.monotonic() - started, 2),
        )
    # The shop's own data judges a stop: this task's database, or for a shared shop the catalog it was seeded from.
    facts = ShopFacts.from_db(db_path) if shop is None else ShopFacts.from_catalog()
    verdict = verify(task.expect, found, read_transcript(result.run_dir), facts)
    return TaskResult(
        id=task.id,
        passed=verdict.passed,
        reason=verdict.reason,
        outcome=result.outcome,
        order_id=verdict.order_id,
        false_claim=verdict.false_claim,
        needs_action=task.needs_action,
        bought_beyond_goal=verdict.bought_beyond_goal,
        wrong_order=verdict.wrong_order,
        steps=result.steps,
        model_calls=result.model_calls,
        tool_calls=result.tool_calls,
        tokens=result.tokens,
        wall_s=round(time.monotonic() - started, 2),
        run_dir=result.run_dir,
        said=result.message,
    )


async def run_suite(
    tasks: Sequence[Task],
    *,
    runs_dir: Path,
    workers: int = 1,
    model: str | None = None,
    base_url: str | None = None,
    progress: bool = False,
    ws_url: str | None = None,
    cdp_url: str | None = None,
    shop_url: str | None = None,
    gguf: Path | None = None,
    screenshots: bool = True,
    consult: str | None = None,
) -> SuiteReport:
    """Run ``tasks`` — up to ``workers`` at once, as contexts of one shared browser — and verify each.

    The browser is launched here, or reached at ``ws_url`` (a Playwright server) or ``cdp_url``.
    ``screenshots`` as in `run_task`.
    """
    if workers < 1:
        raise UsageError("--workers must be at least 1")
    started = time.monotonic()
    semaphore = asyncio.Semaphore(workers)
    bar = ProgressBar("eval", len(tasks)) if progress else None

    async with await Browser.open(ws_url=ws_url, cdp_url=cdp_url) as browser:

        async def one(task: Task) -> TaskResult:
            async with semaphore:
                result = await run_task(
                    task,
                    runs_dir=runs_dir,
                    browser=browser,
                    model=model,
                    base_url=base_url,
                    shop_url=shop_url,
                    gguf=gguf,
                    screenshots=screenshots,
                    consult=consult,
                )
            if bar is not None:
                bar.advance(result.id, failed=not result.passed)
            return result

        try:
            results = await asyncio.gather(*(one(task) for task in tasks))
        finally:
            if bar is not None:
                bar.stop()
    return SuiteReport(
        tasks=list(results),
        summary=summarize(
            list(results), time.monotonic() - started, workers, model_label(model, base_url, gguf, consult)
        ),
    )


async def run_baselines(
    tasks: Sequence[Task],
    *,
    runs_dir: Path,
    workers: int = 1,
    names: Sequence[str] = BASELINES,
    progress: bool = False,
    screenshots: bool = True,
) -> dict[str, SuiteReport]:
    """Run ``tasks`` with each baseline agent (webagent/planner/baselines.py), one suite after another, each in
    ``runs_dir/<name>``: the scores a model's score is read beside. ``screenshots`` as in `run_task`."""
    return {
        name: await run_suite(
            tasks,
            runs_dir=runs_dir / name,
            workers=workers,
            model=name,
            progress=progress,
            screenshots=screenshots,
        )
        for name in names
    }
