"""webagent: a browser-automation agent over a real DOM, whose tools narrate the resulting page state."""

from webagent.chromium import find_chromium
from webagent.errors import BrowserNotFound, RunError, UsageError, WebagentError

__all__ = ["BrowserNotFound", "RunError", "UsageError", "WebagentError", "find_chromium"]
