"""The approval gate and the human channel, at a terminal that answers, declines or has gone away."""

from __future__ import annotations

import pytest

from webagent.approval import ApprovalGate, Decision, HumanChannel
from webagent.sync import run_sync
from webagent.tools import AskHuman


def closed_terminal(_question: str) -> str:
    raise EOFError


@pytest.mark.parametrize(
    ("policy", "budget", "total", "decision", "reason"),
    [
        ("auto", 5000, 4342, Decision.APPROVE, "approved automatically (within budget)"),
        ("auto", 4000, 4342, Decision.DENY, "the total $43.42 exceeds the budget $40.00"),
        (
            "auto",
            4000,
            None,
            Decision.DENY,
            "the order total could not be read, so the budget cannot be checked",
        ),
        ("deny", None, 100, Decision.DENY, "the approval policy denies orders"),
        ("pause", None, 100, Decision.PAUSE, "waiting for a person to approve"),
    ],
)
def test_policies_and_budget(
    policy: str, budget: int | None, total: int | None, decision: Decision, reason: str
) -> None:
    verdict = run_sync(ApprovalGate(policy, budget).decide("2 × Tiramisu", total))  # type: ignore[arg-type]
    assert (verdict.decision, verdict.reason) == (decision, reason)


def test_ask_at_a_terminal_that_has_gone_away_denies() -> None:
    verdict = run_sync(ApprovalGate("ask", prompt=closed_terminal).decide("2 × Tiramisu", 1874))
    assert (verdict.decision, verdict.reason) == (Decision.DENY, "no answer came at the terminal")


def test_questions_scripted_then_terminal_then_pause() -> None:
    ask = AskHuman(question="Which size?")
    heard: list[str] = []
    channel = HumanChannel(["Large"], interactive=True, prompt=lambda q: heard.append(q) or "Regular")
    assert run_sync(channel.answer(ask)) == "Large"
    assert run_sync(channel.answer(ask)) == "Regular" and "Which size?" in heard[0]
    assert run_sync(HumanChannel(interactive=True, prompt=closed_terminal).answer(ask)) is None
    assert run_sync(HumanChannel().answer(ask)) is None
