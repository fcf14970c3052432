"""The question the planner asks about a popup it cannot get past (the browser side: tests/e2e/test_obstructions.py)."""

from __future__ import annotations

from webagent.planner.popups import popup_question


def test_a_popup_with_only_accepting_buttons_names_them() -> None:
    question = popup_question("Stay updated", ["Allow notifications", "Join now"])
    assert question == (
        'A popup "Stay updated" blocks the page and offers only "Allow notifications", "Join now". '
        "Which should I press, or should I stop?"
    )


def test_a_popup_without_buttons_is_asked_about_sensibly() -> None:
    # Seen on main: "A popup blocks the page and offers only no buttons. Which should I press, …"
    for title in ("", "Members only"):
        question = popup_question(title, [])
        assert "no buttons" not in question and "Which should I press" not in question
        assert question.endswith("has no button I could press to get past it. Should I stop?")
    assert popup_question("Members only", []).startswith('A popup "Members only" blocks the page')
