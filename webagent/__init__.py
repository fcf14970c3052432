"""webagent: a browser-automation agent over a real DOM, whose tools narrate the resulting page state.

The light, always-useful names are here; the rest lives in its own sub-package so that importing webagent
(as pytest does for its plugin) stays cheap. `start_run` / `resume_run` run an agent and write the run's
report.html; `webagent.browser.session.Browser` shares one Chromium between runs;
`webagent.testing.ScriptedModel` fakes a model.
"""

from __future__ import annotations

from typing import Any

from webagent.agent.result import RunResult
from webagent.browser.chromium import find_chromium
from webagent.config import Profile, RunConfig
from webagent.errors import BrowserNotFound, RunError, UsageError, WebagentError
from webagent.sync import run_sync

__all__ = [
    "BrowserNotFound",
    "Profile",
    "RunConfig",
    "RunError",
    "RunResult",
    "UsageError",
    "WebagentError",
    "find_chromium",
    "resume_run",
    "run_sync",
    "start_run",
]


async def start_run(config: RunConfig, **options: Any) -> RunResult:
    """Run an agent for ``config`` and write its report.html; ``options`` as for
    `webagent.runs.runner.start_run` (which writes no report unless given a ``report`` hook)."""
    from webagent.report.write import write_report
    from webagent.runs.runner import start_run as start

    options.setdefault("report", write_report)
    return await start(config, **options)


async def resume_run(*args: Any, **options: Any) -> RunResult:
    """Continue a paused or interrupted run and write its report.html again; arguments as for
    `webagent.runs.runner.resume_run`."""
    from webagent.report.write import write_report
    from webagent.runs.runner import resume_run as resume

    options.setdefault("report", write_report)
    return await resume(*args, **options)
