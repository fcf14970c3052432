"""webagent's benchmarks: one table, each figure beside a baseline measured in the same run.

    python benchmarks/run.py [--json PATH] [--markdown PATH] [--quick] [--only SECTION ...]

Five sections, all on the bundled shop at clutter 2 with the offline planner:

1. tool latency (latency.py) — median of N calls of each tool through the `Toolbox` vs the raw
   Playwright action it wraps (raw.py), interleaved on the same page of the same context;
2. observation size (tokens.py) — tokens (cl100k_base) of our narration vs the page's ARIA snapshot
   (``body``, mode="ai") vs its HTML (``page.content()``), after each step of a typical order;
3. end to end (end_to_end.py) — a 3-dish order through `start_run` (browser launch and shop start
   included) vs the same order clicked through by hand with Playwright (raw.py `scripted_order`);
4. concurrency (concurrency.py) — N ∈ {1, 2, 4, 8} workers ordering at once as contexts of one shared
   Browser against one shared shop, beside the hand-clicked script (raw.py) by N workers at once against
   the same shop; orders/minute against the script's at N and against N × the agent's 1-run rate, and
   the peak proportional set size (PSS) of the whole process tree (Python + Playwright drivers +
   Chromium), so shared pages are not counted twice.
5. reliability (reliability.py) — the order against a shop answering 503 at random (``--flaky`` 0.2 and
   0.4) vs the same at 0, judged in the shop's database (placed, duplicates, false claims); and the
   ``webagent`` command SIGKILLed at random moments and right after its order row, then resumed.

The table, its rows and the machine description are in table.py; shared settings in common.py.
Ratios, not absolute numbers, are what to compare between machines. Benchmarks are not tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere without install
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling modules below

from common import CLUTTER, SEED, log
from concurrency import bench_concurrency
from end_to_end import bench_end_to_end
from latency import bench_latency, bench_overlay_handlers
from reliability import bench_busy_shop, bench_crashes
from table import Report, load_average, machine, render, to_json
from tokens import bench_observation

from demo_site import running_shop
from webagent.browser.session import Browser

SECTIONS = ("latency", "tokens", "end_to_end", "concurrency", "reliability")


async def main_async(args: argparse.Namespace) -> Report:
    reps = args.reps or (9 if args.quick else 60)
    levels = args.levels or ([1, 2] if args.quick else [1, 2, 4, 8])
    only = set(args.only or SECTIONS)
    report = Report(machine=await machine())
    workdir = Path(tempfile.mkdtemp(prefix="webagent-bench-"))
    try:
        if only & {"latency", "tokens"}:
            with running_shop(db_path=workdir / "latency.db", clutter=CLUTTER, seed=SEED) as shop:
                browser = await Browser.launch()
                try:
                    if "latency" in only:
                        log("tool latency")
                        await bench_latency(browser, shop.url, reps, report)
                        log("overlay handler cost")
                        await bench_overlay_handlers(browser, shop.url, reps, report)
                    if "tokens" in only:
                        log("observation size")
                        await bench_observation(browser, shop.url, report)
                finally:
                    await browser.close()
        if "end_to_end" in only:
            log("end to end")
            await bench_end_to_end(1 if args.quick else 3, workdir, report)
        if "concurrency" in only:
            log("concurrency")
            await bench_concurrency(
                levels, 1 if args.quick else 3, args.rounds or (1 if args.quick else 2), workdir, report
            )
        if "reliability" in only:
            log("reliability: a busy shop")
            await bench_busy_shop(4 if args.quick else 20, 2 if args.quick else 5, 2, workdir, report)
            log("reliability: crashes")
            bench_crashes(2 if args.quick else 6, workdir, report)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report.machine["load_average_at_end"] = load_average()
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", type=Path, help="write every figure to this JSON file")
    parser.add_argument("--markdown", type=Path, help="also write the table to this Markdown file")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions: a smoke run")
    parser.add_argument("--reps", type=int, help="calls per tool (default 60; 9 with --quick)")
    parser.add_argument(
        "--levels", type=int, nargs="+", help="concurrency levels, the first the 1-run rate (default 1 2 4 8)"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        help="rounds per concurrency level, agent and script alternating (default 2; 1 with --quick)",
    )
    parser.add_argument(
        "--only", action="append", choices=SECTIONS, help="run only this section (repeatable; default all)"
    )
    args = parser.parse_args()
    report = asyncio.run(main_async(args))
    text = render(report, args.quick)
    print(text)
    if args.markdown:
        args.markdown.write_text("# " + text)
    if args.json:
        args.json.write_text(json.dumps(to_json(report, args.quick), indent=2, ensure_ascii=False))
    missed = [row.metric for row in report.rows if row.met is False]
    if missed:
        print(f"Targets missed: {', '.join(missed)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
