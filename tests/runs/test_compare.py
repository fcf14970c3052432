"""What a replay compares: narrations written by the real `narrate`, with and without popups.

Properties: popups (dismissed overlays on the ``Page:`` line, the shop's breadcrumbs about them) and a
busy shop, added to or taken from a narration, never make a divergence — they are notes; a change to the
result sentence always does, except where it is a time of day or an order number.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from webagent.narration.narrate import Narration, narrate, quote, read_narration, shop_busy
from webagent.narration.said import placed
from webagent.narration.state import PageState
from webagent.runs.compare import Order, compare_step, facts
from webagent.tools.toolbox import glance

PAGE = PageState(view="restaurant", restaurant="Italian Bistro", cart_count=2, cart_subtotal_cents=1500)
SAID = 'Added 2 × "Tiramisu" — cart now 2 items, $15.00.'
ACTION = "@action: added 2 × Tiramisu to the cart — cart 2 items, $15.00 at 10:10:29"
KNOWN = ["the newsletter popup", "a promotion toast", "the cookie banner", "the app download bar"]

words = st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters='"\\'), max_size=30)
labels = st.one_of(
    st.sampled_from(KNOWN),
    st.builds(lambda title, button: f"a dialog {quote(title, 60)} with {quote(button, 40)}", words, words),
)
popup_crumbs = st.lists(
    st.sampled_from(
        ["dismissed newsletter popup", "closed promotion", "minimized chat", "dismissed app banner"]
    ),
    max_size=3,
).map(lambda crumbs: [f"@action: {crumb} at 10:10:2{n}" for n, crumb in enumerate(crumbs)])
busy = st.none() | st.builds(shop_busy, words, st.integers(1, 3))


def told(said: str, dismissed: list[str], crumbs: list[str], busy_line: str | None) -> str:
    return narrate(
        Narration(
            said=said if busy_line is None else f"{said}\n{busy_line}",
            after=PAGE,
            breadcrumbs=[*crumbs, ACTION],
            dismissed=dismissed,
            possible=["add_to_cart", "go_to_checkout"],
        )
    )


@given(st.lists(labels, max_size=3), popup_crumbs, busy, st.lists(labels, max_size=3), popup_crumbs, busy)
def test_popups_that_came_or_did_not_are_notes_never_divergences(
    then: list[str],
    crumbs_then: list[str],
    busy_then: str | None,
    now: list[str],
    crumbs_now: list[str],
    busy_now: str | None,
) -> None:
    compared = compare_step(told(SAID, then, crumbs_then, busy_then), told(SAID, now, crumbs_now, busy_now))
    assert not compared.diverged
    assert compared.expected == compared.got == SAID
    noted = " ".join(compared.notes)
    for label in {*then} ^ {*now}:
        assert label in noted
    assert bool(compared.notes) == ({*then} != {*now} or (busy_then is None) != (busy_now is None))


@given(words.filter(str.strip), st.lists(labels, max_size=2), popup_crumbs, st.lists(labels, max_size=2))
def test_a_changed_result_sentence_always_diverges(
    extra: str, then: list[str], crumbs: list[str], now: list[str]
) -> None:
    changed = f"{SAID} {extra.strip()}"
    compared = compare_step(told(SAID, then, crumbs, None), told(changed, now, [], None))
    assert compared.diverged
    assert (compared.expected, compared.got) == (SAID, changed)


@given(st.integers(1, 9999), st.integers(1, 9999), st.lists(labels, max_size=2))
def test_order_numbers_and_times_are_masked(first: int, second: int, popups: list[str]) -> None:
    def confirmation(number: int, at: str) -> str:
        said = placed(number, 1874, ["2 × Tiramisu"]).said + f" Placed at {at}."
        return told(said, popups, [], None)

    assert not compare_step(confirmation(first, "10:10:29"), confirmation(second, "11:02:03")).diverged
    cheaper = told(placed(first, 1774, ["2 × Tiramisu"]).said, [], [], None)
    assert compare_step(confirmation(first, "10:10:29"), cheaper).diverged


def test_a_price_change_diverges_and_the_popup_is_a_note() -> None:
    recorded = told(SAID, ["the newsletter popup"], ["@action: dismissed newsletter popup at 10:10:29"], None)
    dearer = told('Added 2 × "Tiramisu" — cart now 2 items, $16.00.', [], [], None)
    compared = compare_step(recorded, dearer)
    assert compared.diverged and compared.got.endswith("$16.00.")
    assert compared.notes == (
        "the newsletter popup came in the recorded run only (dismissed there), not in the replay",
    )


def test_read_narration_takes_apart_what_narrate_wrote() -> None:
    text = told(SAID, ["the newsletter popup", 'a dialog "Hi, there" with "Close"'], [], shop_busy("503", 2))
    parts = read_narration(text)
    assert parts.said == (SAID,)
    assert parts.busy == 'The shop was busy ("503"); tried again 2 times.'
    assert parts.breadcrumbs == (ACTION,)
    assert parts.dismissed == ("the newsletter popup", 'a dialog "Hi, there" with "Close"')
    assert parts.page == 'Page: "Italian Bistro" menu · cart 2 items $15.00'
    assert read_narration("Run finished.").said == ("Run finished.",)


def test_an_order_is_compared_by_total_and_lines_not_number() -> None:
    text = told(placed(1, 1874, ["2 × Tiramisu"]).said, [], [], None)
    first = Order.from_result(text, 1, 1874)
    assert first == Order(True, 1, 1874, ("2 × Tiramisu",))
    assert first.same_as(Order(True, 7, 1874, ("2 × Tiramisu",)))
    assert not first.same_as(Order(True, 7, 1874, ("3 × Tiramisu",)))
    assert not first.same_as(Order(placed=False))
    assert Order.from_result(text, None, None) == Order(placed=False)


# -- typed facts (issue 35, item 4): what a call did, recorded beside its sentence -------------------------


def recorded(page: PageState, **changes: object) -> dict[str, object]:
    """A tool event's typed fields, as the loop writes them (`ToolResult.recorded`)."""
    fields: dict[str, object] = {
        "ok": True, "refused": False, "refusal": "", "order_id": None, "total_cents": None, "page": glance(page),
    }  # fmt: skip
    return {**fields, **changes}


@given(words.filter(str.strip), st.lists(labels, max_size=2), st.lists(labels, max_size=2))
def test_the_same_facts_worded_otherwise_are_a_note(extra: str, then: list[str], now: list[str]) -> None:
    facts_then, facts_now = facts(recorded(PAGE)), facts(recorded(PAGE))
    changed = f"{SAID} {extra.strip()}"
    compared = compare_step(told(SAID, then, [], None), told(changed, now, [], None), facts_then, facts_now)
    assert not compared.diverged
    assert any(note.startswith("the result reads otherwise") for note in compared.notes)


@given(
    st.sampled_from(
        [
            {"cart_count": 3},
            {"cart_subtotal_cents": 1600},
            {"view": "checkout"},
            {"restaurant": "Taco Fiesta"},
        ]
    ),
    st.lists(labels, max_size=2),
)
def test_other_facts_diverge_however_the_result_is_worded(
    change: dict[str, object], popups: list[str]
) -> None:
    text = told(SAID, popups, [], None)
    now = facts(recorded(PAGE.model_copy(update=change)))
    assert compare_step(text, text, facts(recorded(PAGE)), now).diverged
    for key, value in (("ok", False), ("refused", True), ("total_cents", 1874)):
        assert compare_step(text, text, facts(recorded(PAGE)), facts(recorded(PAGE, **{key: value}))).diverged


@given(st.integers(1, 9999), st.integers(1, 9999))
def test_an_order_number_is_never_compared(first: int, second: int) -> None:
    text = told(placed(first, 1874, ["2 × Tiramisu"]).said, [], [], None)
    other = told(placed(second, 1874, ["2 × Tiramisu"]).said, [], [], None)
    then, now = facts(recorded(PAGE, order_id=first)), facts(recorded(PAGE, order_id=second))
    assert not compare_step(text, other, then, now).diverged
    assert compare_step(text, other, then, facts(recorded(PAGE))).diverged  # placed against not placed


def test_a_recording_without_typed_facts_has_none() -> None:
    assert facts({"ok": True, "narration": SAID}) is None
