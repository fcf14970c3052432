"""The JSON API's bodies: what a client may send (strict) and what the shop answers (declared).

Request bodies are strict: integers are JSON integers (`true` and `"3"` are refused), text is a bounded
string without control characters. Every constraint a request must meet is in the published OpenAPI
schema too (a text field's `pattern`), so a client that follows the schema is never refused with a 422.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, Field, GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

MAX_QUANTITY = 50
# SQLite's INTEGER is a signed 64-bit number; larger ids cannot name a row (and used to answer 500).
MAX_ID = 2**63 - 1

# Text patterns, with {c} standing for the characters text may not contain: C0 and C1 control
# characters (NUL, tab, newline, escape, DEL, …) and lone UTF-16 surrogates, which JSON can smuggle in
# as "\ud800" but no SQLite text column can store. The published pattern leaves the surrogates out:
# they are not characters a schema can name (and no generator produces them), but they are refused.
_CONTROL = "\\x00-\\x1f\\x7f-\\x9f"
_SURROGATES = "\\ud800-\\udfff"
_PLAIN = "[^{c}]*"
_FILLED = "[^{c}]*[^\\s{c}][^{c}]*"
_PHONE = "[0-9 +\\-()]*[0-9][0-9 +\\-()]*"
_HAS_CONTROL = re.compile(f"[{_CONTROL}{_SURROGATES}]")
_EMPTY = "must not be empty"
_PHONE_PROBLEM = "may contain only digits, spaces and + - ( ), and at least one digit"


@dataclass(frozen=True)
class TextRule:
    """Pydantic metadata for a text field: `Annotated[str, TextRule(80)]`.

    Checks the raw string — its length, then `pattern` as a whole — and publishes exactly that as the
    field's JSON schema (`maxLength`, `minLength`, `pattern`). `strip` drops leading and trailing
    spaces after the check, so what is stored is tidy while what is validated is what was sent.
    """

    max_length: int
    min_length: int = 0
    pattern: str = _PLAIN
    problem: str = "must not contain control characters"
    strip: bool = False

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        compiled = re.compile(self.pattern.format(c=_CONTROL + _SURROGATES))

        def check(value: str) -> str:
            if compiled.fullmatch(value) is None:
                if _HAS_CONTROL.search(value):
                    raise ValueError("must not contain control characters")
                raise ValueError(self.problem)
            return value.strip() if self.strip else value

        text = core_schema.str_schema(
            min_length=self.min_length or None, max_length=self.max_length, strict=True
        )
        return core_schema.no_info_after_validator_function(check, text)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return self.json_schema()

    def json_schema(self) -> JsonSchemaValue:
        """What the OpenAPI schema says about this text."""
        published: JsonSchemaValue = {"type": "string", "maxLength": self.max_length}
        if self.min_length:
            published["minLength"] = self.min_length
        published["pattern"] = "^" + self.pattern.format(c=_CONTROL) + "$"
        return published


@dataclass(frozen=True)
class WholeNumber:
    """Pydantic metadata for a JSON integer in `minimum … maximum`: `Annotated[int, WholeNumber(1, 50)]`.

    Strict: `"3"` and `true` are refused. JSON has one number type, though, and JSON Schema counts
    `3.0` as the integer 3, so that is taken as 3.
    """

    minimum: int
    maximum: int

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        number = core_schema.int_schema(ge=self.minimum, le=self.maximum, strict=True)
        return core_schema.no_info_before_validator_function(_json_integer, number)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}


def _json_integer(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


_TEXT = TextRule(100)
Text = Annotated[str, _TEXT]
"""An identifier or a choice: at most 100 characters, no control characters."""
Quantity = Annotated[int, WholeNumber(1, MAX_QUANTITY)]
"""1 … 50, a JSON number without a fraction."""


class ErrorBody(BaseModel):
    """Every 4xx and 5xx answer: one readable sentence."""

    detail: str = Field(description='What went wrong, as a sentence, e.g. "quantity: must be at most 50"')


# Requests ----------------------------------------------------------------------------------------------


class AddItem(BaseModel):
    """`POST /api/cart/items`."""

    dish_id: Text
    quantity: Quantity = 1
    options: dict[Text, Text | Annotated[list[Text], Field(max_length=20)]] = Field(
        default_factory=dict,
        max_length=20,
        # Pydantic leaves the rule for keys out of the schema; they are option names, plain text.
        json_schema_extra={"propertyNames": _TEXT.json_schema()},
    )


class SetQuantity(BaseModel):
    """`PATCH /api/cart/items/{line_id}`; removing a line is `DELETE`."""

    quantity: Quantity


class PromoCheck(BaseModel):
    """`POST /api/promo`."""

    code: Annotated[str, TextRule(40, min_length=1, pattern=_FILLED, problem=_EMPTY, strip=True)]


class PlaceOrder(BaseModel):
    """`POST /api/orders`."""

    name: Annotated[str, TextRule(80, min_length=1, pattern=_FILLED, problem=_EMPTY, strip=True)]
    address: Annotated[str, TextRule(200, min_length=5, pattern=_FILLED, problem=_EMPTY, strip=True)]
    phone: Annotated[str, TextRule(30, min_length=5, pattern=_PHONE, problem=_PHONE_PROBLEM, strip=True)]
    delivery_slot: Text
    payment_method: Text
    promo_code: Annotated[str, TextRule(40, strip=True)] | None = None
    tip_cents: Annotated[int, WholeNumber(0, 10_000)] = 0
    checkout_token: Text


# Answers -----------------------------------------------------------------------------------------------


class Session(BaseModel):
    """`GET /api/session`."""

    clutter: int
    seed: int
    flaky: float


class ShopSettings(BaseModel):
    """`GET /api/config`: catalog constants the checkout form needs."""

    delivery_slots: list[str]
    payment_methods: list[str]
    service_fee_percent: int


class Restaurant(BaseModel):
    """A restaurant in the list."""

    id: str
    name: str
    cuisine: str
    description: str
    rating: float
    delivery_fee_cents: int
    min_order_cents: int
    eta_minutes: int
    sponsored: bool
    tags: list[str]


class Review(BaseModel):
    author: str
    stars: int
    text: str


class Choice(BaseModel):
    name: str
    price_delta_cents: int


class DishOption(BaseModel):
    name: str
    required: bool
    choices: list[Choice]


class Dish(BaseModel):
    id: str
    name: str
    description: str
    price_cents: int
    category: str
    sold_out: bool
    options: list[DishOption]


class RestaurantPage(Restaurant):
    """`GET /api/restaurants/{id}`: the restaurant with its reviews and menu."""

    reviews: list[Review]
    menu: list[Dish]


Chosen = dict[str, str | list[str]]


class CartLine(BaseModel):
    line_id: int
    dish_id: str
    dish_name: str
    quantity: int
    options: Chosen
    unit_price_cents: int
    line_total_cents: int


class Cart(BaseModel):
    """The session's cart with its totals and checkout token."""

    restaurant_id: str | None
    restaurant_name: str | None
    lines: list[CartLine]
    item_count: int
    subtotal_cents: int
    delivery_fee_cents: int
    service_fee_cents: int
    total_cents: int
    min_order_cents: int
    min_order_met: bool
    checkout_token: str


class PromoPreview(BaseModel):
    """`POST /api/promo`."""

    code: str
    valid: bool
    message: str
    discount_cents: int
    free_delivery: bool


class OrderItem(BaseModel):
    dish_id: str
    dish_name: str
    quantity: int
    options: Chosen
    unit_price_cents: int
    line_total_cents: int


class Order(BaseModel):
    """A placed order."""

    id: int
    restaurant_id: str
    restaurant_name: str
    items: list[OrderItem]
    name: str
    address: str
    phone: str
    delivery_slot: str
    payment_method: str
    promo_code: str | None
    subtotal_cents: int
    delivery_fee_cents: int
    service_fee_cents: int
    discount_cents: int
    tip_cents: int
    total_cents: int
    status: str
    checkout_token: str
    created_at: str
