"""`answer_dialog`: answering a JavaScript dialog otherwise than webagent did.

webagent answers a ``confirm``, ``prompt`` or "leave this page?" with Cancel as it comes
(webagent/browser/events.py), so a page never waits on the model. To answer OK (or Leave, or with a
text) the model calls `answer_dialog`: the tool call that raised the dialog is done again with that
answer armed for that very dialog. The answer is consequential — it passes the approval gate and the
budget as one action — when the dialog's words pay, order, book or send money ("Pay $42.50 now?"), or when
the call done again is itself consequential; and the call is done again only while it is judged as it
was when approved.
"""

from __future__ import annotations

from pydantic import Field

from webagent.browser.events import Asked
from webagent.narration.money import amount_cents
from webagent.narration.narrate import quote
from webagent.tools.base import Args, Tool
from webagent.tools.consequence import Consequence, agrees_to_charge, says_consequential

__all__ = ["ANSWER_DIALOG", "AnswerDialog", "answer_consequence", "same_answer"]


class AnswerDialog(Args):
    """Answer the page's last question (confirm, prompt, leave?), answered Cancel so far: its action is
    done again with this answer."""

    accept: bool = Field(description="True: OK (or Leave).")
    text: str | None = Field(default=None, max_length=500, description="A prompt's answer.")


ANSWER_DIALOG = Tool("answer_dialog", AnswerDialog, None, may_spend=True)
"""Run by the toolbox itself (it does the asking call again), offered only while a dialog was answered
Cancel."""


def answer_consequence(asked: Asked, args: AnswerDialog, again: Consequence) -> Consequence:
    """What answering ``asked`` as ``args`` says commits, with ``again`` (the asking call judged now)."""
    if not args.accept:
        return Consequence(False)
    words = f"{asked.message} {args.text or ''}".strip()
    pays = says_consequential(asked.message) or agrees_to_charge(words)
    if not pays and not again.consequential:
        return Consequence(False)
    answer = "Leave" if asked.kind == "beforeunload" else "OK"
    action = f"answering {answer} to the page's question {quote(asked.message, 80)}"
    if again.action:
        action += f", {again.action} again"
    reason = f"the page asks {quote(asked.message, 80)}" if pays else again.reason
    total = amount_cents(asked.message) if pays else None
    return Consequence(
        True,
        reason,
        control=again.control,
        action=action,
        total_cents=total if total is not None else again.total_cents,
        site_marked=again.site_marked,
        unclear=again.unclear and not pays,
    )


def same_answer(approved: Consequence | None, now: Consequence) -> bool:
    """Whether the answer judged now commits nothing beyond what was approved (or nothing at all)."""
    if not now.consequential:
        return True
    if approved is None or not approved.consequential:
        return False
    return (now.control, now.total_cents, now.reason) == (
        approved.control,
        approved.total_cents,
        approved.reason,
    )
