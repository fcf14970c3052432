"""Deliberate misbehaviour: random 503s (`flaky`) and slow responses at clutter 3, both seeded."""

from __future__ import annotations

import random
import threading

BUSY_DETAIL = "The kitchen is busy, try again"


class Faults:
    """Seeded fault decisions; one instance per server, safe to share between threads."""

    def __init__(self, flaky: float, seed: int) -> None:
        self.flaky = flaky
        self._rng = random.Random(seed)
        self._session_rngs: dict[str, tuple[int, random.Random]] = {}
        self._lock = threading.Lock()

    def should_fail(self, path: str) -> bool:
        """Whether this request answers 503; `/api/session` never does, so clients can read settings."""
        if self.flaky <= 0 or not path.startswith("/api/") or path == "/api/session":
            return False
        with self._lock:
            return self._rng.random() < self.flaky

    def delay_seconds(self, method: str, path: str, session_id: str, clutter: int, seed: int) -> float:
        """Seconds to stall a menu or cart call at clutter 3 and up (200–800 ms); 0 otherwise."""
        if clutter < 3 or not _is_slow_endpoint(method, path):
            return 0.0
        with self._lock:
            # One RNG per session, seeded by the session's seed, so a replay with the same seed
            # sees the same sequence of delays whatever other sessions do.
            known = self._session_rngs.get(session_id)
            if known is None or known[0] != seed:
                known = (seed, random.Random(seed))
                self._session_rngs[session_id] = known
            return known[1].uniform(0.2, 0.8)


def _is_slow_endpoint(method: str, path: str) -> bool:
    menu = method == "GET" and path.startswith("/api/restaurants/")
    return menu or path == "/api/cart" or path.startswith("/api/cart/")
