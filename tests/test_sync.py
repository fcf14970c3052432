"""The sync facade's daemon-thread helper: what the work returns or raises reaches the awaiting task."""

from __future__ import annotations

import pytest

from webagent.sync import in_daemon_thread, run_sync


def test_a_daemon_thread_hands_back_its_result_and_its_error() -> None:
    def divide(a: int, b: int) -> float:
        return a / b

    assert run_sync(in_daemon_thread(divide, 6, 3)) == 2
    with pytest.raises(ZeroDivisionError):
        run_sync(in_daemon_thread(divide, 1, 0))
