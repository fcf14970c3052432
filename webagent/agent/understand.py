"""The run's one reading of what the person asked: the rules' and a model's, put together, kept.

The holds on a model that drives (webagent/agent/stated.py, through `asked_on_menu`) and the anchor of
automatic approval (webagent/agent/anchor.py) both need what the person meant, against the menu the run
sees. `Understanding` gives it them: the rules' reading of the words, and where the rules leave words in
doubt, the model reader's (webagent/llm/reader.py) put together with it (`agree`, webagent/planner/
reading.py). The model is asked in `prepare` (on a thread of its own: a CPU model takes seconds), once per
request and restaurant; the agreement is kept in the checkpoint (`Checkpoint.readings`), so a resumed run
reads the same one back, and written to the transcript as a ``reading`` event (the report shows both
readings and which stands). Calling the understanding (what the anchor does) only reads what was prepared:
it never waits on a model. A disagreement the person answered (the planner's question proposing the
model's reading) is settled by their answer. Without a model reader, a request in doubt is ``unread``:
the rules' reading with its unplaced words, as before.

Pure: no browser code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from webagent.agent.checkpoint import Checkpoint
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import (
    Agreement,
    ModelReader,
    Readings,
    agree,
    answered,
    propose,
    read_agreed,
    with_proposal,
)
from webagent.planner.spec import GoalReading
from webagent.planner.transcript import Transcript
from webagent.sync import in_daemon_thread

__all__ = ["Understanding"]


class Understanding:
    """The agreements of one run, asked for by (words, the rules' reading of them, the menu)."""

    def __init__(
        self, reader: ModelReader | None, state: Checkpoint, emit: Callable[..., None] | None = None
    ) -> None:
        self.reader = reader
        self.state = state
        self.emit = emit

    async def prepare(self, requests: Sequence[str], restaurants: Sequence[str], menu: Menu) -> None:
        """Ask the model about each request the rules leave in doubt on ``menu`` (once; kept)."""
        if self.reader is None or not menu.restaurant:
            return
        kept = Readings(self.state.readings)
        for words in requests:
            if kept.get(words, menu.restaurant) is not None:
                continue
            rules = read_goal(words, list(restaurants), menu)
            if agree(words, rules, None, menu).verdict != "unread":
                continue
            found, _ = await in_daemon_thread(read_agreed, words, rules, self.reader, menu)
            found = await in_daemon_thread(with_proposal, words, rules, found, menu)
            kept.put(words, menu.restaurant, found)
            self._emit(words, menu, found)

    def __call__(self, words: str, rules: GoalReading, menu: Menu) -> Agreement:
        """The agreement on ``words`` against ``menu``, as prepared (else the rules' alone)."""
        found = Readings(self.state.readings).get(words, menu.restaurant) or agree(words, rules, None, menu)
        if found.verdict == "differ":
            answer = _answer(self.state.messages, propose(found)[0])
            if answer is not None:
                found = answered(found, answer) or found
        return found

    def _emit(self, words: str, menu: Menu, found: Agreement) -> None:
        if self.emit is None:
            return
        fields: dict[str, Any] = {
            "words": words,
            "restaurant": menu.restaurant,
            "verdict": found.verdict,
            "rules": found.rules.describe(),
            "model": found.model.describe() if found.model else None,
            **({"proposed": found.proposal.describe()} if found.proposal else {}),
            **({"read_by": found.model.by} if found.model and found.model.by != "model" else {}),
            "doubts": list(found.doubts),
        }
        if found.why:
            fields["why"] = found.why
        self.emit("reading", **fields)


def _answer(messages: list[dict[str, Any]], question: str) -> str | None:
    found = [a.answer for a in Transcript(messages).asked_after(-1) if a.question == question and a.answer]
    return found[-1] if found else None
