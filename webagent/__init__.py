"""webagent: a browser-automation agent over a real DOM, whose tools narrate the resulting page state.

The light, always-useful names are here; the rest lives in its own module so that importing webagent
(as pytest does for its plugin) stays cheap: `webagent.runs.runner.start_run` / `resume_run` run an agent,
`webagent.browser.session.Browser` shares one Chromium between runs, `webagent.testing.ScriptedModel` fakes a model.
"""

from webagent.agent.result import RunResult
from webagent.browser.chromium import find_chromium
from webagent.errors import BrowserNotFound, RunError, UsageError, WebagentError
from webagent.runs.config import Profile, RunConfig
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
    "run_sync",
]
