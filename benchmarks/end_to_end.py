"""End to end: a 3-dish order through `start_run` vs the same order clicked through by hand with
Playwright (raw.py), each round both ways, interleaved:

- cold: browser launch and shop start included (`start_run` with its embedded shop; raw.py
  `scripted_order` with `running_shop`);
- warm: a browser and a shop already running, one new context per order (`start_run(browser=…)`; raw.py
  `scripted_order_in`) — what each order of a batch or a service costs.

For each: wall time, and the CPU seconds of the whole process tree (Python with the shop's thread, the
Playwright driver, Chromium and its renderers, ended ones included: common.py `tree_cpu_s`).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import raw
from common import CLUTTER, PROFILE, SEED, CpuMeter, log, order_config
from table import Report, Row

from demo_site import running_shop
from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.report.write import write_report
from webagent.runs.runner import start_run

SPLITS: dict[str, list[dict[str, float]]] = {}

CALLS_PER_ACTION = 0.5
"""Model calls per order ≤ this × the same order's tool calls, both from the same runs: the tool calls are the
model calls an agent that makes one call a turn needs for the same actions. That is how the local models run
(one call a turn: docs/local-model.md measured the 1.5B at 11 turns for the 2-dish demo order, and 9.4 model
calls a task against the planner's 3.6 on five eval tasks), and how a Playwright MCP client acts (one
browser action a call, each after reading the snapshot the last one returned). Playwright MCP and browser-use
were not run on this order, so no count of theirs is measured. The planner sends at once the calls one page
allows: measured 4 model calls for 9 tool calls (0.44×); a planner that made one call a turn would be at
1.0×, one that split any of its turns in two at 0.56×."""


async def _timed(run: Callable[[], Awaitable[Any]], key: str) -> tuple[float, float, Any]:
    with CpuMeter() as cpu:
        started = time.perf_counter()
        value = await run()
        wall = time.perf_counter() - started
    SPLITS.setdefault(key, []).append(cpu.split())
    return wall, cpu.total, value


def _median(samples: list[float]) -> float:
    return round(statistics.median(samples), 3)


async def bench_end_to_end(reps: int, workdir: Path, report: Report) -> None:
    figures: dict[str, dict[str, list[float]]] = {
        f"{how} {who}": {"wall": [], "cpu": []} for how in ("cold", "warm") for who in ("agent", "raw")
    }
    results: list[RunResult] = []

    async def agent_cold() -> RunResult:
        return await start_run(order_config(workdir), report=write_report)

    async def raw_cold(db: Path) -> None:
        with running_shop(db_path=db, clutter=CLUTTER, seed=SEED) as shop:
            await raw.scripted_order(shop.url, PROFILE)

    with running_shop(db_path=workdir / "warm.db", clutter=CLUTTER, seed=SEED) as shop:
        browser = await Browser.launch()
        raw_browser = await raw.launch()
        try:
            for rep in range(reps + 1):  # the first round warms the disk cache and is not counted
                for who in ("agent", "raw") if rep % 2 == 0 else ("raw", "agent"):
                    db = workdir / f"raw-{rep}.db"
                    if who == "agent":
                        cold = await _timed(agent_cold, "cold agent")
                        warm = await _timed(
                            lambda: start_run(
                                order_config(workdir, shop.url), browser=browser, report=write_report
                            ),
                            "warm agent",
                        )
                        for result in (cold[2], warm[2]):
                            if result.outcome != "ordered":
                                raise SystemExit(f"the scripted order did not go through: {result.message}")
                        if rep:
                            results.append(cold[2])
                    else:
                        cold = await _timed(lambda db=db: raw_cold(db), "cold raw")
                        if raw.shop_orders(db) != 1:
                            raise SystemExit("the hand-scripted baseline order did not reach the shop")
                        warm = await _timed(
                            lambda: raw.scripted_order_in(raw_browser, shop.url, PROFILE), "warm raw"
                        )
                    if rep:
                        for how, (wall, cpu, _) in (("cold", cold), ("warm", warm)):
                            figures[f"{how} {who}"]["wall"].append(wall)
                            figures[f"{how} {who}"]["cpu"].append(cpu)
        finally:
            await browser.close()
            await raw.close(raw_browser)
    med = {key: {kind: _median(v) for kind, v in f.items()} for key, f in figures.items()}
    loop_s = _median([r.wall_s for r in results])
    busiest = max(results, key=lambda r: (r.model_calls / r.tool_calls, r.model_calls))
    model_calls, tool_calls = busiest.model_calls, busiest.tool_calls
    report.details["end_to_end"] = {
        "samples": {
            key: {kind: [round(s, 3) for s in v] for kind, v in f.items()} for key, f in figures.items()
        },
        "medians": med,
        "cpu_split_s": {
            key: {
                kind: round(statistics.median(s.get(kind, 0.0) for s in splits[1:] or splits), 3)
                for kind in splits[0]
            }
            for key, splits in SPLITS.items()
        },
        "agent_loop_s": loop_s,
        "runs": [r.model_dump(mode="json") for r in results],
    }

    def row(metric: str, key: str, kind: str, unit: str, limit: float | None, note: str) -> None:
        ours, theirs = med[f"{key} agent"][kind], med[f"{key} raw"][kind]
        ratio = round(ours / theirs, 2)
        report.rows.append(
            Row(
                "end to end",
                metric,
                ours,
                theirs,
                unit,
                ratio=ratio,
                target="" if limit is None else f"≤ {limit:.1f}× the hand-clicked order",
                met=None if limit is None else ratio <= limit,
                note=note,
            )
        )

    rounds = f"median of {reps} rounds after one warm-up round, agent and script interleaved"
    row(
        "3-dish order, wall incl. browser launch",
        "cold",
        "wall",
        "s",
        1.0,
        "`start_run` (embedded shop start + Chromium launch + planner + tools + run folder + report) vs "
        "the same order clicked through by hand with Playwright (shop start + Chromium launch, no "
        f"narration, no checks); {rounds}. Of the {med['cold agent']['wall']} s, the agent loop itself "
        f"(RunResult.wall_s) took {loop_s} s",
    )
    row(
        "3-dish order, wall, warm browser (no launch)",
        "warm",
        "wall",
        "s",
        1.0,
        f"a new context of a browser already running, against a shop already running; {rounds}",
    )
    row(
        "CPU per order, whole process tree, incl. launch",
        "cold",
        "cpu",
        "CPU s",
        None,
        "user + system seconds of this process (the shop's thread too) and every process it started, "
        "ended ones included (Playwright driver, Chromium, renderers), sampled every 0.1 s (common.py "
        "`CpuMeter`); the split by process is in the JSON details",
    )
    row(
        "CPU per order, whole process tree, warm browser",
        "warm",
        "cpu",
        "CPU s",
        1.3,
        "as above, in a browser and shop already running: the cost of each order of a batch",
    )
    calls_ratio = round(model_calls / tool_calls, 2)
    report.rows.append(
        Row(
            "end to end",
            "model calls per order vs one call a turn",
            model_calls,
            tool_calls,
            "calls",
            ratio=calls_ratio,
            target=f"≤ {CALLS_PER_ACTION}× one call a turn",
            met=calls_ratio <= CALLS_PER_ACTION,
            note=f"baseline = the order's {tool_calls} tool calls (incl. finish), each a model call for an agent "
            "that makes one call a turn, as the local models do (the 1.5B: 11 model calls for the 2-dish demo "
            "order, docs/local-model.md) and a Playwright MCP client does; the run of the "
            f"{len(results)} with the most model calls per tool call",
        )
    )
    log(f"end to end: {med}, {model_calls} model calls, {tool_calls} tool calls")
