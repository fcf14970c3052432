"""Narrow questions the planner may put to a small local model before it asks the person.

Two questions, each answered by labelling the options given with one of two labels (the model's reply
is held to them by a JSON schema, so it cannot name anything else):

- "Which of these words are part of the food order?" — for words of the goal that matched nothing on the
  menu. Words the model leaves out are not asked about (they were a name, a note, a pleasantry); words it
  keeps are asked about as before. It can only drop words from the questions, never add a dish.
- "Which of these buttons closes the popup without accepting anything?" — offered only buttons that the
  consent rules (webagent/narration/consent.py) do not read as accepting, subscribing or agreeing. It can
  only pick one of those, or none.

Each consultation is written into the planner's turn (`record`), so the run's transcript keeps it and a
resumed run reads the same answer back (`recorded`) instead of asking again. A `Consultant` is passed
in (`Planner(consultant=…)`); webagent/llm/consult.py implements one over llama.cpp's server.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from webagent.planner.reading import Reading

__all__ = [
    "BUTTONS",
    "BUTTON_LABELS",
    "MARK",
    "READ_MARK",
    "WORDS",
    "WORD_LABELS",
    "Consultant",
    "Consultation",
    "Read",
    "readings_recorded",
    "record",
    "recorded",
]

WORDS = (
    "A customer sent the message below to order food. For each part of it listed, say whether it names food "
    "to order (a dish or a drink, even one the restaurant may not have, or a choice for one such as a size or "
    "how spicy) or not food (a person's name, a greeting, thanks, praise, small talk, an excuse, a note for "
    "the courier)."
)
WORD_LABELS = ("food to order", "not food")
BUTTONS = (
    "A popup covers a shop's page. For each of its buttons listed, say whether pressing it closes the popup "
    "without accepting, subscribing or agreeing to anything, or whether it agrees to something or you "
    "cannot tell."
)
BUTTON_LABELS = ("closes without agreeing", "agrees or unclear")
MARK = "Consulted the local model: "
"""How a consultation is written into the planner's turn (one line each)."""
READ_MARK = "Read the order with the model: "
"""How a model's reading of the request (webagent/planner/reading.py) is written into the planner's turn."""


class Consultant(Protocol):
    """Labels each of ``options`` with one of two ``labels`` (the first is the one the question looks for)."""

    def classify(
        self, question: str, context: str, options: Sequence[str], labels: tuple[str, str]
    ) -> dict[str, str]: ...


@dataclass(frozen=True)
class Consultation:
    question: str
    context: str
    options: tuple[str, ...]
    chosen: tuple[str, ...]
    """The options given the question's first label ("food to order", "closes without agreeing")."""

    @property
    def key(self) -> tuple[str, str, tuple[str, ...]]:
        return self.question, self.context, self.options


def record(consultation: Consultation) -> str:
    """The line for the planner's turn."""
    return MARK + json.dumps(
        {
            "question": consultation.question,
            "context": consultation.context,
            "options": list(consultation.options),
            "chosen": list(consultation.chosen),
        },
        ensure_ascii=True,  # one line whatever the goal holds (U+2028 would split it)
    )


def _marked(texts: Iterable[str], mark: str) -> Iterator[dict[str, Any]]:
    """The JSON written after ``mark`` on the lines of the planner's earlier turns (what does not parse is
    passed over)."""
    for text in texts:
        for line in text.split("\n"):
            if line.startswith(mark):
                try:
                    data = json.loads(line[len(mark) :])
                except ValueError:
                    continue
                if isinstance(data, dict):
                    yield data


def recorded(texts: Iterable[str]) -> list[Consultation]:
    """The consultations written in the planner's earlier turns."""
    found: list[Consultation] = []
    for data in _marked(texts, MARK):
        try:
            options = tuple(str(o) for o in data["options"])
            chosen = tuple(str(c) for c in data["chosen"] if c in options)
            found.append(Consultation(str(data["question"]), str(data["context"]), options, chosen))
        except (KeyError, TypeError):
            continue
    return found


@dataclass(frozen=True)
class Read:
    """A model's reading of a request against a restaurant's menu (None: it gave none usable)."""

    words: str
    restaurant: str
    reading: Reading | None

    def line(self) -> str:
        """The line for the planner's turn."""
        data = {"words": self.words, "restaurant": self.restaurant}
        data["reading"] = self.reading.to_json() if self.reading else None  # type: ignore[assignment]
        return READ_MARK + json.dumps(data, ensure_ascii=True)


def readings_recorded(texts: Iterable[str]) -> list[Read]:
    """The model's readings written in the planner's earlier turns."""
    found: list[Read] = []
    for data in _marked(texts, READ_MARK):
        try:
            reading = Reading.from_json(data["reading"]) if data["reading"] else None
            found.append(Read(str(data["words"]), str(data["restaurant"]), reading))
        except (KeyError, TypeError, ValueError):
            continue
    return found
