"""What every benchmark section shares: the shop set-up, the order and profile, logging."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

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
