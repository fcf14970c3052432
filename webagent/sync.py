"""The sync facade: run the async core from scripts, the CLI and synchronous pytest tests.

A plain ``asyncio.run`` fails inside pytest-playwright's synchronous tests ("cannot be called from a
running event loop"), so coroutines run on one dedicated event-loop thread instead.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")

_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="webagent-loop", daemon=True).start()
            _loop = loop
        return _loop


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to completion on webagent's event-loop thread and return its result."""
    future = asyncio.run_coroutine_threadsafe(coroutine, _background_loop())
    try:
        return future.result()
    except KeyboardInterrupt:
        future.cancel()
        raise
