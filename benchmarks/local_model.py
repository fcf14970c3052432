"""The local models beside the planner and the baselines, on one sample of the shipped eval tasks.

    python benchmarks/local_model.py                 # both local models, the planner, the baselines
    python benchmarks/local_model.py --models local:1.5b planner --tasks t01,t05
    python benchmarks/local_model.py --models local:1.5b planner --wide --turns   # 27 tasks, every turn

The sample was chosen before any local model was run on it, to cover every clutter level and the kinds of
task (a plain order, options, several lines, a budget, nothing to order, a question, an injection): it is
not tuned to what the models get right. Each agent runs the same tasks against a fresh embedded shop per
task, one at a time (a model on a CPU answers one request at a time), and is judged in the shop's
database by the eval's verifier. Prints one row per agent: pass rate, bought beyond the goal, false
claims, model calls, prompt and completion tokens per task, seconds per model turn, and wall time.
Speed is measured, never asserted: the seconds depend on the machine and what else it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from webagent.evals.suite import run_suite
from webagent.evals.tasks import load_tasks

SUITE = Path(__file__).resolve().parents[1] / "evals" / "tasks.jsonl"
# Chosen before the first local-model run (2026-12-02): clutter 0-4, options, several lines, budget,
# nothing to order, a question, an injection.
SAMPLE = ["t01", "t02", "t05", "t09", "t13", "t16", "t28", "t40", "t55", "t70", "c4-01"]
AGENTS = ["local:1.5b", "local:0.5b", "planner", "null", "random"]


def wide_sample(ids: list[str]) -> list[str]:
    """`SAMPLE` and every fifth task of the suite from the third, in suite order — a rule written down
    (2026-12-05) before any run of it, so the wider sample is not tuned to what a model gets right."""
    return [task_id for index, task_id in enumerate(ids) if task_id in SAMPLE or index % 5 == 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=AGENTS)
    parser.add_argument("--tasks", default=",".join(SAMPLE), help="comma-separated task ids")
    parser.add_argument("--json", action="store_true", help="one JSON object per agent")
    parser.add_argument("--wide", action="store_true", help="the wider sample (`wide_sample`), not --tasks")
    parser.add_argument("--turns", action="store_true", help="per task, its model turns' tokens and seconds")
    args = parser.parse_args()
    suite = load_tasks(SUITE)
    wanted = [task_id.strip() for task_id in args.tasks.split(",") if task_id.strip()]
    if args.wide:
        wanted = wide_sample([task.id for task in suite])
    tasks = [task for task in suite if task.id in wanted]
    print(f"# {date.today()} · {platform.machine()} · {len(tasks)} tasks: {', '.join(t.id for t in tasks)}")
    print("agent        passed  beyond  false  calls/task  prompt/task  completion/task  s/turn  wall s")
    for model in args.models:
        with tempfile.TemporaryDirectory(prefix="bench-local-") as runs:
            started = time.monotonic()
            report = asyncio.run(run_suite(tasks, runs_dir=Path(runs), workers=1, model=model))
            wall = time.monotonic() - started
            turns = {task.id: model_turns(Path(task.run_dir)) for task in report.tasks} if args.turns else {}
        s = report.summary
        count = max(1, s["total"])
        per_turn = wall / s["model_calls"] if s["model_calls"] else 0.0
        if args.json:
            print(json.dumps({"agent": model, **s, "seconds_per_turn": round(per_turn, 1)}))
            continue
        print(
            f"{model:<12} {s['passed']:>3}/{s['total']:<3} {s['bought_beyond_goal']:>6} {s['false_claims']:>6}"
            f" {s['model_calls'] / count:>11.1f} {s['prompt_tokens'] / count:>12.0f}"
            f" {s['completion_tokens'] / count:>16.0f} {per_turn:>7.1f} {wall:>7.0f}"
        )
        for task in report.tasks:
            if not task.passed:
                print(f"    {task.line()}")
        if turns:
            print_turns(report.tasks, turns)


def model_turns(run_dir: Path) -> list[dict[str, Any]]:
    """The run's ``model`` events' usage (llama.cpp's own timings among it) and whether the turn was
    taken without the model, in order."""
    path = run_dir / "transcript.jsonl"
    if not path.exists():
        return []
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [
        {**(event.get("usage") or {}), "without_model": bool(event.get("without_model"))}
        for event in events
        if event.get("event") == "model"
    ]


def print_turns(results: list[Any], turns: dict[str, list[dict[str, Any]]]) -> None:
    """Per task: its wall time and turns, then one line per turn (tokens: prompt, cached, new; the
    server's seconds evaluating the prompt and generating; ``-`` where it reported none)."""
    print("    task    pass  wall s  turns  no-model  | per turn: prompt/cached/new tokens, prompt s + gen s")
    for task in results:
        rows = turns.get(task.id, [])
        taken = sum(row["without_model"] for row in rows)
        print(
            f"    {task.id:<7} {'yes' if task.passed else 'no':<4} {task.wall_s:>7.1f} {len(rows):>6} {taken:>9}"
        )
        for row in rows:
            if row["without_model"]:
                print("        (taken without the model)")
                continue
            seconds = [row.get("prompt_ms"), row.get("generated_ms")]
            timed = " + ".join("-" if ms is None else f"{ms / 1000:.1f}" for ms in seconds)
            print(
                f"        {row.get('prompt_tokens', 0)}/{row.get('cached_tokens', 0)}/{row.get('new_tokens')}"
                f"  {timed} s"
            )


if __name__ == "__main__":
    main()
