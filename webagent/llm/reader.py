"""`LLMReader`: a person's order read by a language model in one structured-output call.

The reply is held by a JSON schema in OpenAI's strict subset (so the same reader runs on llama.cpp's server,
any OpenAI-compatible endpoint and OpenAI's Structured Outputs): the final order — dishes with quantities and
choices after every correction and substitution, the dishes left out, the fallbacks, the budget — with the
menu's own dish and choice names as enums, so the model cannot write a name the menu lacks; a dish the
person wrote that the menu does not have is written as ``"(not on the menu)"`` with the words. Greedy
decoding, a reply cap, two worked examples written for this prompt (in words unlike any goal it is measured
on). What it returns is a `Reading` (webagent/planner/reading.py); a failure, a timeout or garbage is None,
and the run goes on with the rules' reading alone.

`serve_reader` gives the reader of a local model (webagent/llm/local.py), started on first use.
Imports the openai SDK and `webagent.planner.reading`/`menu` (pure) only.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

from openai import OpenAIError

from webagent.errors import LocalModelError
from webagent.narration.names import resolve
from webagent.planner.accounts import named_dishes
from webagent.planner.mentions import BUDGET_WORDS
from webagent.planner.menu import Menu
from webagent.planner.reading import Fallback, Reading, Want
from webagent.planner.reserve import may_fall_back

__all__ = ["FORMS", "MENDED", "NOT_ON_MENU", "LLMReader", "reading_schema", "shown"]

NOT_ON_MENU = "(not on the menu)"

INSTRUCTION = (
    "You read a customer's food order for one restaurant and write down the final order they mean. "
    "Apply every correction, swap and 'instead' (only the last word counts), work out quantities "
    "('one each for the four of us' is 4), and split a dish into separate lines when they want "
    "different choices: one choice of each kind per line. Only dishes they ask for go in items: never a "
    "dish they say not to order. 'X, or Y if X is sold out' is a fallback: X goes in items, Y only in "
    "fallbacks (take null for 'else nothing'). {names} Budget only if they state one, in dollars. Reply "
    "with JSON only."
)
MENTIONED = (
    "You read a customer's food order for one restaurant. List every dish they mention, in the order they "
    "mention it, each with what became of it: status order for what they finally want, dropped for a dish "
    "or a quantity they corrected, swapped out or said not to order. Apply every correction, swap and "
    "'instead' (only the last word counts), work out quantities ('one each for the four of us' is 4), and "
    "split a dish into separate lines when they want different choices: one choice of each kind per line. "
    "'X, or Y if X is sold out' is a fallback: X goes in items, Y only in fallbacks (take null for 'else "
    "nothing'). {names} Budget only if they state one, in dollars. Reply with JSON only."
)
MEND = "That is not quite it: {why}. Read the order again and write the final order they mean."
"""What the model is told where the checks cannot agree to its reading (`LLMReader.read_mended`): their
objection as they word it. Measured against "Wrong: {why}. Fix that and write the final order again."
(docs/local-model.md)."""
MENDED = "model, told why"
"""Who read a mended reading (`Reading.by`): the transcript's `reading` event says so (``read_by``)."""
NAMES = {
    "names": "Spell dishes and choices as the menu does; a dish the menu lacks, as the customer wrote it.",
    "enums": f'Use only the menu\'s names; a dish the menu does not have is "{NOT_ON_MENU}".',
}
NAMES["mentions"] = NAMES["names"]

STATUSES = ("order", "dropped")
"""In the ``mentions`` form every dish the words mention is a line with what became of it: ordered,
dropped (corrected, swapped out, not wanted) or only a fallback. A small model lists every dish it sees
(measured: "make the rice a garlic naan" read as both); asked what became of each, it decides one line at a
time, and the code keeps the ordered ones."""

EXAMPLES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        'Menu: "Veggie Wrap" (Bread: Plain or Wholemeal), "Soup of the Day", "Apple Juice" (Size: Small or '
        'Big), "Flapjack", "Brownie"',
        "hiya, 3 veggie wraps wholemeal - sorry, make that 2 - and an apple juice big. a flapjack, or a "
        "brownie if the flapjacks are gone. no soup. keep it under twenty quid all in. ta, Jo",
        {
            "items": [
                {"dish": "Veggie Wrap", "quantity": 3, "choices": ["Wholemeal"], "status": "dropped"},
                {"dish": "Veggie Wrap", "quantity": 2, "choices": ["Wholemeal"], "status": "order"},
                {"dish": "Apple Juice", "quantity": 1, "choices": ["Big"], "status": "order"},
                {"dish": "Flapjack", "quantity": 1, "choices": [], "status": "order"},
                {"dish": "Soup of the Day", "quantity": 1, "choices": [], "status": "dropped"},
            ],
            "fallbacks": [
                {"instead_of": "Flapjack", "take": {"dish": "Brownie", "quantity": 1, "choices": []}}
            ],
            "budget_dollars": 20,
            "budget_includes_fees": True,
        },
    ),
    (
        'Menu: "Noodle Box" (Heat: None, Some or Lots), "Rice Box", "Iced Tea", "Spring Rolls"',
        "for the three of us a noodle box each, two with some heat and one with lots. swap the spring "
        "rolls for a rice box. iced tea if you have it, else nothing. also a lychee soda",
        {
            "items": [
                {"dish": "Noodle Box", "quantity": 2, "choices": ["Some"], "status": "order"},
                {"dish": "Noodle Box", "quantity": 1, "choices": ["Lots"], "status": "order"},
                {"dish": "Spring Rolls", "quantity": 1, "choices": [], "status": "dropped"},
                {"dish": "Rice Box", "quantity": 1, "choices": [], "status": "order"},
                {"dish": "Iced Tea", "quantity": 1, "choices": [], "status": "order"},
                {"dish": "lychee soda", "quantity": 1, "choices": [], "status": "order"},
            ],
            "fallbacks": [{"instead_of": "Iced Tea", "take": None}],
            "budget_dollars": None,
            "budget_includes_fees": None,
        },
    ),
)
"""Written in the ``mentions`` form; the other forms are shown the ordered lines only (`_as_form`)."""


def _as_form(answer: dict[str, Any], form: str) -> dict[str, Any]:
    """A worked example's answer as ``form`` writes it: without the status and the lines not ordered,
    unless the form is ``mentions``; with the dish the menu lacks as the enum names it, in ``enums``."""
    items = answer["items"]
    if form != "mentions":
        items = [{k: v for k, v in i.items() if k != "status"} for i in items if i["status"] == "order"]
    if form == "enums":
        items = [{**i, "dish": NOT_ON_MENU} if i["dish"] == "lychee soda" else i for i in items]
    return {**answer, "items": items}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


FORMS = ("names", "enums", "mentions")
"""How the reply names dishes: ``names`` as written (matched to the menu here, as the rules match),
``enums``, held to the menu's names by the grammar, or ``mentions``: as written, every dish mentioned with
what became of it (`STATUSES`). Measured on the reading corpus (benchmarks/reading.py)."""


def reading_schema(
    menu: Menu, form: str = "names", *, fallbacks: bool = True, budget: bool = True
) -> dict[str, Any]:
    """The reply's JSON schema (strict subset: every property required, no additional properties): at most
    one choice of each kind a line (as many choices as the menu's dishes have kinds of choice); with
    ``form="enums"`` the menu's dish and choice names are enums. Without ``fallbacks`` (words that state no
    condition) the fallbacks are an empty list, without ``budget`` (no words of money or a limit) the budget
    is null: what the words cannot hold is not offered to the model to invent."""
    dishes = [*menu.names, NOT_ON_MENU]
    choices = sorted({c for dish in menu.dishes for c in dish.choices}) or ["(none)"]
    kinds = max((len([o for o in dish.options if o.choices]) for dish in menu.dishes), default=0)
    name: dict[str, Any] = {"type": "string", "enum": dishes} if form == "enums" else {"type": "string"}
    choice: dict[str, Any] = {"type": "string", "enum": choices} if form == "enums" else {"type": "string"}
    want: dict[str, Any] = {
        "type": "object",
        "properties": {
            "dish": name,
            "quantity": {"type": "integer"},
            "choices": {"type": "array", "items": choice, "maxItems": kinds},
        },
        "required": ["dish", "quantity", "choices"],
        "additionalProperties": False,
    }
    line = want
    if form == "mentions":
        line = {
            **want,
            "properties": {**want["properties"], "status": {"type": "string", "enum": list(STATUSES)}},
            "required": [*want["required"], "status"],
        }
    return {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": line, "maxItems": 12},
            "fallbacks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"instead_of": name, "take": _nullable(want)},
                    "required": ["instead_of", "take"],
                    "additionalProperties": False,
                },
                "maxItems": 4 if fallbacks else 0,
            },
            "budget_dollars": _nullable({"type": "number"}) if budget else {"type": "null"},
            "budget_includes_fees": _nullable({"type": "boolean"}) if budget else {"type": "null"},
        },
        "required": ["items", "fallbacks", "budget_dollars", "budget_includes_fees"],
        "additionalProperties": False,
    }


def shown(words: str, menu: Menu) -> Menu:
    """The part of ``menu`` put before the model: the dishes the words name (webagent/planner/accounts.py
    `named_dishes`), or the whole menu when they name none. A small model shown a whole menu orders from it
    (measured: 1 × Pepperoni Pizza for "two, no wait, three lasagna"); a dish it writes that is not shown is
    still matched against the whole menu."""
    named = named_dishes(words, menu)
    if not named:
        return menu
    return Menu(menu.restaurant, tuple(d for d in menu.dishes if d.name in named), menu.minimum_cents)


def menu_text(menu: Menu) -> str:
    """``Menu: "Margherita Pizza" (Size: Regular or Large; Extras: Extra cheese or Bacon), "Tiramisu"``."""
    parts = []
    for dish in menu.dishes:
        options = "; ".join(f"{o.name}: {' or '.join(o.choices)}" for o in dish.options if o.choices)
        parts.append(f'"{dish.name}"' + (f" ({options})" if options else ""))
    return "Menu: " + ", ".join(parts)


def messages_for(words: str, menu: Menu, form: str = "names") -> list[dict[str, str]]:
    """The conversation sent: the instruction, the worked examples, then the menu and the order."""
    instruction = MENTIONED if form == "mentions" else INSTRUCTION
    messages = [{"role": "system", "content": instruction.format(names=NAMES[form])}]
    for listed, order, answer in EXAMPLES:
        messages.append({"role": "user", "content": f"{listed}\nOrder: {order}"})
        messages.append({"role": "assistant", "content": json.dumps(_as_form(answer, form))})
    messages.append({"role": "user", "content": f"{menu_text(menu)}\nOrder: {words}"})
    return messages


class LLMReader:
    """Reads an order with a model behind Chat Completions (``client`` an `openai.OpenAI`).

    Without a client, the local model ``key`` (webagent/llm/local.py) is served in this process on the
    first reading, so a run that never needs one never loads it. ``seconds`` keeps how long each reading
    took (for the transcript and the benchmark). ``again`` is the form of a second look (`read_again`,
    webagent/planner/reading.py `read_agreed`), asked for only where the checks cannot agree to the first
    reading; None for none. ``mend`` asks once more, where neither look was agreed, with the first reading
    and why the checks could not agree to it (`read_mended`).
    """

    def __init__(
        self,
        key: str | None = None,
        *,
        client: Any = None,
        model: str | None = None,
        max_tokens: int = 320,
        timeout: float = 120.0,
        form: str = "names",
        again: str | None = "mentions",
        mend: bool = True,
    ) -> None:
        self.key = key
        self.form = form
        self.again = again
        self.mend = mend
        self._client = client
        self._model = model
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.seconds: list[float] = []
        self._replies: dict[Reading, Any] = {}  # each reading as the model wrote it, to show it back (a mend)

    def __repr__(self) -> str:
        return f"LLMReader({self.key or self._model!r})"

    def _connect(self) -> tuple[Any, str]:
        if self._client is None or self._model is None:
            from openai import OpenAI

            from webagent.llm import local  # llama.cpp is loaded only when a reading is first asked for

            server = local.serve_known(self.key or local.DEFAULT_LOCAL)
            self._client = OpenAI(
                base_url=server.base_url, api_key="local", timeout=self.timeout, max_retries=0
            )
            self._model = server.model
        return self._client, self._model

    def read(self, words: str, menu: Menu) -> Reading | None:
        """The model's reading of ``words`` against ``menu``; None when it failed or answered garbage."""
        return self.read_as(words, menu, self.form)

    def read_again(self, words: str, menu: Menu) -> Reading | None:
        """A second reading in the ``again`` form (None without one): every dish mentioned with what became
        of it, where the first form listed dishes corrected, swapped out or not wanted as ordered."""
        return self.read_as(words, menu, self.again) if self.again else None

    def read_mended(self, words: str, menu: Menu, reading: Reading, why: str) -> Reading | None:
        """The reading once more, in the first form, the model shown its ``reading`` of ``words`` as its own
        reply and told ``why`` the checks cannot agree to it (None without ``mend``). Measured on the main
        corpus's disagreements (docs/local-model.md): "it reads 5 × "Lasagna al Forno", but the words write
        3" is mended to 3; most are not, and a reading mended wrong is held by the same checks."""
        if not self.mend or self.form == "mentions":
            return None
        shortlist = shown(words, menu) if self.form != "enums" else menu
        said = [
            {"role": "assistant", "content": json.dumps(self._replies.get(reading) or _answer(reading))},
            {"role": "user", "content": MEND.format(why=why)},
        ]
        found = self._ask(words, menu, self.form, messages_for(words, shortlist, self.form) + said, shortlist)
        return replace(found, by=MENDED) if found is not None else None

    def read_as(self, words: str, menu: Menu, form: str) -> Reading | None:
        """The reading in ``form`` (`FORMS`)."""
        shortlist = shown(words, menu) if form != "enums" else menu  # enums hold the whole menu
        return self._ask(words, menu, form, messages_for(words, shortlist, form), shortlist)

    def _ask(
        self, words: str, menu: Menu, form: str, messages: list[dict[str, str]], shortlist: Menu
    ) -> Reading | None:
        started = time.perf_counter()
        try:
            client, model = self._connect()
            reply = client.chat.completions.create(
                model=model,
                messages=messages,
                response_format={
                    "type": "json_schema",
                    "json_schema": {
                        "name": "order",
                        "schema": reading_schema(
                            shortlist,
                            form,
                            fallbacks=may_fall_back(words),
                            budget=bool(BUDGET_WORDS.search(words)),
                        ),
                        "strict": True,
                    },
                },
                temperature=0.0,
                max_tokens=self.max_tokens,
            )
            data = json.loads(reply.choices[0].message.content or "")  # IndexError: no choices
        except (OpenAIError, LocalModelError, json.JSONDecodeError, IndexError):
            return None
        finally:
            self.seconds.append(time.perf_counter() - started)
        found = parse(data, menu)
        if found is not None:
            self._replies[found] = data
        return found


def _answer(reading: Reading) -> dict[str, Any]:
    """A reading written as the reply `reading_schema` holds, where the model's own reply is not kept (a
    reading read back from a checkpoint): its lines and fallbacks on the menu, what it read off the menu
    left out."""

    def line(want: Want) -> dict[str, Any]:
        return {"dish": want.dish, "quantity": want.quantity, "choices": list(want.choices)}

    return {
        "items": [line(w) for w in reading.items],
        "fallbacks": [
            {"instead_of": f.instead_of, "take": line(f.take) if f.take else None} for f in reading.fallbacks
        ],
        "budget_dollars": reading.budget_cents / 100 if reading.budget_cents is not None else None,
        "budget_includes_fees": reading.budget_includes_fees,
    }


def _dish(name: Any, menu: Menu) -> str | None:
    """A dish name the model wrote, as the menu has it (the rules' matcher: case, accents, plurals, a
    typo), or None."""
    return resolve(name, menu.names).found if isinstance(name, str) and name != NOT_ON_MENU else None


def _want(data: Any, menu: Menu, off_menu: list[str]) -> Want | None:
    """One line of the reply; what the menu does not have goes to ``off_menu`` (None for garbage)."""
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("quantity"), int)
        or not 1 <= data["quantity"] <= 50
    ):
        return None
    found = _dish(data.get("dish"), menu)
    if found is None:
        off_menu.append(str(data.get("written") or data.get("dish") or "")[:80])
        return None
    offered = menu.dish(found).choices if menu.dish(found) else []  # type: ignore[union-attr]
    choices = []
    for written in data.get("choices") or ():
        choice = resolve(written, offered).found if isinstance(written, str) else None
        if choice is None:
            off_menu.append(f"{found}: {str(written)[:40]}")
        elif choice not in choices:
            choices.append(choice)
    return Want(found, data["quantity"], tuple(choices))


def parse(data: Any, menu: Menu) -> Reading | None:
    """A reply held to `reading_schema`, as a `Reading` with the menu's names — None for anything that does
    not fit it (a server without constrained decoding can still answer garbage). Dishes and choices the menu
    does not have are kept as written in ``off_menu``: such a reading is never acted on without asking."""
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        return None
    off_menu: list[str] = []
    items: list[Want] = []
    for raw in data["items"]:
        if isinstance(raw, dict) and raw.get("status", "order") != "order":
            continue  # a dish mentioned and dropped, or only a fallback (the `mentions` form)
        if (
            not isinstance(raw, dict)
            or not isinstance(raw.get("quantity"), int)
            or not 1 <= raw["quantity"] <= 50
        ):
            return None  # a count no order has: the whole reply is garbage, no line is dropped quietly
        want = _want(raw, menu, off_menu)
        if want is not None:
            items.append(want)
    fallbacks = []
    for raw in data.get("fallbacks") or ():
        if not isinstance(raw, dict):
            return None
        instead_of = _dish(raw.get("instead_of"), menu)
        take = None if raw.get("take") is None else _want(raw["take"], menu, off_menu)
        if instead_of is None or (raw.get("take") is not None and take is None):
            off_menu.append(str(raw.get("instead_of"))[:80])
            continue
        fallbacks.append(Fallback(instead_of, take))
    budget = data.get("budget_dollars")
    fees = data.get("budget_includes_fees")
    return Reading(
        by="model",
        restaurant=menu.restaurant,
        items=tuple(items),
        fallbacks=tuple(fallbacks),
        budget_cents=round(budget * 100)
        if isinstance(budget, int | float) and 0 < budget < 100_000
        else None,
        budget_includes_fees=fees if isinstance(fees, bool) else None,
        off_menu=tuple(off_menu),
    )
