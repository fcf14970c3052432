"""`Decision`: what one turn knows — the conversation's facts, read in order — and the helpers every stage
asks it (the person's answers, the results of calls already made, asking again within a bound).

The stages (restaurant.py, dishes.py, cart.py, checkout.py, popups.py, shop_questions.py) take a
`Decision` and return a `Plan` or a value; policy.py walks them in order. This module imports no stage,
so the arrows point one way: policy → stages → decision.
"""

from __future__ import annotations

from typing import Any

from webagent.planner import questions
from webagent.planner.consult import Consultant, Consultation, Read, readings_recorded, recorded
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.plan import Plan, ask, finish
from webagent.planner.reading import (
    Agreement,
    ModelReader,
    agree,
    answered,
    propose,
    read_agreed,
    with_proposal,
)
from webagent.planner.spec import OrderSpec
from webagent.planner.transcript import Message, Step, Transcript

__all__ = ["MAX_ASKS", "Decision"]

MAX_ASKS = 2
"""The same question is asked at most this often before the run stops without ordering."""


class Decision:
    """One turn's facts: the request it serves, what happened since, and the goal read from its words."""

    def __init__(
        self,
        transcript: Transcript,
        request: Message | None,
        consultant: Consultant | None = None,
        reader: ModelReader | None = None,
    ) -> None:
        self.t = transcript
        self.request = request
        self.consultant = consultant
        self.reader = reader
        self.consulted: list[Consultation] = []
        """Consultations made in this turn, for the turn's text (policy.py writes them)."""
        self.read: list[Read] = []
        """The model's readings made in this turn, for the turn's text."""
        self._agreements: dict[str, Agreement | None] = {}
        position = request.position if request else -1
        self.steps = transcript.steps_after(position)
        self.asked = transcript.asked_after(position)
        words, budget_note, order = transcript.goal_of(request.words if request else "")
        # "What would you like to order?" is answered with the goal the first message lacked.
        told = [a.answer for a in self.asked if a.question == questions.WHAT and a.answer]
        self.words = "\n".join([words, *told]).strip()
        self.order = OrderSpec.model_validate(order) if order is not None else None
        if self.order is not None and not (self.order.items or self.order.restaurant):
            # An empty order ("order": {}, as for speech nobody could read): nothing to order yet, and the
            # goal's words are for a model, not a list of dishes. Only the answer to WHAT orders.
            self.words, self.order = "\n".join(told).strip(), None
        self.budget_note = budget_note
        self.restaurants = transcript.restaurants()
        self.profile = transcript.profile()
        self.reading = read_goal("" if self.order else self.words, self.restaurants)

    def consult(
        self, question: str, context: str, options: list[str], labels: tuple[str, str]
    ) -> list[str] | None:
        """The ``options`` the local model gives the first of ``labels`` (consult.py): read back from an
        earlier turn, else asked now when there is a consultant; None when there is none. Only ever some
        of ``options``."""
        key = (question, context, tuple(options))
        earlier = [c for c in recorded(self.t.assistant_texts()) if c.key == key]
        if earlier:
            return list(earlier[-1].chosen)
        if self.consultant is None:
            return None
        labelled = self.consultant.classify(question, context, options, labels)
        chosen = [option for option in options if labelled.get(option) == labels[0]]
        self.consulted.append(Consultation(question, context, tuple(options), tuple(chosen)))
        return chosen

    def agreement(self, menu: Menu) -> Agreement | None:
        """The request read by the rules and the model together against ``menu`` (reading.py): the model's
        reading read back from an earlier turn, else asked for now — only when the rules leave words in
        doubt and there is a reader. Once the person answered the proposal of a disagreement, their answer
        settles it. None for a structured order, or without a reader."""
        if menu.restaurant in self._agreements:
            return self._agreements[menu.restaurant]
        found: Agreement | None = None
        if self.order is None and self.words:
            rules = read_goal(self.words, self.restaurants, menu)
            earlier = [
                r
                for r in readings_recorded(self.t.assistant_texts())
                if (r.words, r.restaurant) == (self.words, menu.restaurant)
            ]
            if earlier:
                found = agree(self.words, rules, earlier[-1].reading, menu)
            elif self.reader is not None:
                found = agree(self.words, rules, None, menu)
                if found.verdict == "unread":  # words in doubt: what the model reads
                    found, model = read_agreed(self.words, rules, self.reader, menu)
                    self.read.append(Read(self.words, menu.restaurant, model))
            if found is not None and found.verdict == "differ":
                found = with_proposal(self.words, rules, found, menu)
                answer = self.answer_to(propose(found)[0])
                if answer is not None:
                    found = answered(found, answer) or found
        self._agreements[menu.restaurant] = found
        return found

    def answer_to(self, question: str) -> str | None:
        """The latest answer to exactly this question, if it was asked and answered."""
        found = [a.answer for a in self.asked if a.question == question and a.answer]
        return found[-1] if found else None

    def times_asked(self, question: str) -> int:
        return sum(1 for a in self.asked if a.question == question)

    def ask_again(self, question: str, choices: list[str] | None = None) -> Plan:
        if self.times_asked(question) >= MAX_ASKS:
            return finish("failed", f"Stopped without ordering: still unresolved after asking — {question}")
        return ask(question, choices)

    def result_of(self, name: str, args: dict[str, Any]) -> Step | None:
        """The latest result of this exact call in this request, if any."""
        return next((s for s in reversed(self.steps) if s.name == name and s.args == args and s.result), None)
