"""Which overlay control declines and which accepts: the words the obstruction handler trusts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webagent.narration.consent import accepts, decline_control, declines, neutral_control

# Written for this test, not taken from the module: how real sites word their popups' buttons.
DECLINING = [
    "×", "✕", "Close", "Close dialog", "Close this window", "Dismiss", "Dismiss banner", "No thanks",
    "No, thanks", "Not now", "Maybe later", "Remind me later", "Skip", "Skip for now", "I'll pass",
    "Reject non-essential", "Reject all", "Decline", "Continue without accepting", "Don't allow",
    "Minimize chat", "Not interested", "Hide",
]  # fmt: skip
ACCEPTING = [
    "Accept all", "Accept", "I agree", "Agree and continue", "Allow notifications", "Subscribe",
    "Sign me up", "Yes, sign me up", "Join now", "Take the survey", "Answer survey", "Get the app",
    "Open in app", "Claim my discount", "Send", "Enable", "OK", "Got it", "Continue", "Turn on notifications",
    "Install", "Log in", "Register", "Share my location",
]  # fmt: skip


@pytest.mark.parametrize("name", DECLINING)
def test_decline_words_decline(name: str) -> None:
    assert declines(name) and not accepts(name)


@pytest.mark.parametrize("name", ACCEPTING)
def test_accepting_words_are_never_taken_for_a_decline(name: str) -> None:
    assert accepts(name) and not declines(name)


@pytest.mark.parametrize("name", ["No, subscribe me", "Close and accept all", "Skip and join"])
def test_a_control_that_says_both_is_not_a_decline(name: str) -> None:
    assert not declines(name)


@given(
    st.lists(st.sampled_from(ACCEPTING), max_size=4),
    st.lists(st.sampled_from(DECLINING), max_size=3),
    st.randoms(),
)
def test_the_chosen_control_never_accepts(accepting: list[str], declining: list[str], rnd: object) -> None:
    names = accepting + declining
    rnd.shuffle(names)  # type: ignore[attr-defined]
    choice = decline_control(names)
    if declining:
        assert choice is not None and choice in declining
    else:
        assert choice is None


def test_a_close_icon_wins_over_a_worded_decline() -> None:
    assert decline_control(["Maybe later", "Subscribe", "Close"]) == "Close"


def test_neutral_only_when_clear_cut() -> None:
    assert neutral_control(["I'm still here"]) == "I'm still here"
    assert neutral_control(["Allow notifications"]) is None
    assert neutral_control(["Red", "Blue"]) is None
