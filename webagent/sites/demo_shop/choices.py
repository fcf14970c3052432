"""The tools' argument schemas held to what the page shows: names a model can only copy, never invent.

A small model offered ``open_restaurant(name: string)`` may write a name no card shows; offered
``add_to_cart`` it may leave out a size the dish needs. When the page is known, the schemas offered
this turn (`Toolbox.offered`) say more: the listed restaurants' names, the open menu's dishes (those
not sold out) with each dish's own options by group — one choice of each required group's own, extras
only in a shape of their own — the cart's line names, and the checkout's delivery times and payment
methods. A server with constrained decoding then cannot produce a call outside them; every other model
reads them as the choices there are. Nothing is removed from what the tools accept: the pydantic models
still validate the call, and the narration still says what is wrong with one.

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
    elif name == "fill_delivery_details" and state.checkout is not None:
        # The times and payment methods the form offers: a small model wrote "10:00 AM" three times.
        _choose(properties, "delivery_slot", state.checkout.slots, nullable=True)
        _choose(properties, "payment_method", state.checkout.payments, nullable=True)
    elif name in ("add_to_cart", "read_dish") and state.menu:
        dishes = [item for item in state.menu if not item.sold_out]
        if not dishes:
            return schema
        if name == "add_to_cart" and unions:
            function["parameters"] = {
                "anyOf": [shape for item in dishes for shape in _dish_shapes(parameters, item)]
            }
        else:
            _choose(properties, "dish", [item.name for item in dishes])
    return schema


def _choose(properties: dict[str, Any], key: str, names: list[str], *, nullable: bool = False) -> None:
    if key not in properties or not names:
        return
    description = properties[key].get("description")
    one: dict[str, Any] = {"type": "string", "enum": list(dict.fromkeys(names))}
    properties[key] = {"anyOf": [one, {"type": "null"}]} if nullable else one
    if description:
        properties[key]["description"] = description


def _dish_shapes(parameters: dict[str, Any], item: MenuItem) -> list[dict[str, Any]]:
    """``add_to_cart``'s parameters for one dish: its name fixed, its options from its own choices.

    By option group (AddToCart reads {"Size": "Large"} as ["Size: Large"]): one choice of a required
    group's own, so a choice cannot land in the wrong group nor a required one be left out. Optional groups
    (extras, toppings) are a second shape of their own: the plain dish needs no word about them, and only a
    model that writes an extra's group chooses it — a small model fills every field it is shown, and a
    field for extras in every call bought extras nobody asked for (measured, docs/local-model.md).
    """
    shape = copy.deepcopy(parameters)
    shape.pop("$defs", None)
    properties = shape["properties"]
    properties["dish"] = {"type": "string", "enum": [item.name]}
    groups = {option.name: option for option in item.options if option.choices}

    def one_of(choices: list[str]) -> dict[str, Any]:
        return {"type": "string", "enum": list(dict.fromkeys(choices))}

    required = {
        name: {**one_of(option.choices), "description": "Required: one choice."}
        for name, option in groups.items()
        if option.required
    }
    optional = {
        name: {"type": "array", "items": one_of(option.choices), "minItems": 1, "description": "Extras."}
        for name, option in groups.items()
        if not option.required
    }

    def with_options(by_group: dict[str, Any]) -> dict[str, Any]:
        dish = copy.deepcopy(shape)
        dish["properties"]["options"] = (
            {
                "type": "object",
                "properties": by_group,
                "required": list(by_group),
                "additionalProperties": False,
            }
            if by_group
            else {"type": "null"}
        )
        return dish

    return [with_options(required), *([with_options({**required, **optional})] if optional else [])]
