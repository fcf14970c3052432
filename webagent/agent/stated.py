"""What the person stated for the delivery, and the checkout's schema held to it.

A small model offered the checkout's payment methods chose "Card on delivery" for a goal that said "pay
cash", twice (docs/local-model.md#measured): the anchor held the order for the person, but the run could
not finish as asked. Where the person's own words — the goal or their messages, else an ``--order`` file,
else the profile — state a delivery time, a payment method, a name, an address or a phone, the
``fill_delivery_details`` schema offered to a narrowed model (`Controls.tools_for`) keeps to it: of the
page's choices only those that are the stated one, and a free field only the stated words. So does
``open_restaurant`` to the restaurant the person named, where the page lists it (the 1.5B opened the
sponsored "Italian Bistro Express" for a goal naming "Italian Bistro"). And ``add_to_cart``, once a menu is
open, to the dishes the goal names on it, each in the quantity it asks (the 1.5B added "two Churros and a
Chicken Burrito" as 2 × Chicken Burrito) — unless the goal reader found the words unclear. With the cart
as it is (`InCart`), what the goal asks for is held to what is still missing: ``add_to_cart`` offers only the
dishes the cart lacks, in the quantities it lacks; ``change_quantity`` only the lines of an asked-for dish in
another quantity than asked, held to the quantity asked; ``remove_from_cart`` only lines not asked for
or beyond what was asked (at a complete checkout the 1.5B emptied the cart); ``go_to_checkout`` waits
until nothing is missing
(the 1.5B added a Margherita Pizza, set its quantity to 2 where the goal asked for a Tiramisu next, and went to
the checkout). A model on a server with constrained decoding then cannot write another; nothing else
changes (a stated choice the page does not offer leaves the page's choices as they are, for the narration
to explain; ``ask_human`` and ``finish`` stay, for a dish that cannot be added). And at the checkout
(``form``), while a name, an address or a phone is in none of the person's words nor on the form,
``fill_delivery_details`` is not offered, and ``ask_human`` comes first, saying what to ask for (the 1.5B
wrote "John Doe, 123 Elm St" into a goal that named nobody); once the person's answer gives them, the tool
comes back held to them.

A tip and a promo code are held the same way, only as the person stated them — in their goal, their order
file or an answer — else none: the tip to "no tip" (or the form's own, null), the promo code not offered at
all (only null). An unasked tip was approved automatically before the anchor checked it (issue 35), and a
small model fills every field it is shown.

The anchor (webagent/agent/anchor.py) reads the same statement through `stated`. Pure: no browser code.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from webagent.config import Profile
from webagent.narration.money import AMOUNT, parse_cents
from webagent.narration.names import normalize
from webagent.narration.state import CheckoutForm
from webagent.planner import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Agreement, in_doubt
from webagent.planner.spec import GoalReading
from webagent.planner.transcript import Transcript

__all__ = [
    "CHOSEN",
    "EXTRAS",
    "InCart",
    "answers_in",
    "held_to_order",
    "held_to_person",
    "read_whole",
    "stated",
    "stated_by",
    "wanted",
    "wanted_choices",
]

CHOSEN = ("delivery_slot", "payment_method")
"""The details the person chooses among the page's choices (the others they write)."""
WRITTEN = ("name", "address", "phone")
EXTRAS = ("tip_cents", "promo_code")
"""What an order may add to the bill: only as the person stated it (a tip of 0 is stated too: "no tip")."""
HELD = {
    "fill_delivery_details": {key: key for key in (*CHOSEN, *WRITTEN)},
    "open_restaurant": {"name": "restaurant"},
}
"""Each tool's arguments held to a stated detail (argument → detail)."""
WAIT_FOR_CART = ("go_to_checkout",)
"""The tools not offered while the cart lacks part of what the person asked for."""
WAIT_FOR_DETAILS = ("fill_delivery_details",)
"""The tools not offered while a name, address or phone is in none of the person's words nor on the form."""
FORWARD = frozenset({"go_to_checkout", "fill_delivery_details", "place_order"})
"""The tools that take an order on; while one is offered and nothing is left to ask, `IDLE` ones are not."""
AWAY = frozenset({"search_restaurants", "open_restaurant", "back_to_restaurants"})
"""The ways to another restaurant: not offered while the one the person named is open and its menu has
what the cart still lacks."""
IDLE = frozenset({"ask_human", "finish"})
"""With the cart what the person asked for and nothing in doubt: a question would be idle, and a finish
before the order a give-up (the 1.5B, offered no question, called finish claiming an order it never
placed)."""


class InCart(NamedTuple):
    """One cart line as its dish: ``InCart("Margherita Pizza (Large)", "Margherita Pizza", 2)``."""

    line: str
    dish: str
    quantity: int


def stated(
    readings: Sequence[GoalReading], order: dict[str, Any] | None, profile: Profile | None
) -> dict[str, str]:
    """The details the person's words state: their requests (``readings`` of them) first, then the order
    file's, then the profile's; the restaurant they name; the name, address and phone of the order file or
    profile; a tip or promo code their requests or order file state (`EXTRAS`)."""
    found: dict[str, str] = {}
    for source in (profile.model_dump() if profile is not None else {}, order or {}):
        found.update({key: str(v) for key in (*CHOSEN, *WRITTEN, "restaurant") if (v := source.get(key))})
    found.update({key: str(v) for key in EXTRAS if (v := (order or {}).get(key)) is not None and v != ""})
    for reading in readings:  # the goal's own "for Kim Lee, 12 Oak Street" wins over the profile's
        found.update(
            {
                key: str(d.value)
                for key, d in reading.details.items()
                if (key in (*CHOSEN, *WRITTEN) and d.value) or (key in EXTRAS and d.value is not None)
            }
        )
        if reading.restaurant is not None:
            found["restaurant"] = reading.restaurant.name
    return found


def stated_by(
    requests: Sequence[str],
    order: dict[str, Any] | None,
    profile: Profile | None,
    restaurants: Sequence[str] = (),
) -> dict[str, str]:
    """`stated`, reading the person's requests (their goal, or a conversation's messages) here, with the
    ``restaurants`` the run has seen (to know which words name one)."""
    return stated([read_goal(words, list(restaurants), None) for words in requests], order, profile)


def wanted(readings: Sequence[GoalReading]) -> dict[str, int]:
    """The dishes the person's requests name on the open menu, with how many of each — or nothing when
    a request is unclear (then the model reads the words, and the anchor holds the cart to them)."""
    if any(reading.unclear for reading in readings):
        return {}
    found: dict[str, int] = {}
    for reading in readings:
        for item in reading.items:
            found[item.dish] = found.get(item.dish, 0) + item.quantity
    return found


def wanted_choices(readings: Sequence[GoalReading]) -> dict[str, list[str]]:
    """The choices the person named for each dish they asked for ("regular, extra cheese"), as `wanted`
    reads them."""
    if any(reading.unclear for reading in readings):
        return {}
    found: dict[str, list[str]] = {}
    for reading in readings:
        for item in reading.items:
            found[item.dish] = [*found.get(item.dish, []), *item.options]
    return found


def held_to_person(
    tools: list[dict[str, Any]],
    details: dict[str, str],
    items: dict[str, int] | None = None,
    cart: Sequence[InCart] | None = None,
    *,
    unions: bool = False,
    form: CheckoutForm | None = None,
    choices: dict[str, list[str]] | None = None,
    answers: Sequence[str] = (),
    settled: bool = False,
    here: str | None = None,
    on_sale: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """``tools`` with their arguments held to the stated ``details`` and ``items``, and with the ``cart`` as
    it is, to what of ``items`` it still lacks (see the module doc). With ``unions`` (a structured step,
    as `held_to_page` writes ``add_to_cart``), ``change_quantity`` is one shape per line. With the checkout
    ``form``, the fill waits for the name, address and phone the person has not given. With the ``choices``
    the person named for a dish, its shapes (a structured step's) are held to them. The tip and the promo
    code are held to what ``details`` and the person's ``answers`` state, else none (`EXTRAS`). When the
    person's words are ``settled`` (read whole: no word left to ask about), the cart holds exactly what they
    asked for, no detail is unknown and a tool that takes the order on is offered, neither ``ask_human`` nor
    ``finish`` is: there is nothing to ask (the 1.5B paused on "Shall I go to the checkout?" with the cart
    complete) and nothing to give up on. ``here``: the restaurant open on the page, ``on_sale`` the dishes its
    menu sells now — when it is the one the person named and sells all the cart still lacks of what they
    asked for (or the cart has it all), its menu or the checkout is the way on, and no search, list or
    reopening is offered (the 1.5B searched the pizza it had just been shown and opened the restaurant
    again: 14 s of a 61 s demo order)."""
    unknown = [key for key in WRITTEN if form is not None and not details.get(key) and not getattr(form, key)]
    if unknown:
        tools = _ask_for(tools, unknown)
    tools = [_held_extras(tool, details, answers) for tool in tools]
    if not details and not items:
        return tools
    missing = dict(items or {})
    held_now: Counter[str] = Counter()
    if items and cart is not None:
        for line in cart:
            held_now[line.dish] += line.quantity
        missing = {dish: n - held_now[dish] for dish, n in items.items() if n > held_now[dish]}
    held = []
    for tool in tools:
        name = str((tool.get("function") or {}).get("name"))
        if items and cart is not None:
            if name in WAIT_FOR_CART and missing:
                continue
            if name == "add_to_cart" and not missing:
                continue  # all that was asked for is in the cart
            if name == "remove_from_cart":
                extra = [i for i in cart if i.dish not in items or held_now[i.dish] > items[i.dish]]
                if not extra:
                    continue  # every line is asked for, none beyond what was asked: nothing to remove
                held.append(_held_lines(tool, extra))
                continue
            if name == "change_quantity":
                lines = [i for i in cart if i.dish in items and held_now[i.dish] != items[i.dish]]
                if not lines:
                    continue  # every asked-for dish is there in the quantity asked
                held.append(_held_quantity(tool, lines, items, unions=unions))
                continue
        if name == "add_to_cart" and missing:
            held.append(_held_dishes(tool, missing, choices or {}))
            continue
        fields = HELD.get(name)
        if fields is None:
            held.append(tool)
            continue
        tool = copy.deepcopy(tool)
        properties = tool["function"].get("parameters", {}).get("properties", {})
        for field, key in fields.items():
            if field in properties and key in details:
                properties[field] = _held(properties[field], details[key], chosen=key not in WRITTEN)
        held.append(tool)
    names = {str((t.get("function") or {}).get("name")) for t in held}
    exact = (
        bool(items)
        and cart is not None
        and not missing
        and not any(i.dish not in (items or {}) or held_now[i.dish] > (items or {})[i.dish] for i in cart)
    )
    if settled and exact and not unknown and names & FORWARD:  # nothing to ask, nothing to give up on
        held = [t for t in held if (t.get("function") or {}).get("name") not in IDLE]
    if exact and names & FORWARD:  # the cart is what was asked for: the way on is the checkout, not away
        held = [t for t in held if (t.get("function") or {}).get("name") not in AWAY]
    named = details.get("restaurant")
    selling = {normalize(dish) for dish in on_sale}
    if (
        here
        and named
        and normalize(here) == normalize(named)
        and items
        and cart is not None
        and all(normalize(dish) in selling for dish in missing)
    ):
        held = [t for t in held if (t.get("function") or {}).get("name") not in AWAY]
    return _named_restaurant_listed(held, details)


def _named_restaurant_listed(tools: list[dict[str, Any]], details: dict[str, str]) -> list[dict[str, Any]]:
    """Without a search where the restaurant the person named is listed and ``open_restaurant`` is held to
    it: the 1.5B searched a cuisine filter three times for "… from italian bistro" and was stopped."""
    named = details.get("restaurant")
    opening = next((t for t in tools if (t.get("function") or {}).get("name") == "open_restaurant"), None)
    if named is None or opening is None:
        return tools
    name = opening["function"].get("parameters", {}).get("properties", {}).get("name", {})
    if name.get("enum") != [named] and [normalize(str(v)) for v in name.get("enum") or ()] != [
        normalize(named)
    ]:
        return tools
    return [t for t in tools if (t.get("function") or {}).get("name") != "search_restaurants"]


def answers_in(messages: list[dict[str, Any]]) -> list[str]:
    """The person's answers to the agent's questions in a run's ``messages``, in order."""
    return [asked.answer for asked in Transcript(messages).asked_after(-1) if asked.answer]


def _held_extras(tool: dict[str, Any], details: dict[str, str], answers: Sequence[str]) -> dict[str, Any]:
    """``fill_delivery_details`` with its tip held to the tips the person stated (else "no tip": 0) and its
    promo code to the codes they stated (else none: only null); any other tool as it is. An answer states a
    tip as the anchor reads one: by the amount it names ("$3.00")."""
    if (tool.get("function") or {}).get("name") != "fill_delivery_details":
        return tool
    tool = copy.deepcopy(tool)
    properties = tool["function"].get("parameters", {}).get("properties", {})
    readings = [read_goal(answer, [], None) for answer in answers]
    tips = [int(details["tip_cents"])] if details.get("tip_cents", "").isdigit() else []
    for reading in readings:
        tip = reading.details.get("tip_cents")
        if tip is not None and isinstance(tip.value, int):
            tips.append(tip.value)
    tips += [cents for answer in answers for m in AMOUNT.finditer(answer) if (cents := parse_cents(m[0]))]
    codes = [details["promo_code"]] if details.get("promo_code") else []
    codes += [str(r.details["promo_code"].value) for r in readings if "promo_code" in r.details]
    for key, kind, values in (
        ("tip_cents", "integer", list(dict.fromkeys(tips or [0]))),
        ("promo_code", "string", [*dict.fromkeys(codes), ""] if codes else []),
    ):
        if key in properties:
            held: dict[str, Any] = (
                {"anyOf": [{"type": kind, "enum": values}, {"type": "null"}]} if values else {"type": "null"}
            )
            if "description" in properties[key]:
                held["description"] = properties[key]["description"]
            properties[key] = held
    return tool


def held_to_order(tools: list[dict[str, Any]], order_id: int, summary: str) -> list[dict[str, Any]]:
    """Once the shop showed order ``order_id``: of ``tools`` only ``finish``, held to ``ordered``, that
    number and ``summary`` — what the shop confirmed (the 1.5B went back to the list and opened the cart
    three times after its order was confirmed, then took a turn of its own to say so): a step with nothing
    left to decide, which the loop takes without the model (`webagent.llm.protocol.fixed_step`). All of
    them where the site has no ``finish``."""
    kept = []
    for tool in tools:
        if (tool.get("function") or {}).get("name") == "finish":
            tool = copy.deepcopy(tool)
            properties = tool["function"].get("parameters", {}).get("properties", {})
            held = (
                ("outcome", "ordered", "string"),
                ("order_id", order_id, "integer"),
                ("summary", summary, "string"),
            )
            for key, value, kind in held:
                if key in properties:
                    properties[key] = _one_of(properties[key], kind, [value])
            kept.append(tool)
    return kept or tools


def _one_of(prop: dict[str, Any], kind: str, values: list[Any]) -> dict[str, Any]:
    """A property held to ``values``, keeping its description."""
    held: dict[str, Any] = {"type": kind, "enum": values}
    if "description" in prop:
        held["description"] = prop["description"]
    return held


def _ask_for(tools: list[dict[str, Any]], unknown: list[str]) -> list[dict[str, Any]]:
    """``tools`` without the fill, and ``ask_human`` first, saying what to ask for: the ``unknown`` details."""
    asked = ", ".join(unknown[:-1]) + (" and " if len(unknown) > 1 else "") + unknown[-1]
    kept: list[dict[str, Any]] = []
    for tool in tools:
        name = (tool.get("function") or {}).get("name")
        if name in WAIT_FOR_DETAILS:
            continue
        if name == "ask_human":
            tool = copy.deepcopy(tool)
            tool["function"]["description"] = (
                f"Ask the person for the delivery {asked}: they have not given them, and the order needs "
                "them (never make them up). " + str(tool["function"].get("description") or "")
            )
            kept.insert(0, tool)
            continue
        kept.append(tool)
    return kept


def _held_lines(tool: dict[str, Any], lines: list[InCart]) -> dict[str, Any]:
    """A cart tool's ``item`` held to ``lines``."""
    tool = copy.deepcopy(tool)
    properties = tool["function"].get("parameters", {}).get("properties", {})
    if "item" in properties:
        properties["item"] = _one_of(properties["item"], "string", list(dict.fromkeys(i.line for i in lines)))
    return tool


def _held_quantity(
    tool: dict[str, Any], lines: list[InCart], items: dict[str, int], *, unions: bool
) -> dict[str, Any]:
    """``change_quantity`` held to the ``lines`` whose dish the cart holds in another quantity than asked,
    each (its dish on no other line) to the quantity asked: one shape per line with ``unions``, else one
    shape whose quantity is among those asked."""
    tool = copy.deepcopy(tool)
    function = tool["function"]
    parameters = function.get("parameters", {})
    if "item" not in parameters.get("properties", {}):
        return tool
    lines_of = Counter(line.dish for line in lines)
    shapes = []
    for group in [lines] if not unions else [[line] for line in lines]:
        shape = copy.deepcopy(parameters)
        properties = shape["properties"]
        properties["item"] = _one_of(properties["item"], "string", list(dict.fromkeys(i.line for i in group)))
        if all(lines_of[line.dish] == 1 for line in group):
            _hold_quantities(properties, sorted({items[line.dish] for line in group}))
        shapes.append(shape)
    function["parameters"] = shapes[0] if len(shapes) == 1 else {"anyOf": shapes}
    return tool


def _held(prop: dict[str, Any], value: str, *, chosen: bool) -> dict[str, Any]:
    branches = prop.get("anyOf") or [prop]
    offered = next((b["enum"] for b in branches if isinstance(b.get("enum"), list)), None)
    if offered is None and chosen:
        return prop  # the page's choices are not known here: nothing to hold to
    if offered is not None:
        keep = [choice for choice in offered if normalize(str(choice)) == normalize(value)]
        if not keep:
            return prop  # the page does not offer it: the tool's narration says so
    else:
        keep = [value]
    held: dict[str, Any] = {"type": "string", "enum": keep}
    if "description" in prop:
        held["description"] = prop["description"]
    return held


def _held_dishes(
    tool: dict[str, Any], items: dict[str, int], choices: dict[str, list[str]]
) -> dict[str, Any]:
    """``add_to_cart`` held to the dishes asked for, each in the quantity asked and with the choices named
    (a dish per shape, as `held_to_page` writes them for a structured step; with one dish enum, that
    enum)."""
    tool = copy.deepcopy(tool)
    parameters = tool["function"].get("parameters", {})
    shapes = parameters.get("anyOf")
    if isinstance(shapes, list):
        kept = [shape for shape in shapes if _dish_of(shape) in items]
        by_dish: dict[str, list[dict[str, Any]]] = {}
        for shape in kept:
            by_dish.setdefault(str(_dish_of(shape)), []).append(shape)
        kept = [held for dish, its in by_dish.items() for held in _held_choices(its, choices.get(dish, []))]
        if kept:
            for shape in kept:
                _hold_quantity(shape["properties"], items[str(_dish_of(shape))])
            parameters["anyOf"] = kept
        return tool
    dish = parameters.get("properties", {}).get("dish", {})
    if isinstance(dish.get("enum"), list) and (asked := [d for d in dish["enum"] if d in items]):
        dish["enum"] = asked
        if len(asked) == 1:
            _hold_quantity(parameters["properties"], items[asked[0]])
    return tool


def _held_choices(shapes: list[dict[str, Any]], named: list[str]) -> list[dict[str, Any]]:
    """One dish's shapes held to the choices the person ``named``: a group that holds one of them offers
    only those; a shape with a group (extras) none of them is in, or without a group for one of them, is
    dropped (the 1.5B added the plain pizza for "regular, extra cheese"). Nothing fits: the shapes as
    they were (the narration then says what the dish offers)."""
    wanted = {normalize(choice): choice for choice in named}
    kept = []
    for shape in shapes:
        shape = copy.deepcopy(shape)
        groups = ((shape["properties"].get("options") or {}).get("properties")) or {}
        placed: set[str] = set()
        fits = True
        for group in groups.values():
            enum_of = group["items"] if group.get("type") == "array" else group
            offered = [c for c in enum_of.get("enum", []) if normalize(str(c)) in wanted]
            placed |= {normalize(str(c)) for c in offered}
            if offered:
                enum_of["enum"] = offered
            elif group.get("type") == "array":
                fits = False  # extras nobody asked for
        if fits and placed == set(wanted):
            kept.append(shape)
    return kept or shapes


def _dish_of(shape: dict[str, Any]) -> str | None:
    enum = (shape.get("properties") or {}).get("dish", {}).get("enum")
    return str(enum[0]) if isinstance(enum, list) and len(enum) == 1 else None


def _hold_quantity(properties: dict[str, Any], quantity: int) -> None:
    _hold_quantities(properties, [quantity])


def _hold_quantities(properties: dict[str, Any], quantities: list[int]) -> None:
    if "quantity" in properties:
        properties["quantity"] = _one_of(properties["quantity"], "integer", quantities)


def read_whole(
    goal: str | None,
    order: dict[str, Any] | None,
    understand: Callable[[str, GoalReading, Menu], Agreement] | None,
    menu: Menu,
    restaurants: Sequence[str] = (),
) -> bool:
    """Whether the run's goal (or its order file) is read whole against ``menu`` (and the ``restaurants``
    the run has seen): an order file, or a goal of this very restaurant whose rules' reading leaves nothing
    in doubt (`in_doubt`: no word unplaced, none that could amend it, all of it borne out) or whose doubts a reading agreed on
    settles, and no dish of it sold out here."""
    if order is not None:
        return True
    if not goal:
        return False
    reading = read_goal(goal, restaurants, menu)
    if reading.restaurant is not None and reading.restaurant.name != menu.restaurant:
        return False  # the goal's restaurant is not the one open (a sponsored look-alike)
    if any((dish := menu.dish(item.dish)) is not None and dish.sold_out for item in reading.items):
        return False
    if not in_doubt(goal, reading, menu):
        return True
    agreement = understand(goal, reading, menu) if understand is not None else None
    return agreement is not None and agreement.verdict == "agreed"
