"""The recogniser of consequential controls, by their words: pay/buy/order/… in the words real shops
use, with amounts, casing and extra words — and the everyday controls that are not ("Add to cart $12").

The word lists are the test's own, written before the recogniser: wordings it must recognise without
having been told them one by one.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.tools.consequence import (
    ControlFacts,
    Field,
    amount_cents,
    judge_control,
    judge_key,
    payment_details,
    says_consequential,
    total_shown,
)

# -- the words ----------------------------------------------------------------------------------------

COMMITTING = [
    "Pay", "Pay now", "Buy", "Buy now", "Buy it now", "Order", "Order now", "Place order", "Place your order",
    "Place my order", "Submit order", "Confirm order", "Confirm and pay", "Confirm & pay", "Complete order",
    "Complete purchase", "Confirm purchase", "Purchase", "Checkout", "Check out", "Proceed to checkout",
    "Subscribe", "Subscribe now", "Donate", "Donate now", "Book now", "Book", "Submit payment",
    "Make payment", "Complete payment", "Pay securely", "Pay with card", "Confirm booking",
    "Complete booking", "Reserve now", "Confirm", "Finish order", "Send order", "Buy and pay",
    "Jetzt kaufen", "Zahlungspflichtig bestellen", "Payer", "Comprar ahora", "Place bid",
]  # fmt: skip
AMOUNTS = [
    "$43.42",
    "$ 43.42",
    "€12,50",
    "12,50 €",
    "£5",
    "43.42 USD",
    "USD 43.42",
    "$1,234.56",
    "¥800",
    "CHF 20.00",
]
EXTRAS = ["", " now", " securely", " →", " ›", "!", " (2 items)"]
HARMLESS = [
    "Add to cart", "Add to basket", "Add to bag", "Search", "Next page", "Close", "Previous", "Orders",
    "Order history", "My orders", "Track order", "View order", "Order details", "Cancel", "Back",
    "Continue shopping", "View cart", "Apply coupon", "Apply promo code", "Remove", "Edit address",
    "Sign in", "Learn more", "Not now", "Menu", "Home", "Filter", "Sort by price", "Show details",
    "Purchase history", "Payment methods", "Add payment method", "Cancel order", "Reorder",
    "Unsubscribe", "Facebook", "Books", "Read reviews", "Close dialog", "Dismiss",
]  # fmt: skip
CASINGS = [str.lower, str.upper, str.title, lambda s: s]


@st.composite
def committing_labels(draw: st.DrawFn) -> str:
    words = draw(st.sampled_from(COMMITTING))
    amount = draw(st.sampled_from(["", *AMOUNTS]))
    extra = draw(st.sampled_from(EXTRAS))
    case = draw(st.sampled_from(CASINGS))
    joiner = draw(st.sampled_from([" ", " · ", " – ", " - ", " for ", ": "]))
    label = f"{words}{joiner}{amount}" if amount else words
    return case(label + extra)


@st.composite
def harmless_labels(draw: st.DrawFn) -> str:
    words = draw(st.sampled_from(HARMLESS))
    amount = draw(st.sampled_from(["", *AMOUNTS]))
    case = draw(st.sampled_from(CASINGS))
    return case(f"{words} {amount}".strip())


@settings(max_examples=400, deadline=None)
@given(committing_labels())
def test_a_committing_name_is_consequential_however_it_is_worded(label: str) -> None:
    assert says_consequential(label), label


@settings(max_examples=300, deadline=None)
@given(harmless_labels())
def test_an_everyday_name_is_not(label: str) -> None:
    assert not says_consequential(label), label


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(AMOUNTS), st.sampled_from(CASINGS))
def test_the_amount_in_a_name_is_read(amount: str, case: Callable[[str], str]) -> None:
    expected = {
        "$43.42": 4342, "$ 43.42": 4342, "€12,50": 1250, "12,50 €": 1250, "£5": 500, "43.42 USD": 4342,
        "USD 43.42": 4342, "$1,234.56": 123456, "¥800": 80000, "CHF 20.00": 2000,
    }[amount]  # fmt: skip
    assert amount_cents(case(f"Pay {amount} now")) == expected
    assert amount_cents("Pay now") is None and amount_cents("Page 2 of 3") is None


def test_the_total_shown_is_the_largest_labelled_total() -> None:
    text = "Subtotal $40.00 Delivery $3.42 Total $43.42 Card number"
    assert total_shown(text) == 4342
    assert total_shown("Amount due: €12,50") == 1250
    assert total_shown("3 items, nothing to pay yet") is None
    assert total_shown("Total results: 12") is None


# -- forms -----------------------------------------------------------------------------------------

CARD_FIELDS = [
    Field(autocomplete="cc-number"),
    Field(label="Card number"),
    Field(placeholder="1234 1234 1234 1234", name="cardnumber"),
    Field(label="CVC"),
    Field(name="cvv"),
    Field(label="Expiry (MM/YY)"),
    Field(autocomplete="cc-exp"),
    Field(label="IBAN"),
    Field(label="Billing address"),
    Field(autocomplete="billing street-address"),
    Field(name="amount", value="25"),
]
PLAIN_FIELDS = [Field(label="Search"), Field(label="Email"), Field(placeholder="Your name"), Field(name="q")]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(CARD_FIELDS), min_size=1, max_size=3), st.lists(st.sampled_from(PLAIN_FIELDS))
)
def test_a_form_with_payment_details_is_recognised(card: list[Field], plain: list[Field]) -> None:
    assert payment_details([*plain, *card], [], "")


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(PLAIN_FIELDS)))
def test_a_form_without_them_is_not(plain: list[Field]) -> None:
    assert not payment_details(plain, [], "Search the catalogue")


def facts(
    name: str, *, submits: bool = True, fields: list[Field] | None = None, kind: str = "button"
) -> ControlFacts:
    return ControlFacts(
        found=True, name=name, kind=kind, submits=submits, fields=fields or [], region_text=""
    )


def test_a_submit_button_of_a_payment_form_is_consequential_whatever_its_name() -> None:
    judged = judge_control(facts("Continue", fields=[Field(autocomplete="cc-number")]), "Continue")
    assert judged.consequential and "card number" in judged.reason
    plain = judge_control(facts("Continue", fields=[Field(label="Email")]), "Continue")
    assert not plain.consequential


def test_a_harmless_button_of_a_payment_form_is_not() -> None:
    fields = [Field(label="Card number")]
    assert not judge_control(
        facts("Apply coupon", submits=False, fields=fields), "Apply coupon"
    ).consequential
    assert judge_control(facts("Go", submits=False, fields=fields), "Go").consequential


def test_the_site_marker_and_the_total_come_through() -> None:
    marked = ControlFacts(found=True, name="Send it", kind="button", submits=True, marked=True)
    judged = judge_control(marked, "Send it")
    assert judged.consequential and judged.site_marked
    priced = judge_control(facts("Pay $43.42"), "Pay")
    assert priced.total_cents == 4342 and priced.control == "Pay $43.42"
    shown = ControlFacts(found=True, name="Pay", kind="button", submits=True, region_text="Total $9.99")
    assert judge_control(shown, "Pay").total_cents == 999


def test_enter_in_a_payment_form_submits_it() -> None:
    field = ControlFacts(found=True, name="Pay", kind="field", submits=True, fields=[Field(label="CVC")])
    assert judge_key("Enter", field).consequential
    assert not judge_key("Space", field).consequential  # typing a space
    search = ControlFacts(found=True, name="Go", kind="field", submits=True, fields=[Field(label="Search")])
    assert not judge_key("Enter", search).consequential
    nothing = ControlFacts(found=False)
    assert not judge_key("Enter", nothing).consequential
