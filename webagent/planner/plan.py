"""What a planner turn is made of: a `Plan` (what to say, which calls), the two ways to turn to the
person (`ask`, `finish`), and `Line`, one line the cart must hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from webagent.narration.lines import counted, line_name, split_line_name
from webagent.planner.menu import Menu

__all__ = ["Line", "Plan", "ask", "finish", "line_key"]


@dataclass
class Plan:
    """A turn: what the planner says and the tool calls it makes, in order."""

    say: str
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def ask(
    question: str, choices: list[str] | None = None, *, yes_no: bool = False, context: str | None = None
) -> Plan:
    """Ask the person (``ask_human``), offering ``choices`` when there are some."""
    args: dict[str, Any] = {"question": question[:500]}
    if context:
        args["context"] = context[:1000]
    if yes_no:
        args["format"] = "yes_no"
    elif choices:
        args["format"] = "multiple_choice"
        args["choices"] = choices[:10]
    return Plan(question, [("ask_human", args)])


def finish(outcome: str, summary: str, order_id: int | None = None) -> Plan:
    """End the request: ``ordered`` (with the order the shop confirmed), ``done`` or ``failed``."""
    args: dict[str, Any] = {"outcome": outcome, "summary": summary[:1000]}
    if order_id is not None:
        args["order_id"] = order_id
    return Plan(summary, [("finish", args)])


@dataclass(frozen=True)
class Line:
    """One line the cart must hold: a dish, how many, and its choices."""

    dish: str
    quantity: int
    options: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, frozenset[str]]:
        return self.dish, frozenset(self.options)

    def add_args(self) -> dict[str, Any]:
        args: dict[str, Any] = {"dish": self.dish, "quantity": self.quantity}
        if self.options:
            args["options"] = list(self.options)
        return args

    def __str__(self) -> str:
        return counted(self.quantity, line_name(self.dish, self.options))


def line_key(name: str, menu: Menu) -> tuple[str, frozenset[str]] | None:
    """A cart line's name → (dish, choices): ``"Margherita Pizza (Large, Bacon)"`` → (…, {Large, Bacon})."""
    found = split_line_name(name, menu.names)
    return (found.dish, frozenset(found.choices)) if found else None
