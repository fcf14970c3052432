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


@pytest.mark.parametrize("name", ["Send request", "Register"])
def test_a_button_that_does_not_submit_sends_nothing(name: str) -> None:
    # a button of type="button" runs the page's script: what it does cannot be told from the form alone,
    # and a step of a wizard is written so; only a press that sends the form is held here
    assert not judge_control(form(name, PERSONAL[:2], submits=False), name).consequential


def test_enter_in_such_a_form_is_judged_by_the_button_it_sends_with() -> None:
    field = ControlFacts(found=True, name="Send request", kind="field", submits=True, fields=PERSONAL[:1])
    judged = judge_key("Enter", field)
    assert judged.consequential and "would send a form that holds a name" in judged.reason, judged.reason
    step = ControlFacts(found=True, name="Next", kind="field", submits=True, fields=PERSONAL[:1])
    assert not judge_key("Enter", step).consequential
