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
Chicken Burrito" as 2 × Chicken Burrito) — unless the goal reader found the words unclear. A model on a server
with constrained decoding then cannot write another; nothing else changes (a stated choice the page does
not offer leaves the page's choices as they are, for the narration to explain).

The anchor (webagent/agent/anchor.py) reads the same statement through `stated`. Pure: no browser code.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from webagent.config import Profile
from webagent.narration.names import normalize
from webagent.planner import read_goal
from webagent.planner.spec import GoalReading

__all__ = ["CHOSEN", "held_to_person", "stated", "stated_by", "wanted"]

CHOSEN = ("delivery_slot", "payment_method")
"""The details the person chooses among the page's choices (the others they write)."""
WRITTEN = ("name", "address", "phone")
HELD = {
    "fill_delivery_details": {key: key for key in (*CHOSEN, *WRITTEN)},
    "open_restaurant": {"name": "restaurant"},
}
"""Each tool's arguments held to a stated detail (argument → detail)."""


def stated(
    readings: Sequence[GoalReading], order: dict[str, Any] | None, profile: Profile | None
) -> dict[str, str]:
    """The details the person's words state: their requests (``readings`` of them) first, then the order
    file's, then the profile's; the restaurant they name; the name, address and phone of the order file or
    profile."""
    found: dict[str, str] = {}
    for source in (profile.model_dump() if profile is not None else {}, order or {}):
        found.update({key: str(v) for key in (*CHOSEN, *WRITTEN, "restaurant") if (v := source.get(key))})
    for reading in readings:
        found.update({key: str(d.value) for key, d in reading.details.items() if key in CHOSEN and d.value})
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


def held_to_person(
    tools: list[dict[str, Any]], details: dict[str, str], items: dict[str, int] | None = None
) -> list[dict[str, Any]]:
    """``tools`` with their arguments held to the stated ``details`` and ``items`` (see the module doc)."""
    if not details and not items:
        return tools
    held = []
    for tool in tools:
        name = str((tool.get("function") or {}).get("name"))
        if name == "add_to_cart" and items:
            held.append(_held_dishes(tool, items))
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
    return held


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


def _held_dishes(tool: dict[str, Any], items: dict[str, int]) -> dict[str, Any]:
    """``add_to_cart`` held to the dishes asked for, each in the quantity asked (a dish per shape, as
    `held_to_page` writes them for a structured step; with one dish enum, that enum)."""
    tool = copy.deepcopy(tool)
    parameters = tool["function"].get("parameters", {})
    shapes = parameters.get("anyOf")
    if isinstance(shapes, list):
        kept = [shape for shape in shapes if _dish_of(shape) in items]
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


def _dish_of(shape: dict[str, Any]) -> str | None:
    enum = (shape.get("properties") or {}).get("dish", {}).get("enum")
    return str(enum[0]) if isinstance(enum, list) and len(enum) == 1 else None


def _hold_quantity(properties: dict[str, Any], quantity: int) -> None:
    if "quantity" in properties:
        description = properties["quantity"].get("description")
        properties["quantity"] = {"type": "integer", "enum": [quantity]}
        if description:
            properties["quantity"]["description"] = description
