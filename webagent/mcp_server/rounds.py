"""Approvals asked as the 2026-07-28 revision asks them: in rounds, not from inside a call.

The tool call that meets the approval gate does not hold the connection open on a question: it returns the
question (the server turns it into an `InputRequiredResult` whose elicitation is the approval form), and
the run waits where it is — its browser, its cart, the very action asked about. The client shows the form
to its person and calls the same tool again with the answer (`input_responses`) and the question's key
(`request_state`); the answer reaches the waiting gate, the action goes on (or not), and that retry
returns the narration. The key is a digest of the question — the action, its origin, lines and total as
the gate words them — so an answer is taken only for the question it answers: a retry that carries
another key, or none, is asked the open question again.

A question may instead be a link the person opens (URL-mode elicitation: the card details a payment page
asks for, webagent/mcp_server/cards.py); its answer is only whether they went to it.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Question", "Rounds", "decide", "opened"]


@dataclass(frozen=True)
class Question:
    key: str
    text: str
    future: asyncio.Future[bool | None]
    url: str | None = None
    """A link for the person to open (URL mode), answered by accept or decline; None: the approval form."""


def opened(response: Any) -> bool | None:
    """A URL-mode elicitation's answer: True when the person went to the link, False when they declined,
    None when they cancelled or it is not an answer."""
    action = getattr(response, "action", None) or (
        response.get("action") if isinstance(response, Mapping) else None
    )
    return True if action == "accept" else False if action == "decline" else None


def decide(response: Any) -> bool | None:
    """An elicitation's answer to "approve?": True or False, None when the person cancelled or it is not
    an answer at all."""
    action = getattr(response, "action", None) or (
        response.get("action") if isinstance(response, Mapping) else None
    )
    content = (
        getattr(response, "content", None) if not isinstance(response, Mapping) else response.get("content")
    )
    if action == "decline":
        return False
    if action != "accept" or not isinstance(content, Mapping):
        return None
    approve = content.get("approve")
    return approve if isinstance(approve, bool) else None


class Rounds:
    """The one open approval question of a run, and the call waiting on it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.open: Question | None = None
        self._asked = asyncio.Event()

    async def ask(self, text: str) -> bool | None:
        """The gate's way to ask (`ElicitPrompt.ask`): open the question and wait for a retry's answer."""
        key = "approve-" + hashlib.sha256(text.encode()).hexdigest()[:24]
        return await self._wait(Question(key, text, self.loop.create_future()))

    async def ask_url(self, text: str, url: str) -> bool | None:
        """Send the person to ``url`` (URL mode) and wait for a retry saying whether they went."""
        key = "link-" + hashlib.sha256(url.encode()).hexdigest()[:24]
        return await self._wait(Question(key, text, self.loop.create_future(), url))

    async def _wait(self, question: Question) -> bool | None:
        self.open = question
        self._asked.set()
        try:
            return await question.future
        finally:
            self.open = None

    def answer(self, answers: Mapping[str, Any] | None, state: str | None) -> bool:
        """Hand the open question the answer a retry carries, when it carries one for it; whether it did."""
        question = self.open
        if question is None or question.future.done() or not answers or state != question.key:
            return False
        if question.key not in answers:
            return False
        self._asked.clear()
        read = opened if question.url is not None else decide
        question.future.set_result(read(answers[question.key]))
        return True

    async def asked(self) -> None:
        """Once a question is open."""
        await self._asked.wait()

    def close(self) -> None:
        """Nobody will answer (the run is let go): the gate hears no answer, and pauses."""
        question = self.open
        if question is not None and not question.future.done():
            question.future.set_result(None)
