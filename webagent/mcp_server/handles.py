"""Run handles: how a client names its run where the protocol keeps no session.

The 2026-07-28 revision is stateless: no initialize handshake, no ``Mcp-Session-Id``, and a gateway may
open a new connection for every call. A server that owns state mints handles the client passes back as
tool arguments. Here ``start_run`` mints one per run: opaque and unguessable (``secrets.token_urlsafe``, 32
characters), bound to its run folder (only its SHA-256 is written there, in ``mcp-handle.json``, with when it
was last used). Every tool takes it as ``run``.

- **Across connections**: the run and its browser context belong to the handle, not to a connection, so a
  client that connects anew for every call still orders in one browser context.
- **Across a restart**: a handle this process has not seen is looked up in the run folders; its run goes on
  from its checkpoint (`webagent.runs.runner.resume_run`: the shop session's cookie, the cart with it).
- **Expiry**: a handle unused for ``ttl`` seconds (30 minutes by default) expires — its browser context is
  closed, its run left as an interrupted one (``webagent resume`` goes on with it) — and says so when it is
  used again, here or after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from webagent.mcp_server.session import McpSession

__all__ = ["DEFAULT_TTL", "HANDLE_FILE", "HandleError", "Handles"]

HANDLE_FILE = "mcp-handle.json"
DEFAULT_TTL = 30 * 60.0
"""Seconds a handle may go unused before it expires."""


class HandleError(Exception):
    """A handle that names no run this server can go on with: the message says why and what to do."""


@dataclass
class _Held:
    session: McpSession
    folder: Path
    used: float


def _digest(handle: str) -> str:
    return hashlib.sha256(handle.encode()).hexdigest()


class Handles:
    """The runs this server holds by handle; ``open`` makes the session that resumes a run by its id."""

    def __init__(self, runs_dir: Path, open_session: Callable[[str], McpSession], ttl: float) -> None:
        self.runs_dir = runs_dir
        self.open = open_session
        self.ttl = ttl
        self._held: dict[str, _Held] = {}  # by digest: the handle itself is kept nowhere
        self._sweeper: asyncio.Task[None] | None = None
        self.closing: list[Callable[[], None]] = []
        """What else stops with the server (its card pages)."""

    def mint(self, session: McpSession) -> str:
        """A new handle for ``session``'s run, written (as a digest) into its run folder."""
        handle = secrets.token_urlsafe(24)
        held = _Held(session, self.runs_dir / session.run_id, time.time())
        self._held[_digest(handle)] = held
        self._write(_digest(handle), held, expired=False)
        if self._sweeper is None:  # a client that walks away: its run is let go when its handle expires
            self._sweeper = asyncio.create_task(self._sweep(), name="webagent-mcp-handles")
        return handle

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(max(min(self.ttl / 2, 60.0), 0.05))
            await self.expire_idle()

    async def session(self, handle: str) -> McpSession:
        """The session ``handle`` names, its run resumed from its checkpoint when this process has not held
        it; `HandleError` for one unknown or expired."""
        await self.expire_idle()
        digest = _digest(handle)
        held = self._held.get(digest)
        if held is None:
            held = self._found(digest)
            self._held[digest] = held
        held.used = time.time()
        self._write(digest, held, expired=False)
        return held.session

    async def expire_idle(self) -> None:
        """Close the sessions of handles unused for ``ttl`` seconds; their files say they expired."""
        now = time.time()
        for digest, held in list(self._held.items()):
            if now - held.used > self.ttl:
                del self._held[digest]
                self._write(digest, held, expired=True)
                await held.session.close()

    async def close(self) -> None:
        """The server stops: every session closed, each run left to go on from its checkpoint."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        held, self._held = list(self._held.values()), {}
        for one in held:
            await one.session.close()
        for close in self.closing:
            close()

    def _found(self, digest: str) -> _Held:
        for path in sorted(self.runs_dir.glob(f"*/{HANDLE_FILE}")):
            try:
                kept = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if kept.get("sha256") != digest:
                continue
            run_id = path.parent.name
            idle = time.time() - float(kept.get("used", 0))
            if kept.get("expired") or idle > self.ttl:
                raise HandleError(
                    f"This run handle expired after {self.ttl / 60:g} minutes without a call. Its run {run_id} "
                    f"was left as it was (a person goes on with `webagent resume {run_id} --runs-dir "
                    f"{self.runs_dir}`); call start_run for a new one."
                )
            return _Held(self.open(run_id), path.parent, time.time())
        raise HandleError(
            "No run has this handle (it is not one start_run returned here, or its run folder is gone): "
            "call start_run and pass the handle it returns as `run`."
        )

    def _write(self, digest: str, held: _Held, *, expired: bool) -> None:
        held.folder.mkdir(parents=True, exist_ok=True)
        record = {"sha256": digest, "used": held.used, "ttl_s": self.ttl, "expired": expired}
        (held.folder / HANDLE_FILE).write_text(json.dumps(record), encoding="utf-8")
