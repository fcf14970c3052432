"""Scale: many orders through `webagent batch` — in one process, and on Ray actors — against one shop.

    python benchmarks/scale.py [--orders N] [--json PATH] [--markdown PATH]

Rows, all the benchmarked 3-dish order (common.py) with the planner, at clutter 2, against one shared
shop (as a shared service would be), through `run_batch` — the code path of ``webagent batch``:

1. orders/minute and peak memory (PSS of the whole process tree: Python, Ray's processes, Playwright
   drivers, Chromium) for 2 and 4 runs at once: in one process as contexts of one browser
   (``--workers``), on 1 Ray actor (``--workers-per-node``), and on 2 Ray actors; the baseline is the
   in-process figure at the same concurrency;
2. per-order wall time with a warm browser (a context of a running Chromium) vs a cold start (Playwright
   and Chromium launched for the order, as ``webagent run`` does), shop start excluded from both;
3. what a Ray actor's start costs (its Chromium launch inside the actor) and the local Ray's own start;
4. the shared shop's own ceiling: orders placed straight through its JSON API by 4 threads (no browser),
   against the rate the agent reaches — which resource runs out first as machines are added;
5. what one order would send a model endpoint: model calls and prompt tokens (cl100k_base, tool schemas
   included), read from the planner's own conversation, for an estimate under an endpoint's rate limit.

benchmarks/README.md turns these into an estimate for N machines. Benchmarks are not tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere without install
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling modules below

from common import CLUTTER, GOAL, SEED, log, order_config
from concurrency import PssSampler
from table import Report, Row, load_average, machine, render, to_json

from demo_site import running_shop
from webagent.agent.checkpoint import RunFolder
from webagent.browser.session import Browser
from webagent.fleet.batch import run_batch
from webagent.fleet.jobs import LocalRunner
from webagent.fleet.lines import parse_batch
from webagent.report.write import write_report
from webagent.runs.runner import start_run
from webagent.sites.demo_shop.session_api import ShopSessions

MB = 1024 * 1024


class TreePss(PssSampler):
    """`PssSampler` that also tells Ray's processes apart: its system (GCS, raylet, …) and its workers."""

    @staticmethod
    def tree_split() -> dict[str, int]:
        import os

        import psutil

        me = psutil.Process(os.getpid())
        split: dict[str, int] = {}
        for process in [me, *me.children(recursive=True)]:
            try:
                pss = process.memory_full_info().pss
                command = process.cmdline()
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                continue
            line = " ".join(command)
            if process.pid == me.pid:
                kind = "python"
            elif command and Path(command[0]).name == "node":
                kind = "playwright driver"
            elif "--type=renderer" in command:
                kind = "chromium renderers"
            elif line.startswith("ray::"):
                kind = "ray workers"
            elif "/ray/" in line or "raylet" in line or "gcs_server" in line:
                kind = "ray system"
            else:
                kind = "chromium other"
            split[kind] = split.get(kind, 0) + pss
            split[kind + " (processes)"] = split.get(kind + " (processes)", 0) + 1
        return split


def _lines(count: int, tag: str) -> str:
    return "\n".join(json.dumps({"id": f"{tag}-{i}", "goal": GOAL}) for i in range(count))


async def _batch(
    shop_url: str, workdir: Path, tag: str, orders: int, runner: Any, workers: int
) -> dict[str, Any]:
    base = order_config(workdir, shop_url)
    out = workdir / f"{tag}.jsonl"
    with TreePss() as sampler:
        started = time.perf_counter()
        summary = await run_batch(
            parse_batch(_lines(orders, tag)),
            out=out,
            base=base,
            runner=runner,
            shop=ShopSessions(shop_url),
            workers=workers,
        )
        wall = time.perf_counter() - started
    figures = {
        "ordered": summary.orders,
        "attempted": orders,
        "wall_s": round(wall, 2),
        "orders_per_min": round(summary.orders / wall * 60, 1),
        "peak_pss_mb": round(sampler.peak / MB, 1),
        "peak_split_mb": sampler.peak_split,
    }
    log(f"{tag}: {figures}")
    return figures


async def bench_in_process(shop_url: str, workdir: Path, orders: int, at_once: int) -> dict[str, Any]:
    async with await Browser.launch() as browser:
        await start_run(
            order_config(workdir, shop_url), browser=browser, report=write_report
        )  # untimed: warm caches
        runner = LocalRunner(browser, workdir / "runs")
        return await _batch(shop_url, workdir, f"local-{at_once}", orders, runner, at_once)


async def bench_ray(shop_url: str, workdir: Path, orders: int, actors: int, per_actor: int) -> dict[str, Any]:
    from webagent.fleet.distributed import RayLineRunner, ray_pool

    started = time.perf_counter()
    async with ray_pool("local", actors=actors, per_actor=per_actor, ws_url=None, cdp_url=None) as pool:
        ready_s = time.perf_counter() - started
        runner = RayLineRunner(pool, workdir / "runs")
        await run_batch(  # untimed: each actor's first order warms its caches
            parse_batch(_lines(actors, f"warm-{actors}x{per_actor}")),
            out=workdir / f"warm-{actors}x{per_actor}.jsonl",
            base=order_config(workdir, shop_url),
            runner=runner,
            shop=ShopSessions(shop_url),
            workers=actors,
        )
        figures = await _batch(shop_url, workdir, f"ray-{actors}x{per_actor}", orders, runner, pool.capacity)
        figures["actors_ready_s"] = round(ready_s, 2)
        figures["browser_start_s"] = [round(a.info["browser_s"], 2) for a in pool.actors]
        return figures


async def bench_warm_vs_cold(shop_url: str, workdir: Path, reps: int) -> dict[str, Any]:
    cold, warm = [], []
    async with await Browser.launch() as browser:
        await start_run(order_config(workdir, shop_url), browser=browser, report=write_report)  # untimed
        for _ in range(reps):  # interleaved, so load on the machine hits both alike
            started = time.perf_counter()
            result = await start_run(order_config(workdir, shop_url), browser=browser, report=write_report)
            warm.append(time.perf_counter() - started)
            assert result.outcome == "ordered", result.message
            started = time.perf_counter()
            result = await start_run(order_config(workdir, shop_url), report=write_report)
            cold.append(time.perf_counter() - started)
            assert result.outcome == "ordered", result.message
    figures = {"warm_s": warm, "cold_s": cold}
    log(f"warm vs cold: medians {statistics.median(warm):.2f} s / {statistics.median(cold):.2f} s")
    return figures


def bench_shop_api(shop_url: str, seconds: float = 10.0, threads: int = 4) -> dict[str, Any]:
    """Orders placed straight through the shop's API: session, 2 cart adds, the order."""
    shop = ShopSessions(shop_url)
    placed: list[float] = []
    stop = time.monotonic() + seconds

    def call(cookie: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(
            shop_url + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Cookie": cookie, "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def customer() -> None:
        while time.monotonic() < stop:
            cookies = shop._open()
            cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
            call(
                cookie,
                "POST",
                "/api/cart/items",
                {"dish_id": "italian-bistro--tiramisu", "quantity": 2, "options": {}},
            )
            cart = call(
                cookie,
                "POST",
                "/api/cart/items",
                {"dish_id": "italian-bistro--lasagna-al-forno", "quantity": 1, "options": {}},
            )
            details = {"name": "Ada", "address": "12 Oak Street", "phone": "555-0101"}
            call(
                cookie,
                "POST",
                "/api/orders",
                {
                    **details,
                    "delivery_slot": "ASAP",
                    "payment_method": "Cash",
                    "checkout_token": cart["checkout_token"],
                },
            )
            placed.append(time.monotonic())

    started = time.monotonic()
    workers = [threading.Thread(target=customer) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    wall = time.monotonic() - started
    figures = {
        "orders": len(placed),
        "wall_s": round(wall, 2),
        "orders_per_min": round(len(placed) / wall * 60),
    }
    log(f"shop API: {figures}")
    return figures


async def shop_requests_per_order(shop_url: str, workdir: Path) -> dict[str, Any]:
    """HTTP requests one agent order makes of the shop (page loads, scripts, API), as its browser sends them."""
    seen: list[str] = []

    class Counting(Browser):
        async def new_session(self, *args: Any, **kwargs: Any) -> Any:
            session = await super().new_session(*args, **kwargs)
            session.context.on("request", lambda request: seen.append(request.url))
            return session

    launched = await Browser.launch()
    counting = Counting(launched._playwright, launched._browser)
    try:
        result = await start_run(order_config(workdir, shop_url), browser=counting, report=write_report)
    finally:
        await counting.close()
    api = [url for url in seen if "/api/" in url]
    figures = {"requests": len(seen), "api_requests": len(api), "outcome": result.outcome}
    log(f"shop requests per agent order: {figures}")
    return figures


def model_load_per_order(run_dir: Path) -> dict[str, Any]:
    """Model calls and prompt tokens one order sends, from the planner's conversation (what an LLM
    following the same path would be sent: system prompt, tool schemas, every message so far)."""
    from tokens import encoder

    from webagent.sites.demo_shop import TOOLS
    from webagent.tools.toolbox import tool_schemas

    encoding = encoder()
    messages = RunFolder(run_dir.parent, run_dir.name).load().messages
    schemas = len(encoding.encode(json.dumps(tool_schemas(TOOLS))))
    prompts = []
    for i, message in enumerate(messages):
        if message.get("role") == "assistant":  # a model call was made with everything before it
            prompts.append(schemas + sum(len(encoding.encode(json.dumps(m))) for m in messages[:i]))
    completions = [len(encoding.encode(json.dumps(m))) for m in messages if m.get("role") == "assistant"]
    figures = {
        "model_calls": len(prompts),
        "prompt_tokens": sum(prompts),
        "completion_tokens": sum(completions),
        "tool_schema_tokens": schemas,
    }
    log(f"model load per order: {figures}")
    return figures


async def main_async(args: argparse.Namespace) -> Report:
    from webagent.fleet.distributed import ray_cluster

    report = Report(machine=await machine())
    workdir = Path(tempfile.mkdtemp(prefix="webagent-scale-"))
    figures: dict[str, Any] = {}
    try:
        with running_shop(db_path=workdir / "shared.db", clutter=CLUTTER, seed=SEED) as shop:
            figures["warm_vs_cold"] = await bench_warm_vs_cold(shop.url, workdir, args.reps)
            for at_once in (2, 4):
                figures[f"local-{at_once}"] = await bench_in_process(shop.url, workdir, args.orders, at_once)
            started = time.perf_counter()
            with ray_cluster("local", cpus=2):
                figures["ray_start_s"] = round(time.perf_counter() - started, 2)
                idle = TreePss.tree_split()
                figures["ray_idle_mb"] = round(
                    sum(v for k, v in idle.items() if k.startswith("ray") and not k.endswith("(processes)"))
                    / MB,
                    1,
                )
                for actors, per_actor in ((1, 2), (2, 1), (1, 4), (2, 2)):
                    name = f"ray-{actors}x{per_actor}"
                    figures[name] = await bench_ray(shop.url, workdir, args.orders, actors, per_actor)
            figures["shop_api"] = bench_shop_api(shop.url)
            figures["shop_requests"] = await shop_requests_per_order(shop.url, workdir)
            sample = next(iter(sorted((workdir / "runs").glob("*/state.json"))))
            figures["model"] = model_load_per_order(sample.parent)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report.details["scale"] = figures
    _rows(report, figures)
    report.machine["load_average_at_end"] = load_average()
    return report


def _rows(report: Report, f: dict[str, Any]) -> None:
    for at_once in (2, 4):
        local = f[f"local-{at_once}"]
        ways = [(f"in one process, {at_once} contexts of one browser", local)]
        ways += [
            (f"Ray, {a} actor{'s' if a > 1 else ''} × {p} context{'s' if p > 1 else ''}", f[f"ray-{a}x{p}"])
            for a, p in ((1, at_once), (2, at_once // 2))
        ]
        for label, fig in ways:
            report.rows.append(
                Row(
                    "scale",
                    f"{at_once} at once, {label}: orders/min",
                    fig["orders_per_min"],
                    local["orders_per_min"],
                    "/min",
                    ratio=round(fig["orders_per_min"] / local["orders_per_min"], 2),
                    note=f"{fig['ordered']}/{fig['attempted']} ordered in {fig['wall_s']} s",
                )
            )
            report.rows.append(
                Row(
                    "scale",
                    f"{at_once} at once, {label}: peak PSS",
                    fig["peak_pss_mb"],
                    local["peak_pss_mb"],
                    "MB",
                    ratio=round(fig["peak_pss_mb"] / local["peak_pss_mb"], 2),
                    note="whole process tree at its peak (MB, processes): "
                    + ", ".join(
                        f"{k} {v:.0f} in {fig['peak_split_mb'].get(k + ' (processes)', 0):.0f}"
                        for k, v in fig["peak_split_mb"].items()
                        if not k.endswith("(processes)")
                    ),
                )
            )
    warm, cold = (statistics.median(f["warm_vs_cold"][k]) for k in ("warm_s", "cold_s"))
    report.rows.append(
        Row(
            "scale",
            "one order, warm browser (a new context)",
            round(warm, 2),
            round(cold, 2),
            "s",
            ratio=round(warm / cold, 2),
            note=f"baseline: the same order with Playwright and Chromium started for it (cold); medians of "
            f"{len(f['warm_vs_cold']['warm_s'])}, interleaved; shop already running for both",
        )
    )
    starts = [s for name in ("ray-1x2", "ray-2x1", "ray-1x4", "ray-2x2") for s in f[name]["browser_start_s"]]
    report.rows.append(
        Row(
            "scale",
            "Ray actor start (its Chromium launch inside it)",
            round(statistics.median(starts), 2),
            None,
            "s",
            note=f"median of {len(starts)} actors; the local Ray itself took {f['ray_start_s']} s to start "
            f"and holds {f.get('ray_idle_mb', '?')} MB (PSS) with no actor",
        )
    )
    api, best = f["shop_api"], max(f[k]["orders_per_min"] for k in f if k.startswith(("local-", "ray-")))
    report.rows.append(
        Row(
            "scale",
            "the shared shop's own ceiling: orders/min through its API",
            api["orders_per_min"],
            best,
            "/min",
            ratio=round(api["orders_per_min"] / best, 1),
            note=f"{api['orders']} orders by 4 threads in {api['wall_s']} s (4 requests each: session, 2 cart adds, "
            "the order; no browser) on the same 2 cores; baseline = the best agent rate above; an agent's order "
            f"makes {f['shop_requests']['requests']} requests of the shop ({f['shop_requests']['api_requests']} to its API)",
        )
    )
    model = f["model"]
    report.rows.append(
        Row(
            "scale",
            "model load per order: calls / prompt tokens",
            model["model_calls"],
            None,
            "calls",
            note=f"{model['prompt_tokens']:,} prompt + {model['completion_tokens']:,} completion tokens (cl100k_base) "
            f"if an LLM took the planner's path; {model['tool_schema_tokens']:,} of each prompt are the tool schemas",
        )
    )
    report.notes.append(
        "Scale: every configuration orders the same 3-dish goal through run_batch (the code path of "
        "`webagent batch`: a shop session opened per line, the attempt log, the result file) against one "
        "shared shop served from this process; Ray rows run on a local Ray (2 CPUs) whose actors each "
        "hold one Chromium, with each actor's first order untimed, as the in-process rows' first order is."
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--orders", type=int, default=12, help="orders per configuration (default 12)")
    parser.add_argument("--reps", type=int, default=5, help="warm and cold orders each (default 5)")
    parser.add_argument("--json", type=Path, help="write every figure to this JSON file")
    parser.add_argument("--markdown", type=Path, help="also write the table to this Markdown file")
    args = parser.parse_args()
    report = asyncio.run(main_async(args))
    text = render(report, quick=False)
    print(text)
    if args.markdown:
        args.markdown.write_text("# " + text)
    if args.json:
        args.json.write_text(json.dumps(to_json(report, False), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
