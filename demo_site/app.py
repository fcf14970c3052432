"""The shop as an ASGI app: middleware, error handlers, the routers of `demo_site/routes/`, static files.

Where things are: sessions, faults and security headers in `middleware.py`; the error shape in
`errors.py`; request and answer models in `models.py`; one router per resource in `routes/`.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from demo_site.config import ShopConfig
from demo_site.context import ShopContext
from demo_site.errors import install_error_handlers
from demo_site.middleware import install_middleware
from demo_site.routes import ROUTERS
from demo_site.routes.pages import STATIC_DIR


def create_app(config: ShopConfig) -> FastAPI:
    """The shop over the database at `config.db_path` (created and seeded if new)."""
    shop = ShopContext.open(config)
    # No /docs or /redoc: they load scripts from a CDN (no network here, and the CSP forbids it);
    # the schema itself is at /openapi.json.
    app = FastAPI(title="Demo food-delivery shop", version="1", docs_url=None, redoc_url=None)
    app.state.shop = shop
    install_middleware(app, shop)
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    # check_dir=False: the frontend may not have written its files yet when the server starts.
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    return app
