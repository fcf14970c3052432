"""The demo shop's session API, asked directly rather than through a browser (docs/shop-contract.md).

``GET /api/session`` opens a fresh shop session (its cookies); ``GET /api/orders`` with those cookies lists
that session's orders, newest first. Many runs against one shop each get a session of their own this way,
written down before the run starts — so that whatever happens to the run, its orders can be found
(webagent/fleet/batch.py, webagent/evals/suite.py). A busy shop (503) is asked again after a short,
bounded backoff; a shop that does not answer raises `ShopUnreachable`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from webagent.errors import ShopUnreachable

__all__ = ["ShopSessions"]


class ShopSessions:
    """Opens shop sessions for runs and reads a session's order history (the shop's JSON API).

    The only two things the batch asks the shop itself rather than through a browser: a session cookie
    before a run starts, and — to settle an interrupted line — which orders that session holds.
    """

    BUSY_TRIES = 8

    def __init__(self, url: str, identity: str | None = None) -> None:
        self.url = url.rstrip("/")
        self.identity = identity or self.url
        """What the attempt log records as the shop: its URL, or the embedded shop's database."""

    async def open(self) -> dict[str, str]:
        """A fresh session: the cookies the shop sets on a first request."""
        return await asyncio.to_thread(self._open)

    async def orders(self, cookies: dict[str, str]) -> list[dict[str, Any]]:
        """The orders of the session these cookies name, newest first."""
        return await asyncio.to_thread(self._orders, cookies)

    def storage_state(self, cookies: dict[str, str]) -> dict[str, Any]:
        """A Playwright storage state that puts a browser context in that session."""
        parts = urlsplit(self.url)
        return {
            "cookies": [
                {
                    "name": name,
                    "value": value,
                    "domain": parts.hostname or "",
                    "path": "/",
                    "expires": -1,
                    "httpOnly": True,
                    "secure": parts.scheme == "https",
                    "sameSite": "Lax",
                }
                for name, value in cookies.items()
            ],
            "origins": [],
        }

    def _open(self) -> dict[str, str]:
        with self._get("/api/session", {}) as response:
            jar: SimpleCookie = SimpleCookie()
            for header in response.headers.get_all("Set-Cookie") or []:
                jar.load(header)
        if not jar:
            raise ShopUnreachable(f"the shop at {self.url} set no session cookie on GET /api/session")
        return {name: morsel.value for name, morsel in jar.items()}

    def _orders(self, cookies: dict[str, str]) -> list[dict[str, Any]]:
        with self._get("/api/orders", cookies) as response:
            orders = json.loads(response.read())
        if not isinstance(orders, list):
            raise ShopUnreachable(f"the shop at {self.url} answered GET /api/orders with {orders!r:.80}")
        return orders

    @contextlib.contextmanager
    def _get(self, path: str, cookies: dict[str, str]) -> Iterator[Any]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
        request = urllib.request.Request(self.url + path, headers=headers)
        for attempt in range(self.BUSY_TRIES):
            try:
                with urllib.request.urlopen(request, timeout=15) as response:
                    yield response
                    return
            except urllib.error.HTTPError as error:
                if error.code != 503 or attempt == self.BUSY_TRIES - 1:
                    raise ShopUnreachable(
                        f"the shop at {self.url} answered GET {path} with {error}"
                    ) from None
                time.sleep(min(0.2 * 2**attempt, 2.0))  # busy: a short, bounded backoff
            except (urllib.error.URLError, OSError) as error:
                reason = getattr(error, "reason", error)
                raise ShopUnreachable(f"the shop at {self.url} did not answer: {reason}") from None
