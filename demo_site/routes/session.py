"""`GET /api/session`: the browser session's clutter level and seed."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from demo_site.context import SessionDep, ShopDep
from demo_site.models import Session

router = APIRouter(prefix="/api", tags=["session"])


@router.get("/session", response_model=Session)
def get_session(shop: ShopDep, session: SessionDep) -> dict[str, Any]:
    """This session's clutter level and seed, and the server's flakiness (never answers 503)."""
    return {"clutter": session["clutter"], "seed": session["seed"], "flaky": shop.config.flaky}
