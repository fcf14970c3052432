"""The shop's HTTP layer: sessions, faults, the JSON API of docs/shop-contract.md and the pages."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StringConstraints, field_validator
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from demo_site import pricing
from demo_site.catalog import Catalog, OptionsError
from demo_site.config import ShopConfig
from demo_site.db import ShopDB, StaleCheckoutError, new_token
from demo_site.faults import BUSY_DETAIL, Faults

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).with_name("static")
SESSION_COOKIE = "shop_session"
MAX_QUANTITY = 50

_SESSION_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
_PAGE = re.compile(r"/(restaurant/[^/]+|checkout|orders(/[^/]+)?)?/?")
_PHONE = re.compile(r"[0-9 +\-()]+")

Text = Annotated[str, StringConstraints(max_length=100)]


class AddItem(BaseModel):
    """`POST /api/cart/items`."""

    dish_id: Text
    quantity: int = Field(default=1, ge=1, le=MAX_QUANTITY)
    options: dict[Text, Text | list[Text]] = Field(default_factory=dict, max_length=20)


class SetQuantity(BaseModel):
    """`PATCH /api/cart/items/{line_id}`; removing a line is `DELETE`."""

    quantity: int = Field(ge=1, le=MAX_QUANTITY)


class PromoCheck(BaseModel):
    """`POST /api/promo`."""

    code: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class PlaceOrder(BaseModel):
    """`POST /api/orders`."""

    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
    address: Annotated[str, StringConstraints(strip_whitespace=True, min_length=5, max_length=200)]
    phone: Annotated[str, StringConstraints(strip_whitespace=True, min_length=5, max_length=30)]
    delivery_slot: Text
    payment_method: Text
    promo_code: Annotated[str, StringConstraints(strip_whitespace=True, max_length=40)] | None = None
    tip_cents: int = Field(default=0, ge=0, le=10_000)
    checkout_token: Text

    @field_validator("phone")
    @classmethod
    def _phone_characters(cls, phone: str) -> str:
        if not _PHONE.fullmatch(phone):
            raise ValueError("may contain only digits, spaces and + - ( )")
        return phone


def create_app(config: ShopConfig) -> FastAPI:
    """The shop as an ASGI app over the database at `config.db_path` (created and seeded if new)."""
    db = ShopDB(config.db_path)
    catalog = Catalog(db)
    settings = db.settings()
    faults = Faults(config.flaky, config.seed)
    app = FastAPI(title="Demo food-delivery shop", version="1")

    # Sessions and faults -------------------------------------------------------------------

    @app.middleware("http")
    async def session_and_faults(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        """Give every client a session cookie, apply page-load settings, then maybe misbehave."""
        cookie = request.cookies.get(SESSION_COOKIE)
        fresh = cookie is None or not _SESSION_ID.fullmatch(cookie)
        session_id = new_token() if fresh or cookie is None else cookie
        path = request.url.path
        response: Response
        try:
            overrides = _page_overrides(request) if _PAGE.fullmatch(path) else {}
        except ValueError as error:
            response = JSONResponse({"detail": str(error)}, status_code=422)
        else:
            session = await run_in_threadpool(
                db.ensure_session,
                session_id,
                overrides.get("clutter", config.clutter),
                overrides.get("seed", config.seed),
            )
            if overrides and any(session[key] != value for key, value in overrides.items()):
                session = {**session, **overrides}
                await run_in_threadpool(
                    db.set_session_settings, session_id, session["clutter"], session["seed"]
                )
            request.state.session = session
            if faults.should_fail(path):
                response = JSONResponse({"detail": BUSY_DETAIL}, status_code=503)
            else:
                delay = faults.delay_seconds(
                    request.method, path, session_id, session["clutter"], session["seed"]
                )
                if delay:
                    await asyncio.sleep(delay)
                response = await call_next(request)
        if fresh:
            response.set_cookie(SESSION_COOKIE, session_id, httponly=True, samesite="lax", path="/")
        return response

    # Errors: always `{"detail": sentence}` ---------------------------------------------------

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        """FastAPI's 422 with one readable sentence instead of a list of error objects."""
        return JSONResponse({"detail": _validation_sentence(exc.errors())}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Starlette's own 404/405 say "Not Found"; say what was not found."""
        detail = exc.detail
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"There is no page or endpoint at {request.url.path}"
        elif exc.status_code == 405 and detail == "Method Not Allowed":
            detail = f"{request.method} is not allowed on {request.url.path}"
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
        """A bug in the shop: log it; the client still gets the usual JSON shape."""
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "Something went wrong in the shop; this is a bug"}, status_code=500)

    # Helpers over the request's session ------------------------------------------------------

    def session_of(request: Request) -> dict[str, Any]:
        session: dict[str, Any] = request.state.session
        return session

    def restaurant_or_404(restaurant_id: str) -> dict[str, Any]:
        restaurant = catalog.restaurants.get(restaurant_id)
        if restaurant is None:
            raise HTTPException(404, f"There is no restaurant {restaurant_id!r}")
        return restaurant

    def cart_view(session_id: str) -> dict[str, Any]:
        session = db.session(session_id)
        assert session is not None  # the middleware created it
        lines = []
        restaurant: dict[str, Any] | None = None
        for line in db.cart_lines(session_id):
            dish = catalog.dishes[line["dish_id"]]
            restaurant = catalog.restaurants[dish["restaurant_id"]]
            unit = pricing.unit_price(dish, line["options"])
            lines.append(
                {
                    "line_id": line["line_id"],
                    "dish_id": dish["id"],
                    "dish_name": dish["name"],
                    "quantity": line["quantity"],
                    "options": line["options"],
                    "unit_price_cents": unit,
                    "line_total_cents": unit * line["quantity"],
                }
            )
        subtotal = sum(line["line_total_cents"] for line in lines)
        delivery = restaurant["delivery_fee_cents"] if restaurant else 0
        money = pricing.totals(subtotal, delivery, settings["service_fee_percent"])
        minimum = restaurant["min_order_cents"] if restaurant else 0
        return {
            "restaurant_id": restaurant["id"] if restaurant else None,
            "restaurant_name": restaurant["name"] if restaurant else None,
            "lines": lines,
            "item_count": sum(line["quantity"] for line in lines),
            "subtotal_cents": money.subtotal_cents,
            "delivery_fee_cents": money.delivery_fee_cents,
            "service_fee_cents": money.service_fee_cents,
            "total_cents": money.total_cents,
            "min_order_cents": minimum,
            "min_order_met": bool(lines) and subtotal >= minimum,
            "checkout_token": session["checkout_token"],
        }

    def public_order(order: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in order.items() if key != "session_id"}

    # Catalog ---------------------------------------------------------------------------------

    @app.get("/api/session")
    def get_session(request: Request) -> dict[str, Any]:
        """This session's clutter level and seed, and the server's flakiness."""
        session = session_of(request)
        return {"clutter": session["clutter"], "seed": session["seed"], "flaky": config.flaky}

    @app.get("/api/config")
    def get_config() -> dict[str, Any]:
        """Catalog constants the checkout form needs."""
        return {
            "delivery_slots": settings["delivery_slots"],
            "payment_methods": settings["payment_methods"],
            "service_fee_percent": settings["service_fee_percent"],
        }

    @app.get("/api/cuisines")
    def get_cuisines() -> list[str]:
        """Every cuisine, sorted."""
        return catalog.cuisines()

    @app.get("/api/restaurants")
    def list_restaurants(
        request: Request,
        q: Annotated[str, StringConstraints(max_length=100)] = "",
        cuisine: Annotated[str, StringConstraints(max_length=100)] = "",
    ) -> list[dict[str, Any]]:
        """Restaurants matching `q` (name, cuisine, tags, dish names) and `cuisine`."""
        sponsored_first = session_of(request)["clutter"] >= 2
        return [
            {key: value for key, value in r.items() if key not in ("menu", "reviews")}
            for r in catalog.search(q, cuisine, sponsored_first)
        ]

    @app.get("/api/restaurants/{restaurant_id}")
    def get_restaurant(restaurant_id: str) -> dict[str, Any]:
        """One restaurant with its reviews and menu."""
        restaurant = restaurant_or_404(restaurant_id)
        menu = [
            {key: value for key, value in d.items() if key != "restaurant_id"} for d in restaurant["menu"]
        ]
        return {**restaurant, "menu": menu}

    # Cart ------------------------------------------------------------------------------------

    @app.get("/api/cart")
    def get_cart(request: Request) -> dict[str, Any]:
        """This session's cart with its totals and checkout token."""
        return cart_view(session_of(request)["id"])

    @app.post("/api/cart/items")
    def add_item(request: Request, body: AddItem) -> dict[str, Any]:
        """Add a dish (merging with an equal line); the cart holds one restaurant's dishes."""
        session_id = session_of(request)["id"]
        dish = catalog.dishes.get(body.dish_id)
        if dish is None:
            raise HTTPException(404, f"There is no dish {body.dish_id!r}")
        if dish["sold_out"]:
            raise HTTPException(409, f"{dish['name']} is sold out")
        try:
            options = catalog.normalize_options(dish, body.options)
        except OptionsError as error:
            raise HTTPException(422, str(error)) from None
        cart = cart_view(session_id)
        if cart["restaurant_id"] not in (None, dish["restaurant_id"]):
            raise HTTPException(409, f"Your cart has dishes from {cart['restaurant_name']}; empty it first")
        if db.add_cart_line(session_id, dish["id"], options, body.quantity, MAX_QUANTITY) is None:
            raise HTTPException(422, f"quantity: a cart line holds at most {MAX_QUANTITY} of {dish['name']}")
        return cart_view(session_id)

    @app.patch("/api/cart/items/{line_id}")
    def set_quantity(request: Request, line_id: int, body: SetQuantity) -> dict[str, Any]:
        """Change a line's quantity (1–50)."""
        session_id = session_of(request)["id"]
        if not db.set_line_quantity(session_id, line_id, body.quantity):
            raise HTTPException(404, f"Your cart has no line {line_id}")
        return cart_view(session_id)

    @app.delete("/api/cart/items/{line_id}")
    def delete_line(request: Request, line_id: int) -> dict[str, Any]:
        """Remove one line."""
        session_id = session_of(request)["id"]
        if not db.delete_line(session_id, line_id):
            raise HTTPException(404, f"Your cart has no line {line_id}")
        return cart_view(session_id)

    @app.delete("/api/cart")
    def clear_cart(request: Request) -> dict[str, Any]:
        """Empty the cart."""
        session_id = session_of(request)["id"]
        db.clear_cart(session_id)
        return cart_view(session_id)

    # Promo and orders ------------------------------------------------------------------------

    @app.post("/api/promo")
    def check_promo(request: Request, body: PromoCheck) -> dict[str, Any]:
        """Preview a promo code against the current cart; checkout checks it again."""
        cart = cart_view(session_of(request)["id"])
        result = pricing.apply_promo(db.promo_code(body.code), body.code.upper(), cart["subtotal_cents"])
        return {
            "code": result.code,
            "valid": result.valid,
            "message": result.reason,
            "discount_cents": result.discount_cents,
            "free_delivery": result.free_delivery,
        }

    @app.post("/api/orders", status_code=201)
    def place_order(request: Request, response: Response, body: PlaceOrder) -> dict[str, Any]:
        """Place the cart as an order; resubmitting the same checkout token returns that order (200)."""
        session_id = session_of(request)["id"]
        # Checked first, so a double submit gets its order even though the cart is now empty.
        earlier = db.order_for_token(session_id, body.checkout_token)
        if earlier is not None:
            response.status_code = 200
            return public_order(earlier)
        cart = cart_view(session_id)
        if body.checkout_token != cart["checkout_token"] or not cart["lines"]:
            # A twin request may have placed this very checkout since the first look (the cart then reads
            # as rotated or empty): that is the same order, 200, not an error.
            earlier = db.order_for_token(session_id, body.checkout_token)
            if earlier is not None:
                response.status_code = 200
                return public_order(earlier)
        if body.checkout_token != cart["checkout_token"]:
            raise HTTPException(
                409, "This checkout is stale: the cart changed or was ordered; reload checkout"
            )
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
                db.promo_code(body.promo_code), body.promo_code.upper(), cart["subtotal_cents"]
            )
            if not promo.valid:
                raise HTTPException(422, promo.reason)
        restaurant = catalog.restaurants[cart["restaurant_id"]]
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
            order_id, created = db.place_order(session_id, body.checkout_token, fields, items)
        except StaleCheckoutError:
            raise HTTPException(
                409, "This checkout is stale: the cart was just ordered; reload checkout"
            ) from None
        if not created:
            response.status_code = 200
        placed = db.order(order_id, session_id)
        assert placed is not None  # just written by this session
        return public_order(placed)

    @app.get("/api/orders")
    def list_orders(request: Request) -> list[dict[str, Any]]:
        """This session's orders, newest first."""
        return [public_order(order) for order in db.orders(session_of(request)["id"])]

    @app.get("/api/orders/{order_id}")
    def get_order(request: Request, order_id: int) -> dict[str, Any]:
        """One of this session's orders (another session's is a 404, like a missing one)."""
        order = db.order(order_id, session_of(request)["id"])
        if order is None:
            raise HTTPException(404, f"You have no order #{order_id}")
        return public_order(order)

    # Pages -----------------------------------------------------------------------------------

    def index() -> Response:
        page = STATIC_DIR / "index.html"
        if not page.is_file():
            return HTMLResponse(
                "<!doctype html><title>Shop</title><p>The shop's pages are not installed yet "
                "(demo_site/static/index.html is missing).</p>",
                status_code=503,
                headers={"Cache-Control": "no-store"},
            )
        return FileResponse(page, media_type="text/html", headers={"Cache-Control": "no-store"})

    for route in ("/", "/restaurant/{restaurant_id}", "/checkout", "/orders", "/orders/{order_id}"):
        app.add_api_route(route, index, methods=["GET"], include_in_schema=False, response_class=HTMLResponse)
    # check_dir=False: the frontend may not have written its files yet when the server starts.
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    return app


def _page_overrides(request: Request) -> dict[str, int]:
    """`?clutter=N&seed=S` on a page load; raises ValueError with a sentence when out of range."""
    overrides: dict[str, int] = {}
    for key, low, high in (("clutter", 0, 3), ("seed", 0, 2**31 - 1)):
        raw = request.query_params.get(key)
        if raw is None:
            continue
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"{key} must be a whole number from {low} to {high}") from None
        if not low <= value <= high:
            raise ValueError(f"{key} must be a whole number from {low} to {high}")
        overrides[key] = value
    return overrides


def _validation_sentence(errors: Any) -> str:
    """Pydantic's error list as one sentence, e.g. "quantity: must be at most 50"."""
    parts = []
    for error in errors:
        location = [str(part) for part in error.get("loc", ()) if part not in ("body", "query", "path")]
        field = ".".join(location)
        kind = error.get("type", "")
        context = error.get("ctx") or {}
        if kind == "json_invalid":
            return "The request body is not valid JSON"
        if kind == "missing":
            message = "is required"
        elif kind in ("greater_than_equal", "greater_than"):
            message = f"must be at least {context.get('ge', context.get('gt'))}"
        elif kind in ("less_than_equal", "less_than"):
            message = f"must be at most {context.get('le', context.get('lt'))}"
        elif kind == "string_too_long":
            message = f"must be at most {context.get('max_length')} characters"
        elif kind == "string_too_short":
            minimum = context.get("min_length")
            message = "must not be empty" if minimum == 1 else f"must be at least {minimum} characters"
        elif kind == "value_error":
            message = str(context.get("error", error.get("msg", "")))
        else:
            message = str(error.get("msg", "is invalid"))
            message = message[:1].lower() + message[1:]
        parts.append(f"{field}: {message}" if field else message[:1].upper() + message[1:])
    return "; ".join(parts) or "The request is invalid"
