"""`add_to_cart` takes options by group too — the shape a schema held to the menu asks a small model for."""

from __future__ import annotations

from collections.abc import Callable

from webagent.sync import run_sync

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


def test_the_checkout_reads_the_times_and_payment_methods_it_offers(open_tools: OpenTools) -> None:
    tools = open_tools()
    tools("open_restaurant", name="Italian Bistro")
    assert tools("add_to_cart", dish="Tiramisu", quantity=3).ok
    assert tools("go_to_checkout").ok
    form = tools.state().checkout
    assert form is not None
    page = tools.toolbox.session.page
    # The page's own options, read here by Playwright's locators, not by the reader under test.
    offered = [
        t.strip() for t in run_sync(page.get_by_label("Delivery time").locator("option").all_text_contents())
    ]
    radios = run_sync(page.get_by_role("radiogroup", name="Payment method").get_by_role("radio").count())
    assert form.slots and set(form.slots) <= set(offered) and len(form.slots) >= len(offered) - 1, offered
    assert len(form.payments) == radios > 0, form.payments
    slot = form.slots[-1]
    filled = tools("fill_delivery_details", name="Ada", address="12 Oak Street", phone="555-0101",
                   delivery_slot=slot, payment_method=form.payments[0])  # fmt: skip
    assert filled.ok and tools.state().checkout.delivery_slot == slot, filled.text  # type: ignore[union-attr]
