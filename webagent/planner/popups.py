"""Getting past a popup that no tool could: the planner's side of webagent/browser/obstruction.py.

When a tool narrates that a dialog still covers the page (it offered no way to decline, or its decline
did not take in time on a slow page), the planner does what a careful person does, through the generic
`press` tool: presses its decline ("Skip") or else a plainly neutral button ("I'm still here") — never
one that accepts, subscribes or consents (webagent/narration/consent.py) — and then the stage that was blocked
tries again by itself. When every button would agree to something, it asks the
person which to press, or whether to stop; when there is no button at all, whether to stop. It never guesses.
"""

from __future__ import annotations

from webagent.narration.consent import accepts, decline_control, neutral_control
from webagent.narration.names import resolve
from webagent.narration.said import read_blocked
from webagent.planner import consult
from webagent.planner.decision import Decision
from webagent.planner.plan import Plan

__all__ = ["get_past", "popup_question"]

STOP = "Stop"
MAX_PRESSES = 2
"""The same button for the same popup, before asking the person instead."""


def popup_question(title: str, buttons: list[str]) -> str:
    """The question for a popup whose every button would agree to something, or that has none at all."""
    named = f'A popup "{title}"' if title else "A popup"
    if not buttons:
        return f"{named} blocks the page and has no button I could press to get past it. Should I stop?"
    offered = ", ".join(f'"{button}"' for button in buttons)
    return f"{named} blocks the page and offers only {offered}. Which should I press, or should I stop?"


def get_past(d: Decision) -> Plan | None:
    """The press that gets past a popup the last turn was blocked by, a question, or None."""
    if not d.steps:
        return None
    last_turn = d.steps[-1].turn
    blocked = next(
        (found for s in d.steps if s.turn == last_turn and (found := read_blocked(s.result or ""))), None
    )
    if blocked is None:
        return None
    title, buttons = blocked.title, [button for button in blocked.buttons if button]
    question = popup_question(title, buttons)
    answer = d.answer_to(question)
    if answer:
        chosen = resolve(answer, buttons).found
        if chosen:  # the person's own choice, whatever it agrees to
            return Plan(f'Pressing "{chosen}", as you chose.', [("press", {"name": chosen})])
    where = f'"{title}"' if title else "A popup"
    neutral = decline_control(buttons) or neutral_control(buttons)
    if neutral and _presses(d, neutral) < MAX_PRESSES:
        return Plan(f'{where} is in the way; pressing "{neutral}".', [("press", {"name": neutral})])
    # Before asking the person: the local model may pick a way out among the buttons that accept nothing.
    safe = [button for button in buttons if not accepts(button)]
    context = f'"{title}" with the buttons ' + ", ".join(f'"{b}"' for b in buttons)
    picked = d.consult(consult.BUTTONS, context, safe, consult.BUTTON_LABELS) if safe else None
    way_out = next(iter(picked or []), None)
    if way_out and _presses(d, way_out) < MAX_PRESSES:
        return Plan(f'{where} is in the way; pressing "{way_out}".', [("press", {"name": way_out})])
    return d.ask_again(question, [*buttons[:9], STOP])


def _presses(d: Decision, button: str) -> int:
    return sum(1 for s in d.steps if s.name == "press" and s.args.get("name") == button)
