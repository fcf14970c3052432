"""What the end of a run prints, and the live view while it goes.

`finish` gives a run's exit code; `failure_json` is the one JSON object of a run that stopped on an
error instead (``--json`` promises exactly one object on stdout whatever stops ``run`` or ``resume``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from webagent.agent.result import RunResult

__all__ = ["JSON_COMMANDS", "failure_json", "finish", "live_view"]

JSON_COMMANDS = ("run", "resume")
"""The commands whose ``--json`` prints one JSON object even when they stop on an error."""


def finish(result: RunResult, args: argparse.Namespace) -> int:
    from webagent.narration.money import money
    from webagent.report.live import summary_line

    if args.json:
        print(json.dumps(result.model_dump(mode="json")))
    elif not args.quiet or result.outcome != "ordered":
        print(summary_line(result))
    else:
        print(f"Ordered: order #{result.order_id}, total {money(result.total_cents)}")
    report = Path(result.run_dir) / "report.html"
    if result.run_dir and report.is_file() and not getattr(args, "quiet", False):
        print(f"Report: {report}", file=sys.stderr if args.json else sys.stdout)
    trace = Path(result.run_dir) / "trace.zip"
    if result.run_dir and trace.is_file():
        # On stderr with --json: stdout carries exactly one JSON object.
        # --port serves the viewer to any browser: the bare command needs Playwright's own Chromium.
        print(
            f"Trace: playwright show-trace --port 9323 {trace}  (then open http://localhost:9323)",
            file=sys.stderr if args.json else sys.stdout,
        )
    return result.exit_code


def live_view(args: argparse.Namespace) -> Any:
    from webagent.report.live import LiveView

    return LiveView(quiet=args.quiet or args.json)


def failure_json(args: argparse.Namespace, message: str) -> dict[str, Any]:
    """The one JSON object of a run that stopped on an error: its closed-out result when there is one."""
    from webagent.agent.checkpoint import RunFolder

    run_id = getattr(args, "run_id", None)
    if run_id and getattr(args, "runs_dir", None):
        folder = RunFolder(args.runs_dir, run_id)
        try:
            state = folder.load()
        except (OSError, ValueError):
            state = None
        if state is not None:
            closed = state.result if state.status == "finished" else None
            if closed is not None and closed.outcome == "failed":
                return closed.model_dump(mode="json")
            return state.result_of("failed", message, str(folder.path)).model_dump(mode="json")
    empty = RunResult(run_id="", outcome="failed", message=message).model_dump(mode="json")
    return {**empty, "run_id": None, "run_dir": None}
