"""The pages: one `index.html` for every route of the single-page app (the static files are mounted)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse, HTMLResponse

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
PAGE_ROUTES = ("/", "/restaurant/{restaurant_id}", "/checkout", "/orders", "/orders/{order_id}")

router = APIRouter(include_in_schema=False)


def index() -> Response:
    """The single page every route of the app answers with (not cached)."""
    page = STATIC_DIR / "index.html"
    if not page.is_file():
        return HTMLResponse(
            "<!doctype html><title>Shop</title><p>The shop's pages are not installed yet "
            "(demo_site/static/index.html is missing).</p>",
            status_code=503,
            headers={"Cache-Control": "no-store"},
        )
    return FileResponse(page, media_type="text/html", headers={"Cache-Control": "no-store"})


for route in PAGE_ROUTES:
    router.add_api_route(route, index, methods=["GET"], response_class=HTMLResponse)
