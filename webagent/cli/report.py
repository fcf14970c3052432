"""``webagent report``: write a run's report.html (again) from its folder."""

from __future__ import annotations

import argparse
from typing import Any

from webagent.cli.config import run_location
from webagent.cli.flags import runs_dir_flag

__all__ = ["NAME", "add_parser", "execute"]

NAME = "report"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    report = commands.add_parser(
        NAME,
        help="write a run's report.html (again)",
        description="Write report.html in a run's folder from its transcript, checkpoint and screenshots: "
        "one self-contained file with every model turn, tool call, narration and screenshot.",
    )
    report.add_argument("run", metavar="RUN", help="a run id (in --runs-dir) or a run folder")
    runs_dir_flag(report)


def execute(args: argparse.Namespace) -> int:
    from webagent.agent.checkpoint import RunFolder
    from webagent.report.write import write_report

    runs_dir, run_id = run_location(args.run, args.runs_dir)
    folder = RunFolder.find(runs_dir, run_id)
    print(write_report(folder.path))
    return 0
