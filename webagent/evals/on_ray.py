"""``webagent eval --ray``: the suite on Ray actors, each task run and verified where it ran.

Each task goes to a `BrowserWorker` (webagent/fleet/distributed.py) as `_task_on_worker`: run in the
worker's warm browser against a shop database of its own, verified there, and sent back with its run
folder and database (a tar.gz). A task whose worker died is simply run again — its database is its own —
once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from webagent.evals.suite import run_task
from webagent.evals.summary import SuiteReport, TaskResult, summarize
from webagent.evals.tasks import Task
from webagent.fleet.distributed import (
    ACTOR_CPUS,
    RayPool,
    default_actors,
    pack,
    ray_cluster,
    ray_pool,
    unpack,
)
from webagent.fleet.jobs import WorkerLost
from webagent.report.progress import ProgressBar
from webagent.sync import run_sync

__all__ = ["eval_on_ray", "run_suite_on_ray"]


async def _task_on_worker(
    browser: Any,
    scratch: Path,
    task_json: str,
    model: str | None,
    base_url: str | None,
    shop_url: str | None,
    gguf: str | None = None,
) -> tuple[str, bytes]:
    """On the worker: one task, verified against its own shop database; the run folder and database back."""
    task = Task.model_validate_json(task_json)
    result = await run_task(
        task,
        runs_dir=scratch,
        browser=browser,
        model=model,
        base_url=base_url,
        shop_url=shop_url,
        gguf=Path(gguf) if gguf else None,
    )
    folder = Path(result.run_dir) if result.run_dir else scratch / "none"
    return result.model_dump_json(), pack(folder, *sorted((scratch / "shops").glob(f"{task.id}-*.db")))


async def run_suite_on_ray(
    tasks: Sequence[Task],
    *,
    pool: RayPool,
    runs_dir: Path,
    model: str | None = None,
    base_url: str | None = None,
    progress: bool = False,
    shop_url: str | None = None,
    gguf: Path | None = None,
) -> SuiteReport:
    """`webagent.evals.suite.run_suite` on Ray actors: each task verified where it ran, its files sent back."""
    started = time.monotonic()
    bar = ProgressBar("eval", len(tasks)) if progress else None
    semaphore = asyncio.Semaphore(pool.capacity)

    async def one(task: Task) -> TaskResult:
        async with semaphore:
            lost: list[str] = []
            while True:
                try:
                    result_json, data = await pool.call(
                        "run_work",
                        _task_on_worker,
                        task.model_dump_json(),
                        model,
                        base_url,
                        shop_url,
                        str(gguf) if gguf else None,  # the file must be at this path where the actor runs
                    )
                    break
                except WorkerLost as error:  # a fresh shop database per try: running again is safe
                    lost.append(str(error))
                    if len(lost) > 1:
                        return TaskResult(
                            id=task.id, passed=False, reason=f"run error: {error}", outcome="error"
                        )
        result = TaskResult.model_validate_json(result_json)
        unpack(data, runs_dir, extra_dir=runs_dir / "shops")
        if result.run_dir:
            result.run_dir = str(runs_dir / Path(result.run_dir).name)
        if bar is not None:
            bar.advance(result.id, failed=not result.passed)
        return result

    try:
        results = await asyncio.gather(*(one(task) for task in tasks))
    finally:
        if bar is not None:
            bar.stop()
    return SuiteReport(
        tasks=list(results), summary=summarize(list(results), time.monotonic() - started, pool.capacity)
    )


def eval_on_ray(tasks: Sequence[Task], args: Any, progress: bool) -> SuiteReport:
    """``webagent eval --ray``: the suite on Ray actors (a local Ray started and stopped here)."""

    async def suite(actors: int) -> SuiteReport:
        async with ray_pool(
            args.ray, actors=actors, per_actor=args.workers_per_node, ws_url=args.browser_ws, cdp_url=args.cdp
        ) as pool:
            return await run_suite_on_ray(
                tasks,
                pool=pool,
                runs_dir=args.runs_dir,
                model=args.model,
                base_url=args.base_url,
                progress=progress,
                shop_url=getattr(args, "shop_url", None),
                gguf=getattr(args, "gguf", None),
            )

    with ray_cluster(args.ray, cpus=(args.actors or 1) * ACTOR_CPUS) as ray:
        return run_sync(suite(args.actors or default_actors(ray, args.ray)))
