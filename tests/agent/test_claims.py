"""A finish "done" on a page with no order of its own, against a form the run filled in and never sent
(webagent/agent/claims.py): refused outright while a required field is empty, once while the form is
complete but unsent; a press that went through, or a failed one, told apart by the tools' own words."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from webagent.agent.claims import NOT_SENT, unsent_form
from webagent.narration.state import PageState

FORM = PageState(view="unknown", title="News", form=["Email * (filled)", "How often * (filled)"])
HALF = PageState(
    view="unknown", title="News", form=["Email * (filled)", "How often * (choices: Monthly|Weekly)"]
)


def turn(n: int, name: str, said: str) -> list[dict[str, Any]]:
    arguments = '{"key": "Enter"}' if name == "press_key" else "{}"
    call = {"id": f"c{n}", "type": "function", "function": {"name": name, "arguments": arguments}}
    return [
        {"role": "assistant", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"c{n}", "content": said},
    ]


def run(*steps: tuple[str, str]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "…"}, {"role": "user", "content": "goal"}]
    for n, (name, said) in enumerate(steps):
        messages += turn(n, name, said)
    return messages


FILLED = ("fill_field", 'Filled "Email" with "ada@example.com".')
CHOSEN = ("choose_option", 'Chose "Weekly" in "How often".')
PRESSED = ("press", 'Pressed "Subscribe". Notice: "Thanks!".')
MISSED = ("press", 'No button or link called "Submit" on the page. Did you mean "Subscribe"?')
ASKED = ("ask_human", 'The person answered: "y"')


def test_a_required_field_left_empty_is_named_once() -> None:
    # once: the page's form list is the whole page's, and the empty field may be another form's (a
    # reviewer's case: a search box filled, a newsletter's required email in the footer)
    first = unsent_form(HALF, run(FILLED, ASKED))
    assert first is not None and first.startswith(NOT_SENT) and '"How often" is still empty' in first
    assert unsent_form(HALF, run(FILLED, ASKED, ("finish", first))) is None


def test_a_complete_form_not_sent_refuses_done_once() -> None:
    first = unsent_form(FORM, run(FILLED, CHOSEN))
    assert first is not None and "nothing was pressed after it was filled in" in first
    assert unsent_form(FORM, run(FILLED, CHOSEN, ("finish", first))) is None  # "only fill it in": it stands


def test_a_refusal_about_an_earlier_state_of_the_form_does_not_count_once_it_is_filled_further() -> None:
    empty = unsent_form(HALF, run(FILLED))
    assert empty is not None
    assert unsent_form(FORM, run(FILLED, ("finish", empty), CHOSEN)) is not None


def test_a_press_tried_settles_it_and_a_fill_that_did_not_take_fills_nothing() -> None:
    # what came of a press (sent, missed, declined by the person) is in its narration: finishing after it is
    # the model's to word; the refusal is for a model that never tried
    assert unsent_form(FORM, run(FILLED, CHOSEN, PRESSED)) is None
    assert unsent_form(FORM, run(FILLED, CHOSEN, MISSED)) is None
    assert (
        unsent_form(FORM, run(FILLED, ("press_key", "Not placed: the approval policy denies orders.")))
        is None
    )
    tab = [{"role": "assistant", "tool_calls": [{"id": "k", "function": {"name": "press_key", "arguments": '{"key": "Tab"}'}}]},
           {"role": "tool", "tool_call_id": "k", "content": "Pressed Tab."}]  # fmt: skip
    assert unsent_form(FORM, [*run(FILLED), *tab]) is not None  # Tab sends nothing
    said = ("fill_field", 'Filled "Message" with "I\'d love to come, but only Friday".')
    assert unsent_form(FORM, run(said)) is not None  # ", but" in the person's words is no put-back
    put_back = ("choose_option", 'Chose "Large", but "Size" now shows "Pick one".')
    refused_card = ("fill_field", "Card details are the person's to type: nothing was typed.")
    assert unsent_form(FORM, run(put_back)) is None and unsent_form(FORM, run(refused_card)) is None


def test_a_form_in_a_dialog_is_a_form_on_the_page() -> None:
    """A dialog's fields are the dialog's (the generic reader names the dialog, not its fields)."""
    dialog = PageState(view="unknown", title="Help", dialogs=["Contact us"])
    first = unsent_form(dialog, run(("fill_field", 'Filled "Your message" with "Where is my order?".')))
    assert first is not None and "nothing was pressed after it was filled in" in first


def test_no_fill_no_form_or_the_demo_shop_are_not_its_business() -> None:
    assert unsent_form(FORM, run(ASKED)) is None
    assert unsent_form(PageState(view="unknown", title="Article"), run(FILLED)) is None
    assert unsent_form(PageState(view="checkout", form=["Name *"]), run(FILLED)) is None


@given(st.lists(st.sampled_from([FILLED, CHOSEN, PRESSED, MISSED, ASKED]), max_size=8))
def test_done_is_refused_only_after_a_fill_with_nothing_sent_since(steps: list[tuple[str, str]]) -> None:
    last_send = max((i for i, (name, _) in enumerate(steps) if name == "press"), default=-1)
    filled_since = any(name in ("fill_field", "choose_option") for name, _ in steps[last_send + 1 :])
    assert (unsent_form(FORM, run(*steps)) is not None) == filled_since, steps
