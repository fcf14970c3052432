"""Right readings the checks asked about (the corpus, 2026-12-06): a dish swapped away by a word of its name
("… a belgian waffle instead of the pancakes"), and a party whose people are counted per dish ("8 kids, one
cupcake each, plus a lava cake for each of the 2 parents"). The properties draw the dishes and numbers over
every restaurant; what must still be asked is beside each.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.planner.test_reading import USABLE, plain_dishes
from tests.planner.test_third_review import RESTAURANTS, W, agreement


def _last_word(dish: str) -> str:
    return dish.split()[-1].lower()


def _three_with_own_word(restaurant: str, data: st.DataObject) -> tuple[str, str, str]:
    """Three dishes, the first with a last word no other of the three has."""
    a, b, c = data.draw(
        st.lists(st.sampled_from(plain_dishes(RESTAURANTS[restaurant])), min_size=3, max_size=3, unique=True)
    )
    word = _last_word(a)
    if len(word) <= 3 or not word.isalpha() or any(word in o.lower() for o in (b, c)):
        data.draw(st.nothing())
    return a, b, c


@settings(max_examples=60, suppress_health_check=[HealthCheck.filter_too_much], deadline=None)
@given(st.sampled_from(USABLE), st.data())
def test_a_dish_swapped_away_by_a_word_of_its_name_is_out(restaurant: str, data: st.DataObject) -> None:
    """ "a A and a B. actually, a C instead of the <A's last word>": A out, C in — agreed; keeping A too, or
    leaving out B, is not."""
    a, b, c = _three_with_own_word(restaurant, data)
    goal = f"{restaurant}: a {a.lower()} and a {b.lower()}. Actually, a {c.lower()} instead of the {_last_word(a)}."
    right = agreement(goal, restaurant, (W(c), W(b)))
    assert right.verdict == "agreed", (goal, right.why)
    for wrong in ((W(a), W(b), W(c)), (W(c),), (W(a), W(b))):
        found = agreement(goal, restaurant, wrong)
        assert found.verdict == "differ", (goal, wrong)


def test_a_word_two_ordered_dishes_share_points_to_neither() -> None:
    """ "instead of the pancakes" with two pancakes ordered: which one goes is not read — asked."""
    goal = "pancake house: blueberry pancakes and buttermilk pancakes. Actually a belgian waffle instead of the pancakes"
    for kept in ("Blueberry Pancakes", "Buttermilk Pancakes"):
        found = agreement(goal, "Pancake House", (W(kept), W("Belgian Waffle")))
        assert found.verdict == "differ", (kept, found.why)


def test_a_condition_does_not_swap_away() -> None:
    goal = "pancake house: blueberry pancakes and a hot chocolate, if sold out a belgian waffle instead of the pancakes"
    found = agreement(goal, "Pancake House", (W("Belgian Waffle"), W("Hot Chocolate")))
    assert found.verdict == "differ", found.why


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(USABLE),
    st.integers(min_value=3, max_value=12),
    st.integers(min_value=2, max_value=4),
    st.sampled_from(["kids", "children", "friends"]),
    st.sampled_from(["parents", "adults", "grown-ups"]),
    st.data(),
)
def test_people_another_dish_is_for_are_not_counted_twice(
    restaurant: str, kids: int, adults: int, young: str, grown: str, data: st.DataObject
) -> None:
    """ "N kids, one A each, plus a B for each of the M parents": N of A and M of B; N + M of A is asked."""
    a, b = data.draw(
        st.lists(st.sampled_from(plain_dishes(RESTAURANTS[restaurant])), min_size=2, max_size=2, unique=True)
    )
    if kids == adults:
        return
    goal = f"{restaurant}: {kids} {young}, one {a.lower()} each, plus a {b.lower()} for each of the {adults} {grown}"
    right = agreement(goal, restaurant, (W(a, kids), W(b, adults)))
    assert right.verdict == "agreed", (goal, right.why)
    for wrong in ((W(a, kids + adults), W(b, adults)), (W(a, kids), W(b, kids)), (W(a, 1), W(b, adults))):
        assert agreement(goal, restaurant, wrong).verdict == "differ", (goal, wrong)


def test_two_numbers_of_people_with_no_dish_of_their_own_are_still_asked() -> None:
    """ "8 kids and 2 parents, a cupcake each": 10 or 8? Not read."""
    goal = "sweet tooth desserts: 8 kids and 2 parents, one red velvet cupcake each, plus a chocolate lava cake for each of the 2 parents"
    for n in (8, 10):
        found = agreement(
            goal, "Sweet Tooth Desserts", (W("Red Velvet Cupcake", n), W("Chocolate Lava Cake", 2))
        )
        assert found.verdict == "differ", (n, found.why)
