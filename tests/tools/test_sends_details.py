"""A press that sends the person's own details off — a form holding their name, email, phone, address or a
message, sent by a button that submits it ("Send request", "Register", "Apply now") — is consequential:
anything that submits for the person passes the gate. A step of a form ("Next", "Continue"), a coupon, a
search and going back are not; nor is sending a form that holds nothing of theirs.

The names and fields below were written before the recogniser (the any-page site's first test sent a
waiting-list request under ``--approve deny``: tests/sites/test_any_page_site.py).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webagent.tools.consequence import ControlFacts, Field, judge_control, judge_key

SENDING = [
    "Send request", "Send", "Submit", "Send message", "Submit application", "Apply now", "Apply for this job",
    "Register", "Register now", "Sign up", "Sign me up", "Join the waiting list", "Join", "Request a callback",
    "Request quote", "Post comment", "Publish", "Enrol", "Enroll now", "RSVP", "Reserve my place",
    "Create account", "Create my account", "Complete registration", "Finish registration", "Save and submit",
    "Submit form", "Send enquiry", "Send inquiry", "Get in touch", "Contact us", "Absenden", "Senden",
    "Envoyer", "Enviar", "Invia", "Verzenden", "S'inscrire", "Registrieren",
]  # fmt: skip
STEPS = [
    "Next", "Continue", "Back", "Previous", "Apply coupon", "Apply promo code", "Search", "Find tables",
    "Check availability", "Preview", "Clear form", "Cancel", "Add another", "Show password", "Upload photo",
    "Save draft", "Edit", "Next step", "Go back", "Reset",
]  # fmt: skip
PERSONAL = [
    Field(name="name", label="Full name"),
    Field(autocomplete="email", type="email", label="Email"),
    Field(autocomplete="tel", type="tel", label="Phone"),
    Field(name="street", label="Street address"),
    Field(name="postcode", label="Postcode"),
    Field(name="message", label="Your message"),
    Field(autocomplete="given-name", label="First name"),
    Field(name="dob", label="Date of birth"),
]
NOT_PERSONAL = [
    Field(name="q", type="search", label="Search"),
    Field(name="size", label="Plot size"),
    Field(name="guests", type="number", label="Guests"),
    Field(name="when", type="date", label="Date"),
]


def form(name: str, fields: list[Field], *, submits: bool = True) -> ControlFacts:
    return ControlFacts(found=True, name=name, kind="button", submits=submits, buttons=2, fields=fields)


@given(name=st.sampled_from(SENDING), held=st.lists(st.sampled_from(PERSONAL), min_size=1, max_size=3))
def test_sending_a_form_of_the_persons_details_is_consequential(name: str, held: list[Field]) -> None:
    judged = judge_control(form(name, [*held, *NOT_PERSONAL[:1]]), name)
    assert judged.consequential, (name, held)
    assert "sends a form that holds" in judged.reason or "its name says" in judged.reason, judged.reason


@given(name=st.sampled_from(STEPS), held=st.lists(st.sampled_from(PERSONAL), max_size=3))
def test_a_step_a_coupon_or_a_search_is_not(name: str, held: list[Field]) -> None:
    assert not judge_control(form(name, held), name).consequential, (name, held)


@pytest.mark.parametrize("name", SENDING[:6])
def test_a_form_holding_nothing_of_the_persons_is_not_sent_for_them(name: str) -> None:
    judged = judge_control(form(name, NOT_PERSONAL), name)
    assert not judged.consequential or "its name says" in judged.reason, judged.reason


def test_enter_in_such_a_form_is_judged_by_the_button_it_sends_with() -> None:
    field = ControlFacts(found=True, name="Send request", kind="field", submits=True, fields=PERSONAL[:1])
    judged = judge_key("Enter", field)
    assert judged.consequential and "would send a form that holds a name" in judged.reason, judged.reason
    step = ControlFacts(found=True, name="Next", kind="field", submits=True, fields=PERSONAL[:1])
    assert not judge_key("Enter", step).consequential


# -- a reviewer's cases (helper-20), written against the first version ----------------------------------

MORE_SENDING = [
    "Confirm registration", "Enquire now", "Get a quote", "Notify me", "Count me in", "Reply", "Leave a review",
    "Start application", "Please submit", "Yes — send", "Yes - send", "Yes please, sign me up", "OK, submit",
    "Nachricht senden", "Anfrage senden", "Jetzt registrieren", "Jetzt absenden", "Registrarse", "Iscriviti",
    "Inschrijven", "Je m'inscris", "Отправить", "送信", "Sign up for promo emails",
    "Sign up for exclusive discounts", "Submit request", "Send it",
]  # fmt: skip
MORE_EVERYDAY = [
    "Submit search", "Request password reset", "Send reset link", "Send magic link", "Send OTP", "Send code",
    "Sign in", "Log in", "Apply", "Redeem code", "Verify code", "Find my address",
]  # fmt: skip
MORE_PERSONAL = [
    Field(name="billing_first_name"), Field(name="customer_last_name"), Field(name="fname"),
    Field(name="lname"), Field(type="email", name="x1"), Field(type="tel", name="x2"),
    Field(label="Guest name"), Field(label="Contact name"), Field(autocomplete="tel-national"),
    Field(autocomplete="address-line2"), Field(label="Vorname"), Field(label="Nachname"),
    Field(label="Correo electrónico"), Field(label="E\u2011mail"), Field(name="dob_day"),
]  # fmt: skip
NOT_PERSONAL_EITHER = [
    Field(label="Company name"), Field(label="Username"), Field(label="Promo code"),
    Field(label="Name your playlist"), Field(label="IP address"), Field(label="Website address"),
    Field(label="City"), Field(type="hidden", name="email"),
]  # fmt: skip


@given(name=st.sampled_from(MORE_SENDING), held=st.sampled_from(PERSONAL))
def test_more_ways_of_sending_are_held(name: str, held: Field) -> None:
    assert judge_control(form(name, [held]), name).consequential, name


@given(name=st.sampled_from(MORE_EVERYDAY), held=st.lists(st.sampled_from(PERSONAL), max_size=3))
def test_more_everyday_names_are_not(name: str, held: list[Field]) -> None:
    assert not judge_control(form(name, held), name).consequential, (name, held)


@pytest.mark.parametrize("field", MORE_PERSONAL, ids=lambda f: f.name or f.label or f.type or f.autocomplete)
def test_more_personal_fields_are_seen(field: Field) -> None:
    assert judge_control(form("Send request", [field]), "Send request").consequential, field


@pytest.mark.parametrize("field", NOT_PERSONAL_EITHER, ids=lambda f: f.label or f.name)
def test_fields_that_are_not_the_persons_are_not(field: Field) -> None:
    assert not judge_control(form("Send request", [field]), "Send request").consequential, field


def test_a_form_sent_by_script_is_held_too() -> None:
    # <button type="button"> in a div "form" a page's script sends (React and friends): not a native submit
    facts = ControlFacts(found=True, name="Send request", kind="button", submits=False, fields=PERSONAL[:2])
    assert judge_control(facts, "Send request").consequential


def test_enter_in_a_one_field_form_of_the_persons_with_no_button_is_held() -> None:
    facts = ControlFacts(found=True, name="", kind="field", submits=True, fields=[PERSONAL[1]])
    assert judge_key("Enter", facts).consequential
    search = ControlFacts(found=True, name="", kind="field", submits=True, fields=[NOT_PERSONAL[0]])
    assert not judge_key("Enter", search).consequential
