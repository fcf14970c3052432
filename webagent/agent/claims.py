"""What a finish may claim where no shop confirms an order: a form the run filled in and never sent is not a
task done.

The demo shop's orders are held to the shop's confirmation (`Controls.finish`). On any other page the
model's "done" is its own word; what the page can still tell against it is a form the run filled into and
sent nothing from since — the 1.5B filled a newsletter's email, asked the person whether to subscribe, and
finished "done" with nothing sent; told so, it chose the frequency and finished "done" again. A form with
a required field still empty refuses "done" outright; a complete one not sent refuses it once (a goal may
ask only to fill a form in: the second "done" stands). A form in a dialog counts as one on the page: its
fields are not in the page's form list (the narration names the dialog), so only "nothing was pressed" can
be said of it. Pure: no browser code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from webagent.narration.narrate import quote, required_empty
from webagent.narration.state import PageState

__all__ = ["NOT_SENT", "REFUSED_WORDS", "refused_on_page", "unsent_form"]

FILLS = frozenset({"fill_field", "choose_option"})
"""Calls that put something into a form."""
SENDS = frozenset({"press", "press_key", "answer_dialog"})
"""Calls that may send one (a press of its button, Enter in it)."""
FILLED = ("Filled", "Chose", "Ticked", "Unticked")
"""How a fill or a choice that went through begins (the tools' own words: webagent/tools/generic.py); one the
page put back ('Chose "Large", but "Size" now shows …'), or refused (card details), filled nothing."""
NOT_SENT = "Refused: the form filled in this run was not sent"
_SENDING_KEY = re.compile(r'"key"\s*:\s*"(?:Enter|Space| )"')
"""A key that sends a form or presses its button (Enter, Space); Tab or Escape sends nothing."""
_PUT_BACK = re.compile(r'^Chose "(?:[^"\\]|\\.)*", but ')
"""A choice the page put back (webagent/tools/generic.py): nothing was filled."""


def unsent_form(page: PageState, messages: Sequence[dict[str, Any]]) -> str | None:
    """Why a finish "done" is refused on ``page`` — a form the run filled into and pressed nothing (and no
    Enter or Space) since, not yet refused once since its last fill — or None."""
    if not page.any_page or not (page.form or page.dialogs):
        return None  # (a dialog's fields are the dialog's, named by it, never in the page's form list)
    called: dict[str, str] = {}
    keys: dict[str, str] = {}
    since: list[str] = []  # the fills since the last press or key tried, and finishes refused for them
    for message in messages:
        if message.get("role") == "assistant":
            for call in message.get("tool_calls") or []:
                called[str(call.get("id"))] = str(call.get("function", {}).get("name"))
                keys[str(call.get("id"))] = str(call.get("function", {}).get("arguments") or "")
            continue
        if message.get("role") != "tool":
            continue
        call_id = str(message.get("tool_call_id"))
        name, said = called.get(call_id, ""), str(message.get("content") or "")
        if name in SENDS and (name != "press_key" or _SENDING_KEY.search(keys.get(call_id, ""))):
            since = []  # tried: what came of it is in its narration (a press the person declined too)
        elif name in FILLS and said.startswith(FILLED) and not _PUT_BACK.match(said):
            # a finish refused before this fill refused another form than the one now
            since = [*(kept for kept in since if kept != "refused"), name]
        elif said.startswith(NOT_SENT):
            since.append("refused")
    if not any(name in FILLS for name in since):
        return None
    if "refused" in since:
        return None  # said once for this form as it is: a second "done" stands (a goal may ask only to fill)
    empty = required_empty(page.form)
    if empty:
        named = ", ".join(quote(name, 42) for name in empty[:3])
        return (
            f"{NOT_SENT}: {named} {'is' if len(empty) == 1 else 'are'} still empty. Fill it and send the "
            "form, or finish with outcome 'failed' and say why."
        )
    return (
        f"{NOT_SENT}: nothing was pressed after it was filled in. Send it (press its button) if the goal "
        "asks for that; if the goal asked only to fill it in, call finish again."
    )


REFUSED_WORDS = re.compile(
    r"\b(?:declined|denied|rejected|failed|unsuccessful|insufficient|expired|invalid|error|"
    r"could\s*n[o']t|can\s*n[o']t|unable|not\s+(?:been\s+)?(?:processed|completed|approved|accepted|authori[sz]ed))\b",
    re.IGNORECASE,
)
"""Words a page uses to say an action did not go through ("Your card was declined", "Payment failed")."""


def refused_on_page(page: PageState) -> str | None:
    """What the page says against an action just done, as it says it: an error, or an alert, a status or a
    live announcement in words of refusal (`REFUSED_WORDS`); None where it says none. A consequential press
    whose page says "Your card was declined" is not reported as paid (`Controls`, `Spend.said`)."""
    said = [*page.errors, *(t for t in (*page.notices, *page.announced) if REFUSED_WORDS.search(t))]
    return quote(said[0], 160) if said else None
