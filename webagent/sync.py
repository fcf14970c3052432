"""The sync facade: run the async core from scripts, the CLI and synchronous pytest tests (`run_sync`),
and blocking work from the async core without holding up Ctrl-C (`in_daemon_thread`).

A plain ``asyncio.run`` fails inside pytest-playwright's synchronous tests ("cannot be called from a
running event loop"), so coroutines run on one dedicated event-loop thread instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["in_daemon_thread", "run_sync"]

T = TypeVar("T")

CLEAN_UP_SECONDS = 10.0
"""How long Ctrl-C waits for the interrupted run to close its page, write its trace and stop its shop."""

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
    """Run ``coroutine`` to completion on webagent's event-loop thread and return its result.

    On Ctrl-C the coroutine is cancelled and given a few seconds to unwind (its ``finally`` blocks
    close the browser context and write the trace) before `KeyboardInterrupt` reaches the caller.
    """
    finished, interrupted = threading.Event(), threading.Event()

    async def tracked() -> T | None:
        try:
            return await coroutine
        except Exception:
            if interrupted.is_set():
                return None  # clean-up after Ctrl-C failed (the browser went with it): no one to tell
            raise
        finally:
            finished.set()

    future = asyncio.run_coroutine_threadsafe(tracked(), _background_loop())
    try:
        return future.result()  # type: ignore[return-value]  # None only after an interruption
    except KeyboardInterrupt:
        interrupted.set()
        future.cancel()
        finished.wait(CLEAN_UP_SECONDS)  # a second Ctrl-C here stops waiting
        raise


async def in_daemon_thread(function: Callable[..., T], *args: Any) -> T:
    """``asyncio.to_thread`` on a daemon thread of its own: a process that is stopping (Ctrl-C) leaves it
    behind instead of waiting for it, as Python waits at exit for every thread of the default executor.

    For blocking work whose result nobody needs once the run is stopped: a question to a local model.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def deliver(outcome: Callable[[Any], object], value: Any) -> None:
        def settle() -> None:
            if not future.done():  # not cancelled meanwhile
                outcome(value)

        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting
            loop.call_soon_threadsafe(settle)

    context = contextvars.copy_context()  # as asyncio.to_thread does

    def work() -> None:
        try:
            result = context.run(function, *args)
        except StopIteration as error:  # a future cannot hold it: it would stop the awaiting coroutine
            deliver(future.set_exception, RuntimeError(f"{function!r} raised StopIteration: {error}"))
        except BaseException as error:  # handed to the awaiting task, which raises it
            deliver(future.set_exception, error)
        else:
            deliver(future.set_result, result)

    threading.Thread(
        target=work, name=f"webagent-{getattr(function, '__name__', 'work')}", daemon=True
    ).start()
    return await future
