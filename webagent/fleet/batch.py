"""``webagent batch FILE.jsonl``: one run per line, results streamed to a JSONL file; stop and go on.

One line per run (a JSON object); every key but ``goal`` or ``order`` is optional and falls back to the
command line's flags::

    {"id": "ada-1", "order": {"restaurant": "Sushi House", "items": [{"dish": "Miso Soup", "quantity": 2}]},
     "clutter": 2, "seed": 7, "profile": {"name": "Ada", "address": "12 Oak Street", "phone": "555-0101"},
     "approve": "auto", "budget_cents": 6000, "answers": ["…"], "max_steps": 30, "max_tokens": 20000}
    {"id": "bob", "goal": "2 tiramisu from Italian Bistro, pay cash"}

``order`` is what ``--order`` takes: an object, or the path of a JSON/YAML file (relative to the batch
file). A line without ``id`` is known by its line number (``line-3``): give ids to edit a file between runs.

Every run is against one shop — ``--shop-url``, or an embedded one whose database is kept beside the
output — in a session of its own. Files, for ``--out results.jsonl``:

    results.jsonl            one object per finished line: ``line`` plus the fields of ``run --json``,
                             appended and flushed as each run ends
    results.attempts.jsonl   the attempt log: a line's run id and shop session, written before it starts
    results.shop.db          the embedded shop's database (without --shop-url)

Running the same command again skips the lines already in the output, so a batch stopped by Ctrl-C, a
kill or a crash goes on where it was. **Never a second order for one line** — the durable-run rule
(record the intent, then act; on recovery ask the shop before acting again), applied to batch lines:

1. before a line's run starts, a fresh shop session is opened for it and written to the attempt log
   (flushed to disk) with the run id: the intent;
2. the run is started in that session (``start_run(storage_state=…)``);
3. a line that has attempts but no result (the batch was killed, a Ray worker died) is settled first,
   by `settle_earlier_attempts`: a finished run folder gives its result; otherwise the shop's order
   history for each earlier session is read, and an order there is the line's order — reported, never
   placed again. Only when no earlier session holds an order does the line start again, in a new
   session (the old one keeps whatever cart it had); once the new attempt is on record, the cut-off
   run folders are closed out so that ``webagent resume`` cannot order them later.

Runs go through a `LineRunner`: here as contexts of one browser (`LocalRunner`), or on Ray actors
(webagent/fleet/distributed.py), which raise `WorkerLost` when the worker holding a run dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import fcntl
import json
import os
import sys
import time
import traceback
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import IO, Any, Literal, Protocol
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from webagent.agent.result import RunResult
from webagent.errors import RunError, ShopUnreachable, UsageError
from webagent.runs.checkpoint import RunFolder, new_run_id
from webagent.runs.config import Profile, RunConfig

__all__ = [
    "Attempt",
    "AttemptLog",
    "BatchLine",
    "BatchSummary",
    "LineJob",
    "LineRunner",
    "LocalRunner",
    "ResultFile",
    "ShopSessions",
    "WorkerLost",
    "load_batch",
    "parse_batch",
    "run_batch",
    "settle_earlier_attempts",
    "sidecar",
]

WORKER_RETRIES = 1
"""How many times a line whose worker died is started again (after settling, so never a second order)."""


class WorkerLost(RunError):
    """The worker (a Ray actor and its browser) running a line died; the line's fate is unknown."""


# The batch file ------------------------------------------------------------------------------------


class BatchLine(BaseModel):
    """One line of a batch file: a goal or an order, and the settings this run changes."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field("", max_length=200)
    """Names the line in the output; rerunning skips ids already there. Default ``line-N``."""
    goal: str | None = None
    order: dict[str, Any] | str | None = None
    """An order spec as ``--order`` takes it: an object, or a JSON/YAML file."""
    clutter: int | None = Field(None, ge=0, le=3)
    seed: int | None = None
    profile: Profile | None = None
    """Filled in over the command line's profile."""
    approve: Literal["auto", "deny", "pause"] | None = None
    budget_cents: int | None = Field(None, ge=0)
    answers: list[str] | None = None
    max_steps: int | None = Field(None, ge=1)
    max_tokens: int | None = Field(None, ge=1)

    @model_validator(mode="after")
    def _goal_or_order(self) -> BatchLine:
        if (self.goal is None) == (self.order is None):
            raise ValueError("give either goal or order")
        return self

    def config(self, base: RunConfig) -> RunConfig:
        """This line's run: ``base`` (the command line's) with what the line sets."""
        changes: dict[str, Any] = {"goal": self.goal, "order": self.order}
        for name in ("clutter", "seed", "approve", "budget_cents", "answers", "max_steps", "max_tokens"):
            if getattr(self, name) is not None:
                changes[name] = getattr(self, name)
        if self.profile is not None:
            changes["profile"] = base.profile.merged_under(self.profile)
        return base.model_copy(update=changes)


def _line_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "line"
    if first["type"] == "extra_forbidden":
        known = BatchLine.model_fields if len(first["loc"]) == 1 else Profile.model_fields
        close = difflib.get_close_matches(str(first["loc"][-1]), list(known), n=1)
        return f"unknown field {where!r}" + (f" (did you mean {close[0]!r}?)" if close else "")
    if first["type"] == "missing":
        return f"missing field {where!r}"
    message = str(first["msg"]).removeprefix("Value error, ")
    return message if where == "line" else f"field {where!r}: {message}"


def _order_spec(order: dict[str, Any] | str, base_dir: Path) -> dict[str, Any]:
    from webagent.planner import OrderSpec

    if isinstance(order, str):
        path = base_dir / order
        try:
            spec = OrderSpec.load(path)
        except OSError as error:
            raise ValueError(f"cannot read order file {path}: {error.strerror}") from error
        except ValueError as error:  # JSON or YAML that does not parse
            raise ValueError(f"order file {path} is not valid JSON or YAML") from error
    else:
        spec = OrderSpec.model_validate(order)
    return spec.model_dump(mode="json", exclude_none=True)


def parse_batch(text: str, source: str = "batch", base_dir: Path = Path(".")) -> list[BatchLine]:
    """Parse a batch file's text; a bad line raises `UsageError` naming the line and the field."""
    lines: list[BatchLine] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as error:
            raise UsageError(
                f"{source} line {number}: not valid JSON ({error.msg} at column {error.colno})"
            ) from None
        if not isinstance(data, dict):
            raise UsageError(f"{source} line {number}: a line must be a JSON object")
        try:
            line = BatchLine.model_validate(data)
        except ValidationError as error:
            raise UsageError(f"{source} line {number}: {_line_error(error)}") from None
        try:
            if line.order is not None:
                line.order = _order_spec(line.order, base_dir)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in ("order", *first["loc"]))
            raise UsageError(f"{source} line {number}: field {where!r}: {first['msg']}") from None
        except ValueError as error:
            raise UsageError(f"{source} line {number}: {error}") from None
        line.id = line.id or f"line-{number}"
        if line.id in seen:
            raise UsageError(f"{source} line {number}: id {line.id!r} already used on line {seen[line.id]}")
        seen[line.id] = number
        lines.append(line)
    if not lines:
        raise UsageError(f"{source}: no lines")
    return lines


def load_batch(path: Path) -> list[BatchLine]:
    """Read and parse a batch file (see the module docstring for the format)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read batch file {path}: {error.strerror}") from error
    return parse_batch(text, str(path), path.parent)


def sidecar(out: Path, suffix: str) -> Path:
    """A file beside the output: ``results.jsonl`` → ``results.attempts.jsonl``, ``results.shop.db``."""
    return out.with_name(out.name.removesuffix(".jsonl") + suffix)


# The shop, asked directly -------------------------------------------------------------------------


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


# Files: the results and the attempt log -------------------------------------------------------------


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


# Never a second order for one line ------------------------------------------------------------------


def _close_out(folder: RunFolder, result: RunResult) -> None:
    """Mark an interrupted run folder finished, so that ``webagent resume`` leaves it alone."""
    state = folder.load()
    if state.status != "running":
        return
    state.status, state.result = "finished", result
    folder.save(state)
    folder.record("finished", **result.model_dump(exclude={"run_dir"}))


def _stored_result(folder: RunFolder) -> RunResult | None:
    """The result a run folder holds: finished (any outcome) or paused; None when it was cut off."""
    if not folder.state_path.is_file():
        return None
    state = folder.load()
    if state.status == "finished" and state.result is not None:
        return state.result.model_copy(update={"run_dir": str(folder.path)})
    if state.status == "paused":
        question = state.pending.question if state.pending else "paused"
        return state.result_of("paused", question, str(folder.path))
    return None


async def settle_earlier_attempts(
    line_id: str, attempts: Sequence[Attempt], shop: ShopSessions, runs_dir: Path
) -> RunResult | None:
    """The result of a line that was started before and not written down; None when none exists.

    The seam between batches and durable runs. The newest attempt's run folder, when it finished (or
    paused), gives its own result — older attempts were given up for a newer one, so theirs cannot.
    Otherwise each attempt's session's order history is read, newest first: an order there is the
    line's (a run places at most one, in its own session), reported and never placed again. None says
    nothing was ordered and the line may start again. `ShopUnreachable` when the shop cannot be
    asked: then the line is not started again.
    """
    if attempts:
        stored = _stored_result(RunFolder(runs_dir, attempts[-1].run_id))
        if stored is not None:
            return stored
    for attempt in reversed(attempts):
        orders = await shop.orders(attempt.cookies)
        if orders:
            order = orders[-1]  # the oldest (the shop lists newest first); a run places at most one
            folder = RunFolder(runs_dir, attempt.run_id)
            local = folder.state_path.is_file()
            result = RunResult(
                run_id=attempt.run_id,
                outcome="ordered",
                order_id=order["id"],
                total_cents=order.get("total_cents"),
                run_dir=str(folder.path) if local else "",
                message=(
                    f"Order #{order['id']} was placed by run {attempt.run_id} before it was cut off; the shop's "
                    "order history for its session shows it, so it was not ordered again."
                ),
            )
            if local:
                _close_out(folder, result)
            return result
    return None


def _give_up(attempts: Sequence[Attempt], line_id: str, runs_dir: Path) -> None:
    """Close out the cut-off run folders of earlier attempts, now that a new one is on record."""
    for attempt in attempts:
        folder = RunFolder(runs_dir, attempt.run_id)
        if folder.state_path.is_file():
            note = f"interrupted before ordering (the shop shows no order); line {line_id} ran again"
            _close_out(folder, folder.load().result_of("failed", note, str(folder.path)))


async def _true_to_the_shop(result: RunResult, shop: ShopSessions, cookies: dict[str, str]) -> RunResult:
    """A failed run whose session holds an order ends with what the shop shows, not with a guess."""
    if result.outcome != "failed" or result.order_id is not None:
        return result
    try:
        orders = await shop.orders(cookies)
    except ShopUnreachable as error:
        return result.model_copy(
            update={"message": f"{result.message} (the shop could not be asked: {error})"}
        )
    if not orders:
        return result
    order = orders[-1]  # the oldest (the shop lists newest first)
    message = f"Order #{order['id']} was placed (the shop shows it); then the run stopped: {result.message}"
    return result.model_copy(
        update={
            "outcome": "ordered",
            "order_id": order["id"],
            "total_cents": order.get("total_cents"),
            "message": message,
        }
    )


# Running lines ------------------------------------------------------------------------------------


class LineJob(BaseModel):
    """One attempt of one line, as a worker receives it (plain data, so it can cross to a Ray actor)."""

    line: str
    run_id: str
    config: RunConfig
    storage_state: dict[str, Any]


class LineRunner(Protocol):
    """Runs one line's attempt to its end; `WorkerLost` when the worker died under it."""

    async def run(self, job: LineJob) -> RunResult: ...


def failed_result(job: LineJob, message: str, runs_dir: Path) -> RunResult:
    """A line that could not run to an end of its own: the reason, and its run folder if there is one."""
    folder = RunFolder(runs_dir, job.run_id)
    return RunResult(
        run_id=job.run_id,
        outcome="failed",
        message=message,
        run_dir=str(folder.path) if folder.path.is_dir() else "",
    )


async def run_job(job: LineJob, browser: Any, runs_dir: Path) -> RunResult:
    """Run a job in ``browser`` as `start_run` does; a run error or a bug in one run ends it as failed."""
    from webagent.agent.approval import no_terminal
    from webagent.runs.runner import start_run

    config = job.config.model_copy(update={"runs_dir": runs_dir})
    try:
        # Many runs at once, under a progress line: a question for a person waits (the line pauses).
        return await start_run(
            config, browser=browser, run_id=job.run_id, storage_state=job.storage_state, prompt=no_terminal
        )
    except RunError as error:
        return failed_result(job, str(error), runs_dir)
    except Exception as error:  # a bug in one run must not stop a thousand others; the cause is kept
        traceback.print_exc(file=sys.stderr)
        return failed_result(job, f"internal error: {error!r}", runs_dir)


@dataclass
class LocalRunner:
    """Lines as contexts of one browser in this process."""

    browser: Any
    runs_dir: Path

    async def run(self, job: LineJob) -> RunResult:
        return await run_job(job, self.browser, self.runs_dir)


# The batch ----------------------------------------------------------------------------------------


@dataclass
class BatchSummary:
    """What a batch did, for the closing lines (and ``--json``)."""

    lines: int
    skipped: int
    """Lines already in the output when this batch started."""
    ran: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    """Every line in the output by outcome (earlier ones included)."""
    orders: int = 0
    spent_cents: int = 0
    wall_s: float = 0.0
    workers: int = 1
    left: int = 0
    """Lines that could not be settled (the shop did not answer): the next run tries them again."""
    interrupted: bool = False

    @property
    def orders_per_minute(self) -> float:
        ordered_now = self.outcomes.get("ordered_now", 0)
        return round(ordered_now / self.wall_s * 60, 1) if self.wall_s else 0.0

    def as_json(self) -> dict[str, Any]:
        outcomes = {k: v for k, v in self.outcomes.items() if k != "ordered_now"}
        return {
            "lines": self.lines,
            "skipped": self.skipped,
            "ran": self.ran,
            "outcomes": outcomes,
            "orders": self.orders,
            "spent_cents": self.spent_cents,
            "wall_s": round(self.wall_s, 2),
            "orders_per_minute": self.orders_per_minute,
            "workers": self.workers,
            "left": self.left,
            "interrupted": self.interrupted,
        }

    def text(self) -> str:
        from webagent.narration.narrate import money

        outcomes = ", ".join(f"{n} {k}" for k, v in self.as_json()["outcomes"].items() if (n := v))
        done = self.skipped + self.ran
        earlier = f" ({self.skipped} done before)" if self.skipped else ""
        head = f"{done}/{self.lines} lines done{earlier}: {outcomes or 'nothing yet'}"
        cost = (
            f"{self.orders} orders, {money(self.spent_cents)} · {self.ran} run now in {self.wall_s:.1f}s "
            f"with {self.workers} at once · {self.orders_per_minute} orders/min"
        )
        tail = "\ninterrupted: run the same command again to go on" if self.interrupted else ""
        if self.left:
            tail += (
                f"\n{self.left} line(s) left for the next run: the shop could not say whether they ordered"
            )
        return f"{head}\n{cost}{tail}"

    def count(self, record: dict[str, Any], now: bool) -> None:
        outcome = str(record.get("outcome"))
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        if outcome == "ordered":
            self.orders += 1
            self.spent_cents += int(record.get("total_cents") or 0)
            if now:
                self.outcomes["ordered_now"] = self.outcomes.get("ordered_now", 0) + 1


async def run_batch(
    lines: Sequence[BatchLine],
    *,
    out: Path,
    base: RunConfig,
    runner: LineRunner,
    shop: ShopSessions,
    workers: int,
    progress: bool = False,
    summary: BatchSummary | None = None,
) -> BatchSummary:
    """Run every line not yet in ``out``, up to ``workers`` at once; each result is written as it ends.

    ``summary`` (pass one in to read it after Ctrl-C) is filled in as lines finish.
    """
    results = ResultFile(out)
    log = AttemptLog(sidecar(out, ".attempts.jsonl"))
    log.lock()
    try:
        done = results.done()
        attempts = log.by_line()
        _check_same_shop(attempts, shop, out)
        summary = summary or BatchSummary(lines=len(lines), skipped=0)
        summary.lines, summary.workers = len(lines), workers
        for line in lines:
            if line.id in done:
                summary.skipped += 1
                summary.count(done[line.id], now=False)
        pending = [line for line in lines if line.id not in done]
        queue: asyncio.Queue[BatchLine] = asyncio.Queue()
        for line in pending:
            queue.put_nowait(line)
        bar = _ProgressBar(len(lines), summary.skipped) if progress and pending else None
        started = time.monotonic()

        async def slot() -> None:
            while not queue.empty():
                line = queue.get_nowait()
                result = await _one_line(line, attempts.setdefault(line.id, []), base, runner, shop, log)
                if result is None:
                    summary.left += 1
                    continue
                record = results.write(line.id, result)
                summary.ran += 1
                summary.count(record, now=True)
                summary.wall_s = time.monotonic() - started
                if bar is not None:
                    bar.advance(line.id, result.outcome)

        try:
            await asyncio.gather(*(slot() for _ in range(max(1, min(workers, len(pending))))))
        finally:
            summary.wall_s = time.monotonic() - started
            if bar is not None:
                bar.stop()
        return summary
    finally:
        log.unlock()


def _check_same_shop(attempts: dict[str, list[Attempt]], shop: ShopSessions, out: Path) -> None:
    shops = {attempt.shop for tries in attempts.values() for attempt in tries}
    other = sorted(shops - {shop.identity})
    if other:
        raise UsageError(
            f"{out} was started against the shop {other[0]}, not {shop.identity}; its earlier orders are "
            "there: rerun against that shop, or write to a new output file"
        )


async def _one_line(
    line: BatchLine,
    attempts: list[Attempt],
    base: RunConfig,
    runner: LineRunner,
    shop: ShopSessions,
    log: AttemptLog,
) -> RunResult | None:
    """Settle earlier attempts, then run the line (again, once, if its worker dies).

    None: the line could not be settled (the shop did not answer) and is left for the next run.
    """
    config = line.config(base)
    lost: list[str] = []
    while True:
        try:
            settled = await settle_earlier_attempts(line.id, attempts, shop, base.runs_dir)
            if settled is not None:
                return settled
            if len(lost) > WORKER_RETRIES:
                return RunResult(
                    run_id=attempts[-1].run_id,
                    outcome="failed",
                    message=f"the worker running it died {len(lost)} times: {lost[-1]}",
                )
            attempt = Attempt(
                line=line.id, run_id=new_run_id(), shop=shop.identity, cookies=await shop.open()
            )
        except ShopUnreachable as error:
            if attempts:  # an earlier attempt may have ordered: leave the line for the next run to settle
                print(f"webagent: line {line.id} left for the next run: {error}", file=sys.stderr)
                return None
            return RunResult(run_id="", outcome="failed", message=f"not started: {error}")
        log.add(attempt)  # the intent, on disk before the run can order anything
        _give_up(attempts, line.id, base.runs_dir)  # so that `webagent resume` cannot order them later
        attempts.append(attempt)
        job = LineJob(
            line=line.id,
            run_id=attempt.run_id,
            config=config,
            storage_state=shop.storage_state(attempt.cookies),
        )
        try:
            result = await runner.run(job)
        except WorkerLost as error:
            lost.append(str(error))
            continue  # settled again first: the dead worker may have ordered
        except (
            Exception
        ) as error:  # a worker's fault ends this line, never the batch; the shop says what is true
            message = str(error) if isinstance(error, RunError) else f"internal error: {error!r}"
            result = RunResult(run_id=attempt.run_id, outcome="failed", message=message)
        return await _true_to_the_shop(result, shop, attempt.cookies)


class _ProgressBar:
    """A rich progress bar on stderr, so stdout keeps only the summary."""

    def __init__(self, total: int, done: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            TextColumn("batch"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
            console=Console(stderr=True),
            transient=True,
        )
        self.task = self.progress.add_task("", total=total, completed=done)
        self.failed = 0
        self.progress.start()

    def advance(self, line_id: str, outcome: str) -> None:
        self.failed += outcome == "failed"
        self.progress.update(
            self.task, advance=1, description=f"last {line_id} {outcome} · {self.failed} failed"
        )

    def stop(self) -> None:
        self.progress.stop()


# The command --------------------------------------------------------------------------------------


def main(args: Any, base: RunConfig) -> int:
    """``webagent batch``: 0 when no line failed or paused, 1 when one failed, 3 when one paused.

    ``base`` is the run the command line describes; each line changes what it sets.
    """
    from contextlib import ExitStack

    from webagent.sync import run_sync

    lines = load_batch(args.file)
    out: Path = args.out or args.file.with_name(args.file.name.removesuffix(".jsonl") + ".results.jsonl")
    if base.approve == "ask":
        raise UsageError(
            "a batch cannot ask at a terminal: use --approve auto (with --budget), deny or pause"
        )
    ray_address = getattr(args, "ray", None)
    summary = BatchSummary(lines=len(lines), skipped=0)
    with ExitStack() as stack:
        if base.shop_url:
            shop = ShopSessions(base.shop_url)
        else:
            if ray_address not in (None, "local"):
                raise UsageError(
                    "a Ray cluster's workers cannot reach this machine's embedded shop: serve one where they "
                    "can (webagent shop --host 0.0.0.0 --port 8000) and pass --shop-url"
                )
            from demo_site import running_shop

            db = args.db or sidecar(out, ".shop.db")
            db.parent.mkdir(parents=True, exist_ok=True)
            running = stack.enter_context(running_shop(db, base.clutter, base.seed))
            shop = ShopSessions(running.url, identity=f"embedded:{db.resolve()}")
            base = base.model_copy(update={"shop_url": running.url})
        base = base.model_copy(update={"db_path": None})
        progress = not (args.quiet or args.json) and sys.stderr.isatty()
        if ray_address:
            from webagent.fleet.distributed import ACTOR_CPUS, default_actors, ray_cluster

            ray = stack.enter_context(ray_cluster(ray_address, cpus=(args.actors or 1) * ACTOR_CPUS))
            args.actors = args.actors or default_actors(ray, ray_address)
        try:
            run_sync(_run(args, lines, out, base, shop, progress, summary))
        except KeyboardInterrupt:
            summary.interrupted = True
    if args.json:
        print(json.dumps({"out": str(out), **summary.as_json()}))
    else:
        print(f"{summary.text()}\nResults: {out}")
    if summary.interrupted:
        return 130
    outcomes = summary.outcomes
    return 1 if outcomes.get("failed") or summary.left else 3 if outcomes.get("paused") else 0


async def _run(
    args: Any,
    lines: Sequence[BatchLine],
    out: Path,
    base: RunConfig,
    shop: ShopSessions,
    progress: bool,
    summary: BatchSummary,
) -> BatchSummary:
    common: dict[str, Any] = {
        "out": out,
        "base": base,
        "shop": shop,
        "progress": progress,
        "summary": summary,
    }
    finished = ResultFile(out).done(repair=False)
    if all(line.id in finished for line in lines):  # nothing to run: no browser, no Ray actors
        return await run_batch(lines, runner=LocalRunner(None, base.runs_dir), workers=1, **common)
    if getattr(args, "ray", None):
        from webagent.fleet.distributed import RayLineRunner, ray_pool

        async with ray_pool(
            args.ray,
            actors=args.actors,
            per_actor=args.workers_per_node,
            ws_url=args.browser_ws,
            cdp_url=args.cdp,
        ) as pool:
            runner = RayLineRunner(pool, base.runs_dir)
            return await run_batch(lines, runner=runner, workers=pool.capacity, **common)
    from webagent.browser.session import Browser

    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    async with await Browser.open(
        ws_url=args.browser_ws, cdp_url=args.cdp, headed=base.headed, slow_mo=base.slow_mo
    ) as browser:
        return await run_batch(
            lines, runner=LocalRunner(browser, base.runs_dir), workers=args.workers, **common
        )
