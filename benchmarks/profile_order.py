"""Where one order's time and CPU go: not a benchmark with a baseline, a profile to read.

    python benchmarks/profile_order.py [--orders N] [--screenshots views|all|off] [--cprofile PATH]

Runs N orders (default 3) as contexts of one warm browser against one shop, after one untimed order,
and prints per order:

- the wall time spent in each concern — obstruction checks, page reads, screenshots, the known-overlay
  handler, breadcrumb syncs, journal writes (checkpoint saves, transcript records) — timed by wrapping
  those functions for this process only;
- every Playwright protocol call, by the concern it was made for and its method (``Frame.click``,
  ``Frame.waitForFunction``…): count and wall time per order;
- CPU seconds per order of each kind of process in the tree (Python, the driver, Chromium's browser,
  GPU, utility and renderer processes — ended renderers through what their parent reaped).

``--cprofile PATH`` also writes a cProfile of the Python side (read it with ``python -m pstats``).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextvars
import cProfile
import functools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import psutil
from common import CLUTTER, SEED, order_config
from playwright._impl.connection import Connection
from playwright.async_api import Page

import webagent.agent.checkpoint as checkpoint
import webagent.browser.obstruction as obstruction
import webagent.tools.context as context
from demo_site import running_shop
from webagent.browser.session import Browser, PageSession
from webagent.report.write import write_report
from webagent.runs.runner import start_run

OWN = "the tools' own actions and waits"
CONCERN = contextvars.ContextVar("concern", default=OWN)
wall: collections.Counter[str] = collections.Counter()
calls: collections.Counter[str] = collections.Counter()
protocol: collections.Counter[tuple[str, str]] = collections.Counter()
protocol_calls: collections.Counter[tuple[str, str]] = collections.Counter()


def _timed_async(owner: Any, name: str, concern: str) -> None:
    original = getattr(owner, name)

    @functools.wraps(original)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        if CONCERN.get() != OWN:
            return await original(*args, **kwargs)  # inside another concern: counted there
        token, started = CONCERN.set(concern), time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            wall[concern] += time.perf_counter() - started
            calls[concern] += 1
            CONCERN.reset(token)

    setattr(owner, name, timed)


def _timed_sync(owner: Any, name: str, concern: str) -> None:
    original = getattr(owner, name)

    @functools.wraps(original)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            wall[concern] += time.perf_counter() - started
            calls[concern] += 1

    setattr(owner, name, timed)


def _count_protocol() -> None:
    send: Callable[..., Any] = Connection.send_message_to_server

    def counted(self: Connection, owner: Any, method: str, params: Any, options: Any) -> Any:
        future = send(self, owner, method, params, options)
        key, started = (CONCERN.get(), f"{owner._type}.{method}"), time.perf_counter()

        def done(_: Any) -> None:
            protocol[key] += time.perf_counter() - started
            protocol_calls[key] += 1

        if hasattr(future, "add_done_callback"):
            future.add_done_callback(done)
        return future

    Connection.send_message_to_server = counted  # type: ignore[method-assign]


def _kind(process: psutil.Process, me: int) -> str:
    if process.pid == me:
        return "python (and the shop's thread)"
    command = " ".join(process.cmdline())
    if "node" in Path(process.cmdline()[0]).name:
        return "playwright driver"
    for kind in ("renderer", "gpu-process", "utility", "zygote"):
        if f"--type={kind}" in command:
            return f"chromium {kind}" + (" (and the renderers it reaped)" if kind == "zygote" else "")
    return "chromium browser"


def cpu_by_kind() -> dict[str, float]:
    me = psutil.Process()
    split: dict[str, float] = collections.defaultdict(float)
    for process in [me, *me.children(recursive=True)]:
        try:
            times, kind = process.cpu_times(), _kind(process, me.pid)
        except (psutil.Error, IndexError):
            continue
        split[kind] += times.user + times.system
        if process.pid != me.pid:  # Python's own children are the live ones listed here
            split[kind] += times.children_user + times.children_system
    return split


async def main_async(orders: int, screenshots: str, profile: Path | None) -> None:
    for owner, name, concern in (
        (obstruction, "clear_way", "obstruction checks"),
        (context.ToolContext, "read", "page reads"),
        (PageSession, "capture", "screenshots (off the critical path)")
        if hasattr(PageSession, "capture")
        else (Page, "screenshot", "screenshots"),  # before issue 22: Playwright's, awaited
        (PageSession, "_dismiss_known", "known-overlay handler"),
        (PageSession, "sync_breadcrumbs", "breadcrumb syncs"),
    ):
        _timed_async(owner, name, concern)
    _timed_sync(checkpoint.RunFolder, "save", "journal: checkpoint saves")
    _timed_sync(checkpoint.RunFolder, "record", "journal: transcript records")
    _count_protocol()
    workdir = Path(tempfile.mkdtemp(prefix="webagent-profile-"))
    with running_shop(db_path=workdir / "shop.db", clutter=CLUTTER, seed=SEED) as shop:
        browser = await Browser.launch()
        config = order_config(workdir, shop.url).model_copy(update={"screenshots": screenshots})
        await start_run(config, browser=browser, report=write_report)  # untimed: warm caches
        for counter in (wall, calls, protocol, protocol_calls):
            counter.clear()
        cpu_before, started, loop_s = cpu_by_kind(), time.perf_counter(), 0.0
        profiler = cProfile.Profile() if profile else None
        if profiler:
            profiler.enable()
        for _ in range(orders):
            result = await start_run(config, browser=browser, report=write_report)
            if result.outcome != "ordered":
                raise SystemExit(f"the order did not go through: {result.message}")
            loop_s += result.wall_s
        if profiler and profile:
            profiler.disable()
            profiler.dump_stats(profile)
        elapsed, cpu_after = time.perf_counter() - started, cpu_by_kind()
        await browser.close()
    per = 1000 / orders
    print(
        f"Per order ({orders} orders, warm browser): wall {elapsed * per:.0f} ms, agent loop {loop_s * per:.0f} ms"
    )
    print("\nWall time by concern (ms per order, calls per order):")
    for concern, seconds in wall.most_common():
        print(f"  {concern:40s} {seconds * per:7.0f} ms  {calls[concern] / orders:5.1f}")
    print("\nPlaywright protocol calls by concern and method (ms per order, calls per order):")
    for (concern, method), seconds in protocol.most_common(30):
        print(
            f"  {concern:40s} {method:40s} {seconds * per:7.1f} ms  {protocol_calls[(concern, method)] / orders:5.1f}"
        )
    print("\nCPU seconds per order by process kind:")
    total = 0.0
    for kind in sorted(cpu_after):
        used = (cpu_after[kind] - cpu_before.get(kind, 0.0)) / orders
        total += used
        print(f"  {kind:55s} {used:6.3f}")
    print(f"  {'all':55s} {total:6.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--orders", type=int, default=3)
    parser.add_argument("--screenshots", choices=("views", "all", "off"), default="views")
    parser.add_argument("--no-screenshots", dest="screenshots", action="store_const", const="off")
    parser.add_argument("--cprofile", type=Path)
    args = parser.parse_args()
    asyncio.run(main_async(args.orders, args.screenshots, args.cprofile))


if __name__ == "__main__":
    main()
