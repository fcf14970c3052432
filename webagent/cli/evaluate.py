"""``webagent eval``: run a task suite; each task passes only if the shop's database shows what it expects."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from webagent.cli.flags import model_flags, ray_flags, remote_browser_flags

__all__ = ["NAME", "add_parser", "execute"]

NAME = "eval"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    evaluate = commands.add_parser(
        NAME,
        help="run a task suite and verify outcomes in the shop's database",
        description="Run TASKS.jsonl; each task passes only if the shop's database "
        "shows exactly what it expects. Exit 0 when all pass.",
    )
    evaluate.add_argument("tasks", type=Path, metavar="TASKS.jsonl")
    evaluate.add_argument("--workers", type=int, default=1, help="tasks run in parallel (default 1)")
    evaluate.add_argument("--only", action="append", default=[], metavar="ID", help="run only these task ids")
    model_flags(evaluate, tuning=False)
    evaluate.add_argument(
        "--consult",
        metavar="local[:KEY]",
        help="the offline planner reads each goal with a small local model too (rules and model together, "
        "as `webagent run --consult local`); not with --ray",
    )
    evaluate.add_argument(
        "--baselines",
        action="store_true",
        help="also run the baseline agents (null, ask, random, gullible, namer; each is a --model too) "
        "and print their scores beside this one",
    )
    evaluate.add_argument("--runs-dir", type=Path, default=Path("runs/eval"), help="where run folders go")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    evaluate.add_argument("--quiet", action="store_true", help="no progress bar")
    evaluate.add_argument(
        "--shop-url",
        help="run every task against this shop, each in a session of its own, verified by that "
        "session's order history (default: a fresh embedded shop per task)",
    )
    remote_browser_flags(evaluate)
    ray_flags(evaluate)


def execute(args: argparse.Namespace) -> int:
    from webagent.evals.command import main as eval_main

    return eval_main(args)
