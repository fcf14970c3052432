"""Run folders: an append-only transcript and a checkpoint that lets a paused run resume elsewhere.

runs/<run_id>/
    transcript.jsonl   every model turn, tool call, narration, timing and usage, appended as it
                       happens (flushed and fsynced per line, so a crash loses nothing)
    state.json         the checkpoint: messages, pending call, config, counters, browser storage
                       state, current URL, the page call in flight; replaced atomically before and
                       after every page call and after every step — written to a temporary file,
                       fsynced, renamed over the old one, and the directory fsynced (`durable_write`),
                       so that even a power cut leaves the old checkpoint or the new one, whole
    trace.zip          the Playwright trace, when tracing
    shop.db            the embedded shop's database, unless --db says otherwise
    lock               held (flock) by the process driving the run, so two never drive it at once

A run killed at any moment leaves a checkpoint that says which page call was in flight (`Intent`) and,
for an order, what was about to be ordered (`OrderIntent`): `webagent resume` reconciles with the shop
from there (webagent/runs/recovery.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from webagent.agent.result import Outcome, RunResult, Tokens
from webagent.config import RunConfig
from webagent.errors import UnknownRunError, UsageError
from webagent.llm.protocol import ToolCall, Usage
from webagent.narration.money import money
from webagent.narration.seen import tool_message
from webagent.narration.state import CartLine

__all__ = [
    "OS_DISK",
    "ActionRecord",
    "Checkpoint",
    "Disk",
    "Intent",
    "OrderIntent",
    "PendingCall",
    "PlacedOrder",
    "RunFolder",
    "Spend",
    "durable_write",
    "new_run_id",
    "sync_directory",
]


class Disk:
    """The system calls a durable write makes; a test passes a subclass that records them."""

    def open(self, path: Path, flags: int) -> int:
        return os.open(path, flags, 0o644)

    def write(self, fd: int, data: bytes) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def close(self, fd: int) -> None:
        os.close(fd)

    def replace(self, source: Path, target: Path) -> None:
        os.replace(source, target)


OS_DISK = Disk()


def durable_write(path: Path, data: bytes, disk: Disk = OS_DISK) -> None:
    """Replace ``path`` with ``data`` so that a crash or a power cut leaves the old file or the new one.

    A temporary file beside it is written and fsynced, renamed over ``path``, and the directory is
    fsynced: a rename is on the disk only once its directory is.
    """
    temporary = path.with_name(path.name + ".tmp")
    fd = disk.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        _write_all(disk, fd, data)
        disk.fsync(fd)
    finally:
        disk.close(fd)
    disk.replace(temporary, path)
    sync_directory(path.parent, disk)


def _write_all(disk: Disk, fd: int, data: bytes) -> None:
    while data:
        data = data[disk.write(fd, data) :]


def sync_directory(directory: Path, disk: Disk = OS_DISK) -> None:
    """fsync a directory, so that the names created or renamed in it last; a no-op where directories
    cannot be opened (Windows)."""
    try:
        fd = disk.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        disk.fsync(fd)
    finally:
        disk.close(fd)


def new_run_id() -> str:
    """Sortable by start time, unique enough for concurrent runs: ``20261129-140209-a1b2c3``."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)


class ActionRecord(BaseModel):
    """What one approval approves: the consequential action pending, as the page shows it.

    A person's yes (at the terminal, through ``resume --approve``, by MCP elicitation, in ``chat``) and an
    automatic approval alike approve exactly this, once: the same origin, control, cart lines, total and
    delivery details. Anything else — a changed cart, a higher total, a second press — is asked about again.
    """

    origin: str = ""
    """The page's origin (scheme://host:port): a yes given on one site approves nothing on another."""
    action: str
    """What would be done, in words: 'placing the order', 'pressing "Pay $50.00"'."""
    control: str = ""
    """The control as the page names it ("Pay $50.00"); empty for the checkout's own order."""
    lines: list[str] = Field(default_factory=list)
    """The cart's lines with their choices and quantities ("2 × Margherita Pizza (Large)")."""
    total_cents: int | None = None
    details: dict[str, str] = Field(default_factory=dict)
    """The delivery details the order sends (name, address, phone, time, payment, tip, promo code)."""
    token: str = ""
    """The demo shop's checkout token ('' elsewhere): a new one means the cart changed."""

    def same_as(self, other: ActionRecord | None) -> bool:
        return other is not None and self.model_dump() == other.model_dump()


_DONE_WITH_APPROVAL = ("Paid: ", "Done with approval: ")
"""How a result's message starts after consequential page actions: where a page named an amount, and not."""


class Spend(BaseModel):
    """One consequential action that went through in this run (the spend ledger)."""

    origin: str = ""
    action: str
    control: str = ""
    total_cents: int | None = None
    """What it committed, as the page named it; None when the page did not say."""
    order_id: int | None = None
    """The demo shop's order number, when its confirmation showed one."""
    approved: str = ""
    """How it was approved: the gate's reason ("approved automatically (within budget)")."""
    ok: bool = True
    """Whether the action itself reported success (a failed press may still have paid: it counts)."""
    said: str | None = None
    """What the page said against it right after, quoted ("Your card was declined."): not ok, whatever the
    press reported (`webagent.agent.claims.refused_on_page`)."""
    at: float = Field(default_factory=time.time)

    def sentence(self) -> str:
        amount = f" ({money(self.total_cents)})" if self.total_cents is not None else " (amount not shown)"
        where = f" on {self.origin}" if self.origin else ""
        if self.order_id is not None:
            return f"order #{self.order_id}{amount}"
        page = f", and the page said {self.said}" if self.said else ""
        return f"{self.action}{where}{amount}{page}"


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
    record: ActionRecord | None = None
    """What approving this call approves (`ActionRecord`): a resume's yes covers exactly this, once."""


class PlacedOrder(BaseModel):
    order_id: int
    total_cents: int | None = None
    lines: list[str] = Field(default_factory=list)
    """The confirmation page's lines, as the shop words them ("2 × Margherita Pizza (Large)")."""

    def confirmed(self) -> str:
        """What the shop confirmed, for the person: "Placed order #12 ($43.42): 2 × Margherita Pizza…"."""
        total = f" ({money(self.total_cents)})" if self.total_cents is not None else ""
        lines = f": {', '.join(self.lines)}" if self.lines else ""
        return f"Placed order #{self.order_id}{total}{lines}."[:1000]


class Intent(BaseModel):
    """A page call, recorded before it acts; ``result`` is filled in as soon as it returns.

    A run killed while this call ran leaves it here without a result: on resume the call is taken back
    when the page shows it did nothing, and answered from the page when it did (see recovery.py).
    """

    call_id: str | None
    """The model's id for this call; None for calls the run makes by itself."""
    name: str
    arguments: str
    cart_count: int | None = None
    """Items in the cart before a call that changes the cart: comparing says whether it took effect."""
    result: str | None = None
    """The call's narration, once it returned (its tool message may not be in `messages` yet)."""
    seen: dict[str, Any] | None = None
    """What the page showed after it, typed, kept beside ``result`` as its tool message keeps it."""
    kept: dict[str, Any] = {}
    """Its other typed facts (`ToolResult.kept`: a refusal's code, the order it placed)."""


class OrderIntent(BaseModel):
    """What `place_order` was about to order, recorded before the button is pressed."""

    checkout_token: str
    """The cart's checkout token: the shop places one order per token, and rotates it when it does."""
    total_cents: int | None = None
    origin: str = ""
    """The page's origin when it was pressed: recovery asks the demo shop's history only on the shop."""
    action: str = ""
    """What was about to be done ('pressing "Pay $50.00"'), for a run that was killed in between."""
    at: float = Field(default_factory=time.time)


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
    """The demo shop's own order was sent to the page in this run (its confirmation may come late): its order
    history is what recovery asks. A consequential press on another page is in `order_intent` and `spent`."""
    order_intent: OrderIntent | None = None
    """The last order about to be placed; with no `placed` order, resume asks the shop whether it was."""
    spent: list[Spend] = Field(default_factory=list)
    """The spend ledger: every consequential action that went through in this run, on any page. The
    budget counts across it, and a second spend is never approved automatically."""
    in_flight: Intent | None = None
    """The page call running now (or the last one, with its result)."""
    asked_human: bool = False
    person_added: list[CartLine] = Field(default_factory=list)
    """What the person's own clicks added to the cart between their messages: the cart as our own read
    of the page saw it before and after, counted only when their trusted input (`Breadcrumb.person`) came
    in between. The approval anchor counts it as asked for; the words of an event never widen it."""
    answers_left: list[str] = Field(default_factory=list)
    readings: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """What the person's words were read as, by the rules and a model together, keyed by the words and
    the restaurant (webagent/planner/reading.py `Readings`): a resumed run reads them back and never asks
    the model again."""
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
        paid = [spend.sentence() for spend in self.spent if spend.order_id is None and spend.ok]
        # A press that reported no success still counts against the budget (it may have charged), but
        # nothing claims it paid: the page never showed that it did.
        unsure = [spend.sentence() for spend in self.spent if spend.order_id is None and not spend.ok]
        # Money is said to have gone out only where a page named an amount; a "Subscribe" or "Send" the
        # person approved that named none was done, not seen to pay.
        priced = any(
            spend.total_cents is not None for spend in self.spent if spend.order_id is None and spend.ok
        )
        if paid and outcome == "done" and priced:
            outcome = "paid"  # the model may call it done; the ledger says money went out
        if unsure and not message.startswith((*_DONE_WITH_APPROVAL, "May have paid")):
            message = (
                f"May have paid (the page showed no confirmation): {'; '.join(unsure)}. {message}".strip()
            )
        if paid and not message.startswith(_DONE_WITH_APPROVAL):
            message = f"{_DONE_WITH_APPROVAL[not priced]}{'; '.join(paid)}. {message}".strip()
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
            paid=paid,
            spent_cents=sum(spend.total_cents or 0 for spend in self.spent),
        )

    def close(self, result: RunResult) -> RunResult:
        """Mark the run finished with ``result``; every call of its last turn gets an answer."""
        answered = {m.get("tool_call_id") for m in self.messages if m.get("role") == "tool"}
        last: dict[str, Any] = next((m for m in reversed(self.messages) if m.get("role") == "assistant"), {})
        for call in last.get("tool_calls") or []:
            if call["id"] not in answered:
                self.messages.append(tool_message(call["id"], "Not run.", refusal="not_run"))
        self.status, self.result, self.pending, self.remaining_calls = "finished", result, None, []
        return result


class RunFolder:
    """One run's folder under the runs directory."""

    def __init__(self, runs_dir: Path, run_id: str, disk: Disk = OS_DISK) -> None:
        self.run_id = run_id
        self.disk = disk
        """Where its writes go through (`durable_write`); a test passes one that records them."""
        self.path = Path(runs_dir) / run_id
        self.transcript_path = self.path / "transcript.jsonl"
        self.state_path = self.path / "state.json"
        self.trace_path = self.path / "trace.zip"

    @classmethod
    def create(cls, runs_dir: Path, run_id: str | None = None, disk: Disk = OS_DISK) -> RunFolder:
        folder = cls(runs_dir, run_id or new_run_id(), disk)
        folder.path.mkdir(parents=True, exist_ok=True)
        sync_directory(folder.path.parent, disk)  # the run folder's own name, too
        return folder

    @classmethod
    def find(cls, runs_dir: Path, run_id: str, disk: Disk = OS_DISK) -> RunFolder:
        """The folder of an existing run; `UnknownRunError` naming the runs directory otherwise."""
        folder = cls(runs_dir, run_id, disk)
        if not folder.state_path.is_file():
            known = sorted(p.parent.name for p in Path(runs_dir).glob("*/state.json"))[-3:]
            hint = f" Recent runs: {', '.join(known)}." if known else ""
            raise UnknownRunError(f"No run {run_id!r} in {runs_dir}.{hint}")
        return folder

    def record(self, event: str, /, **fields: Any) -> None:
        """Append one event to the transcript, fsynced, so nothing is lost if the process (or the
        power) dies; a torn last line is skipped when read (`transcript`)."""
        line = json.dumps({"t": round(time.time(), 3), "event": event, **fields}, default=str)
        new = not self.transcript_path.exists()
        fd = self.disk.open(self.transcript_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            _write_all(self.disk, fd, (line + "\n").encode("utf-8"))
            self.disk.fsync(fd)
        finally:
            self.disk.close(fd)
        if new:
            sync_directory(self.path, self.disk)

    def save(self, checkpoint: Checkpoint) -> None:
        """Write the checkpoint durably: a crash or a power cut leaves the old one or the new one, never
        half, and never an older one than the last save returned (`durable_write`)."""
        durable_write(self.state_path, checkpoint.model_dump_json(indent=1).encode("utf-8"), self.disk)

    def load(self) -> Checkpoint:
        return Checkpoint.model_validate_json(self.state_path.read_text(encoding="utf-8"))

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the run for this process; `UsageError` when another process is driving it now.

        The kernel drops the lock when its process dies, however it dies, so a killed run can be
        resumed at once — and a run still going cannot be resumed twice over (two orders).
        """
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock, as before
            yield
            return
        with (self.path / "lock").open("a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UsageError(
                    f"run {self.run_id} is being driven by another webagent process right now; "
                    "wait for it to end (or stop it), then resume"
                ) from None
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def transcript(self) -> list[dict[str, Any]]:
        """The recorded events; a last line torn by a killed process is left out."""
        if not self.transcript_path.is_file():
            return []
        events = []
        for line in self.transcript_path.read_text(encoding="utf-8").splitlines():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return events
