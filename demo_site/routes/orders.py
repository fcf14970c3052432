"""Checking out: preview a promo code, place the cart as an order, read this session's orders."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Response

from demo_site import pricing
from demo_site.context import SessionDep, ShopDep
from demo_site.db import StaleCheckoutError
from demo_site.errors import responses
from demo_site.models import MAX_ID, Order, PlaceOrder, PromoCheck, PromoPreview

router = APIRouter(prefix="/api", tags=["orders"], responses=responses(422, 503))

OrderId = Annotated[int, Path(ge=1, le=MAX_ID, description="An order id of this session")]


@router.post("/promo", response_model=PromoPreview)
def check_promo(shop: ShopDep, session: SessionDep, body: PromoCheck) -> dict[str, Any]:
    """Preview a promo code against the current cart; checkout checks it again."""
    cart = shop.cart_view(session["id"])
    result = pricing.apply_promo(shop.db.promo_code(body.code), body.code.upper(), cart["subtotal_cents"])
    return {
        "code": result.code,
        "valid": result.valid,
        "message": result.reason,
        "discount_cents": result.discount_cents,
        "free_delivery": result.free_delivery,
    }


@router.post(
    "/orders",
    status_code=201,
    response_model=Order,
    responses={**responses(409), 200: {"model": Order, "description": "Already placed: that same order"}},
)
def place_order(shop: ShopDep, session: SessionDep, response: Response, body: PlaceOrder) -> dict[str, Any]:
    """Place the cart as an order; resubmitting the same checkout token returns that order (200)."""
    session_id = session["id"]
    # Checked first, so a double submit gets its order even though the cart is now empty.
    earlier = shop.db.order_for_token(session_id, body.checkout_token)
    if earlier is not None:
        response.status_code = 200
        return earlier
    cart = shop.cart_view(session_id)
    if body.checkout_token != cart["checkout_token"] or not cart["lines"]:
        # A twin request may have placed this very checkout since the first look (the cart then reads
        # as rotated or empty): that is the same order, 200, not an error.
        earlier = shop.db.order_for_token(session_id, body.checkout_token)
        if earlier is not None:
            response.status_code = 200
            return earlier
    if body.checkout_token != cart["checkout_token"]:
        raise HTTPException(409, "This checkout is stale: the cart changed or was ordered; reload checkout")
    settings = shop.settings
    if body.delivery_slot not in settings["delivery_slots"]:
        slots = ", ".join(settings["delivery_slots"])
        raise HTTPException(422, f"delivery_slot: {body.delivery_slot!r} is not one of {slots}")
    if body.payment_method not in settings["payment_methods"]:
        methods = ", ".join(settings["payment_methods"])
        raise HTTPException(422, f"payment_method: {body.payment_method!r} is not one of {methods}")
    if not cart["lines"]:
        raise HTTPException(409, "Your cart is empty")
    if not cart["min_order_met"]:
        missing = pricing.format_cents(cart["min_order_cents"] - cart["subtotal_cents"])
        minimum = pricing.format_cents(cart["min_order_cents"])
        raise HTTPException(409, f"Add {missing} more to reach the {minimum} minimum order")
    promo = None
    if body.promo_code:
        promo = pricing.apply_promo(
            shop.db.promo_code(body.promo_code), body.promo_code.upper(), cart["subtotal_cents"]
        )
        if not promo.valid:
            raise HTTPException(422, promo.reason)
    restaurant = shop.catalog.restaurants[cart["restaurant_id"]]
    money = pricing.totals(
        cart["subtotal_cents"],
        restaurant["delivery_fee_cents"],
        settings["service_fee_percent"],
        promo,
        body.tip_cents,
    )
    fields = {
        "restaurant_id": restaurant["id"],
        "restaurant_name": restaurant["name"],
        "name": body.name,
        "address": body.address,
        "phone": body.phone,
        "delivery_slot": body.delivery_slot,
        "payment_method": body.payment_method,
        "promo_code": promo.code if promo else None,
        "subtotal_cents": money.subtotal_cents,
        "delivery_fee_cents": money.delivery_fee_cents,
        "service_fee_cents": money.service_fee_cents,
        "discount_cents": money.discount_cents,
        "tip_cents": money.tip_cents,
        "total_cents": money.total_cents,
    }
    items = [{key: line[key] for key in line if key != "line_id"} for line in cart["lines"]]
    try:
        order_id, created = shop.db.place_order(session_id, body.checkout_token, fields, items)
    except StaleCheckoutError:
        raise HTTPException(
            409, "This checkout is stale: the cart was just ordered; reload checkout"
        ) from None
    if not created:
        response.status_code = 200
    placed = shop.db.order(order_id, session_id)
    assert placed is not None  # just written by this session
    return placed


@router.get("/orders", response_model=list[Order])
def list_orders(shop: ShopDep, session: SessionDep) -> list[dict[str, Any]]:
    """This session's orders, newest first."""
    return shop.db.orders(session["id"])


@router.get("/orders/{order_id}", response_model=Order, responses=responses(404))
def get_order(shop: ShopDep, session: SessionDep, order_id: OrderId) -> dict[str, Any]:
    """One of this session's orders (another session's is a 404, like a missing one)."""
    order = shop.db.order(order_id, session["id"])
    if order is None:
        raise HTTPException(404, f"You have no order #{order_id}")
    return order
