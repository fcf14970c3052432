"""Writing ``report.html`` per run and ``eval-report.html`` per suite, each one self-contained HTML file.

Styles and pictures are inlined — no server, no network; a run's report links to the ``transcript.jsonl``
and ``trace.zip`` beside it. Each file is written whole and then renamed, so a report being read is never
half-written. The runner does not import this: its callers pass `write_report` in as the run's report
hook (`webagent.runs.runner.start_run`'s ``report``), so every run they start gets its report.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from webagent.report.html import EvalSuite, EvalTask, render_eval, render_run
from webagent.report.record import REPORT_FILE, read_run

__all__ = ["EVAL_REPORT_FILE", "write_eval_report", "write_report"]

EVAL_REPORT_FILE = "eval-report.html"


def _data_uri(folder: Path, file: str | None) -> str | None:
    if not file:
        return None
    try:
        data = (folder / file).read_bytes()
    except OSError:
        return None
    kind = "png" if file.endswith(".png") else "jpeg"
    return f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")


def _write(path: Path, html: str) -> Path:
    temporary = path.with_suffix(".html.tmp")
    temporary.write_text(html, encoding="utf-8")
    os.replace(temporary, path)
    return path


def write_report(folder: Path) -> Path:
    """Write (or write again) ``report.html`` in a run folder; returns its path."""
    folder = Path(folder)
    record = read_run(folder)
    images = {step.number: _data_uri(folder, step.screenshot) for step in record.steps}
    links = {
        name: name for name in ("transcript.jsonl", "trace.zip", "state.json") if (folder / name).is_file()
    }
    return _write(folder / REPORT_FILE, render_run(record, images, links))


def write_eval_report(
    suite: EvalSuite,
    path: Path,
    *,
    tasks: Sequence[EvalTask] = (),
    baselines: Mapping[str, EvalSuite] | None = None,
) -> Path:
    """Write ``eval-report.html``: each task's verdict, reason and cost, linked to its run's report.

    ``baselines`` are the same suite run by other agents (name → their suite report); each gets a
    column per task and a row in the comparison. ``tasks`` give the goals shown beside the ids.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    links = {}
    for task in suite.tasks:
        report = Path(task.run_dir) / REPORT_FILE if task.run_dir else None
        if report is not None and report.is_file():
            links[task.id] = os.path.relpath(report.resolve(), path.parent.resolve())
    goals = {task.id: task.goal for task in tasks}
    return _write(path, render_eval(suite, links, goals, dict(baselines or {})))
