"""Running one line's attempt: the job a worker receives, the `LineRunner` seam, and the local runner.

A job is plain data, so it can cross to a Ray actor (webagent/fleet/distributed.py), whose runner raises
`WorkerLost` when the worker holding a run dies. A run error or a bug in one run ends that line as failed,
never the batch.
"""

from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from webagent.agent.approval import no_terminal
from webagent.agent.checkpoint import RunFolder
from webagent.agent.result import RunResult
from webagent.config import RunConfig
from webagent.errors import RunError
from webagent.report.write import write_report
from webagent.runs.runner import start_run

__all__ = ["LineJob", "LineRunner", "LocalRunner", "WorkerLost", "failed_result", "run_job"]


class WorkerLost(RunError):
    """The worker (a Ray actor and its browser) running a line died; the line's fate is unknown."""


class LineJob(BaseModel):
    """One attempt of one line, as a worker receives it (plain data, so it can cross to a Ray actor)."""

    line: str
    run_id: str
    config: RunConfig
    storage_state: dict[str, Any]


class LineRunner(Protocol):
    """Runs one line's attempt to its end; `WorkerLost` when the worker died under it."""

    async def run(self, job: LineJob) -> RunResult: ...


def failed_result(job: LineJob, message: str, runs_dir: Path) -> RunResult:
    """A line that could not run to an end of its own: the reason, and its run folder if there is one."""
    folder = RunFolder(runs_dir, job.run_id)
    return RunResult(
        run_id=job.run_id,
        outcome="failed",
        message=message,
        run_dir=str(folder.path) if folder.path.is_dir() else "",
    )


async def run_job(job: LineJob, browser: Any, runs_dir: Path) -> RunResult:
    """Run a job in ``browser`` as `start_run` does; a run error or a bug in one run ends it as failed."""
    config = job.config.model_copy(update={"runs_dir": runs_dir})
    try:
        # Many runs at once, under a progress line: a question for a person waits (the line pauses).
        return await start_run(
            config,
            browser=browser,
            run_id=job.run_id,
            storage_state=job.storage_state,
            prompt=no_terminal,
            report=write_report,
        )
    except RunError as error:
        return failed_result(job, str(error), runs_dir)
    except Exception as error:  # a bug in one run must not stop a thousand others; the cause is kept
        traceback.print_exc(file=sys.stderr)
        return failed_result(job, f"internal error: {error!r}", runs_dir)


@dataclass
class LocalRunner:
    """Lines as contexts of one browser in this process."""

    browser: Any
    runs_dir: Path

    async def run(self, job: LineJob) -> RunResult:
        return await run_job(job, self.browser, self.runs_dir)
