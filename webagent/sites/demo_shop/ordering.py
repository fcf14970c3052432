"""The demo shop's typed tools for the cart and the order: view and change the cart, go to checkout,
fill the delivery details, place the order, read the order history.

Like the browsing tools (browsing.py), each acts as a person would and says only what it saw.
The argument model's docstring is the tool's description the model reads.
"""

from __future__ import annotations

from pydantic import Field

from webagent.narration import said
from webagent.narration.money import money
from webagent.narration.names import resolve
from webagent.narration.said import Outcome
from webagent.sites.demo_shop.waits import open_cart
from webagent.tools.base import Args
from webagent.tools.context import ToolContext

__all__ = [
    "CART_TOOLS",
    "ChangeQuantity",
    "FillDeliveryDetails",
    "GoToCheckout",
    "PlaceOrder",
    "RemoveFromCart",
    "ViewCart",
    "ViewOrderHistory",
    "change_quantity",
    "fill_delivery_details",
    "go_to_checkout",
    "place_order",
    "remove_from_cart",
    "view_cart",
    "view_order_history",
]

CART_TOOLS = frozenset({"view_cart", "change_quantity", "remove_from_cart", "go_to_checkout"})
"""Tools that work inside the cart drawer; every other tool closes it first, as a person would."""


# -- argument models ---------------------------------------------------------------------------------


class ChangeQuantity(Args):
    """Set the quantity of a line already in the cart."""

    item: str = Field(max_length=140, description="The cart line's name, e.g. 'Margherita Pizza (Large)'.")
    quantity: int = Field(ge=1, le=50, description="The new quantity, 1 to 50.")


class RemoveFromCart(Args):
    """Remove a line from the cart."""

    item: str = Field(max_length=140, description="The cart line's name, e.g. 'Tiramisu'.")


class ViewCart(Args):
    """Open the cart: its lines, subtotal, fees, total and any minimum-order notice."""


class GoToCheckout(Args):
    """Go to the checkout page (needs a cart that reaches the restaurant's minimum order)."""


class FillDeliveryDetails(Args):
    """Fill the checkout form. Give only the fields to set; null leaves a field as it is."""

    name: str | None = Field(None, max_length=80, description="Customer name.")
    address: str | None = Field(None, max_length=200, description="Delivery address.")
    phone: str | None = Field(None, max_length=30, description="Phone number.")
    delivery_slot: str | None = Field(
        None, max_length=40, description="'ASAP' or a slot such as '19:00-19:30'."
    )
    payment_method: str | None = Field(None, max_length=40, description="e.g. 'Card on delivery', 'Cash'.")
    promo_code: str | None = Field(
        None,
        max_length=40,
        description="A promo code to apply; an empty string clears a code already entered.",
    )
    tip_cents: int | None = Field(None, ge=0, le=10_000, description="Tip in cents: 0, 100, 200, 300 or 500.")


class PlaceOrder(Args):
    """Place the order on the checkout page. Needs approval; only when the goal asks for an order."""


class ViewOrderHistory(Args):
    """Open the order history: the orders placed in this browser session, newest first."""


# -- the cart ----------------------------------------------------------------------------------------


async def view_cart(ctx: ToolContext, args: ViewCart) -> Outcome:
    state = await open_cart(ctx)
    return said.cart_contents(state.cart_lines, state.cart_subtotal_cents, state.cart_total_cents)


async def _cart_line(ctx: ToolContext, wanted: str) -> tuple[str, int, int] | Outcome:
    state = await open_cart(ctx)
    match = resolve(wanted, [line.name for line in state.cart_lines])
    if not match.found:
        return said.not_found("cart line", wanted, match, "in the cart")
    line = next(line for line in state.cart_lines if line.name == match.found)
    return line.name, line.quantity, state.cart_count


async def change_quantity(ctx: ToolContext, args: ChangeQuantity) -> Outcome:
    found = await _cart_line(ctx, args.item)
    if isinstance(found, Outcome):
        return found
    name, current, count = found
    if current == args.quantity:
        return said.already_at(name, current)
    box = ctx.page.get_by_test_id("cart-drawer").get_by_role(
        "spinbutton", name=f"Quantity of {name}", exact=True
    )

    async def set_quantity() -> None:
        await ctx.fill(box, str(args.quantity))
        await box.blur()  # leaving the box commits the value ("change"), as it does for a person

    async def already() -> bool:
        return (await ctx.read()).cart_count == count - current + args.quantity

    await ctx.attempt(set_quantity, ("cart",), took_effect=already)
    after = await ctx.read()
    # The cart count comes from the shop's answer; the box only shows what was typed.
    if after.cart_count == count - current + args.quantity:
        return said.quantity_set(name, args.quantity, after.cart_count, after.cart_subtotal_cents)
    return said.quantity_not_set(name, args.quantity)


async def remove_from_cart(ctx: ToolContext, args: RemoveFromCart) -> Outcome:
    found = await _cart_line(ctx, args.item)
    if isinstance(found, Outcome):
        return found
    name = found[0]
    remove = ctx.page.get_by_test_id("cart-drawer").get_by_role("button", name=f"Remove {name}", exact=True)

    async def gone() -> bool:
        return all(line.name != name for line in (await ctx.read()).cart_lines)

    await ctx.attempt(lambda: ctx.click(remove), ("cart",), took_effect=gone)
    after = await ctx.read()
    if all(line.name != name for line in after.cart_lines):
        return said.removed(name, after.cart_count, after.cart_subtotal_cents)
    return said.not_removed(name)


# -- checkout ----------------------------------------------------------------------------------------


async def go_to_checkout(ctx: ToolContext, args: GoToCheckout) -> Outcome:
    await open_cart(ctx)
    mark = await ctx.mark()
    # A popup that closes only on Escape takes the cart drawer with it: open the drawer again, then click.
    await ctx.click(ctx.page.get_by_test_id("checkout-button"), again=lambda: open_cart(ctx))
    await ctx.wait_for_activity(mark, ("navigate", "error"))
    state = await ctx.wait_for_view("checkout")
    if state.view != "checkout":
        return said.did_not_appear("go to checkout", "the checkout page")
    return said.at_checkout(state.summary_total_cents, state.checkout.missing() if state.checkout else [])


async def _offered(ctx: ToolContext, label: str) -> list[str]:
    form = ctx.page.get_by_role("form", name="Delivery details")
    if label == "Payment method":
        radios = form.get_by_role("radiogroup", name=label).get_by_role("radio")
        texts = await radios.evaluate_all(
            "(rs) => rs.map((r) => (r.labels && r.labels[0] ? r.labels[0].textContent : r.value))"
        )
    else:
        texts = await form.get_by_label(label).locator("option").all_text_contents()
    return [text.strip() for text in texts]


async def fill_delivery_details(ctx: ToolContext, args: FillDeliveryDetails) -> Outcome:
    form = ctx.page.get_by_role("form", name="Delivery details")
    choices: dict[str, str] = {}  # label → the option as the page words it
    for label, kind, wanted in (
        ("Delivery time", "delivery time", args.delivery_slot),
        ("Payment method", "payment method", args.payment_method),
    ):
        if wanted is not None:
            match = resolve(wanted, await _offered(ctx, label))
            if not match.found:
                return said.not_found(kind, wanted, match, "offered")
            choices[label] = match.found
    if args.tip_cents is not None:
        tips = await _offered(ctx, "Tip")
        choices["Tip"] = "No tip" if args.tip_cents == 0 else money(args.tip_cents)
        if choices["Tip"] not in tips:
            return said.no_tip(args.tip_cents, tips)
    done: list[str] = []
    async with ctx.cleared(form):  # one look for popups over the form, not one per field
        for label, text in (("Name", args.name), ("Address", args.address), ("Phone", args.phone)):
            if text is not None:
                await ctx.fill(form.get_by_label(label, exact=True), text)
                done.append(label.lower())
        if "Delivery time" in choices:
            await ctx.select(form.get_by_label("Delivery time"), choices["Delivery time"])
            done.append(f"delivery time {choices['Delivery time']}")
        if "Payment method" in choices:
            group = form.get_by_role("radiogroup", name="Payment method")
            await ctx.check(group.get_by_role("radio", name=choices["Payment method"], exact=True))
            done.append(f"payment {choices['Payment method']}")
        if "Tip" in choices:
            await ctx.select(form.get_by_label("Tip"), choices["Tip"])
            done.append(f"tip {choices['Tip']}")
    if args.promo_code:
        code = args.promo_code
        await ctx.fill(form.get_by_label("Promo code", exact=True), code)
        apply = form.get_by_role("button", name="Apply promo code")
        await ctx.attempt(lambda: ctx.click(apply), ("promo",))
    elif args.promo_code == "":  # an empty code clears the field: no promo is sent with the order
        await ctx.fill(form.get_by_label("Promo code", exact=True), "")
        done.append("promo code cleared")
    state = await ctx.read()
    if state.checkout is None:
        return said.did_not_appear("fill the delivery details", "the checkout form")
    seen = state.checkout
    mismatched = [
        label
        for label, wanted, shown in (
            ("name", args.name, seen.name),
            ("address", args.address, seen.address),
            ("phone", args.phone, seen.phone),
            ("delivery time", choices.get("Delivery time"), seen.delivery_slot),
            ("payment method", choices.get("Payment method"), seen.payment_method),
            ("tip", choices.get("Tip"), seen.tip),
            ("promo code", "" if args.promo_code == "" else None, seen.promo_code),
        )
        if wanted is not None and wanted.strip() != shown.strip()
    ]
    if mismatched:
        return said.form_mismatch(mismatched)
    promo = (args.promo_code, seen.promo_result) if args.promo_code else None
    applied = "applied" in seen.promo_result.lower()
    return said.filled(done, promo, seen.missing(), state.summary_total_cents, applied)


async def place_order(ctx: ToolContext, args: PlaceOrder) -> Outcome:
    before = await ctx.read()
    # Pressing again after a busy answer is safe: the form carries one checkout token, and the shop
    # places at most one order per token (docs/shop-contract.md).
    kind = await ctx.attempt(
        lambda: ctx.click(ctx.page.get_by_test_id("place-order")), ("order",), timeout_ms=20_000
    )
    state = await ctx.wait_for_view("confirmation") if kind == "order" else await ctx.read()
    if state.view == "confirmation" and state.order_number is not None:
        return said.placed(state.order_number, state.order_total_cents, state.order_lines)
    return said.not_placed(before.summary_total_cents)


# -- looking around ----------------------------------------------------------------------------------


async def view_order_history(ctx: ToolContext, args: ViewOrderHistory) -> Outcome:
    state = await ctx.read()
    if state.view != "orders":
        mark = await ctx.mark()
        await ctx.click(ctx.page.get_by_role("link", name="Orders", exact=True))
        await ctx.wait_for_activity(mark, ("navigate", "error"))
        state = await ctx.wait_for_view("orders")
    if state.view != "orders":
        return said.did_not_appear("open the order history", "it")
    return said.order_history(state.orders)
