"""``webagent runs``: the most recent runs in the runs directory, newest first, one line each."""

from __future__ import annotations

import argparse
import json
from typing import Any

from webagent.cli.flags import runs_dir_flag

__all__ = ["NAME", "add_parser", "execute"]

NAME = "runs"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    runs = commands.add_parser(
        NAME,
        help="list recent runs: id, goal, outcome, order, steps, wall time",
        description="The most recent runs in the runs directory, newest first.",
    )
    runs_dir_flag(runs)
    runs.add_argument("--limit", type=int, default=20, metavar="N", help="how many (default 20; 0 for all)")
    runs.add_argument("--json", action="store_true", help="print a JSON list on stdout")


def execute(args: argparse.Namespace) -> int:
    from webagent.narration.money import money
    from webagent.report.record import list_runs

    runs = list_runs(args.runs_dir, limit=args.limit or None)
    if args.json:
        print(json.dumps([run.as_json() for run in runs]))
        return 0
    if not runs:
        print(f"No runs in {args.runs_dir}.")
        return 0
    for run in runs:
        order = f"#{run.order_id} {money(run.total_cents)}" if run.order_id is not None else "—"
        goal = run.goal if len(run.goal) <= 60 else run.goal[:59] + "…"
        print(
            f"{run.run_id}  {run.outcome:<10} {order:<14} {run.steps:>3} steps {run.wall_s:>6.1f} s  {goal}"
        )
    return 0
