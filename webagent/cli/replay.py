"""``webagent replay``: re-run a recorded run's tool calls without a model and report divergences (each
call's result, the outcome) and notes (popups that came in one run only)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from webagent.cli.flags import parse_amount, runs_dir_flag, window_flags

__all__ = ["NAME", "add_parser", "execute"]

NAME = "replay"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    replay = commands.add_parser(
        NAME,
        help="re-run a recorded run's tool calls and report divergences",
        description="Re-execute the recorded tool calls without any model, with the recorded run's clutter, "
        "init scripts and popup handling; exit 0 when every call's result and the outcome (an order placed "
        "or not, its total and lines) match, 1 when something diverges. Times and order numbers are masked; "
        "popups that came in one run only are printed as notes, not divergences. "
        "It stops before anything consequential (placing an order, pressing a pay button) and says so, "
        "unless --approve lets the approval gate decide, as in a run.",
    )
    replay.add_argument(
        "target", metavar="RUN", help="a run folder, its transcript.jsonl, or a run id in --runs-dir"
    )
    replay.add_argument("--shop-url", help="replay against this shop instead of a fresh embedded one")
    replay.add_argument("--db", type=Path, help="the embedded shop's database for the replay")
    replay.add_argument(
        "--site",
        metavar="NAME",
        help="the run's own site adapter, when it is one of yours (package.module:NAME): named here, since "
        "webagent never imports an adapter a recording alone names",
    )
    replay.add_argument(
        "--clutter",
        type=int,
        choices=range(5),
        metavar="0-4",
        help="replay with this clutter level instead of the recorded run's (0: no popups)",
    )
    replay.add_argument(
        "--seed", type=int, help="replay with this clutter seed instead of the recorded run's"
    )
    replay.add_argument(
        "--approve",
        choices=("ask", "auto", "deny", "pause"),
        help="let consequential calls (placing the order) pass the approval gate with this policy, as in a "
        "run; without it the replay stops before them",
    )
    replay.add_argument(
        "--budget",
        type=parse_amount,
        metavar="AMOUNT",
        help="with --approve: refuse any order above this total (default: the recorded run's budget)",
    )
    window_flags(replay, headed_default=False)
    replay.add_argument(
        "--trace", action="store_true", help="record the replay as replay-trace.zip in the run folder"
    )
    runs_dir_flag(replay)
    replay.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")


def execute(args: argparse.Namespace) -> int:
    from webagent.runs.replay import replay
    from webagent.sync import run_sync

    target = Path(args.target)
    if not target.exists() and (args.runs_dir / args.target).is_dir():
        target = args.runs_dir / args.target  # a run id
    report = run_sync(
        replay(
            target,
            shop_url=args.shop_url,
            db_path=args.db,
            headed=args.headed,
            slow_mo=args.slow_mo or 0,
            trace=args.trace,
            approve=args.approve,
            budget_cents=args.budget,
            clutter=args.clutter,
            seed=args.seed,
            site=args.site,
        )
    )
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        for d in report.divergences:
            print(
                f"step {d.step} {d.tool} {d.arguments} diverged ({d.what}):\n  expected: "
                + "\n            ".join(d.expected.splitlines())
                + "\n  got:      "
                + "\n            ".join(d.got.splitlines())
            )
        for note in report.notes:
            print(f"note: {note.sentence()}")
        verdict = "no divergence" if report.clean else f"{len(report.divergences)} divergence(s)"
        if report.stopped is not None:
            print(report.stopped.sentence())
        recorded, replayed = report.recorded_order, report.replayed_order
        if replayed is None:
            print(
                f"Outcome not compared (the replay stopped before the end); recorded: {recorded.sentence()}."
            )
        else:
            same = "the same" if replayed.same_as(recorded) else "different"
            print(f"Outcome {same}: recorded {recorded.sentence()}; replayed {replayed.sentence()}.")
        print(f"Replayed {report.replayed} tool calls from {report.transcript}: {verdict}.")
    if report.trace:
        print(
            f"Trace: playwright show-trace --port 9323 {report.trace}",
            file=sys.stderr if args.json else sys.stdout,
        )
    return 0 if report.clean else 1
