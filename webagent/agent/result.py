"""`RunResult`: what a run ends with — the same fields as ``webagent run --json``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

__all__ = ["Outcome", "RunResult", "Tokens"]

Outcome = Literal["ordered", "paid", "done", "paused", "failed"]
"""``paid``: the run ended having paid on a page that is not the demo shop (`RunResult.paid` says what)."""


class Tokens(BaseModel):
    prompt: int = 0
    completion: int = 0
    cached: int = 0


class RunResult(BaseModel):
    """The end of a run, as a person or a CI job reads it."""

    run_id: str
    outcome: Outcome
    order_id: int | None = None
    total_cents: int | None = None
    steps: int = 0
    model_calls: int = 0
    tool_calls: int = 0
    tokens: Tokens = Field(default_factory=Tokens)
    wall_s: float = 0.0
    run_dir: str = ""
    message: str = ""
    question: str | None = None
    """The pending question (or approval request) when the run is paused."""
    choices: list[str] | None = None
    """The answers the pending question offers, when it offers some."""
    waiting_for: Literal["approval", "answer"] | None = None
    """What a paused run needs: an approval (``resume --approve/--deny``) or an answer (``--answer``)."""
    asked_human: bool = False
    """Whether the agent asked a person anything during the run."""
    paid: list[str] = Field(default_factory=list)
    """What the run paid on pages that are not the demo shop, from its spend ledger: 'pressing "Pay
    $50.00" on http://127.0.0.1:8123 ($50.00)'. An order the shop confirmed is ``order_id`` instead."""
    spent_cents: int = 0
    """Everything the run's spend ledger holds, in cents (amounts the page did not show count as 0)."""

    def __repr__(self) -> str:
        # What a failing assertion shows (pytest's "where 'paused' = RunResult(…).outcome"): the outcome
        # and why first, the run folder last, so a shortened repr still keeps both ends.
        parts = [f"outcome={self.outcome!r}"]
        if self.order_id is not None:
            parts.append(f"order_id={self.order_id}")
        if self.question:
            parts.append(f"question={self.question!r}")
        if self.message:
            parts.append(f"message={self.message!r}")
        parts.append(f"run_dir={self.run_dir!r}")
        return f"RunResult({', '.join(parts)})"

    @property
    def exit_code(self) -> int:
        """0 ordered/paid/done, 1 failed, 3 paused — the CLI's exit codes."""
        return {"ordered": 0, "paid": 0, "done": 0, "failed": 1, "paused": 3}[self.outcome]
