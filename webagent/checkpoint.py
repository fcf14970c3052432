"""Run folders: an append-only transcript and a checkpoint that lets a paused run resume elsewhere.

runs/<run_id>/
    transcript.jsonl   every model turn, tool call, narration, timing and usage, appended as it
                       happens (flushed per line, so a crash loses nothing)
    state.json         the checkpoint: messages, pending call, config, counters, browser storage
                       state, current URL; replaced atomically after every step
    trace.zip          the Playwright trace, when tracing
    shop.db            the embedded shop's database, unless --db says otherwise
"""

from __future__ import annotations

import json
import os
import secrets
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from webagent.config import RunConfig
from webagent.errors import UnknownRunError
from webagent.model import ToolCall, Usage
from webagent.result import Outcome, RunResult, Tokens

__all__ = ["Checkpoint", "PendingCall", "PlacedOrder", "RunFolder", "new_run_id"]


def new_run_id() -> str:
    """Sortable by start time, unique enough for concurrent runs: ``20261129-140209-a1b2c3``."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)


class PendingCall(BaseModel):
    """The call a paused run waits on: an order awaiting approval, or a question awaiting an answer."""

    kind: Literal["approval", "answer"]
    call: ToolCall
    question: str
    choices: list[str] | None = None
    """The answers the question offers, when it offers some ("Regular", "Large")."""
    total_cents: int | None = None
    checkout_token: str | None = None
    """The cart's checkout token when approval was requested; a different one on resume means the
    cart changed (perhaps the order was already placed), so the order is not placed."""


class PlacedOrder(BaseModel):
    order_id: int
    total_cents: int | None = None
    lines: list[str] = Field(default_factory=list)
    """The confirmation page's lines, as the shop words them ("2 × Margherita Pizza (Large)")."""


class Checkpoint(BaseModel):
    """Everything needed to continue a run in another process."""

    run_id: str
    status: Literal["running", "paused", "finished"] = "running"
    config: RunConfig
    messages: list[dict[str, Any]] = Field(default_factory=list)
    pending: PendingCall | None = None
    remaining_calls: list[ToolCall] = Field(default_factory=list)
    """Calls of the paused assistant turn that come after the pending one."""
    steps: int = 0
    model_calls: int = 0
    tool_calls: int = 0
    usage: Usage = Field(default_factory=Usage)
    consecutive_failures: int = 0
    placed: list[PlacedOrder] = Field(default_factory=list)
    order_attempted: bool = False
    """place_order was sent to the page in this run (its confirmation may come late)."""
    asked_human: bool = False
    answers_left: list[str] = Field(default_factory=list)
    shop_url: str | None = None
    db_path: str | None = None
    url: str | None = None
    storage_state: dict[str, Any] | None = None
    wall_s: float = 0.0
    result: RunResult | None = None

    def result_of(
        self,
        outcome: Outcome,
        message: str,
        run_dir: str,
        order_id: int | None = None,
        total: int | None = None,
    ) -> RunResult:
        """The run's result as of now, with its counters and (when paused) what it waits for."""
        pending = self.pending if outcome == "paused" else None
        usage = self.usage
        return RunResult(
            run_id=self.run_id,
            outcome=outcome,
            order_id=order_id,
            total_cents=total,
            steps=self.steps,
            model_calls=self.model_calls,
            tool_calls=self.tool_calls,
            tokens=Tokens(
                prompt=usage.prompt_tokens, completion=usage.completion_tokens, cached=usage.cached_tokens
            ),
            wall_s=round(self.wall_s, 3),
            run_dir=run_dir,
            message=message,
            question=pending.question if pending else None,
            choices=pending.choices if pending else None,
            waiting_for=pending.kind if pending else None,
            asked_human=self.asked_human,
        )


class RunFolder:
    """One run's folder under the runs directory."""

    def __init__(self, runs_dir: Path, run_id: str) -> None:
        self.run_id = run_id
        self.path = Path(runs_dir) / run_id
        self.transcript_path = self.path / "transcript.jsonl"
        self.state_path = self.path / "state.json"
        self.trace_path = self.path / "trace.zip"

    @classmethod
    def create(cls, runs_dir: Path, run_id: str | None = None) -> RunFolder:
        folder = cls(runs_dir, run_id or new_run_id())
        folder.path.mkdir(parents=True, exist_ok=True)
        return folder

    @classmethod
    def find(cls, runs_dir: Path, run_id: str) -> RunFolder:
        """The folder of an existing run; `UnknownRunError` naming the runs directory otherwise."""
        folder = cls(runs_dir, run_id)
        if not folder.state_path.is_file():
            known = sorted(p.parent.name for p in Path(runs_dir).glob("*/state.json"))[-3:]
            hint = f" Recent runs: {', '.join(known)}." if known else ""
            raise UnknownRunError(f"No run {run_id!r} in {runs_dir}.{hint}")
        return folder

    def record(self, event: str, /, **fields: Any) -> None:
        """Append one event to the transcript, flushed, so nothing is lost if the process dies."""
        line = json.dumps({"t": round(time.time(), 3), "event": event, **fields}, default=str)
        with self.transcript_path.open("a", encoding="utf-8") as out:
            out.write(line + "\n")
            out.flush()

    def save(self, checkpoint: Checkpoint) -> None:
        """Write the checkpoint atomically: a crash leaves the old one or the new one, never half."""
        temporary = self.state_path.with_suffix(".json.tmp")
        temporary.write_text(checkpoint.model_dump_json(indent=1), encoding="utf-8")
        os.replace(temporary, self.state_path)

    def load(self) -> Checkpoint:
        return Checkpoint.model_validate_json(self.state_path.read_text(encoding="utf-8"))

    def transcript(self) -> list[dict[str, Any]]:
        if not self.transcript_path.is_file():
            return []
        return [
            json.loads(line) for line in self.transcript_path.read_text(encoding="utf-8").splitlines() if line
        ]
