"""The sync facade's daemon-thread helper: what the work returns or raises reaches the awaiting task, and
a task cancelled while it waits leaves the thread behind."""

from __future__ import annotations

import asyncio
import threading

import pytest

from webagent.sync import in_daemon_thread, run_sync


def test_a_daemon_thread_hands_back_its_result_and_its_error() -> None:
    def divide(a: int, b: int) -> float:
        return a / b

    assert run_sync(in_daemon_thread(divide, 6, 3)) == 2
    with pytest.raises(ZeroDivisionError):
        run_sync(in_daemon_thread(divide, 1, 0))
    with pytest.raises(RuntimeError, match="StopIteration"):  # a future cannot carry StopIteration
        run_sync(in_daemon_thread(next, iter([])))


def test_a_cancelled_wait_returns_at_once_and_the_late_answer_is_dropped() -> None:
    release, answered = threading.Event(), threading.Event()

    def slow() -> int:
        release.wait(60)
        answered.set()
        return 1

    async def cancel_then_answer() -> list[dict[str, object]]:
        loop = asyncio.get_running_loop()
        errors: list[dict[str, object]] = []
        handler = loop.get_exception_handler()
        loop.set_exception_handler(lambda _loop, context: errors.append(context))
        try:
            await cancelled_then_answered()
        finally:
            loop.set_exception_handler(handler)
        return errors

    async def cancelled_then_answered() -> None:
        waiting = asyncio.ensure_future(in_daemon_thread(slow))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        release.set()  # the answer comes after nobody waits for it
        await asyncio.to_thread(answered.wait, 60)
        await asyncio.sleep(0.05)  # its delivery runs on this loop, and must not fail there

    assert run_sync(cancel_then_answer()) == []
