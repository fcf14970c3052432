"""Exceptions raised by webagent.

Two families, kept apart on purpose: the caller misusing the API (a bug to fix in the calling code)
versus a run that could not go on (something a person must act on: install a browser, start the shop).
Mistakes the *model* makes — bad arguments, unknown dishes, a tool called in the wrong state — are not
exceptions at all: they become narrations the model can act on.

    WebagentError
    ├── UsageError                 the caller misused the API or the command line
    │   ├── UnknownRunError        no run with that id in the runs directory
    │   └── LocalModelError        a local model cannot be used as asked: package missing, part damaged, no GGUF
    └── RunError                   a run could not go on
        ├── BrowserNotFound        no Chromium to launch (the message names the fix)
        ├── BrowserClosed          the browser or its window went away mid-run
        ├── ShopUnreachable        the shop's URL does not answer, or the embedded one cannot start
        └── ModelError             the model endpoint failed after the SDK's retries
            ├── ModelTimeout       no answer within the time a model call may take (--timeout)
            ├── BrokenReplies      replies kept arriving broken: a stream cut off or stalled, no choices
            └── ModelNotServed     the endpoint does not serve the model the run asks for
"""

from __future__ import annotations

__all__ = [
    "BrokenReplies",
    "BrowserClosed",
    "BrowserNotFound",
    "LocalModelError",
    "ModelError",
    "ModelNotServed",
    "ModelTimeout",
    "RunError",
    "ShopUnreachable",
    "UnknownRunError",
    "UsageError",
    "WebagentError",
]


class WebagentError(Exception):
    """Base of every exception webagent raises on purpose."""


class UsageError(WebagentError):
    """The caller misused the API or the command line."""


class UnknownRunError(UsageError):
    """No run with that id exists in the runs directory."""


class LocalModelError(UsageError):
    """A local model cannot be used as asked: a package missing, a part damaged, a file that is no GGUF."""


class RunError(WebagentError):
    """A run could not go on; the message says what a person should do."""


class BrowserNotFound(RunError):
    """No Chromium could be found to launch."""


class BrowserClosed(RunError):
    """The browser, its context or its page was closed while a run was using it."""


class ShopUnreachable(RunError):
    """The shop's URL did not answer."""


class ModelError(RunError):
    """The model endpoint failed after the SDK's own retries."""


class ModelTimeout(ModelError):
    """The model endpoint did not answer within the time one model call may take, retries included."""


class BrokenReplies(ModelError):
    """Every try got a broken reply (a stream cut off or stalled, no choices, nothing in it)."""


class ModelNotServed(ModelError):
    """The endpoint lists the models it serves, and the run's model is not among them."""
