"""People in the loop: the approval gate on consequential tools, and answers to `ask_human`.

Both live in code, not in the prompt: an order over budget is refused whatever the model says, and an
order is placed only after a decision from the configured policy — asked at the terminal, approved
automatically within budget, denied, or left for later (the run pauses and can be resumed).

An approval approves one action, once (`ActionRecord`): a person's yes on resume covers the action it
was asked about, and the run's spend ledger (`Checkpoint.spent`) carries the budget across the whole
run; a second spend is never approved automatically.

Automatic approval is anchored to the person's words (webagent/agent/anchor.py): a cart holding what the goal
does not ask for — a dish it never names, more of one than it says, a total over the budget it states —
or a goal that names no dish and states no budget, turns ``auto`` into ``ask``, with the difference in
the question; without a terminal to ask at, the run pauses for a person.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from webagent.agent.anchor import GoalCheck
from webagent.agent.checkpoint import ActionRecord, Spend
from webagent.browser.cards import CardField
from webagent.config import ApprovalPolicy
from webagent.narration.money import money
from webagent.sync import in_daemon_thread
from webagent.tools import AskHuman

__all__ = [
    "ApprovalGate",
    "CardEntry",
    "Decision",
    "HumanChannel",
    "Verdict",
    "already_spent",
    "ask_person",
    "default_policy",
    "joined",
    "no_terminal",
]

Prompt = Callable[[str], str]


class CardEntry(Protocol):
    """How a person enters the card details a payment page asks for, on a page of their own — never
    through the model nor the client's context (``webagent mcp``: URL-mode elicitation). A prompt that can
    ask so carries one as ``cards``; the answer covers the one payment approved."""

    async def __call__(self, question: str, fields: Sequence[CardField]) -> dict[int, str] | None:
        """The person's values by field index, or None when they entered none (declined, gone)."""
        ...


class Decision(Enum):
    APPROVE = "approve"
    DENY = "deny"
    PAUSE = "pause"


@dataclass(frozen=True)
class Verdict:
    decision: Decision
    reason: str


def default_policy() -> ApprovalPolicy:
    """Ask at the terminal when there is one; otherwise pause, so nothing is ordered unattended."""
    return "ask" if sys.stdin.isatty() else "pause"


def no_terminal(question: str) -> str:
    """A prompt for runs nobody watches (``webagent eval``): there is no one to ask, so a question waits."""
    raise EOFError


@dataclass
class ApprovalGate:
    """Decides whether a consequential call (placing an order, pressing "Pay $50") goes ahead.

    An approval approves one action (`ActionRecord`), once. A person's yes given on resume is `granted`:
    it covers the very record it was asked about and nothing else; any other action — a changed cart, a
    second press — goes to the run's own policy, automatic approval still anchored to the person's words.
    The budget counts across the run's spend ledger, and a second spend is never approved automatically.
    """

    policy: ApprovalPolicy
    budget_cents: int | None = None
    prompt: Prompt = input
    where: str = "at the terminal"
    """Where ``prompt`` asks, as the verdicts name it ("in the MCP client" for ``webagent mcp``)."""
    granted: ActionRecord | None = None
    """The action a person approved on resume (``resume --approve``): approved once, when it is the same."""
    declined: ActionRecord | None = None
    """The action a person declined on resume (``resume --deny``): denied once."""

    async def decide(
        self,
        summary: str,
        total_cents: int | None,
        goal: GoalCheck | None = None,
        *,
        record: ActionRecord | None = None,
        spent: Sequence[Spend] = (),
    ) -> Verdict:
        """The verdict for an action of ``total_cents`` described by ``summary``: ``goal`` anchors
        ``auto``, ``record`` is what would be approved, ``spent`` what the run spent before it."""
        earlier = sum(spend.total_cents or 0 for spend in spent)
        if self.budget_cents is not None:
            if total_cents is None:
                return Verdict(
                    Decision.DENY, "the order total could not be read, so the budget cannot be checked"
                )
            if earlier + total_cents > self.budget_cents:
                if earlier:
                    return Verdict(
                        Decision.DENY,
                        f"this run has spent {money(earlier)} already; with {money(total_cents)} more it "
                        f"would spend {money(earlier + total_cents)}, over the budget {money(self.budget_cents)}",
                    )
                return Verdict(
                    Decision.DENY,
                    f"the total {money(total_cents)} exceeds the budget {money(self.budget_cents)}",
                )
        if record is not None and record.same_as(self.granted):
            self.granted = None  # one yes, one action
            return Verdict(Decision.APPROVE, "approved by the person on resume")
        if record is not None and record.same_as(self.declined):
            self.declined = None
            return Verdict(Decision.DENY, "the person declined it on resume")
        concern = joined(
            already_spent(spent), goal.concern(total_cents, self.budget_cents) if goal is not None else None
        )
        if self.policy == "auto":
            if concern is None:
                return Verdict(Decision.APPROVE, "approved automatically (within budget)")
            return await self._ask(summary, total_cents, concern, escalated=True)
        if self.policy == "deny":
            return Verdict(Decision.DENY, "the approval policy denies orders")
        if self.policy == "pause":
            return Verdict(Decision.PAUSE, "waiting for a person to approve")
        return await self._ask(summary, total_cents, concern, escalated=False)

    async def _ask(
        self, summary: str, total_cents: int | None, concern: str | None, escalated: bool
    ) -> Verdict:
        """Ask the person (at the terminal); an automatic approval turned into a question pauses when nobody answers."""
        why = f" ({concern})" if concern else ""
        # (unwrap: a prompt that speaks the question first still reads the terminal)
        if escalated and inspect.unwrap(self.prompt) is input and not sys.stdin.isatty():
            return Verdict(Decision.PAUSE, f"not approved automatically{why}: waiting for a person")
        note = f"\nNote: {concern}." if concern else ""
        question = (
            f"\nPlace this order?\n{summary}{note}\nTotal: {money(total_cents)} — approve? [y/N] "
            if total_cents is not None
            else f"\nApprove this?\n{summary}{note}\nThe page shows no amount — approve? [y/N] "
        )
        answer = await ask_person(self.prompt, question)
        if answer is None:
            if escalated:
                return Verdict(Decision.PAUSE, f"not approved automatically{why}: waiting for a person")
            return Verdict(Decision.DENY, f"no answer came {self.where}")
        if answer.strip().lower() in ("y", "yes"):
            return Verdict(Decision.APPROVE, f"approved {self.where}")
        return Verdict(Decision.DENY, f"the person declined {self.where}{why}")


def already_spent(spent: Sequence[Spend]) -> str | None:
    """Why a run that spent already needs a person's yes for more (None before its first spend)."""
    if not spent:
        return None
    return (
        f"this run already spent: {'; '.join(s.sentence() for s in spent)}, so another needs a person's yes"
    )


def joined(*concerns: str | None) -> str | None:
    """The concerns that hold, as one ("…; …"), or None."""
    return "; ".join(c for c in concerns if c) or None


@dataclass
class HumanChannel:
    """Where `ask_human` questions go: scripted answers first, then the terminal if allowed, else pause."""

    answers: list[str] = field(default_factory=list)
    interactive: bool = False
    prompt: Prompt = input

    async def answer(self, ask: AskHuman) -> str | None:
        """The person's answer, or None when the run must pause for it."""
        if self.answers:
            return self.answers.pop(0)
        if not self.interactive:
            return None
        return await ask_person(self.prompt, format_question(ask) + "\n> ")


async def ask_person(prompt: Prompt, question: str) -> str | None:
    """``prompt(question)`` without blocking the event loop; None when input has ended (EOF).

    On a daemon thread (`in_daemon_thread`): a Ctrl-C during a prompt does not wait for Enter.
    """

    def read() -> str | None:
        try:
            return prompt(question)
        except EOFError:
            return None

    return await in_daemon_thread(read)


def format_question(ask: AskHuman) -> str:
    """The question as a person reads it, with its context and the expected kind of answer."""
    lines = [f"The agent asks ({ask.urgency} urgency): {ask.question}"]
    if ask.context:
        lines.append(f"Context: {ask.context}")
    if ask.format == "yes_no":
        lines.append("Answer yes or no.")
    elif ask.format == "multiple_choice" and ask.choices:
        lines.append("Choices: " + " | ".join(ask.choices))
    return "\n".join(lines)
