"""Three reviewers of one change (2026-12-07, stop 59): the checks learnt to take a restaurant's first words as
the goal's heading ("sweet tooth: …"), a kind word after its choice ("pad thai, medium heat", "brown rice
base", "add bacon") and "a chocolate one" as a choice of the dish before; the reviewers (helper sessions,
~500 phrasings of their own) then put wrong readings to them. Those below were acted on — agreed, or the rules'
own reading taken with no question — by the change or before it; each is held now. The right readings the
change was for stand (`RIGHT`).
"""

from __future__ import annotations

import pytest

from tests.planner.test_people_named import Line, _acted

WRONG: list[tuple[str, str, list[Line]]] = [
    # a word that puts something on another dish, read as a dish (by the rules alone, no question)
    ("Bangkok Street", "bangkok street: pad thai, medium, add chicken", [("Pad Thai", 1, ("Medium",)), ("Chicken Satay", 1, ())]),
    ("Bangkok Street", "bangkok street: pad thai, medium heat, with chicken", [("Pad Thai", 1, ("Medium",)), ("Chicken Satay", 1, ())]),
    ("Green Bowl", "Green Bowl: a buddha bowl, sweet potato base", [("Buddha Bowl", 1, ()), ("Sweet Potato Fries", 1, ())]),
    ("Green Bowl", "green bowl - a buddha bowl, brown rice base, add sweet potato", [("Buddha Bowl", 1, ("Brown rice",)), ("Sweet Potato Fries", 1, ())]),
    ("Sweet Tooth Desserts", "Sweet Tooth: 2 large milkshakes, strawberry flavour please", [("Milkshake", 2, ("Large",)), ("Strawberry Cheesecake", 1, ())]),
    ("Curry Palace", "Curry Palace: butter chicken, mango heat", [("Butter Chicken", 1, ()), ("Mango Lassi", 1, ())]),
    # a choice said of some, put on all
    ("Italian Bistro", "Italian Bistro: 2 large margheritas, add bacon to one of them", [("Margherita Pizza", 2, ("Large", "Bacon"))]),
    ("Italian Bistro", "Italian Bistro: 2 large margheritas, add bacon (only one)", [("Margherita Pizza", 2, ("Large", "Bacon"))]),
    ("Poke Paradise", "Poke Paradise: 2 salmon poke bowls, brown rice base for one", [("Salmon Poke Bowl", 2, ("Brown rice",))]),
    # a choice not wanted, or not settled
    ("Italian Bistro", "Italian Bistro: a large margherita pizza, no need to add bacon", [("Margherita Pizza", 1, ("Large", "Bacon"))]),
    ("Italian Bistro", "Italian Bistro: a large margherita, add bacon?", [("Margherita Pizza", 1, ("Large", "Bacon"))]),
    ("Green Bowl", "Green Bowl: a buddha bowl - brown rice base gives me a stomach ache", [("Buddha Bowl", 1, ("Brown rice",))]),
    ("Bangkok Street", "Bangkok Street: pad thai - medium heat is too much for me", [("Pad Thai", 1, ("Medium",))]),
    # a flavour word beside another dish's name
    ("Ramen Yokocho", "ramen yokocho: tonkotsu ramen, shoyu base", [("Tonkotsu Ramen", 1, ()), ("Shoyu Ramen", 1, ())]),
    ("Sweet Tooth Desserts", "Sweet Tooth: four milkshakes (1 small, 3 large) & a vanilla ice cream pint + a chocolate one", [("Milkshake", 1, ("Small",)), ("Milkshake", 3, ("Large",)), ("Ice Cream Pint", 1, ("Vanilla",)), ("Chocolate Lava Cake", 1, ())]),
    # "the same" for others, the party counted otherwise than the words
    ("Taco Fiesta", "taco fiesta: a chicken burrito for me, mild, and for Sam and Jo the same", [("Chicken Burrito", 1, ("Mild",))]),
    ("Sushi House", "sushi house: the 3 of us each want 2 salmon nigiri and a miso soup", [("Salmon Nigiri", 2, ()), ("Miso Soup", 1, ())]),
    ("Athens Grill", "our 2 kids, Jin each want a lamb gyro from Athens Grill", [("Lamb Gyro", 2, ())]),
    ("Athens Grill", "Athens Grill: our 2 kids, me - a lamb gyro each", [("Lamb Gyro", 2, ())]),
    ("Athens Grill", "me, my 3 flatmates each want a lamb gyro from Athens Grill. Tom isn't hungry though", [("Lamb Gyro", 4, ())]),
    ("Green Bowl", "Green Bowl: me and 4 friends and some others: a kombucha each", [("Kombucha", 5, ())]),
    # the third reviewer: "me" opening another order, a count after the choice, each "to share"
    ("Taco Fiesta", "taco fiesta: 2 kids each get a chicken burrito, mild, me the nachos supreme", [("Chicken Burrito", 3, ("Mild",)), ("Nachos Supreme", 1, ())]),
    ("Taco Fiesta", "taco fiesta: a horchata each for the 3 kids, me I'm fine", [("Horchata", 4, ())]),
    ("Taco Fiesta", "taco fiesta: my 2 kids each want 2 churros, me just 1", [("Churros", 6, ())]),
    ("Italian Bistro", "Italian Bistro: 2 large margheritas, add bacon, 1 without", [("Margherita Pizza", 2, ("Large", "Bacon"))]),
    ("Green Bowl", "Green Bowl: 2 buddha bowls, brown rice base, one white", [("Buddha Bowl", 2, ("Brown rice",))]),
    ("Bangkok Street", "Bangkok Street: a pad thai, mild heat, one more", [("Pad Thai", 1, ("Mild",))]),
    ("Bangkok Street", "Bangkok Street: 2 pad thai, medium heat, one without peanuts", [("Pad Thai", 2, ("Medium",))]),
    ("Sushi House", "sushi house: the 3 of us each get 2 salmon nigiri to share", [("Salmon Nigiri", 6, ())]),
    ("Burger Barn", "Burger Barn: 2 classic smash burgers and a bacon one", [("Classic Smash Burger", 2, ("Bacon",))]),
    ("Sweet Tooth Desserts", "sweet tooth - cheesecake? no, 2 chocolate lava cakes", [("Strawberry Cheesecake", 1, ()), ("Chocolate Lava Cake", 2, ())]),
    ("Italian Bistro", "Italian Bistro: 4 large margheritas, bacon on a couple", [("Margherita Pizza", 4, ("Large", "Bacon"))]),
    ("Italian Bistro", "Italian Bistro: 2 large margheritas, add bacon to the second one", [("Margherita Pizza", 2, ("Large", "Bacon"))]),
]  # fmt: skip

RIGHT: list[tuple[str, str, list[Line]]] = [
    ("Sweet Tooth Desserts", "sweet tooth: one cookie box and 2 red velvet cupcakes", [("Cookie Box (6)", 1, ()), ("Red Velvet Cupcake", 2, ())]),
    ("Bangkok Street", "Bangkok Street: massaman curry — go hot on that — plus pad thai, medium heat, and a coconut water", [("Massaman Curry", 1, ("Hot",)), ("Pad Thai", 1, ("Medium",)), ("Coconut Water", 1, ())]),
    ("Italian Bistro", "Italian Bistro: large margherita, add bacon", [("Margherita Pizza", 1, ("Large", "Bacon"))]),
    ("Poke Paradise", "Poke Paradise: ahi tuna poke bowl, brown rice base; salmon poke bowl, also brown rice; and a haupia", [("Ahi Tuna Poke Bowl", 1, ("Brown rice",)), ("Salmon Poke Bowl", 1, ("Brown rice",)), ("Haupia", 1, ())]),
    ("Sushi House", "sushi house: the 3 of us each want 2 salmon nigiri and a miso soup", [("Salmon Nigiri", 6, ()), ("Miso Soup", 3, ())]),
    ("Athens Grill", "Athens Grill: our 2 kids, me - a lamb gyro each", [("Lamb Gyro", 3, ())]),
    ("Italian Bistro", "Italian Bistro: large margherita, add bacon, and a tiramisu", [("Margherita Pizza", 1, ("Large", "Bacon")), ("Tiramisu", 1, ())]),
    ("Bangkok Street", "Bangkok Street: pad thai, medium heat, 2 thai iced teas", [("Pad Thai", 1, ("Medium",)), ("Thai Iced Tea", 2, ())]),
]  # fmt: skip


def _counts(lines: list[Line]) -> dict[tuple[str, frozenset[str]], int]:
    found: dict[tuple[str, frozenset[str]], int] = {}
    for dish, n, choices in lines:
        found[(dish, frozenset(choices))] = found.get((dish, frozenset(choices)), 0) + n
    return found


@pytest.mark.parametrize(("restaurant", "goal", "lines"), WRONG)
def test_a_wrong_reading_the_reviewers_had_acted_on_is_held(
    restaurant: str, goal: str, lines: list[Line]
) -> None:
    acted = _acted(restaurant, goal, lines)
    assert acted is None or dict(acted.counts()) != _counts(lines), goal


@pytest.mark.parametrize(("restaurant", "goal", "lines"), RIGHT)
def test_the_readings_the_change_was_for_are_acted_on(restaurant: str, goal: str, lines: list[Line]) -> None:
    acted = _acted(restaurant, goal, lines)
    assert acted is not None and dict(acted.counts()) == _counts(lines), goal
