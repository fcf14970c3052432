"""`add_to_cart` takes options by group too — the shape a schema held to the menu asks a small model for."""

from __future__ import annotations

from collections.abc import Callable

from .conftest import Tools

OpenTools = Callable[..., Tools]


def test_options_by_group_add_the_dish_with_those_choices(open_tools: OpenTools) -> None:
    tools = open_tools()
    tools("open_restaurant", name="Italian Bistro")
    result = tools(
        "add_to_cart", dish="Margherita Pizza", quantity=2, options={"Size": "Large", "Extras": ["Bacon"]}
    )
    assert result.ok, result.text
    assert result.text.startswith('Added 2 × "Margherita Pizza" (Large, Bacon)'), result.text
    # A required group left out is narrated as the list form's is.
    missing = tools("add_to_cart", dish="Pepperoni Pizza", quantity=1, options={"Extras": None})
    assert not missing.ok and "Size is required: choose one of Regular, Large" in missing.text
