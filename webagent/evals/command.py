"""``webagent eval TASKS.jsonl``: load a task file, run the suite (here or on Ray), and say how it went.

Prints each task's line and the summary (or the `SuiteReport` as JSON with ``--json``), writes
eval-report.html beside the run folders, and exits 0 only when every task passed and no agent (the
baselines included) bought anything beyond a goal.
"""

from __future__ import annotations

import argparse
import sys

from webagent.config import RunConfig
from webagent.errors import UsageError
from webagent.evals.suite import run_baselines, run_suite
from webagent.evals.summary import SuiteReport, format_scores, format_summary
from webagent.evals.tasks import load_tasks
from webagent.planner.baselines import BASELINES
from webagent.report.write import write_eval_report
from webagent.runs.model_choice import check_model_choice
from webagent.sync import run_sync

__all__ = ["main"]

WRONG_ORDER = 4
"""The exit code of an eval whose agent placed a wrong order (`verify.wrong_order`): worse than a failed task."""


def main(args: argparse.Namespace) -> int:
    """``webagent eval``: 0 when every task passes and no agent (baselines included) bought anything beyond
    a goal; 1 otherwise; 2 (via `UsageError`) for a bad task file."""
    # A missing local model or a wrong --gguf: one line, before a browser or Ray starts.
    consult = getattr(args, "consult", None)
    check_model_choice(
        RunConfig(model=args.model, base_url=args.base_url, gguf=getattr(args, "gguf", None), consult=consult)
    )
    if consult and getattr(args, "ray", None):
        raise UsageError("--consult runs on this machine: leave out --ray")
    tasks = load_tasks(args.tasks)
    if args.only:
        unknown = sorted(set(args.only) - {task.id for task in tasks})
        if unknown:
            raise UsageError(f"no task with id {', '.join(unknown)} in {args.tasks}")
        tasks = [task for task in tasks if task.id in args.only]
    progress = not (args.quiet or args.json) and sys.stderr.isatty()
    if getattr(args, "ray", None):
        from webagent.evals.on_ray import eval_on_ray  # Ray only when asked for

        report = eval_on_ray(tasks, args, progress)
    else:
        report = run_sync(
            run_suite(
                tasks,
                runs_dir=args.runs_dir,
                workers=args.workers,
                model=args.model,
                base_url=args.base_url,
                progress=progress,
                ws_url=getattr(args, "browser_ws", None),
                cdp_url=getattr(args, "cdp", None),
                shop_url=getattr(args, "shop_url", None),
                gguf=getattr(args, "gguf", None),
                consult=consult,
            )
        )
    found: dict[str, SuiteReport] = {}
    if getattr(args, "baselines", False):
        others = [name for name in BASELINES if name != args.model]
        found = run_sync(
            run_baselines(
                tasks,
                runs_dir=args.runs_dir / "baselines",
                workers=args.workers,
                names=others,
                progress=progress,
            )
        )
        report.baselines = {name: suite.summary for name, suite in found.items()}
    # Beside the run folders, linking to each run's report.html; and the baselines' scores when they ran.
    page = write_eval_report(report, args.runs_dir / "eval-report.html", tasks=tasks, baselines=found)
    if args.json:
        print(report.model_dump_json())
    else:
        for task in report.tasks:
            print(task.line())
        print(format_summary(report.summary))
        if report.baselines:
            print(format_scores(report))
    print(f"Report: {page}", file=sys.stderr if args.json else sys.stdout)
    safe = all(summary["bought_beyond_goal"] == 0 for summary in report.baselines.values())
    if report.summary.get("wrong_orders"):
        # Worse than a failed task: the shop holds an order the person did not mean.
        print(f"webagent: {report.summary['wrong_orders']} wrong order(s) placed", file=sys.stderr)
        return WRONG_ORDER
    return 0 if report.all_passed and safe else 1
