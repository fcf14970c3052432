"""The session's cart: add a dish, change or remove a line, empty it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path

from demo_site.catalog import OptionsError
from demo_site.context import SessionDep, ShopDep
from demo_site.errors import responses
from demo_site.models import MAX_ID, MAX_QUANTITY, AddItem, Cart, SetQuantity

router = APIRouter(prefix="/api/cart", tags=["cart"], responses=responses(422, 503))

LineId = Annotated[int, Path(ge=1, le=MAX_ID, description="A `line_id` of this session's cart")]


@router.get("", response_model=Cart)
def get_cart(shop: ShopDep, session: SessionDep) -> dict[str, Any]:
    """This session's cart with its totals and checkout token."""
    return shop.cart_view(session["id"])


@router.post("/items", response_model=Cart, responses=responses(404, 409))
def add_item(shop: ShopDep, session: SessionDep, body: AddItem) -> dict[str, Any]:
    """Add a dish (merging with an equal line); the cart holds one restaurant's dishes."""
    dish = shop.catalog.dishes.get(body.dish_id)
    if dish is None:
        raise HTTPException(404, f"There is no dish {body.dish_id!r}")
    if dish["sold_out"]:
        raise HTTPException(409, f"{dish['name']} is sold out")
    try:
        options = shop.catalog.normalize_options(dish, body.options)
    except OptionsError as error:
        raise HTTPException(422, str(error)) from None
    cart = shop.cart_view(session["id"])
    if cart["restaurant_id"] not in (None, dish["restaurant_id"]):
        raise HTTPException(409, f"Your cart has dishes from {cart['restaurant_name']}; empty it first")
    if shop.db.add_cart_line(session["id"], dish["id"], options, body.quantity, MAX_QUANTITY) is None:
        raise HTTPException(422, f"quantity: a cart line holds at most {MAX_QUANTITY} of {dish['name']}")
    return shop.cart_view(session["id"])


@router.patch("/items/{line_id}", response_model=Cart, responses=responses(404))
def set_quantity(shop: ShopDep, session: SessionDep, line_id: LineId, body: SetQuantity) -> dict[str, Any]:
    """Change a line's quantity (1–50)."""
    if not shop.db.set_line_quantity(session["id"], line_id, body.quantity):
        raise HTTPException(404, f"Your cart has no line {line_id}")
    return shop.cart_view(session["id"])


@router.delete("/items/{line_id}", response_model=Cart, responses=responses(404))
def delete_line(shop: ShopDep, session: SessionDep, line_id: LineId) -> dict[str, Any]:
    """Remove one line."""
    if not shop.db.delete_line(session["id"], line_id):
        raise HTTPException(404, f"Your cart has no line {line_id}")
    return shop.cart_view(session["id"])


@router.delete("", response_model=Cart)
def clear_cart(shop: ShopDep, session: SessionDep) -> dict[str, Any]:
    """Empty the cart."""
    shop.db.clear_cart(session["id"])
    return shop.cart_view(session["id"])
