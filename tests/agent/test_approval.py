"""The approval gate and the human channel, at a terminal that answers, declines or has gone away."""

from __future__ import annotations

import pytest

from webagent.agent.anchor import GoalCheck
from webagent.agent.approval import ApprovalGate, Decision, HumanChannel
from webagent.agent.checkpoint import ActionRecord
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


BEYOND = GoalCheck(names_dishes=True, beyond=('5 × "Meat Lovers Pizza (Regular)", not asked for',))


def test_auto_approval_holds_only_for_what_the_goal_asks_for() -> None:
    asked: list[str] = []
    exactly = GoalCheck(names_dishes=True)
    assert run_sync(ApprovalGate("auto", 20_000).decide("1 × Hawaiian Pizza", 2089, exactly)).decision is (
        Decision.APPROVE
    )
    # Nobody at a terminal: the run waits for a person, saying why.
    held = run_sync(ApprovalGate("auto", 20_000, prompt=closed_terminal).decide("…", 10752, BEYOND))
    assert held.decision is Decision.PAUSE
    assert held.reason == (
        'not approved automatically (the cart holds what the goal does not ask for: 5 × "Meat Lovers Pizza '
        '(Regular)", not asked for): waiting for a person'
    )
    # At a terminal: the person is asked, with the difference in the question, and decides.
    for answer, decision in (("y", Decision.APPROVE), ("n", Decision.DENY)):
        gate = ApprovalGate("auto", 20_000, prompt=lambda q, a=answer: asked.append(q) or a)  # type: ignore[misc]
        assert run_sync(gate.decide("5 × Meat Lovers Pizza", 10752, BEYOND)).decision is decision
    assert "Note: the cart holds what the goal does not ask for: 5 ×" in asked[0]
    # A person who approved this very order already (resume --approve) is not asked again — once; a
    # changed order, or the same one a second time, is anchored again; a hard budget still binds.
    approved = ActionRecord(action="placing the order", lines=["5 × Meat Lovers Pizza"], total_cents=10752)
    person = ApprovalGate("auto", 20_000, prompt=closed_terminal)
    person.granted = approved
    changed = approved.model_copy(update={"total_cents": 10753})
    assert run_sync(person.decide("…", 10753, BEYOND, record=changed)).decision is Decision.PAUSE
    assert run_sync(person.decide("…", 10752, BEYOND, record=approved)).decision is Decision.APPROVE
    assert run_sync(person.decide("…", 10752, BEYOND, record=approved)).decision is Decision.PAUSE
    over = ApprovalGate("auto", 10_000)
    over.granted = approved
    assert run_sync(over.decide("…", 10752, BEYOND, record=approved)).decision is Decision.DENY


def test_a_goal_naming_no_dish_is_approved_automatically_only_within_a_budget() -> None:
    vague = GoalCheck(names_dishes=False)
    unanchored = run_sync(ApprovalGate("auto", prompt=closed_terminal).decide("…", 1500, vague))
    assert unanchored.decision is Decision.PAUSE and "names no dish and states no budget" in unanchored.reason
    assert run_sync(ApprovalGate("auto", 2000).decide("…", 1500, vague)).decision is Decision.APPROVE
    stated = GoalCheck(names_dishes=False, budget_cents=2000)
    assert run_sync(ApprovalGate("auto").decide("…", 1999, stated)).decision is Decision.APPROVE
    over = run_sync(ApprovalGate("auto", prompt=closed_terminal).decide("…", 2001, stated))
    assert over.decision is Decision.PAUSE and "over the budget the goal states, $20.00" in over.reason


def test_the_other_policies_are_unchanged_by_the_goal() -> None:
    assert run_sync(ApprovalGate("deny").decide("…", 100, BEYOND)).decision is Decision.DENY
    assert run_sync(ApprovalGate("pause").decide("…", 100, BEYOND)).decision is Decision.PAUSE
    declined = run_sync(ApprovalGate("ask", prompt=lambda q: "n").decide("…", 100, BEYOND))
    assert declined.reason.startswith("the person declined at the terminal (the cart holds what")
