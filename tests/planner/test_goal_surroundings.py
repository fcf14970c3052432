"""Words around an order — greetings, people's names, recipients, sign-offs and notes for the courier —
change nothing in what is ordered (issue 20).

A goal composed from the catalog (test_goal_properties.goals) is wrapped in words a person writes
around an order; the reading must be the composed order, nothing asked about, the name read as the
delivery name and the note kept for the courier. The names, relations and notes are written here, not
taken from the reader's word lists.
"""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from tests.planner.test_goal_properties import CATALOG, PROPERTY, RESTAURANTS, Composed, goals
from webagent.planner import read_goal
from webagent.planner.menu import Menu

FIRST = ["Maren", "Tobias", "Chidi", "Aurélie", "Kwame", "Inès", "Rafael", "Sunita", "Mateo", "Yuki",
         "Oksana", "Dmitri", "Leilani", "Fatima", "Bjørn", "Siobhan", "Thanh", "Ngozi", "Pablo", "Astrid"]  # fmt: skip
LAST = ["Okafor", "Lindqvist", "Moreau", "Haddad", "Kowalski", "Nakamura", "Ferreira", "Abara",
        "Castellanos", "Van der Berg", "O'Neill", "MacLeod", "Nguyen", "Petrov", "Søndergaard"]  # fmt: skip
RELATIONS = ["mum", "dad", "colleague", "friend", "neighbour", "grandma", "flatmate", "boss", "sister"]
GREETINGS = ["Hi there! ", "Hello, ", "Good evening! ", "Hey! ", "Morning, ", ""]
NOTES = ["leave it with the neighbour", "ring the bell twice", "gate code 4411, second floor",
         "call me when you're outside", "leave it on the porch please", "knock softly, the baby is asleep",
         "leave the bag by the blue door", "don't ring, just text me"]  # fmt: skip


@st.composite
def surrounded(draw: st.DrawFn) -> tuple[Composed, str, str | None, str | None]:
    """(the composed order, the goal with words around it, the name it gives, the note it gives)."""
    composed = draw(goals())
    assume("name" not in composed.details)
    first = draw(st.sampled_from(FIRST))
    name = first + (f" {draw(st.sampled_from(LAST))}" if draw(st.booleans()) else "")
    relation = draw(st.sampled_from(RELATIONS))
    how = draw(st.sampled_from(["none", "sign-off", "recipient", "intro"]))
    greeting = draw(st.sampled_from(GREETINGS))
    body = composed.goal.rstrip(".!")
    note = draw(st.sampled_from([None, *NOTES]))
    if how == "intro":
        greeting += draw(st.sampled_from(["This is {}. ", "it's {} here, ", "My name is {}. "])).format(name)
    if how == "recipient":
        body += draw(
            st.sampled_from(
                [f". Please send it to {name}", f", it's for my {relation}, {name}", f". Deliver to {name}"]
            )
        )
    if note:
        body += draw(st.sampled_from([", ", ". ", ". Please "])) + note
    if how == "sign-off":
        body += draw(st.sampled_from([". Thanks, {}", ". Cheers, {}", "\n\nBest,\n{}", ". Many thanks! - {}",
                                      ", thanks so much, {}", ". Ta, {}"])).format(name)  # fmt: skip
    return composed, greeting + body, (None if how == "none" else name), note


@PROPERTY
@given(surrounded())
def test_words_around_an_order_change_nothing_in_it(
    example: tuple[Composed, str, str | None, str | None],
) -> None:
    composed, goal, name, note = example
    first = read_goal(goal, RESTAURANTS)
    assert first.restaurant is not None and first.restaurant.name == composed.restaurant, goal
    menu = Menu.from_catalog(next(r for r in CATALOG["restaurants"] if r["name"] == composed.restaurant))
    reading = read_goal(goal, RESTAURANTS, menu)
    got = sorted((item.dish, item.quantity, frozenset(item.options)) for item in reading.items)
    assert got == sorted(composed.items), goal
    assert [u.words.text for u in reading.unclear] == [], goal
    spec = reading.spec
    assert spec.name == name, goal
    assert (
        (note.split(",")[0].removesuffix(" please") in (spec.delivery_note or ""))
        if note
        else not spec.delivery_note
    ), goal
    for detail, value in composed.details.items():
        assert reading.details[detail].value == value, (detail, goal)
