"""What every benchmark section shares: the shop set-up, the order and profile, logging."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Self

from webagent.config import Profile, RunConfig

CLUTTER = 2
SEED = 7
RESTAURANT = "Italian Bistro"
PROFILE = {"name": "Ada Lovelace", "address": "12 Oak Street", "phone": "555-0101"}
GOAL = (
    "Order 2 Margherita Pizza (Large), a Tiramisu and a Spaghetti Carbonara from Italian Bistro, "
    "deliver at 7pm, pay cash"
)


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 1)


def order_config(workdir: Path, shop_url: str | None = None) -> RunConfig:
    """The benchmarked order as a run: planner, automatic approval, the shared clutter and profile."""
    return RunConfig(
        goal=GOAL,
        approve="auto",
        clutter=CLUTTER,
        seed=SEED,
        model="planner",
        profile=Profile(**PROFILE),
        shop_url=shop_url,
        runs_dir=workdir / "runs",
    )


class Sampler:
    """A thread that calls `_sample` every ``interval`` seconds while the ``with`` block runs, and once
    at its start and at its end; `_started` runs after the first sample (baselines)."""

    def __init__(self, interval: float) -> None:
        import threading

        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        raise NotImplementedError

    def _started(self) -> None:
        pass

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()

    def __enter__(self) -> Self:
        self._sample()
        self._started()
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()


class CpuMeter(Sampler):
    """CPU seconds (user + system) of this process (the embedded shop's thread too) and of every process
    it starts, ended ones included, by kind of process: sampled every ``interval`` seconds in a thread,
    each process counted at the last sample it was seen alive in. A process that ends is not reaped by
    this one (Chromium's are the driver's and Chromium's own), so its time cannot be read afterwards;
    what a process spends after its last sample (at most ``interval``: its shutdown) is missed, on both
    sides of a comparison alike."""

    def __init__(self, interval: float = 0.1) -> None:
        super().__init__(interval)
        self._seen: dict[int, tuple[str, float]] = {}
        self._start_self = 0.0
        self._self = 0.0

    @staticmethod
    def _kind(command: list[str]) -> str:
        if command and Path(command[0]).name == "node":
            return "playwright driver"
        for kind in ("renderer", "gpu-process", "utility", "zygote"):
            if f"--type={kind}" in command:
                return f"chromium {kind}"
        return "chromium browser"

    def _sample(self) -> None:
        import psutil

        me = psutil.Process()
        times = me.cpu_times()
        self._self = times.user + times.system
        for process in me.children(recursive=True):
            try:
                with process.oneshot():
                    used = process.cpu_times()
                    key = process.pid
                    kind = self._seen[key][0] if key in self._seen else self._kind(process.cmdline())
            except psutil.Error:
                continue
            self._seen[key] = (kind, used.user + used.system)

    def _started(self) -> None:
        self._start_self = self._self
        self._before = {pid: used for pid, (_, used) in self._seen.items()}

    def split(self) -> dict[str, float]:
        """CPU seconds used between enter and exit, by kind of process."""
        split = {"python (and the shop's thread)": self._self - self._start_self}
        for pid, (kind, used) in self._seen.items():
            split[kind] = split.get(kind, 0.0) + used - self._before.get(pid, 0.0)
        return split

    @property
    def total(self) -> float:
        return sum(self.split().values())
