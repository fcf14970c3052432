"""What every route needs: the database, the catalog, the settings, and the request's session.

One `ShopContext` per app, kept on `app.state.shop`; routes receive it through `Depends(shop_of)`
and the request's session through `Depends(session_of)` (the middleware put it there).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request

from demo_site import pricing
from demo_site.catalog import Catalog
from demo_site.config import ShopConfig
from demo_site.db import ShopDB
from demo_site.faults import Faults


@dataclass
class ShopContext:
    """The shop's state shared by all requests (all of it safe to use from several threads)."""

    config: ShopConfig
    db: ShopDB
    catalog: Catalog
    settings: dict[str, Any]
    faults: Faults

    @classmethod
    def open(cls, config: ShopConfig) -> ShopContext:
        """Open (create and seed if new) the database at `config.db_path` and read the catalog."""
        db = ShopDB(config.db_path)
        return cls(config, db, Catalog(db), db.settings(), Faults(config.flaky, config.seed))

    def restaurant_or_404(self, restaurant_id: str) -> dict[str, Any]:
        """The restaurant, or a 404 that names what was asked for."""
        restaurant = self.catalog.restaurants.get(restaurant_id)
        if restaurant is None:
            raise HTTPException(404, f"There is no restaurant {restaurant_id!r}")
        return restaurant

    def cart_view(self, session_id: str) -> dict[str, Any]:
        """The session's cart as `GET /api/cart` answers it: priced lines, totals, checkout token."""
        session = self.db.session(session_id)
        assert session is not None  # the middleware found or created it
        lines = []
        restaurant: dict[str, Any] | None = None
        for line in self.db.cart_lines(session_id):
            dish = self.catalog.dishes[line["dish_id"]]
            restaurant = self.catalog.restaurants[dish["restaurant_id"]]
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
        money = pricing.totals(subtotal, delivery, self.settings["service_fee_percent"])
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


def shop_of(request: Request) -> ShopContext:
    """The app's `ShopContext` (a FastAPI dependency)."""
    shop: ShopContext = request.app.state.shop
    return shop


def session_of(request: Request) -> dict[str, Any]:
    """The request's session row: `id, clutter, seed, checkout_token, created_at` (a dependency)."""
    session: dict[str, Any] = request.state.session
    return session


ShopDep = Annotated[ShopContext, Depends(shop_of)]
"""A route parameter `shop: ShopDep` receives the app's `ShopContext`."""
SessionDep = Annotated[dict[str, Any], Depends(session_of)]
"""A route parameter `session: SessionDep` receives the request's session row."""
