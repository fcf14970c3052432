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
   by `settle_earlier_attempts` (webagent/fleet/settle.py): a finished run folder gives its result; otherwise the shop's order
   history for each earlier session is read, and an order there is the line's order — reported, never
   placed again. Only when no earlier session holds an order does the line start again, in a new
   session (the old one keeps whatever cart it had); once the new attempt is on record, the cut-off
   run folders are closed out so that ``webagent resume`` cannot order them later.

The file's lines are parsed in webagent/fleet/lines.py, the results and the attempt log kept in
webagent/fleet/files.py, and each session opened through the run's site (`Site.order_sessions`: the demo
shop's session API, webagent/sites/demo_shop/session_api.py; a site without one is refused). Runs go through a `LineRunner` (webagent/fleet/jobs.py): here
as contexts of one browser (`LocalRunner`), or on Ray actors (webagent/fleet/distributed.py), which raise
`WorkerLost` when the worker holding a run dies.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webagent.agent.checkpoint import new_run_id
from webagent.agent.result import RunResult
from webagent.config import RunConfig
from webagent.errors import RunError, ShopUnreachable, UsageError
from webagent.fleet.files import Attempt, AttemptLog, ResultFile, sidecar
from webagent.fleet.jobs import LineJob, LineRunner, LocalRunner, WorkerLost
from webagent.fleet.lines import BatchLine, load_batch
from webagent.fleet.settle import give_up, settle_earlier_attempts, true_to_the_shop
from webagent.report.progress import ProgressBar
from webagent.runs.site_choice import sessions_of, site_of
from webagent.tools.site import OrderSessions

__all__ = ["BatchSummary", "main", "run_batch"]

WORKER_RETRIES = 1
"""How many times a line whose worker died is started again (after settling, so never a second order)."""


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
        from webagent.narration.money import money

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
    shop: OrderSessions,
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
        bar = ProgressBar("batch", len(lines), summary.skipped) if progress and pending else None
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
                    bar.advance(line.id, failed=result.outcome == "failed", status=result.outcome)

        try:
            await asyncio.gather(*(slot() for _ in range(max(1, min(workers, len(pending))))))
        finally:
            summary.wall_s = time.monotonic() - started
            if bar is not None:
                bar.stop()
        return summary
    finally:
        log.unlock()


def _check_same_shop(attempts: dict[str, list[Attempt]], shop: OrderSessions, out: Path) -> None:
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
    shop: OrderSessions,
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
        give_up(attempts, line.id, base.runs_dir)  # so that `webagent resume` cannot order them later
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
        return await true_to_the_shop(result, shop, attempt.cookies)


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
        site = site_of(base)
        if base.shop_url:
            shop = sessions_of(site, base, base.shop_url)
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
            shop = sessions_of(site, base, running.url, identity=f"embedded:{db.resolve()}")
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
    shop: OrderSessions,
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
