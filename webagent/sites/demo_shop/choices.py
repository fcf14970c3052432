"""The tools' argument schemas held to what the page shows: names a model can only copy, never invent.

A small model offered ``open_restaurant(name: string)`` may write a name no card shows; offered
``add_to_cart`` it may leave out a size the dish needs. When the page is known, the schemas offered
this turn (`Toolbox.offered`) say more: the listed restaurants' names, the open menu's dishes (those
not sold out) with each dish's own options by group — one choice of each required group's own — and
the cart's line names. A server with constrained decoding then cannot produce a call outside them; every other
model reads them as the choices there are. Nothing is removed from what the tools accept: the pydantic
models still validate the call, and the narration still says what is wrong with one.

Pure: page state in, JSON schema out.
"""

from __future__ import annotations

import copy
from typing import Any

from webagent.narration.state import MenuItem, PageState

__all__ = ["held_to_page"]


def held_to_page(schema: dict[str, Any], state: PageState, *, unions: bool = False) -> dict[str, Any]:
    """A copy of one tool schema with its name-like arguments held to the page's choices.

    With ``unions``, ``add_to_cart``'s parameters become a union of one shape per dish (its options its
    own); that is no strict function schema (whose root must be an object), so only for a structured
    step, where the parameters sit inside the step's schema.
    """
    schema = copy.deepcopy(schema)
    function = schema.get("function") or {}
    name, parameters = function.get("name"), function.get("parameters") or {}
    properties = parameters.get("properties") or {}
    if name == "open_restaurant" and state.restaurants:
        _choose(properties, "name", [card.name for card in state.restaurants])
    elif name in ("change_quantity", "remove_from_cart") and state.cart_lines:
        _choose(properties, "item", [line.name for line in state.cart_lines])
    elif name in ("add_to_cart", "read_dish") and state.menu:
        dishes = [item for item in state.menu if not item.sold_out]
        if not dishes:
            return schema
        if name == "add_to_cart" and unions:
            function["parameters"] = {"anyOf": [_dish_shape(parameters, item) for item in dishes]}
        else:
            _choose(properties, "dish", [item.name for item in dishes])
    return schema


def _choose(properties: dict[str, Any], key: str, names: list[str]) -> None:
    if key not in properties or not names:
        return
    description = properties[key].get("description")
    properties[key] = {"type": "string", "enum": list(dict.fromkeys(names))}
    if description:
        properties[key]["description"] = description


def _dish_shape(parameters: dict[str, Any], item: MenuItem) -> dict[str, Any]:
    """``add_to_cart``'s parameters for one dish: its name fixed, its options from its own choices."""
    shape = copy.deepcopy(parameters)
    shape.pop("$defs", None)
    properties = shape["properties"]
    properties["dish"] = {"type": "string", "enum": [item.name]}
    groups = {option.name: option for option in item.options if option.choices}
    if not groups:
        properties["options"] = {"type": "null"}
        return shape
    # By option group (AddToCart reads {"Size": "Large"} as ["Size: Large"]): one choice of a required
    # group's own, any of an optional group's or none — a choice cannot land in the wrong group.
    by_group: dict[str, Any] = {}
    for name, option in groups.items():
        one = {"type": "string", "enum": list(dict.fromkeys(option.choices))}
        if option.required:
            by_group[name] = {**one, "description": "Required: one choice."}
        else:
            by_group[name] = {
                "anyOf": [{"type": "array", "items": one}, {"type": "null"}],
                "description": "Optional.",
            }
    properties["options"] = {
        "type": "object",
        "properties": by_group,
        "required": list(by_group),
        "additionalProperties": False,
    }
    return shape
