"""A batch's files: the results (one JSON object per finished line) and the attempt log (each start).

Both are appended to, flushed and synced line by line, so a kill leaves at most one torn last line —
cut off the results under the log's lock, skipped in the log (its run never started).
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, Field, ValidationError

from webagent.agent.result import RunResult
from webagent.errors import UsageError

__all__ = ["Attempt", "AttemptLog", "ResultFile", "sidecar"]


def sidecar(out: Path, suffix: str) -> Path:
    """A file beside the output: ``results.jsonl`` → ``results.attempts.jsonl``, ``results.shop.db``."""
    return out.with_name(out.name.removesuffix(".jsonl") + suffix)


class ResultFile:
    """The output: one JSON object per finished line, appended, flushed and synced as each ends."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def done(self, *, repair: bool = True) -> dict[str, dict[str, Any]]:
        """The lines already finished, by line id. A line torn by a kill mid-write is cut off the file
        (with ``repair``: only under the attempt log's lock)."""
        if not self.path.is_file():
            return {}
        data = self.path.read_bytes()
        whole = data[: data.rfind(b"\n") + 1]
        if repair and len(whole) != len(data):
            with self.path.open("r+b") as out:
                out.truncate(len(whole))
        finished: dict[str, dict[str, Any]] = {}
        for number, raw in enumerate(whole.decode("utf-8").splitlines(), start=1):
            try:
                record = json.loads(raw)
            except json.JSONDecodeError:
                raise UsageError(f"{self.path} line {number} is not JSON: is this a batch output?") from None
            if isinstance(record, dict) and isinstance(record.get("line"), str):
                finished[record["line"]] = record
        return finished

    def write(self, line_id: str, result: RunResult) -> dict[str, Any]:
        record = {"line": line_id, **result.model_dump(mode="json")}
        _append_synced(self.path, json.dumps(record, ensure_ascii=False))
        return record


class Attempt(BaseModel):
    """One start of a line's run: written down before it starts."""

    line: str
    run_id: str
    shop: str
    """The shop it ran against (URL, or ``embedded:<database>``); a rerun must use the same."""
    cookies: dict[str, str]
    """The shop session the run was started in: where to look for its order."""
    at: float = Field(default_factory=time.time)


class AttemptLog:
    """Every attempt of every line, in order; held under an exclusive lock while a batch runs."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock: IO[bytes] | None = None

    def lock(self) -> None:
        """Claim the output for this process; `UsageError` when another batch is writing it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("ab")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise UsageError(f"another batch is writing this output ({self.path} is locked)") from None
        self._lock = handle

    def unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def by_line(self) -> dict[str, list[Attempt]]:
        attempts: dict[str, list[Attempt]] = {}
        if not self.path.is_file():
            return attempts
        for raw in self.path.read_text(encoding="utf-8").splitlines():
            try:
                attempt = Attempt.model_validate_json(raw)
            except ValidationError:
                continue  # a line torn by a kill mid-write: its run never started
            attempts.setdefault(attempt.line, []).append(attempt)
        return attempts

    def add(self, attempt: Attempt) -> None:
        _append_synced(self.path, attempt.model_dump_json())


def _append_synced(path: Path, line: str) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write(line + "\n")
        out.flush()
        os.fsync(out.fileno())
