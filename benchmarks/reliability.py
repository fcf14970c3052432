"""Reliability: the benchmarked order against a busy shop and through crashes, judged by the shop's database.

1. A busy shop. Each run places the common order (`common.GOAL`) through `start_run` against a shop of
   its own (fresh database) that answers 503 "The kitchen is busy" to each API call with probability
   P (``--flaky P``; seeded per run). Baseline: the same runs at P = 0. Per level: orders placed / runs,
   runs whose order is exactly what was asked, duplicates (runs with more than one order), false claims
   (the result says ``ordered`` but the database has no such order) and unreported orders (the
   database has an order the result does not name).
2. Crashes. The ``webagent`` command is SIGKILLed (with its Chromium and embedded shop) at a random
   moment — after a random number of recorded events plus a random delay — and resumed, up to three
   times, then resumed to the end; and once right after the shop wrote the order row. Each trial
   counts when the database holds exactly one order and the last ``resume`` reports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common import CLUTTER, GOAL, PROFILE, log, order_config
from table import Report, Row

from demo_site import running_shop
from demo_site.db import ShopDB
from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.errors import WebagentError
from webagent.report.write import write_report
from webagent.runs.runner import start_run

FLAKY_TARGETS = {0.2: 95.0, 0.4: 80.0}
"""Busy-shop levels and their targets: orders placed, % of runs."""

ASKED = {("Margherita Pizza", 2), ("Tiramisu", 1), ("Spaghetti Carbonara", 1)}
"""The common order's lines (dish, quantity); Margherita also needs Size: Large."""

SOURCE = str(Path(__file__).resolve().parent.parent)
START = (
    "run", GOAL, "--approve", "auto", "--json", "--model", "planner", "--clutter", str(CLUTTER),
    "--name", PROFILE["name"], "--address", PROFILE["address"], "--phone", PROFILE["phone"],
)  # fmt: skip


@dataclass
class Judged:
    """One run, and what the shop's database says of it."""

    flaky: float
    seed: int
    result: RunResult
    orders: list[dict[str, Any]]

    @property
    def placed(self) -> bool:
        return bool(self.orders)

    @property
    def duplicate(self) -> bool:
        return len(self.orders) > 1

    @property
    def false_claim(self) -> bool:
        return self.result.outcome == "ordered" and self.result.order_id not in {o["id"] for o in self.orders}

    @property
    def unreported(self) -> bool:
        return bool(self.orders) and not (
            self.result.outcome == "ordered" and self.result.order_id in {o["id"] for o in self.orders}
        )

    @property
    def as_asked(self) -> bool:
        if len(self.orders) != 1:
            return False
        items = self.orders[0]["items"]
        lines = {(i["dish_name"], i["quantity"]) for i in items}
        large = all(
            "Large" in json.dumps(i["options"]) for i in items if i["dish_name"] == "Margherita Pizza"
        )
        return lines == ASKED and large and self.orders[0]["payment_method"] == "Cash"


async def _one_busy_run(browser: Browser, workdir: Path, flaky: float, seed: int) -> Judged:
    db = workdir / f"busy-{flaky}-{seed}.db"
    with running_shop(db_path=db, clutter=CLUTTER, seed=seed, flaky=flaky) as shop:
        config = order_config(workdir, shop.url).model_copy(update={"seed": seed})
        try:
            result = await start_run(config, browser=browser, report=write_report)
        except WebagentError as error:  # a run that could not start is a run that did not order
            result = RunResult(run_id="", outcome="failed", message=str(error))
    return Judged(flaky, seed, result, ShopDB(db).orders())


async def _busy_level(browser: Browser, workdir: Path, flaky: float, runs: int, workers: int) -> list[Judged]:
    gate = asyncio.Semaphore(workers)

    async def one(seed: int) -> Judged:
        async with gate:
            return await _one_busy_run(browser, workdir, flaky, seed)

    judged = await asyncio.gather(*(one(100 + i) for i in range(runs)))
    placed = sum(j.placed for j in judged)
    log(f"flaky {flaky}: {placed}/{runs} ordered")
    return list(judged)


def _why(judged: list[Judged]) -> str:
    """The most common endings of the runs that did not order, for the notes."""
    endings: dict[str, int] = {}
    for j in judged:
        if not j.placed:
            key = j.result.message.split(":")[0][:70]
            endings[key] = endings.get(key, 0) + 1
    top = sorted(endings.items(), key=lambda kv: -kv[1])[:3]
    return "; ".join(f"{n} × “{text}”" for text, n in top)


async def bench_busy_shop(runs: int, baseline_runs: int, workers: int, workdir: Path, report: Report) -> None:
    browser = await Browser.launch()
    try:
        base = await _busy_level(browser, workdir, 0.0, baseline_runs, workers)
        levels = {flaky: await _busy_level(browser, workdir, flaky, runs, workers) for flaky in FLAKY_TARGETS}
    finally:
        await browser.close()
    base_pct = 100.0 * sum(j.placed for j in base) / len(base)
    report.details["reliability_busy"] = {
        str(flaky): [
            {
                "seed": j.seed,
                "outcome": j.result.outcome,
                "message": j.result.message,
                "orders": len(j.orders),
            }
            for j in judged
        ]
        for flaky, judged in {0.0: base, **levels}.items()
    }
    for flaky, judged in levels.items():
        n = len(judged)
        placed, asked = sum(j.placed for j in judged), sum(j.as_asked for j in judged)
        pct = 100.0 * placed / n
        report.rows.append(
            Row(
                "reliability",
                f"--flaky {flaky}: orders placed / runs",
                round(pct, 1),
                round(base_pct, 1),
                "%",
                ratio=round(pct / base_pct, 2) if base_pct else None,
                target=f"≥ {FLAKY_TARGETS[flaky]:.0f} %",
                met=pct >= FLAKY_TARGETS[flaky],
                note=f"{placed}/{n} runs ordered ({asked} exactly as asked); baseline {len(base)} runs at "
                f"--flaky 0. Runs that did not order ended: {_why(judged) or '—'}",
            )
        )
        for label, count in (
            ("duplicate orders", sum(j.duplicate for j in judged)),
            ("false claims", sum(j.false_claim for j in judged)),
            ("unreported orders", sum(j.unreported for j in judged)),
        ):
            report.rows.append(
                Row(
                    "reliability",
                    f"--flaky {flaky}: {label}",
                    count,
                    None,
                    f"of {n}",
                    target="0",
                    met=count == 0,
                )
            )


# -- crashes ---------------------------------------------------------------------------------------


class _Command:
    """``webagent`` in its own process group, so SIGKILL takes its Chromium and shop with it."""

    def __init__(self, cwd: Path, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBAGENT_MODEL"))}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [SOURCE, env.get("PYTHONPATH")]))
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "webagent", *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )

    def alive_when(self, condition: Any, timeout: float = 300) -> bool:
        deadline = time.monotonic() + timeout
        while self.popen.poll() is None and time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.002)
        return False

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.communicate(timeout=60)

    def result(self) -> dict[str, Any]:
        out, _ = self.popen.communicate(timeout=300)
        return dict(json.loads(out.strip().splitlines()[-1])) if out.strip() else {}


def _run_dir(cwd: Path) -> Path | None:
    found = [p for p in (cwd / "runs").glob("*") if (p / "state.json").is_file()]
    return found[0] if found else None


def _events(cwd: Path) -> int:
    run = _run_dir(cwd)
    if run is None or not (run / "transcript.jsonl").is_file():
        return 0
    return len((run / "transcript.jsonl").read_text(encoding="utf-8").splitlines())


def _rows(cwd: Path) -> list[tuple[int, int]]:
    run = _run_dir(cwd)
    if run is None or not (run / "shop.db").is_file():
        return []
    try:
        with sqlite3.connect(f"file:{run / 'shop.db'}?mode=ro", uri=True) as conn:
            return list(conn.execute("SELECT id, total_cents FROM orders"))
    except sqlite3.Error:
        return []


def _landed(cwd: Path) -> str:
    """Where a kill landed, as the checkpoint shows it."""
    run = _run_dir(cwd)
    if run is None:
        return "before the run folder"
    state = json.loads((run / "state.json").read_text(encoding="utf-8"))
    flight = state.get("in_flight")
    if state["status"] == "finished":
        return "after the run finished"
    if not state["messages"]:
        return "before the first page"
    if flight and flight.get("result") is None:
        return f"in {flight['name']}"
    return "between calls"


def _crash_trial(cwd: Path, rng: random.Random, targeted: bool, landed: list[str]) -> tuple[bool, int]:
    """One run killed (at random, or right after its order row) and resumed; (exactly one order
    reported, kills that landed). Where each kill landed is appended to ``landed``."""
    cwd.mkdir(parents=True)
    command = _Command(cwd, *START)
    kills = 0
    for _ in range(1 if targeted else 3):
        if targeted:
            hit = command.alive_when(lambda: bool(_rows(cwd)))
        else:
            trigger = _events(cwd) + rng.randint(1, 15)
            hit = command.alive_when(lambda n=trigger: _events(cwd) >= n)
            time.sleep(rng.uniform(0, 0.4))
        if not hit:
            break
        command.kill()
        kills += 1
        landed.append(_landed(cwd))
        run = _run_dir(cwd)
        command = _Command(cwd, "resume", run.name, "--json") if run else _Command(cwd, *START)
    result = command.result()
    if str(result.get("message", "")).startswith("run already finished"):
        run = _run_dir(cwd)
        assert run is not None
        result = _Command(cwd, "resume", run.name, "--json").result()
    rows = _rows(cwd)
    ok = len(rows) == 1 and result.get("outcome") == "ordered" and result.get("order_id") == rows[0][0]
    return ok, kills


def bench_crashes(trials: int, workdir: Path, report: Report) -> None:
    rng = random.Random(2026)
    for targeted, count in ((False, trials), (True, max(1, trials // 2))):
        landed: list[str] = []
        outcomes = [
            _crash_trial(workdir / f"crash-{targeted}-{i}", rng, targeted, landed) for i in range(count)
        ]
        where = ", ".join(
            f"{n} {place}" for place, n in sorted(Counter(landed).items(), key=lambda kv: -kv[1])
        )
        good, kills = sum(ok for ok, _ in outcomes), sum(k for _, k in outcomes)
        what = "right after the order row is written" if targeted else "at random moments (up to 3 times)"
        log(f"crashes {what}: {good}/{count}")
        report.rows.append(
            Row(
                "reliability",
                f"killed {what}, then resumed: exactly one order, reported",
                good,
                None,
                f"of {count}",
                target=f"{count} of {count}",
                met=good == count,
                note=f"{kills} SIGKILL(s) landed in {count} run(s) (a run may finish before a planned "
                f"kill) — {where or 'none'}; `webagent run` / `resume` subprocesses, embedded shop on the "
                "run's own database",
            )
        )
