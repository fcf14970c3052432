"""The task file of ``webagent eval``: one task per line, parsed with line-numbered errors.

One task per line (the format is a contract; task files outside this repository rely on it)::

    {"id": "t01", "goal": "…", "clutter": 2, "seed": 7,
     "profile": {"name": "…", "address": "…", "phone": "…", "payment_method": "…"},   # optional
     "answers": ["…"],          # optional replies to ask_human, in order; none left → the run pauses
     "approve": "auto",         # optional: auto (default) | deny
     "budget_cents": 5000,      # optional: the run's hard budget (also checked against the order's total)
     "init_script": "x.js",     # optional: JavaScript run in every page (path relative to the task file)
     "note": "…",               # optional: what the task is about (for readers; evals/README.md lists it)
     "kind": "correction",      # optional: the class of goal it belongs to (for readers and per-class counts)
     "expect": {"ordered": true,                       # required; false = no order may exist
                "stopped_by": "budget",                # required when ordered is false: why (see below)
                "restaurant": "…", "items": [{"dish": "…", "quantity": 2, "options": {"Size": "Large"}}],
                "exact_items": true, "address_contains": "…", "name": "…", "phone": "…",
                "delivery_slot": "…", "payment_method": "…", "promo_code": "…", "tip_cents": 300,
                "total_cents": 4342, "budget_cents": 2500, "asked_human": true}}   # all optional

``promo_code: ""`` expects that no code was applied. A paused run counts as "nothing ordered".
An order's delivery time and payment method are always checked: a task that pins neither expects what
nobody asked for to be left as it is — the shop's first delivery time (ASAP) and the customer's payment
method (the task's profile, else `DEFAULT_PROFILE`'s; else the shop's first) — so any other is a wrong order.
``stopped_by`` is one of asked_human, budget, approval_denied, sold_out, minimum_order, not_on_menu,
promo_rejected, person_declined, answered_question, popup, injection_refused
(webagent/evals/stop_reasons.py). An order-less task may say what its stop is about, so that the stop is
checked against that and the shop's data: with budget, approval_denied or injection_refused, ``items`` is
the cart that was refused; with sold_out, ``restaurant`` and ``items`` the dish that must be shown sold
out; with minimum_order, ``restaurant`` and ``items`` the cart below the minimum; with not_on_menu,
``restaurant`` and ``missing`` the goal's words its menu lacks; with promo_rejected, ``restaurant`` and
``promo_code`` the code refused; with answered_question, ``answer`` what the right answer is
(``{"restaurants_selling": "sushi"}``: exactly the restaurants the shop's data says sell it).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from webagent.config import Profile
from webagent.errors import UsageError
from webagent.evals.stop_reasons import STOP_REASONS, StopReason

__all__ = [
    "DEFAULT_PROFILE",
    "SHOP_DEFAULT_PAYMENT",
    "SHOP_DEFAULT_SLOT",
    "Answer",
    "Expect",
    "ExpectedItem",
    "Task",
    "load_tasks",
    "parse_tasks",
]


DEFAULT_PROFILE = Profile(
    name="Eval Customer", address="1 Test Street", phone="555-0100", payment_method="Card on delivery"
)
"""The customer of a task that gives no profile; what the goal says still wins."""
SHOP_DEFAULT_SLOT = "ASAP"
"""The delivery time the shop's checkout starts with (the catalog's first): what nobody asked to change."""
SHOP_DEFAULT_PAYMENT = "Card on delivery"
"""The payment method the shop's checkout starts with (the catalog's first)."""


class ExpectedItem(BaseModel):
    """One order line the database must hold."""

    model_config = ConfigDict(extra="forbid")

    dish: str
    """The dish name as the catalog spells it (compared case-insensitively)."""
    quantity: int = Field(1, ge=1)
    options: dict[str, str | list[str]] = Field(default_factory=dict)
    """{option: choice}; every option group is compared, so a choice the line holds beyond these fails.
    A list for multi-choice options ([] = none)."""


class Answer(BaseModel):
    """The right answer to a question a task's goal asks about the shop, judged by the shop's data."""

    model_config = ConfigDict(extra="forbid")

    restaurants_selling: str = Field(min_length=1)
    """The answer names exactly the restaurants that sell this (by name, tags or dishes): all, no other."""


CART_DETAILS = ("items", "exact_items")
"""What an order-less task may still say: the cart the gate refused (budget, approval_denied, injection)."""
REFUSED_CART = ("budget", "approval_denied", "injection_refused")
STOP_DETAILS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(REFUSED_CART, CART_DETAILS),
    "sold_out": ("restaurant", "items"),
    "minimum_order": ("restaurant", "items", "exact_items"),
    "not_on_menu": ("restaurant",),
    "promo_rejected": ("restaurant", "promo_code"),
}
"""What an order-less task may say its stop is about, by reason (the module docstring says how it is read)."""


class Expect(BaseModel):
    """What the shop's database (and transcript) must show after the run; unset fields are not checked."""

    model_config = ConfigDict(extra="forbid")

    ordered: bool
    """True: exactly one order exists. False: no order may exist."""
    stopped_by: StopReason | None = None
    """Why nothing is ordered (required when ``ordered`` is false); the transcript must show it."""
    restaurant: str | None = None
    items: list[ExpectedItem] | None = None
    exact_items: bool | None = None
    """No lines beyond ``items`` (default: true when ``items`` is given)."""
    address_contains: str | None = None
    name: str | None = None
    """The customer name on the order (case-insensitive)."""
    phone: str | None = None
    delivery_slot: str | None = None
    payment_method: str | None = None
    promo_code: str | None = None
    """The applied code; "" expects none applied."""
    tip_cents: int | None = Field(None, ge=0)
    total_cents: int | None = Field(None, ge=0)
    """The order's total, exactly as the shop charged it."""
    budget_cents: int | None = Field(None, ge=0)
    """The budget the goal (or the task) states: the total may not exceed it."""
    asked_human: bool | None = None
    missing: list[str] | None = None
    """not_on_menu: the goal's words that no dish or choice of the restaurant's menu holds."""
    answer: Answer | None = None
    """answered_question: what the right answer is."""

    @model_validator(mode="after")
    def _order_details_need_an_order(self) -> Expect:
        if not self.ordered and self.stopped_by is None:
            raise ValueError(
                "ordered is false, so say why nothing is ordered: stopped_by, one of "
                + ", ".join(STOP_REASONS)
            )
        if self.ordered and self.stopped_by is not None:
            raise ValueError("stopped_by says why nothing is ordered; this task expects an order")
        details = (
            "restaurant", "items", "exact_items", "address_contains", "name", "phone", "delivery_slot",
            "payment_method", "promo_code", "tip_cents", "total_cents",
        )  # fmt: skip
        allowed = STOP_DETAILS.get(self.stopped_by or "", ())
        given = [name for name in details if getattr(self, name) is not None and name not in allowed]
        if not self.ordered and given:
            raise ValueError(f"ordered is false, so {', '.join(given)} cannot be checked")
        if self.missing is not None and self.stopped_by != "not_on_menu":
            raise ValueError("missing names what a menu lacks: only with stopped_by not_on_menu")
        if self.answer is not None and self.stopped_by != "answered_question":
            raise ValueError(
                "answer is the right answer to a question: only with stopped_by answered_question"
            )
        return self


class Task(BaseModel):
    """One line of a task file."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    goal: str = Field(min_length=1)
    clutter: int = Field(0, ge=0, le=4)
    seed: int = 7
    profile: Profile | None = None
    answers: list[str] = Field(default_factory=list)
    approve: Literal["auto", "deny"] = "auto"
    budget_cents: int | None = Field(None, ge=0)
    init_script: str | None = None
    """JavaScript run in every page before the shop's own (RunConfig.init_scripts): text the page shows
    differently for this task, such as instructions planted in a description. Relative to the task file."""
    note: str | None = None
    kind: str | None = None
    """The class of goal the task belongs to ("correction", "stop_budget", …), for readers and for counting
    a suite's results per class (evals/heldout/README.md lists the held-out suite's). Nothing runs or
    verifies a task differently for it."""
    expect: Expect

    @model_validator(mode="after")
    def _the_tasks_budget_is_checked(self) -> Task:
        if self.budget_cents is not None and self.expect.budget_cents is None:
            self.expect.budget_cents = self.budget_cents
        return self

    @model_validator(mode="after")
    def _what_nobody_asked_for_is_left_alone(self) -> Task:
        """An order's delivery time and payment are what the task pins, else what nobody changed: the
        shop's first time, and the customer's own payment method (the shop's first when they have none)."""
        if self.expect.ordered:
            if self.expect.delivery_slot is None:
                self.expect.delivery_slot = SHOP_DEFAULT_SLOT
            if self.expect.payment_method is None:
                profile = self.profile or DEFAULT_PROFILE
                self.expect.payment_method = profile.payment_method or SHOP_DEFAULT_PAYMENT
        return self

    @property
    def needs_action(self) -> bool:
        """Whether passing takes acting on the shop — anything beyond asking one question."""
        return self.expect.ordered or self.expect.stopped_by != "asked_human"


def _field_error(error: ValidationError, known: dict[str, Any]) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "line"
    if first["type"] == "extra_forbidden":
        key = str(first["loc"][-1])
        close = difflib.get_close_matches(key, list(known), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"unknown field {where!r}{hint}"
    if first["type"] == "missing":
        return f"missing field {where!r}"
    return f"field {where!r}: {first['msg']}"


def _known_fields(loc: Sequence[int | str]) -> dict[str, Any]:
    """The fields of the model a validation error location points into, for "did you mean" hints."""
    model: type[BaseModel] = Task
    for part in loc[:-1]:
        if part == "expect":
            model = Expect
        elif part == "items":
            model = ExpectedItem
        elif part == "answer":
            model = Answer
        elif part == "profile":
            model = Profile
    return dict(model.model_fields)


def parse_tasks(text: str, source: str = "tasks", base: Path | None = None) -> list[Task]:
    """Parse JSON-lines task text; a bad line raises `UsageError` naming the line and the field.

    An ``init_script`` is resolved against ``base`` (the task file's folder) and must exist."""
    tasks: list[Task] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise UsageError(
                f"{source} line {number}: not valid JSON ({error.msg} at column {error.colno})"
            ) from None
        if not isinstance(data, dict):
            raise UsageError(f"{source} line {number}: a task must be a JSON object")
        try:
            task = Task.model_validate(data)
        except ValidationError as error:
            known = _known_fields(error.errors()[0]["loc"])
            raise UsageError(f"{source} line {number}: {_field_error(error, known)}") from None
        if task.id in seen:
            raise UsageError(
                f"{source} line {number}: task id {task.id!r} already used on line {seen[task.id]}"
            )
        if task.init_script is not None:
            script = (base or Path.cwd()) / task.init_script
            if not script.is_file():
                raise UsageError(
                    f"{source} line {number}: init_script {task.init_script!r}: no file {script}"
                )
            task = task.model_copy(update={"init_script": str(script.resolve())})
        seen[task.id] = number
        tasks.append(task)
    if not tasks:
        raise UsageError(f"{source}: no tasks")
    return tasks


def load_tasks(path: Path) -> list[Task]:
    """Read and parse a task file (see the module docstring for the format)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read task file {path}: {error.strerror}") from error
    return parse_tasks(text, str(path), path.parent)
