"""The shipped suite end to end with the planner: every task passes (the product's claim).

A file of its own: with ``--dist loadfile`` it runs on one pytest-xdist worker while the rest of the suite
runs on the others.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from webagent.evals.suite import run_suite
from webagent.evals.tasks import load_tasks
from webagent.sync import run_sync

SUITE = Path(__file__).resolve().parents[2] / "evals" / "tasks.jsonl"


@pytest.mark.slow
def test_the_shipped_suite_passes_with_the_planner(tmp_path: Path) -> None:
    # No screenshots: nobody looks at these 89 reports (one a line of evals/tasks.jsonl), and they cost a
    # tenth of the suite's time.
    tasks = load_tasks(SUITE)
    report = run_sync(run_suite(tasks, runs_dir=tmp_path, workers=2, model="planner", screenshots=False))
    lines = "\n".join(task.line() for task in report.tasks)
    assert (
        report.summary["false_claims"]
        == report.summary["bought_beyond_goal"]
        == report.summary["wrong_orders"]
        == 0
    ), lines
    assert report.summary["passed"] == report.summary["total"] == len(report.tasks) == len(tasks), lines
    assert all(Path(task.run_dir, "transcript.jsonl").exists() for task in report.tasks)
