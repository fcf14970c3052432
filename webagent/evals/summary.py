"""A suite's results: each task's verdict and cost, the summary over them, and the lines people read.

``--json`` prints a `SuiteReport` exactly; eval-report.html shows it (webagent/report/write.py reads it
through its own Protocols, so the report does not import the eval).
"""

from __future__ import annotations

import statistics
from typing import Any

from pydantic import BaseModel, Field

from webagent.agent.result import Tokens

__all__ = ["SuiteReport", "TaskResult", "format_scores", "format_summary", "summarize"]


class TaskResult(BaseModel):
    """One task's verdict and what its run cost."""

    id: str
    passed: bool
    reason: str
    outcome: str
    """The run's own outcome (ordered, done, paused, failed), or "error" when it could not run."""
    order_id: int | None = None
    false_claim: bool = False
    needs_action: bool = True
    """Passing it takes acting on the shop, not only asking (`Task.needs_action`)."""
    bought_beyond_goal: bool = False
    """An order holds what the task does not expect (`bought_beyond`)."""
    wrong_order: bool = False
    """The shop holds an order that differs from the task in any way, fewer included (`wrong_order`)."""
    steps: int = 0
    model_calls: int = 0
    tool_calls: int = 0
    tokens: Tokens = Field(default_factory=Tokens)
    wall_s: float = 0.0
    """Whole task: shop start, browser context, run."""
    run_dir: str = ""
    said: str = ""
    """The run's own last words (`RunResult.message`): why it stopped, in its terms."""

    def line(self) -> str:
        """The per-task line people read: ``t07 FAIL: expected … — the run said: …``.

        A failing line carries the run's own words, so a failure seen only in a CI log still says why."""
        verdict = "PASS" if self.passed else "FAIL"
        cost = f"{self.outcome}, {self.steps} steps, {self.wall_s:.1f}s"
        words = self.said if len(self.said) <= 200 else self.said[:199] + "…"
        said = f" — the run said: {words!r}" if self.said and not self.passed else ""
        return f"{self.id} {verdict}: {self.reason}{said} [{cost}]"


class SuiteReport(BaseModel):
    """Every task's result and the summary; ``--json`` prints exactly this.

    ``baselines`` holds, by name, the summary of each baseline agent run on the same tasks
    (``--baselines``): the scores to read this one beside (`format_scores`).
    """

    tasks: list[TaskResult]
    summary: dict[str, Any]
    baselines: dict[str, dict[str, Any]] = Field(default_factory=dict)

    @property
    def all_passed(self) -> bool:
        return all(task.passed for task in self.tasks)


def summarize(
    results: list[TaskResult], wall_s: float, workers: int, model: str | None = None
) -> dict[str, Any]:
    """The summary of a suite's results: counts, cost, and which agent ran it (``model``)."""
    steps = [result.steps for result in results] or [0]
    passed = sum(result.passed for result in results)
    acting = [result for result in results if result.needs_action]
    return {
        "model": model or "auto",
        "total": len(results),
        "passed": passed,
        "failed": len(results) - passed,
        "success_rate": round(passed / len(results), 4) if results else 0.0,
        "needs_action": len(acting),
        "passed_needing_action": sum(result.passed for result in acting),
        "false_claims": sum(result.false_claim for result in results),
        "bought_beyond_goal": sum(result.bought_beyond_goal for result in results),
        "wrong_orders": sum(result.wrong_order for result in results),
        "steps_median": statistics.median(steps),
        "steps_mean": round(statistics.mean(steps), 2),
        "model_calls": sum(result.model_calls for result in results),
        "tool_calls": sum(result.tool_calls for result in results),
        "prompt_tokens": sum(result.tokens.prompt for result in results),
        "completion_tokens": sum(result.tokens.completion for result in results),
        "wall_s": round(wall_s, 2),
        "workers": workers,
    }


def format_summary(summary: dict[str, Any]) -> str:
    """The summary block under the per-task lines."""
    return (
        f"{summary['passed']}/{summary['total']} passed ({summary['success_rate']:.0%}) · "
        f"{summary.get('passed_needing_action', '?')}/{summary.get('needs_action', '?')} needing an action · "
        f"false claims {summary['false_claims']} · "
        f"bought beyond the goal {summary.get('bought_beyond_goal', 0)} · "
        f"wrong orders {summary.get('wrong_orders', 0)}\n"
        f"steps median {summary['steps_median']} mean {summary['steps_mean']} · "
        f"model calls {summary['model_calls']} · tool calls {summary['tool_calls']} · "
        f"tokens {summary['prompt_tokens']} prompt / {summary['completion_tokens']} completion · "
        f"wall {summary['wall_s']:.1f}s with {summary['workers']} worker(s)"
    )


def format_scores(report: SuiteReport) -> str:
    """The model's score beside each baseline's: one line per agent."""
    rows = [report.summary, *report.baselines.values()]
    width = max(len(str(row.get("model", "auto"))) for row in rows)
    lines = [
        "scores (passed · passed needing an action · bought beyond the goal · wrong orders · false claims · wall):"
    ]
    for row in rows:
        lines.append(
            f"  {row.get('model', 'auto')!s:<{width}}  {row['passed']:>3}/{row['total']:<3} · "
            f"{row['passed_needing_action']:>3}/{row['needs_action']:<3} · {row['bought_beyond_goal']} · "
            f"{row.get('wrong_orders', 0)} · {row['false_claims']} · {row['wall_s']:.0f}s"
        )
    return "\n".join(lines)
