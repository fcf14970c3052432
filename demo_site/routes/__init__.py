"""The shop's routes, one module per resource; `ROUTERS` is what `create_app` includes."""

from demo_site.routes import cart, orders, pages, restaurants, session

ROUTERS = (session.router, restaurants.router, cart.router, orders.router, pages.router)

__all__ = ["ROUTERS"]
