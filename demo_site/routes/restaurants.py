"""The catalog: restaurants, their menus, cuisines and the checkout constants."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from demo_site.context import SessionDep, ShopDep
from demo_site.errors import responses
from demo_site.models import Restaurant, RestaurantPage, ShopSettings, TextRule

router = APIRouter(prefix="/api", tags=["restaurants"], responses=responses(422, 503))

SearchText = Annotated[str, TextRule(100), Query()]


@router.get("/config", response_model=ShopSettings)
def get_config(shop: ShopDep) -> dict[str, Any]:
    """Catalog constants the checkout form needs."""
    return {
        "delivery_slots": shop.settings["delivery_slots"],
        "payment_methods": shop.settings["payment_methods"],
        "service_fee_percent": shop.settings["service_fee_percent"],
    }


@router.get("/cuisines")
def get_cuisines(shop: ShopDep) -> list[str]:
    """Every cuisine, sorted."""
    return shop.catalog.cuisines()


@router.get("/restaurants", response_model=list[Restaurant])
def list_restaurants(
    shop: ShopDep, session: SessionDep, q: SearchText = "", cuisine: SearchText = ""
) -> list[dict[str, Any]]:
    """Restaurants matching `q` (name, cuisine, tags, dish names) and `cuisine`; sponsored first at clutter ≥ 2."""
    return shop.catalog.search(q, cuisine, sponsored_first=session["clutter"] >= 2)


@router.get("/restaurants/{restaurant_id}", response_model=RestaurantPage, responses=responses(404))
def get_restaurant(shop: ShopDep, restaurant_id: str) -> dict[str, Any]:
    """One restaurant with its reviews and menu."""
    return shop.restaurant_or_404(restaurant_id)
