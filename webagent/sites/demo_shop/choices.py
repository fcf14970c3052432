"""The tools' argument schemas held to what the page shows: names a model can only copy, never invent.

A small model offered ``open_restaurant(name: string)`` may write a name no card shows; offered
``add_to_cart`` it may leave out a size the dish needs. When the page is known, the schemas offered
this turn (`Toolbox.offered`) say more: the listed restaurants' names, the open menu's dishes (those
not sold out) with each dish's own option choices — at least one per required option — and the cart's
line names. A server with constrained decoding then cannot produce a call outside them; every other
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
    choices = [choice for option in item.options for choice in option.choices]
    required = sum(1 for option in item.options if option.required)
    if choices:
        options: dict[str, Any] = {
            "type": "array",
            "items": {"type": "string", "enum": list(dict.fromkeys(choices))},
            "description": _options_said(item),
        }
        if required:
            options["minItems"] = required
        properties["options"] = options if required else {"anyOf": [options, {"type": "null"}]}
    else:
        properties["options"] = {"type": "null"}
    return shape


def _options_said(item: MenuItem) -> str:
    said = [
        f"{option.name} ({'choose one' if option.required else 'optional'}: {', '.join(option.choices)})"
        for option in item.options
    ]
    return "Options: " + "; ".join(said) + "."
