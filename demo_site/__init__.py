"""The demo food-delivery shop that webagent drives: a FastAPI server plus plain-JS pages.

See docs/shop-contract.md for the API, the DOM contract and the database tables.
"""

from demo_site.config import ShopConfig
from demo_site.server import Shop, running_shop

__all__ = ["Shop", "ShopConfig", "running_shop"]
