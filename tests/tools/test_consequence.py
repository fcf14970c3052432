"""The recogniser of consequential controls, by their words: pay/buy/order/… in the words real shops
use, with amounts, casing and extra words — and the everyday controls that are not ("Add to cart $12").

The word lists are the test's own, written before the recogniser: wordings it must recognise without
having been told them one by one.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.tools.consequence import (
    ControlFacts,
    Field,
    agrees_to_charge,
    amount_cents,
    harmless,
    judge_choice,
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
EVERYDAY_PRICED = [
    "Add to cart", "Add to basket", "Add to bag", "View cart", "Remove", "Apply coupon", "Apply promo code",
    "Show details", "Sort by price", "Filter", "Cancel", "Back", "Close", "Edit address", "Order history",
    "Purchase history", "Track order", "View plan", "Show plans", "Compare plans", "Add extra cheese",
    "Remove coupon", "Hide details",
]  # fmt: skip
"""Everyday controls that may carry a price in their name ("Add to cart $12.00") and still spend nothing.
The rest of HARMLESS are harmless only without one: a price in a control's own name, on something that
does not plainly just add, show or remove, is read as what pressing it costs."""

# Spending by meaning (issue 35), written before the recogniser learned them: the verbs of paying,
# charging, sending money, topping up, tipping, upgrading, joining or subscribing for a price.
SPENDING = [
    "Send $50", "Upgrade to Pro – $9.99/mo", "Join now for $4.99", "Top up $20", "Tip $5",
    "Yes, charge my card", "Charge my card", "Send money", "Add funds", "Top-up balance", "Recharge",
    "Leave a tip", "Transfer funds", "Go premium", "Upgrade to Premium", "Renew membership", "Charge $12",
    "Unlock Pro for €4,99", "Get Plus – £2.99 a month", "Start membership", "OK, pay", "$5",
    "Select plan $9.99", "Choose Pro $9.99/mo", "Use $5 credit", "Add $20 to wallet", "Gift card $50",
]  # fmt: skip
SPEND_VERBS = ["Send", "Top up", "Tip", "Upgrade for", "Join for", "Subscribe for", "Charge", "Renew for"]
NOT_SPENDING = [
    "View cart", "Show 5 more", "Send message", "Upgrade browser", "Join the newsletter", "Get directions",
    "Free of charge", "No charge", "Charge history", "Yes", "Yes, continue", "Tips and tricks",
    "Send feedback", "Show 12 results",
]  # fmt: skip


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
    priced = draw(st.booleans())
    words = draw(st.sampled_from(EVERYDAY_PRICED if priced else HARMLESS))
    amount = draw(st.sampled_from(AMOUNTS)) if priced else ""
    case = draw(st.sampled_from(CASINGS))
    return case(f"{words} {amount}".strip())


@st.composite
def spending_labels(draw: st.DrawFn) -> str:
    """A paying verb with an amount in any currency, before or after it, in any casing."""
    verb = draw(st.sampled_from(SPEND_VERBS))
    amount = draw(st.sampled_from(AMOUNTS))
    case = draw(st.sampled_from(CASINGS))
    lead = draw(st.sampled_from(["", "Yes, ", "OK – "]))
    where = draw(st.sampled_from(["after", "before", "end"]))
    if where == "after":
        label = f"{lead}{verb} {amount}"
    elif where == "before":
        label = f"{lead}{amount} · {verb.split()[0]} now"
    else:
        label = f"{lead}{verb.split()[0]} now ({amount} a month)"
    return case(label)


CHOOSING = ["Select", "Choose", "Pick", "Switch to", "Change to", "Try", "Start", "Get", "Use", "Open"]
TIERS = ["plan", "Pro", "Premium", "Family plan", "annual", "the bundle", "Gold tier", "3 months"]


@st.composite
def choosing_labels(draw: st.DrawFn) -> str:
    """A verb of choosing a plan (or anything else), with its price before, after or per month."""
    verb, tier = draw(st.sampled_from(CHOOSING)), draw(st.sampled_from(TIERS))
    amount = draw(st.sampled_from(AMOUNTS))
    shape = draw(st.sampled_from(["{v} {t} {a}", "{v} {t} – {a}/mo", "{v} {a} {t}", "{v} {t} ({a} a month)"]))
    return draw(st.sampled_from(CASINGS))(shape.format(v=verb, t=tier, a=amount))


@settings(max_examples=300, deadline=None)
@given(choosing_labels())
def test_choosing_something_for_a_price_is_consequential(label: str) -> None:
    """ "Select plan $9.99" was judged harmless because "select" leads it: a price in a control's own name is
    spending unless the control plainly only adds, shows, filters or removes (issue 35, item 3)."""
    assert says_consequential(label), label


def test_viewing_a_priced_plan_only_shows_it() -> None:
    """Kept harmless, as documented (docs/safety.md): "View $50 plan" shows the plan; choosing it counts."""
    assert not says_consequential("View $50 plan") and not says_consequential("Show the $9.99 plan")
    assert says_consequential("Select the $50 plan")


@pytest.mark.parametrize("label", SPENDING)
def test_spending_is_known_by_its_meaning(label: str) -> None:
    assert says_consequential(label), label


@pytest.mark.parametrize("label", NOT_SPENDING)
def test_words_near_spending_that_spend_nothing_are_not(label: str) -> None:
    assert not says_consequential(label), label


@settings(max_examples=300, deadline=None)
@given(spending_labels())
def test_a_paying_verb_with_an_amount_anywhere_is_consequential(label: str) -> None:
    assert says_consequential(label), label


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("abcdefghij klmnop"), min_size=1, max_size=20),
    st.sampled_from(AMOUNTS),
)
def test_a_price_in_a_control_that_is_not_plainly_everyday_counts(words: str, amount: str) -> None:
    """Whatever the words around it, a control that names a price is consequential unless it plainly
    adds, shows, filters or removes: an unclear case counts as consequential."""
    label = f"{words} {amount}"
    assert says_consequential(label) or harmless(words), label


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


# -- choices and descriptions -------------------------------------------------------------------------


def test_a_price_in_the_accessible_description_counts() -> None:
    described = ControlFacts(
        found=True, name="Continue", kind="button", description="You will be charged $9.99 today"
    )
    judged = judge_control(described, "Continue")
    assert judged.consequential and judged.total_cents == 999 and "description" in judged.reason
    plain = ControlFacts(found=True, name="Continue", kind="button", description="Opens the next step")
    assert not judge_control(plain, "Continue").consequential


CHARGE_BOXES = [
    "I agree to be charged $9.99 a month", "Authorize recurring payments", "Subscribe & save",
    "Yes, bill me €5 monthly", "I authorise a one-off charge", "I accept the $2 service fee",
]  # fmt: skip
PLAIN_BOXES = [
    "I agree to the terms",
    "Save my payment details",
    "Remember me",
    "Send me offers",
    "Gift wrap",
]


@pytest.mark.parametrize("label", CHARGE_BOXES)
def test_a_box_that_agrees_to_a_charge_is_consequential(label: str) -> None:
    assert agrees_to_charge(label)
    box = ControlFacts(found=True, name=label, kind="box")
    assert judge_choice(box, label, f"ticking {label!r}").consequential
    assert judge_key("Space", box).consequential


@pytest.mark.parametrize("label", PLAIN_BOXES)
def test_a_box_that_does_not_is_not(label: str) -> None:
    box = ControlFacts(found=True, name=label, kind="box", buttons=1)
    assert not judge_choice(box, label, "ticking").consequential


def test_a_choice_whose_change_submits_is_consequential() -> None:
    select = ControlFacts(found=True, name="Plan", kind="field", change_submits=True)
    assert judge_choice(select, "Pro", "choosing").consequential
    quiet = ControlFacts(found=True, name="Plan", kind="field", buttons=1)
    assert not judge_choice(quiet, "Pro – $9.99/mo", "choosing").consequential  # the Pay button is judged
    buttonless = ControlFacts(found=True, name="Card", kind="field", fields=[Field(label="Card number")])
    assert judge_choice(buttonless, "", "typing").consequential


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(AMOUNTS),
    st.sampled_from(["Total", "Order total", "Amount due", "You pay", "Total due"]),
    st.sampled_from(["select", "box"]),
    st.sampled_from(["Pro", "Express delivery", "Yearly", "Add insurance", "Blue"]),
)
def test_a_choice_in_a_form_that_shows_a_total_is_unclear_so_consequential(
    amount: str, label: str, kind: str, choice: str
) -> None:
    """A drop-down or box in a form that shows a total with a currency, with no inline handler: a listener
    the page added may submit the form on the change, and no script can read it — an unclear case, so it
    counts (issue 35, item 3). Without a total shown, the same choice is not."""
    shown = f"Your plan {label}: {amount} Card on file"
    control = ControlFacts(
        found=True, name="Plan", kind="field" if kind == "select" else "box", select=kind == "select",
        buttons=1, region_text=shown,
    )  # fmt: skip
    judged = judge_choice(control, choice, f"choosing {choice!r}")
    assert judged.consequential and judged.total_cents == amount_cents(amount), (shown, judged)
    quiet = ControlFacts(found=True, name="Plan", kind=control.kind, select=control.select, buttons=1)
    assert not judge_choice(quiet, choice, "choosing").consequential
    text = ControlFacts(found=True, name="Note", kind="field", buttons=1, region_text=shown)
    assert not judge_choice(text, "Ring twice", "typing").consequential  # a text field is typed into


@given(
    st.sampled_from(["Pay $30.00", "Subscribe", "Buy now", "Place order", "Donate €5"]),
    st.sampled_from(["Show results", "Search", "Apply filters", "Next"]),
    st.sampled_from(["Monthly", "Gift wrap", "I agree to the terms", "Open now"]),
)
def test_enter_on_a_radio_or_box_is_judged_as_the_form_it_sends(paying: str, everyday: str, box: str) -> None:
    """Chromium sends a form on Enter in a radio or box too: the key is judged by the button it sends with,
    not by the box's own label; Enter on a box no form holds sends nothing."""
    sends = ControlFacts(found=True, name=box, kind="box", enter_submits=True, submitter=paying)
    assert judge_key("Enter", sends).consequential
    assert not judge_key(
        "Enter", ControlFacts(found=True, name=box, kind="box", enter_submits=True, submitter=everyday)
    ).consequential
    assert not judge_key("Enter", ControlFacts(found=True, name=paying, kind="box")).consequential
