"""Concurrency: N workers ordering at once as contexts of one shared Browser against one shared shop, beside
the same order clicked through by hand (raw.py `scripted_order_in`) by N workers at once in a browser of its
own, against the same shop; orders/minute and the peak proportional set size (PSS) of the whole process tree
(Python + Playwright drivers + Chromium), so shared pages are not counted twice.

Each level is measured `rounds` times, agent and script alternating (the order flips each round, and the
levels run forwards, then backwards), so what else the machine does falls on both; a level's figure is the
median of its rounds.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psutil
import raw
from common import CLUTTER, PROFILE, SEED, Sampler, log, order_config
from table import Report, Row

from demo_site import running_shop
from webagent.browser.session import Browser
from webagent.report.write import write_report
from webagent.runs.runner import start_run

OF_SCRIPT = 0.75
"""At every N, the agent's orders/minute ≥ this × the hand-clicked script's at the same N, measured in the
same run. The two make the same clicks and wait for the same effects; the agent also reads the page before
and after each call, writes its journal and takes pictures. Alone, that costs it 1.1–1.4× the script's wall
time (end_to_end.py); once the cores are saturated, orders/minute follow CPU per order, and the agent's
CPU target is ≤ 1.3× the script's (1 / 1.3 ≈ 0.77). On a quiet machine (2026-12-03) the agent made 0.80–0.85×
the script's orders/minute at 1 and 4 at once. Each page call costing 30 ms more CPU takes the agent to
about 0.7×, which misses. On a machine loaded by other jobs the ratio came out lower and spread wider
(0.56–0.91 on 2026-12-05). Each round trip then also waits for a core, and the agent makes several times
as many as the script (profile_order.py). Read a miss together with the run's load average."""

PER_CORE = 0.65
"""At N ≥ 2, the agent's orders/minute ≥ this × min(N, cores) × its own 1-run rate, measured in the same run.
One run keeps about 1.1–1.2 cores busy (1.6 CPU s in a 1.4 s warm order). So C free cores allow about
0.85 × C × the 1-run rate, however many runs share them. Measured on 2 cores: 1.5× at 2, 1.7–1.8× at 4
and 8 when the machine was quiet (2026-12-03). With 2 cores this target asks for 1.3×, and a build that runs
the contexts one after another (a lock, or a call that blocks the event loop) stays at 1.0×. The target
assumes the cores are free. On 2026-12-05, with other jobs on them, the agent reached 1.2–1.5× and the
script, in the same runs, 1.2–1.9× its own 1-run rate; the script's figure is in each row's note."""

PSS_OF_SCRIPT = 1.3
"""At the top level, PSS per extra run ≤ this × what each extra hand-clicked order adds at the same N,
measured in the same run. The script's extra order is a browser context with one page. The agent's extra
run is that context and page, plus the run's Python state (the planner, the journal, pictures in flight)
and its share of the driver. Measured 1.10–1.23× at 8 (72–76 MB against 58–69). A run that holds 20 MB
more misses (1.42× when tried), and so does a browser per run instead of a context (~270 MB)."""

TARGET_CONCURRENCY = 8  # the promise: 8 runs at once on a 2-core machine


class PssSampler(Sampler):
    """Samples the PSS of this process and all its descendants in a thread; keeps the peak, and how
    it split between Python, the Playwright drivers, Chromium's renderers and Chromium's other
    processes at that moment."""

    def __init__(self, interval: float = 0.5) -> None:
        super().__init__(interval)
        self.peak = 0
        self.peak_split: dict[str, float] = {}

    @staticmethod
    def tree_split() -> dict[str, int]:
        me = psutil.Process(os.getpid())
        split: dict[str, int] = {}
        for process in [me, *me.children(recursive=True)]:
            try:
                pss = process.memory_full_info().pss
                command = process.cmdline()
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                continue
            if process.pid == me.pid:
                kind = "python"
            elif command and Path(command[0]).name == "node":
                kind = "playwright driver"
            elif "--type=renderer" in command:
                kind = "chromium renderers"
            else:
                kind = "chromium other"
            split[kind] = split.get(kind, 0) + pss
            split[kind + " (processes)"] = split.get(kind + " (processes)", 0) + 1
        return split

    @classmethod
    def tree_pss(cls) -> int:
        return sum(v for k, v in cls.tree_split().items() if not k.endswith("(processes)"))

    def _sample(self) -> None:
        split = self.tree_split()
        total = sum(v for k, v in split.items() if not k.endswith("(processes)"))
        if total > self.peak:
            self.peak = total
            mb = 1024 * 1024
            self.peak_split = {
                k: (v if k.endswith("(processes)") else round(v / mb, 1)) for k, v in split.items()
            }


async def _at_once(n: int, orders_each: int, order: Callable[[], Awaitable[bool]]) -> dict[str, Any]:
    """``n`` workers, each placing ``orders_each`` orders back to back: how many went through, how fast,
    and the peak PSS of the process tree meanwhile."""

    async def worker() -> int:
        return sum([await order() for _ in range(orders_each)])

    with PssSampler() as sampler:
        started = time.perf_counter()
        ordered = sum(await asyncio.gather(*(worker() for _ in range(n))))
        wall = time.perf_counter() - started
    return {
        "ordered": ordered,
        "attempted": n * orders_each,
        "wall_s": round(wall, 3),
        "orders_per_min": round(ordered / wall * 60, 1),
        "peak_pss_mb": round(sampler.peak / 1024**2, 1),
        "peak_split_mb": sampler.peak_split,
    }


async def bench_concurrency(
    levels: list[int], orders_each: int, rounds: int, workdir: Path, report: Report
) -> None:
    db = workdir / "shared.db"
    samples: dict[str, dict[int, list[dict[str, Any]]]] = {"agent": {}, "script": {}}
    with running_shop(db_path=db, clutter=CLUTTER, seed=SEED) as shop:
        browser = await Browser.launch()
        script_browser = await raw.launch()

        async def agent_order() -> bool:
            result = await start_run(order_config(workdir, shop.url), browser=browser, report=write_report)
            return result.outcome == "ordered"

        async def script_order() -> bool:
            await raw.scripted_order_in(script_browser, shop.url, PROFILE)
            return True  # checked in the shop's database below

        try:
            # One untimed order each way so the first level does not pay for cold caches.
            await agent_order()
            await script_order()
            idle = PssSampler.tree_pss()
            for rnd in range(rounds):
                for n in levels if rnd % 2 == 0 else levels[::-1]:
                    whos = ("agent", "script") if (rnd + levels.index(n)) % 2 == 0 else ("script", "agent")
                    for who in whos:
                        before = raw.shop_orders(db)
                        fig = await _at_once(n, orders_each, agent_order if who == "agent" else script_order)
                        fig["in_shop"] = raw.shop_orders(db) - before
                        if who == "script":
                            fig["ordered"] = fig["in_shop"]
                        samples[who].setdefault(n, []).append(fig)
                        log(f"concurrency {who} {n} (round {rnd + 1}): {fig}")
        finally:
            await browser.close()
            await raw.close(script_browser)
    figures = {
        who: {n: _median_of(runs) for n, runs in by_level.items()} for who, by_level in samples.items()
    }
    report.details["concurrency"] = {
        "idle_pss_mb": round(idle / 1024**2, 1),
        "orders_per_worker": orders_each,
        "rounds": rounds,
        "medians": figures,
        "rounds_by_level": samples,
    }
    _rows(levels, figures, report)
    report.notes.append(
        f"Concurrency: N workers each place {orders_each} order(s) back to back, the agent as contexts of one "
        "shared Chromium, the hand-clicked script (raw.py `scripted_order_in`) as contexts of a Chromium of its "
        f"own, against one shared shop (in this process); {rounds} round(s) per level, agent and script "
        "alternating, the median kept; an order counts when the shop's database holds it. Memory is the peak "
        "PSS of the process tree (Python + both Playwright drivers + both Chromiums; the idle one is the same "
        "in both figures), sampled every 0.5 s (one sample costs 10-35 ms of CPU, so not more often)."
    )


def _median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("orders_per_min", "peak_pss_mb", "wall_s")
    return {
        **{key: round(statistics.median(run[key] for run in runs), 1) for key in keys},
        "ordered": sum(run["ordered"] for run in runs),
        "attempted": sum(run["attempted"] for run in runs),
        "peak_split_mb": max(runs, key=lambda run: run["peak_pss_mb"])["peak_split_mb"],
    }


def _rows(levels: list[int], figures: dict[str, dict[int, dict[str, Any]]], report: Report) -> None:
    agent, script = figures["agent"], figures["script"]
    one = agent[levels[0]]["orders_per_min"]
    cores = os.cpu_count() or 1
    for n in levels:
        ours, theirs = agent[n], script[n]
        failed = ours["ordered"] != ours["attempted"] or theirs["ordered"] != theirs["attempted"]
        ratio = round(ours["orders_per_min"] / theirs["orders_per_min"], 2)
        report.rows.append(
            Row(
                "concurrency",
                f"{n} at once: orders/minute vs the hand-clicked script at {n}",
                ours["orders_per_min"],
                theirs["orders_per_min"],
                "/min",
                ratio=ratio,
                target=f"≥ {OF_SCRIPT:.2f}× the script's",
                met=ratio >= OF_SCRIPT and not failed,
                note=f"{ours['ordered']}/{ours['attempted']} agent orders and "
                f"{theirs['ordered']}/{theirs['attempted']} scripted ones in the shop's database",
            )
        )
        if n == levels[0]:
            continue
        ideal = round(n * one, 1)
        floor = PER_CORE * min(n, cores) / n
        ratio = round(ours["orders_per_min"] / ideal, 2)
        script_scaling = theirs["orders_per_min"] / script[levels[0]]["orders_per_min"]
        report.rows.append(
            Row(
                "concurrency",
                f"{n} at once: orders/minute vs {n} × 1 run",
                ours["orders_per_min"],
                ideal,
                "/min",
                ratio=ratio,
                target=f"≥ {floor:.2f}× (= {PER_CORE * min(n, cores):.2f} × 1 run)",
                met=ratio >= floor and not failed,
                note=f"baseline = {n} × the agent's 1-run rate in this run (perfect scaling); "
                f"{ours['orders_per_min'] / one:.2f}× the 1-run rate, the script {script_scaling:.2f}× its own",
            )
        )
    base_one = agent[levels[0]]["peak_pss_mb"]
    for n in levels[1:]:
        per_extra = round((agent[n]["peak_pss_mb"] - base_one) / (n - 1), 1)
        script_extra = round((script[n]["peak_pss_mb"] - script[levels[0]]["peak_pss_mb"]) / (n - 1), 1)
        is_top = n == TARGET_CONCURRENCY
        ratio = round(per_extra / script_extra, 2) if script_extra > 0 else None
        report.rows.append(
            Row(
                "concurrency",
                f"{n} at once: PSS per extra run",
                per_extra,
                script_extra,
                "MB",
                ratio=ratio,
                target=f"≤ {PSS_OF_SCRIPT}× the script's" if is_top else "",
                met=(ratio is not None and ratio <= PSS_OF_SCRIPT) if is_top else None,
                note=f"peak tree PSS {agent[n]['peak_pss_mb']:.0f} MB vs {base_one:.0f} MB for 1 run; "
                f"baseline = what each extra hand-clicked order adds at {n} ({script[n]['peak_pss_mb']:.0f} vs "
                f"{script[levels[0]]['peak_pss_mb']:.0f} MB)"
                + (
                    f"; at the agent's peak (MB, processes): {_split(agent[n]['peak_split_mb'])}"
                    if is_top
                    else ""
                ),
            )
        )


def _split(split: dict[str, float]) -> str:
    kinds = [k for k in split if not k.endswith("(processes)")]
    return ", ".join(f"{k} {split[k]:.0f} MB in {split.get(k + ' (processes)', 0):.0f}" for k in kinds)
