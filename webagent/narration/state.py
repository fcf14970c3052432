"""`PageState`: a typed snapshot of what a page shows, as a person would describe it.

Pure types and the conversion from a reader's plain JSON (`state_from_raw`). The reader that fills
them from the DOM belongs to the site adapter (the demo shop's: webagent/sites/demo_shop/reader.py).
Everything here is *page text*: untrusted data, never instructions.
"""

from __future__ import annotations

import json
from typing import Literal, get_args

from pydantic import BaseModel, Field

from webagent.narration.money import parse_cents

__all__ = [
    "CartLine",
    "CheckoutForm",
    "Landmark",
    "LandmarkRole",
    "MenuItem",
    "MenuOption",
    "PageList",
    "PageState",
    "RestaurantCard",
    "View",
    "state_from_raw",
]

View = Literal["restaurants", "restaurant", "checkout", "confirmation", "orders", "loading", "unknown"]
LandmarkRole = Literal[
    "banner", "navigation", "search", "main", "complementary", "form", "region", "contentinfo"
]
"""The landmark roles of WAI-ARIA (``<nav>``: navigation, ``<aside>``: complementary, ``<footer>``: contentinfo)."""


class RestaurantCard(BaseModel):
    name: str
    cuisine: str = ""
    sponsored: bool = False


class MenuOption(BaseModel):
    """A choice a dish asks for, as the menu shows it before the dish is added."""

    name: str
    required: bool = False
    choices: list[str] = Field(default_factory=list)


class MenuItem(BaseModel):
    name: str
    price_cents: int
    sold_out: bool = False
    has_options: bool = False
    options: list[MenuOption] = Field(default_factory=list)


class CartLine(BaseModel):
    name: str
    quantity: int
    total_cents: int


class CheckoutForm(BaseModel):
    """What the checkout form holds right now (empty strings for fields not filled)."""

    name: str = ""
    address: str = ""
    phone: str = ""
    delivery_slot: str = ""
    payment_method: str = ""
    promo_code: str = ""
    promo_result: str = ""
    promo_valid: bool | None = None
    """Whether the shop accepted the code it was given (None: no code tried)."""
    tip: str = ""
    checkout_token: str = ""
    slots: list[str] = []
    """The delivery times the form offers, as it words them."""
    payments: list[str] = []
    """The payment methods the form offers."""

    def missing(self) -> list[str]:
        """Required delivery details not yet filled in."""
        required = {
            "name": self.name,
            "address": self.address,
            "phone": self.phone,
            "delivery slot": self.delivery_slot,
            "payment method": self.payment_method,
        }
        return [label for label, value in required.items() if not value.strip()]


class PageList(BaseModel):
    """A list or table on a page not the site's own, in brief: what it is under, how many, the first few."""

    name: str = ""
    """Its label, caption or the heading above it; empty when it has none."""
    count: int = 0
    items: list[str] = Field(default_factory=list)
    """Its first items (a table's row: its cells, comma-separated), as the page words them."""


class Landmark(BaseModel):
    """A landmark region of a page not the site's own: its role, and its accessible name ("" for none)."""

    role: LandmarkRole
    name: str = ""


class PageState(BaseModel):
    """What the page shows, as a person would describe it."""

    view: View = "unknown"
    url: str = ""
    restaurant: str | None = None
    min_order_cents: int | None = None
    restaurants: list[RestaurantCard] = Field(default_factory=list)
    no_results: bool = False
    menu: list[MenuItem] = Field(default_factory=list)
    menu_loading: bool = False
    cart_count: int = 0
    cart_open: bool = False
    cart_lines: list[CartLine] = Field(default_factory=list)
    cart_total_cents: int | None = None
    cart_subtotal_cents: int | None = None
    min_order_notice: str | None = None
    dialogs: list[str] = Field(default_factory=list)
    """Dialogs and page-covering layers on screen, by name (the cart drawer is `cart_open`)."""
    errors: list[str] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    """Status messages and alerts other than the shop's error box (toasts, "Saved", …)."""
    focused: str | None = None
    """The label of the field that has the keyboard focus (typing goes there), when one has it."""
    option_error: str | None = None
    checkout: CheckoutForm | None = None
    summary_total_cents: int | None = None
    order_number: int | None = None
    order_total_cents: int | None = None
    order_lines: list[str] = Field(default_factory=list)
    """The confirmation page's lines, as the shop words them: "2 × Margherita Pizza (Large)"."""
    orders: list[int] = Field(default_factory=list)
    activity_count: int = 0
    title: str = ""
    """On a page that is not one of the site's own views: its title (webagent/sites/generic/reader.py)."""
    heading: str = ""
    """There: its main heading, and the step a wizard marks ("Checkout (step: 2 Payment)")."""
    form: list[str] = Field(default_factory=list)
    """There: the form on screen, a field each, as ``Card number * (filled)`` (required, filled, invalid)."""
    lists: list[PageList] = Field(default_factory=list)
    """There: the lists and tables of its main part, in brief."""
    text_digest: str = ""
    """There: a digest of its main part's text, so a change nothing else names is still seen."""
    landmarks: list[Landmark] = Field(default_factory=list)
    """There: its landmark regions in page order (navigation, search, main …), the first few."""
    landmarks_more: int = 0
    """There: how many landmarks it has besides those."""
    announced: list[str] = Field(default_factory=list)
    """There: what its live regions (``aria-live``, ``role=log``) say, besides the status messages and alerts
    in `notices`."""

    @property
    def any_page(self) -> bool:
        """A page not the site's own, read as any page is (webagent/sites/generic/): a title, a heading or a
        form, and none of the site's views."""
        return self.view == "unknown" and bool(self.title or self.heading or self.form)

    def view_key(self) -> str:
        """What a glance at the page takes in: the view, the restaurant, the drawer, the dialogs, the
        error box, the order number — not the cart's count or a form's values. Two states with one key
        look alike in a small picture (`--screenshots views` takes one when the key changes)."""
        return json.dumps(
            [self.view, self.restaurant, self.cart_open, self.dialogs, bool(self.errors), self.order_number]
            + ([self.heading] if self.heading else [])
        )

    def fingerprint(self) -> str:
        """A stable digest of everything visible, for "did the page change?" questions."""
        return self.model_dump_json(exclude={"url", "activity_count", "focused"})


def state_from_raw(raw: dict) -> PageState:  # type: ignore[type-arg]
    """Turn the reader's plain JSON into a `PageState` (amounts parsed, views checked)."""
    view: View = raw.get("view") if raw.get("view") in get_args(View) else "unknown"  # type: ignore[assignment]
    checkout = raw.get("checkout")
    return PageState(
        view=view,
        url=raw.get("url", ""),
        restaurant=raw.get("restaurant"),
        min_order_cents=parse_cents(raw.get("min_order")),
        restaurants=[RestaurantCard(**card) for card in raw.get("restaurants", []) if card.get("name")],
        no_results=bool(raw.get("no_results")),
        menu=[
            MenuItem(
                name=item["name"],
                price_cents=parse_cents(item.get("price")) or 0,
                sold_out=bool(item.get("sold_out")),
                has_options=bool(item.get("has_options")),
                options=[MenuOption(**option) for option in item.get("options", []) if option.get("name")],
            )
            for item in raw.get("menu", [])
            if item.get("name")
        ],
        menu_loading=bool(raw.get("menu_loading")),
        cart_count=int(raw.get("cart_count") or 0),
        cart_open=bool(raw.get("cart_open")),
        cart_lines=[
            CartLine(
                name=line["name"], quantity=line["quantity"], total_cents=parse_cents(line.get("total")) or 0
            )
            for line in raw.get("cart_lines", [])
            if line.get("name")
        ],
        cart_total_cents=parse_cents(raw.get("cart_total")),
        cart_subtotal_cents=parse_cents(raw.get("cart_subtotal")),
        min_order_notice=raw.get("min_order_notice"),
        dialogs=list(raw.get("dialogs", [])),
        errors=list(raw.get("errors", [])),
        notices=list(raw.get("notices", [])),
        focused=raw.get("focused") or None,
        option_error=raw.get("option_error"),
        checkout=CheckoutForm(**checkout) if checkout else None,
        summary_total_cents=parse_cents(raw.get("summary_total")),
        order_number=raw.get("order_number"),
        order_total_cents=parse_cents(raw.get("order_total")),
        order_lines=[str(line) for line in raw.get("order_lines", []) if line],
        orders=list(raw.get("orders", [])),
        activity_count=int(raw.get("activity_count") or 0),
        title=str(raw.get("title") or ""),
        heading=str(raw.get("heading") or ""),
        form=[str(field) for field in raw.get("form", []) if field],
        lists=[_page_list(entry) for entry in raw.get("lists", []) if isinstance(entry, dict)],
        text_digest=str(raw.get("text_digest") or ""),
        landmarks=_landmarks(raw.get("landmarks")),
        landmarks_more=_count(raw.get("landmarks_more")),
        announced=[str(text) for text in _listed(raw.get("announced")) if text][:3],
    )


def _listed(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _landmarks(raw: object) -> list[Landmark]:
    """The landmarks the page reader gave, each a known role and a name (page scripts run beside it)."""
    roles = get_args(LandmarkRole)
    return [
        Landmark(role=entry["role"], name=str(entry.get("name") or ""))
        for entry in _listed(raw)
        if isinstance(entry, dict) and entry.get("role") in roles
    ][:10]


def _page_list(raw: dict) -> PageList:  # type: ignore[type-arg]
    """A list as the page reader gave it, each part made a string or a count (page scripts run beside it)."""
    count, items = raw.get("count"), raw.get("items")
    return PageList(
        name=str(raw.get("name") or ""),
        count=count if isinstance(count, int) and count >= 0 else 0,
        items=[str(item) for item in items if item][:10] if isinstance(items, list) else [],
    )
