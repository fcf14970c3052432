"""The tools: one pydantic argument model and one function per action, in one registry.

- `webagent.sites.demo_shop.tools` — the typed vocabulary of ordering food (search, open, add to cart, checkout…);
- `webagent.tools.generic` — generic actions for what that vocabulary does not cover (press a button by
  its name, fill a field by its label, choose an option, press a key, scroll to a text);
- `webagent.tools.base` — `Args` and `Tool`, what every tool is made of.

The argument model's docstring is the tool's description the model reads.
"""

from __future__ import annotations

from webagent.sites.demo_shop.tools import (
    SHOP_TOOLS,
    AddToCart,
    AskHuman,
    BackToRestaurants,
    ChangeQuantity,
    FillDeliveryDetails,
    Finish,
    GoToCheckout,
    OpenRestaurant,
    OptionGroup,
    PlaceOrder,
    ReadDish,
    ReadPage,
    ReadReviews,
    RecentActions,
    RemoveFromCart,
    SearchRestaurants,
    ViewCart,
    ViewOrderHistory,
    pick_choices,
)
from webagent.tools.base import Args, Outcome, Tool, ToolFunction
from webagent.tools.generic import (
    GENERIC_TOOLS,
    ChooseOption,
    FillField,
    Press,
    PressKey,
    ScrollTo,
)

__all__ = [
    "TOOLS",
    "TOOLS_BY_NAME",
    "AddToCart",
    "Args",
    "AskHuman",
    "BackToRestaurants",
    "ChangeQuantity",
    "ChooseOption",
    "FillDeliveryDetails",
    "FillField",
    "Finish",
    "GoToCheckout",
    "OpenRestaurant",
    "OptionGroup",
    "Outcome",
    "PlaceOrder",
    "Press",
    "PressKey",
    "ReadDish",
    "ReadPage",
    "ReadReviews",
    "RecentActions",
    "RemoveFromCart",
    "ScrollTo",
    "SearchRestaurants",
    "Tool",
    "ToolFunction",
    "ViewCart",
    "ViewOrderHistory",
    "pick_choices",
]

# Loop-controlled tools last, as before: finish closes the list the model reads.
TOOLS: tuple[Tool, ...] = (
    *(tool for tool in SHOP_TOOLS if not tool.loop_controlled),
    *GENERIC_TOOLS,
    *(tool for tool in SHOP_TOOLS if tool.loop_controlled),
)
TOOLS_BY_NAME = {tool.name: tool for tool in TOOLS}
