"""The table: its rows (a figure, its same-run baseline, their ratio, the target), the machine it ran
on, and its Markdown and JSON forms."""

from __future__ import annotations

import datetime as dt
import os
import platform
from dataclasses import asdict, dataclass, field
from typing import Any

import psutil
from common import CLUTTER

from demo_site import running_shop
from webagent.browser.session import Browser
from webagent.sites.demo_shop import DEMO_SHOP


@dataclass
class Row:
    """One line of the table: a figure, its same-run baseline, their ratio and the product's target."""

    section: str
    metric: str
    measured: float
    baseline: float | None
    unit: str
    ratio: float | None = None
    target: str = ""
    met: bool | None = None
    note: str = ""

    def cells(self) -> list[str]:
        def fmt(value: float | None) -> str:
            if value is None:
                return "—"
            return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.2f}".rstrip("0").rstrip(".")

        ratio = "—" if self.ratio is None else f"{self.ratio:.2f}×"
        met = "—" if self.met is None else ("yes" if self.met else "**NO**")
        return [
            self.section,
            self.metric,
            f"{fmt(self.measured)} {self.unit}",
            "—" if self.baseline is None else f"{fmt(self.baseline)} {self.unit}",
            ratio,
            self.target or "—",
            met,
        ]


@dataclass
class Report:
    machine: dict[str, Any]
    rows: list[Row] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


async def machine() -> dict[str, Any]:
    browser = await Browser.launch()
    try:
        with running_shop(clutter=0) as shop:
            session = await browser.new_session(shop.url, DEMO_SHOP)
            version = session.context.browser.version if session.context.browser else "?"
            await session.close()
    finally:
        await browser.close()
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "chromium": version,
        "memory_gb": round(psutil.virtual_memory().total / 1024**3, 1),
        "load_average_at_start": load_average(),
    }


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def render(report: Report, quick: bool) -> str:
    m = report.machine
    head = ["section", "metric", "measured", "baseline", "ratio", "target", "met"]
    lines = [
        f"Benchmarks — {m['date']}{' (quick run)' if quick else ''}",
        "",
        f"Machine: {m['cpus']} CPUs, {m['memory_gb']} GB, {m['platform']}, Python {m['python']}, "
        f"Chromium {m['chromium']}. Load average (1/5/15 min) {m['load_average_at_start']} at start, "
        f"{m.get('load_average_at_end')} at the end. Shop at clutter {CLUTTER}, offline planner.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
    ]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in report.rows]
    judged = [row for row in report.rows if row.met is not None]
    missed = [f"{row.section}: {row.metric}" for row in judged if not row.met]
    lines += [
        "",
        f"Targets met: {len(judged) - len(missed)} of {len(judged)}."
        + (f" Missed: {'; '.join(missed)}." if missed else ""),
    ]
    lines += ["", "Notes:", ""]
    lines += [f"- {row.metric}: {row.note}" for row in report.rows if row.note]
    lines += [f"- {note}" for note in report.notes]
    return "\n".join(lines) + "\n"


def to_json(report: Report, quick: bool) -> dict[str, Any]:
    return {
        "machine": report.machine,
        "quick": quick,
        "rows": [asdict(row) for row in report.rows],
        "details": report.details,
        "notes": report.notes,
    }
