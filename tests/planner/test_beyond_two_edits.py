"""Wrong readings further than two edits from the rules' own, which an adversary found the checks agreed to
after the sweep of tests/planner/test_edited_readings.py (2026-12-07), and a property over the whole catalogue
for the largest class of them: a dish the menu lacks, read as a dish it has that shares a word with it.

Each reading below, put to `agree` as a model's, would have been acted on and approved automatically with
`--approve auto`: a wrong order. The phrasings are the adversary's classes, written again here; the word list
of the property was written for it, not taken from the code's own lists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Agreement, Fallback, Reading, Want, agree

CATALOG = yaml.safe_load((Path(__file__).parents[2] / "demo_site" / "catalog.json").read_text("utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}
NAMES = list(RESTAURANTS)

Line = tuple[str, int, tuple[str, ...]]


def _agree(restaurant: str, goal: str, lines: list[Line], fallbacks: tuple[Fallback, ...] = ()) -> str:
    """The verdict on ``lines`` as a model's reading: ``agreed`` it, ``rules`` (the rules' own reading stands,
    the model's is not asked for), else held."""
    return _agreement(restaurant, goal, lines, fallbacks).verdict


def _acts_on(restaurant: str, goal: str, lines: list[Line], fallbacks: tuple[Fallback, ...] = ()) -> bool:
    """Whether a run would act on ``lines`` (approved automatically): agreed, or the rules' own reading."""
    acted = _agreement(restaurant, goal, lines, fallbacks).reading
    return (
        acted is not None
        and acted.counts() == Reading("m", restaurant, tuple(Want(d, n, c) for d, n, c in lines)).counts()
    )


def _agreement(restaurant: str, goal: str, lines: list[Line], fallbacks: tuple[Fallback, ...]) -> Agreement:
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    rules = read_goal(goal, NAMES, menu)
    model = Reading(
        by="model",
        restaurant=restaurant,
        items=tuple(Want(d, n, c) for d, n, c in lines),
        fallbacks=fallbacks,
    )
    return agree(goal, rules, model, menu)


WRONG: list[tuple[str, str, list[Line]]] = [
    # a dish the menu lacks, read as one it has that shares a word with it
    ("Curry Palace", "curry palace: a butter chicken and 2 peshwari naan", [("Butter Chicken", 1, ()), ("Garlic Naan", 2, ())]),
    ("Curry Palace", "curry palace: butter chicken, jeera rice", [("Butter Chicken", 1, ()), ("Basmati Rice", 1, ())]),
    ("Italian Bistro", "italian bistro: tiramisu and spaghetti bolognese", [("Tiramisu", 1, ()), ("Spaghetti Carbonara", 1, ())]),
    ("Burger Barn", "burger barn: bacon cheeseburger + vanilla shake", [("Bacon Cheeseburger", 1, ()), ("Chocolate Shake", 1, ())]),
    ("Sushi House", "sushi house: miso soup and 2 salmon rolls", [("Miso Soup", 1, ()), ("Salmon Nigiri", 2, ())]),
    ("Athens Grill", "athens grill: lamb gyro and a caesar salad", [("Lamb Gyro", 1, ()), ("Greek Salad", 1, ())]),
    # a list taken out where one of its dishes was named before
    ("Ramen Yokocho", "ramen yokocho: a tonkotsu ramen, gyoza and karaage. Actually skip the gyoza and karaage",
     [("Tonkotsu Ramen", 1, ()), ("Karaage", 1, ())]),
    ("Sushi House", "sushi house: california roll, edamame, green tea. no edamame or green tea",
     [("California Roll", 1, ()), ("Green Tea", 1, ())]),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos, churros and a horchata. Never mind the churros and horchata",
     [("Carnitas Tacos", 2, ()), ("Horchata", 1, ())]),
    # a choice corrected by the one word that tells it from the others
    ("Poke Paradise", "poke paradise: tofu poke bowl, white rice... nah, brown", [("Tofu Poke Bowl", 1, ("White rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl brown rice... nah, white", [("Tofu Poke Bowl", 1, ("Brown rice",))]),
    ("Le Petit Café", "le petit cafe: steak frites med rare and an orange juice",
     [("Steak Frites", 1, ("Medium",)), ("Orange Juice", 1, ())]),
    # a count as a range, a number that labels, one dish preferred and another allowed
    ("Italian Bistro", "italian bistro: lasagna for 2 to 3 people", [("Lasagna al Forno", 2, ())]),
    ("Italian Bistro", "italian bistro: lasagna for 2-3 ppl and a lemonade", [("Lasagna al Forno", 2, ()), ("Lemonade", 1, ())]),
    ("Addis Ethiopian", "addis ethiopian: option 2 beef tibs and a shiro", [("Beef Tibs", 2, ()), ("Shiro", 1, ())]),
    ("Addis Ethiopian", "addis ethiopian: beef tibs [2]", [("Beef Tibs", 2, ())]),
    ("Italian Bistro Express", "italian bistro express: preferably chicken parmigiana, penne arrabbiata is fine too",
     [("Chicken Parmigiana", 1, ()), ("Penne Arrabbiata", 1, ())]),
    # a reviewer of the first cut: a choice said "no" to, read as a correction to it (the rules read it right)
    ("Poke Paradise", "poke paradise: salmon poke bowl on salad greens, no white rice", [("Salmon Poke Bowl", 1, ("White rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl, white rice please, no brown", [("Tofu Poke Bowl", 1, ("Brown rice",))]),
    ("Le Petit Café", "le petit café: steak frites medium rare, no well done please", [("Steak Frites", 1, ("Well done",))]),
    ("Curry Palace", "curry palace: butter chicken mild please, no hot", [("Butter Chicken", 1, ("Hot",))]),
    # … and wrong readings of the same classes it found agreed, before and after the first cut
    ("Green Bowl", "green bowl: buddha bowl on white rice, actually no, on brown", [("Buddha Bowl", 1, ("White rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl with white rice, make that brown", [("Tofu Poke Bowl", 1, ("White rice",))]),
    ("Sushi House", "sushi house: a black tea and 2 california rolls", [("Green Tea", 1, ()), ("California Roll", 2, ())]),
    ("Bombay Express", "bombay express: pav bhaji and a sweet lassi", [("Pav Bhaji", 1, ()), ("Mango Lassi", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: 2 tonkotsu ramen, gyoza and karaage. no gyoza/karaage",
     [("Tonkotsu Ramen", 2, ()), ("Karaage", 1, ())]),
    ("Italian Bistro", "italian bistro: 2 - 3 lasagnas", [("Lasagna al Forno", 3, ())]),
    ("Italian Bistro", "italian bistro: lasagna al forno to feed 2/3 people", [("Lasagna al Forno", 2, ())]),
    ("Addis Ethiopian", "addis ethiopian: option two beef tibs", [("Beef Tibs", 2, ())]),
    ("Italian Bistro Express", "italian bistro express: I'd prefer the chicken parmigiana, but penne arrabbiata is fine too",
     [("Chicken Parmigiana", 1, ()), ("Penne Arrabbiata", 1, ())]),
    ("Italian Bistro Express", "italian bistro express: chicken parmigiana ideally, but penne arrabbiata works",
     [("Chicken Parmigiana", 1, ()), ("Penne Arrabbiata", 1, ())]),
    # a reviewer of stop 56 (left open then): a word before a dish's name, written whole or in part, that
    # tells another kind of it; a word after it that serves it as another dish; a list taken out by commas
    ("Italian Bistro", "italian bistro: a vegetarian lasagna and a lemonade", [("Lasagna al Forno", 1, ()), ("Lemonade", 1, ())]),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a strawberry margarita", [("Carnitas Tacos", 2, ()), ("Margarita", 1, ())]),
    ("Berlin Döner", "berlin doner: a chicken doner and cheese fries", [("Chicken Döner", 1, ()), ("Fries", 1, ())]),
    ("Sweet Tooth Desserts", "sweet tooth desserts: a new york cheesecake and an espresso",
     [("Strawberry Cheesecake", 1, ()), ("Espresso", 1, ())]),
    ("Falafel Corner", "falafel corner: a chicken shawarma plate and a mint lemonade",
     [("Chicken Shawarma Wrap", 1, ()), ("Mint Lemonade", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: tonkotsu ramen, gyoza, karaage and a calpico. drop the gyoza, karaage and calpico",
     [("Tonkotsu Ramen", 1, ()), ("Karaage", 1, ()), ("Calpico", 1, ())]),
    # … and more of the same classes, written down before the change
    ("Pizza Planet", "pizza planet: a vegan margherita pizza and a cola", [("Margherita Pizza", 1, ()), ("Cola", 1, ())]),
    ("Italian Bistro", "italian bistro: one gluten free lasagna please", [("Lasagna al Forno", 1, ())]),
    ("Pho Saigon", "pho saigon: beef pho and an italian soda", [("Beef Pho", 1, ()), ("Lychee Soda", 1, ())]),
    ("Taco Fiesta", "taco fiesta: a chicken burrito bowl and a horchata", [("Chicken Burrito", 1, ()), ("Horchata", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: shoyu ramen, gyoza, karaage, calpico. no gyoza, karaage or calpico",
     [("Shoyu Ramen", 1, ()), ("Calpico", 1, ())]),
    ("Sushi House", "sushi house: california roll, edamame, miso soup and green tea - remove the edamame, miso soup and green tea",
     [("California Roll", 1, ()), ("Green Tea", 1, ())]),
    ("Athens Grill", "athens grill: moussaka, baklava, frappe and sparkling water. cancel the baklava, frappe, and sparkling water",
     [("Moussaka", 1, ()), ("Sparkling Water", 1, ())]),
    # a dish asked for where it can be had: its stated fallback is part of the order, and so is the dish
    ("Sushi House", "sushi house: a dragon roll if available, otherwise a california roll. and a green tea",
     [("Dragon Roll", 1, ()), ("Green Tea", 1, ())]),
    ("Sushi House", "sushi house: a dragon roll if available, and a green tea", [("Green Tea", 1, ())]),
    ("Sushi House", "sushi house: 2 salmon maki and a miso soup", [("Salmon Nigiri", 2, ()), ("Miso Soup", 1, ())]),
    # a reviewer of the first cut of this round: wrong readings it opened (the first three) or left
    ("Ramen Yokocho", "ramen yokocho: tonkotsu ramen and gyoza. instead of the gyoza, karaage and calpico", [("Tonkotsu Ramen", 1, ())]),
    ("Seoul Kitchen", "seoul kitchen: bibimbap mild (no kimchi), japchae and barley tea", [("Bibimbap", 1, ("Mild",))]),
    ("Pancake House", "pancake house: eggs benedict, no hash browns, avocado toast and hot chocolate", [("Eggs Benedict", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: shoyu ramen. skip the gyoza, karaage and calpico and get takoyaki", [("Shoyu Ramen", 1, ())]),
    ("Italian Bistro", "italian bistro: a lasagna and 2 tiramisu if you have them, otherwise 1", [("Lasagna al Forno", 1, ()), ("Tiramisu", 2, ())]),
    ("Sushi House", "sushi house: a california roll. a dragon roll only if you have them fresh today",
     [("California Roll", 1, ()), ("Dragon Roll", 1, ())]),
    ("Addis Ethiopian", "addis ethiopian: a meat combo and 2 beef tibs", [("Vegetarian Combo", 1, ()), ("Beef Tibs", 2, ())]),
    ("Italian Bistro", "italian bistro: a lasagna but vegan and a lemonade", [("Lasagna al Forno", 1, ()), ("Lemonade", 1, ())]),
    ("Burger Barn", "burger barn: a bacon cheeseburger and a root beer float", [("Bacon Cheeseburger", 1, ()), ("Root Beer", 1, ())]),
    ("Sweet Tooth Desserts", "sweet tooth desserts: a new york style cheesecake and an espresso",
     [("Strawberry Cheesecake", 1, ()), ("Espresso", 1, ())]),
    ("Italian Bistro", "italian bistro: a mini lasagna and a lemonade", [("Lasagna al Forno", 1, ()), ("Lemonade", 1, ())]),
    ("Italian Bistro", "italian bistro: a kids lasagna and a lemonade", [("Lasagna al Forno", 1, ()), ("Lemonade", 1, ())]),
    ("Taco Fiesta", "taco fiesta: carnitas tacos and a frozen margarita", [("Carnitas Tacos", 1, ()), ("Margarita", 1, ())]),
    ("Sweet Tooth Desserts", "sweet tooth desserts: a brownie sundae and a decaf espresso", [("Brownie Sundae", 1, ()), ("Espresso", 1, ())]),
    # an earlier order changed, then told over: the dish swapped out is named again, in what was (found by the
    # reading the checks single out, swept over every corpus goal; the two after it written for this test)
    ("Burger Barn", "Burger Barn: the same again as last time but swap the chocolate shake for a root beer — that was a crispy chicken sandwich, onion rings, chocolate shake",
     [("Onion Rings", 1, ()), ("Chocolate Shake", 1, ()), ("Crispy Chicken Sandwich", 1, ()), ("Root Beer", 1, ())]),
    ("Pho Saigon", "pho saigon: same order as last time but swap the bun cha for a banh mi, which was beef pho, bun cha and a vietnamese iced coffee",
     [("Beef Pho", 1, ()), ("Bun Cha", 1, ()), ("Banh Mi", 1, ()), ("Vietnamese Iced Coffee", 1, ())]),
    ("Italian Bistro", "italian bistro, the same as before minus the tiramisu. it was a lasagna al forno, a tiramisu and a lemonade",
     [("Lasagna al Forno", 1, ()), ("Tiramisu", 1, ()), ("Lemonade", 1, ())]),
    # … and a reviewer's paraphrases of it, 10 of 14 still agreed when only "the same again … that was" was held
    ("Burger Barn", "burger barn: same as last week but swap the chocolate shake for a root beer — that was a crispy chicken sandwich, onion rings, chocolate shake",
     [("Crispy Chicken Sandwich", 1, ()), ("Onion Rings", 1, ()), ("Chocolate Shake", 1, ()), ("Root Beer", 1, ())]),
    ("Burger Barn", "burger barn: my usual but swap the chocolate shake for a root beer — that's a crispy chicken sandwich, onion rings, chocolate shake",
     [("Crispy Chicken Sandwich", 1, ()), ("Onion Rings", 1, ()), ("Chocolate Shake", 1, ()), ("Root Beer", 1, ())]),
    ("Burger Barn", "burger barn: repeat my last order but swap the chocolate shake for a root beer — crispy chicken sandwich, onion rings, chocolate shake",
     [("Crispy Chicken Sandwich", 1, ()), ("Onion Rings", 1, ()), ("Chocolate Shake", 1, ()), ("Root Beer", 1, ())]),
    ("Burger Barn", "burger barn: same as friday but swap the chocolate shake for a root beer — crispy chicken sandwich, onion rings, chocolate shake",
     [("Crispy Chicken Sandwich", 1, ()), ("Onion Rings", 1, ()), ("Chocolate Shake", 1, ()), ("Root Beer", 1, ())]),
]  # fmt: skip


@pytest.mark.parametrize(("restaurant", "goal", "lines"), WRONG, ids=[g for _, g, _ in WRONG])
def test_a_wrong_reading_beyond_two_edits_is_not_agreed(
    restaurant: str, goal: str, lines: list[Line]
) -> None:
    assert not _acts_on(restaurant, goal, lines)


RIGHT: list[tuple[str, str, list[Line]]] = [
    ("Poke Paradise", "poke paradise: tofu poke bowl, white rice... nah, brown", [("Tofu Poke Bowl", 1, ("Brown rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl brown rice... nah, white", [("Tofu Poke Bowl", 1, ("White rice",))]),
    ("Curry Palace", "curry palce - 3 gralic naan no wait 2, and a butter chicken hot.. sorry medium not hot",
     [("Garlic Naan", 2, ()), ("Butter Chicken", 1, ("Medium",))]),
    ("Addis Ethiopian", "addis ethiopian plz — beef tibs, shiro, xtra injera x2. thx",
     [("Beef Tibs", 1, ()), ("Shiro", 1, ()), ("Extra Injera", 2, ())]),
    ("Sushi House", "sushi house: dragon roll + california roll. if the dragon roll's sold out get a spicy tuna roll instead",
     [("Dragon Roll", 1, ()), ("California Roll", 1, ())]),
    ("Green Bowl", "green bowl: buddha bowl on white rice, actually no, on brown", [("Buddha Bowl", 1, ("Brown rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl with white rice, make that brown", [("Tofu Poke Bowl", 1, ("Brown rice",))]),
    ("Bombay Express", "bombay express: 2 veg biryani and a masala chai", [("Vegetable Biryani", 2, ()), ("Masala Chai", 1, ())]),
    ("Bombay Express", "bombay express: 2 veggie biryani and a masala chai", [("Vegetable Biryani", 2, ()), ("Masala Chai", 1, ())]),
    ("Italian Bistro Express", "italian bistro express: a chicken parmigiana and a cannoli. preferably before 7pm, whenever is fine too",
     [("Chicken Parmigiana", 1, ()), ("Cannoli", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: 2 tonkotsu ramen, gyoza and karaage. no gyoza/karaage", [("Tonkotsu Ramen", 2, ())]),
    ("Ramen Yokocho", "ramen yokocho: tonkotsu ramen, gyoza, karaage and a calpico. drop the gyoza, karaage and calpico",
     [("Tonkotsu Ramen", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: shoyu ramen, gyoza, karaage, calpico. no gyoza, karaage or calpico", [("Shoyu Ramen", 1, ())]),
    ("Athens Grill", "athens grill: moussaka, baklava, frappe and sparkling water. cancel the baklava, frappe, and sparkling water",
     [("Moussaka", 1, ())]),
    ("Seoul Kitchen", "seoul kitchen: bibimbap and barley tea. no barley tea, bingsu instead", [("Bibimbap", 1, ()), ("Bingsu", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: shoyu ramen, gyoza, karaage. skip the gyoza, karaage is fine",
     [("Shoyu Ramen", 1, ()), ("Karaage", 1, ())]),
    ("Pancake House", "pancake house gimme blueberry pancakes n hash browns", [("Blueberry Pancakes", 1, ()), ("Hash Browns", 1, ())]),
    ("Berlin Döner", "berlin doner: a falafel doner and french fries", [("Falafel Döner", 1, ()), ("Fries", 1, ())]),
    ("Sushi House", "sushi house: a dragon roll if available, and a green tea", [("Dragon Roll", 1, ()), ("Green Tea", 1, ())]),
    ("Sushi House", "sushi house: a green tea and a dragon roll if you have them", [("Green Tea", 1, ()), ("Dragon Roll", 1, ())]),
    ("Falafel Corner", "falafel corner: a tabbouleh, and a knafeh if there's any left", [("Tabbouleh", 1, ()), ("Knafeh", 1, ())]),
    ("Sushi House", "sushi house: 2 spicy tuna maki and a miso soup", [("Spicy Tuna Roll", 2, ()), ("Miso Soup", 1, ())]),
    # … and right readings it held: how good, where from or how served, as the dish is anyway
    ("Ramen Yokocho", "ramen yokocho: tonkotsu ramen and gyoza. instead of the gyoza, karaage and calpico",
     [("Tonkotsu Ramen", 1, ()), ("Karaage", 1, ()), ("Calpico", 1, ())]),
    ("Seoul Kitchen", "seoul kitchen: bibimbap mild (no kimchi), japchae and barley tea",
     [("Bibimbap", 1, ("Mild",)), ("Japchae", 1, ()), ("Barley Tea", 1, ())]),
    ("Sweet Tooth Desserts", "sweet tooth desserts: a gooey chocolate lava cake", [("Chocolate Lava Cake", 1, ())]),
    ("Italian Bistro", "italian bistro: i wnat lasagna and a lemonade", [("Lasagna al Forno", 1, ()), ("Lemonade", 1, ())]),
    ("Tapas Barcelona", "tapas barcelona: a spanish tortilla and patatas bravas", [("Tortilla Española", 1, ()), ("Patatas Bravas", 1, ())]),
    ("BBQ Smokehouse", "bbq smokehouse: an iced sweet tea and a smoked brisket plate", [("Sweet Tea", 1, ()), ("Brisket Plate", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: a tonkotsu ramen bowl and gyoza", [("Tonkotsu Ramen", 1, ()), ("Gyoza (5)", 1, ())]),
    # a whole name with a long word two edits off, as the shop's matcher reads it (the main corpus's "margarita
    # pizza large from itallian bistro" was held: "not named in the words")
    ("Italian Bistro", "itallian bistro: a margarita pizza, regular, and a lemonade",
     [("Margherita Pizza", 1, ("Regular",)), ("Lemonade", 1, ())]),
]  # fmt: skip


@pytest.mark.parametrize(("restaurant", "goal", "lines"), RIGHT, ids=[g for _, g, _ in RIGHT])
def test_the_right_reading_beside_them_stands(restaurant: str, goal: str, lines: list[Line]) -> None:
    fallbacks = (
        (Fallback("Dragon Roll", Want("Spicy Tuna Roll")),) if "sold out" in goal else ()
    )  # the stated fallback is part of the order meant
    assert _acts_on(restaurant, goal, lines, fallbacks)


_OTHER_KINDS = """peshwari keema aloo tandoori bolognese pesto vanilla strawberry mint oreo greek caesar nicoise
tuna prawn veggie halloumi chorizo brioche sourdough matcha taro lychee pistachio mushroom hawaiian jalapeno
katsu teriyaki buffalo cajun truffle salted pumpkin"""
OTHER_KINDS = _OTHER_KINDS.split()
"""Words that name another kind of a dish, written for this test (not the code's lists)."""

PLAIN = [
    (name, dish["name"])
    for name, r in RESTAURANTS.items()
    for dish in r["menu"]
    if len(re.findall(r"[^\W\d_]+", dish["name"])) > 1 and not any(o["required"] for o in dish["options"])
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PLAIN), st.integers(min_value=0, max_value=5), st.sampled_from(OTHER_KINDS))
def test_a_dish_the_menu_lacks_is_never_read_as_one_it_has(
    pick: tuple[str, str], at: int, other: str
) -> None:
    """One word of a menu dish's name put in another kind's word ("vanilla shake" of the Chocolate Shake):
    a reading that orders the menu's dish for it is never agreed; the dish's own name is."""
    restaurant, dish = pick
    menu_words = {
        w.lower() for d in RESTAURANTS[restaurant]["menu"] for w in re.findall(r"[^\W\d_]+", d["name"])
    }
    words = re.findall(r"[^\W\d_]+", dish)
    at %= len(words)
    if other in menu_words or (other, words[at].lower()) == ("veggie", "vegetable"):
        return  # the menu's own word, or the same kind in other words ("veggie biryani")
    first = next(d["name"] for d in RESTAURANTS[restaurant]["menu"] if d["name"] != dish and not d["options"])
    said = " ".join([*words[:at], other, *words[at + 1 :]]).lower()
    goal = f"{restaurant.lower()}: {first.lower()} and a {said}"
    assert _agree(restaurant, goal, [(first, 1, ()), (dish, 1, ())]) not in ("agreed", "rules"), goal
    right = f"{restaurant.lower()}: {first.lower()} and a {dish.lower()}"
    assert _agree(restaurant, right, [(first, 1, ()), (dish, 1, ())]) in ("agreed", "rules"), right


def test_a_list_number_after_a_dish_named_combo_labels_nothing() -> None:
    """Found by tests/planner/test_sixth_review.py's property on a random seed: "1) 1 vegetarian combo\n2) 1
    beef tibs" read "combo\n2" as a label ("combo 2"), so the anchor held a right cart."""
    goal = "Addis Ethiopian\n1) 1 vegetarian combo\n2) 1 beef tibs"
    assert _agree("Addis Ethiopian", goal, [("Vegetarian Combo", 1, ()), ("Beef Tibs", 1, ())]) == "rules"


def test_a_rough_number_after_a_dish_whose_name_ends_in_a_bracket_is_asked() -> None:
    """Found by tests/planner/test_fourth_review.py's property on a random seed: "smoked ribs (half rack)
    (about 2)" was read as one rack at 14:00 with no doubt (the dish's own bracket stood between)."""
    goal = "bbq smokehouse: smoked ribs (half rack) (about 2) and a brisket plate"
    assert (
        _agree("BBQ Smokehouse", goal, [("Smoked Ribs (half rack)", 1, ()), ("Brisket Plate", 1, ())])
        != "rules"
    )


ALL_PLAIN = [
    (name, dish["name"]) for name, r in RESTAURANTS.items() for dish in r["menu"] if not dish["options"]
]
_BEFORE = """vegan vegetarian gluten-free keto sugar-free dairy-free vanilla strawberry peanut-butter pulled-pork
chicken-tikka bacon mushroom mango shrimp"""
BEFORE = [w.replace("-", " ") for w in _BEFORE.split()]
"""Words before a dish's whole name that make it another kind — a diet, a flavour, a food — written for this
test (not the code's lists). How it is made or where it is from ("spicy", "smoked", "korean style") is not
among them: before a whole name such words are mostly the dish's own ("thai green curry", "smoked brisket
plate"), and holding them held thousands of right readings (a reviewer, 2026-12-07)."""
SERVED = ["wrap", "plate", "sandwich", "burrito", "salad", "float"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ALL_PLAIN), st.sampled_from(BEFORE + [f"+{w}" for w in SERVED]))
def test_a_word_that_makes_a_whole_name_another_dish_is_never_read_away(
    pick: tuple[str, str], word: str
) -> None:
    """A menu dish's whole name with a word before it that tells another kind ("a vegan margherita pizza",
    "cheese fries") or after it that serves it as another dish ("a butter chicken wrap"): a reading that orders
    the menu's dish for it is never agreed."""
    restaurant, dish = pick
    menu_words = {
        w.lower() for d in RESTAURANTS[restaurant]["menu"] for w in re.findall(r"[^\W\d_]+", d["name"])
    }
    if set(word.lstrip("+").split()) & menu_words:
        return  # the menu's own word ("chicken tikka" at a shop that sells one)
    first = next(d["name"] for d in RESTAURANTS[restaurant]["menu"] if d["name"] != dish and not d["options"])
    written = re.sub(r"\s*\(.*?\)", "", dish).lower()  # "a sambusa bowl", as people write it
    said = f"{written} {word[1:]}" if word.startswith("+") else f"{word} {written}"
    goal = f"{restaurant.lower()}: {first.lower()} and a {said}"
    assert _agree(restaurant, goal, [(first, 1, ()), (dish, 1, ())]) not in ("agreed", "rules"), goal


def test_a_flavour_the_kinds_lack_is_a_known_hole() -> None:
    """Before a whole name only a food, a flavour or a diet `foods.KINDS` knows tells another kind (a rare
    word does not: "gooey", "fluffy", typos and slang are as rare); "oreo", written for the test above, is
    not among them. When it is, this fails: move it to `BEFORE`."""
    goal = "italian bistro: lasagna al forno and a oreo tiramisu"
    assert _agree("Italian Bistro", goal, [("Lasagna al Forno", 1, ()), ("Tiramisu", 1, ())]) == "agreed"


TAKE_OUT = ["no", "skip the", "drop the", "remove the", "cancel the", "forget the", "hold the", "lose the"]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list(RESTAURANTS)),
    st.integers(min_value=2, max_value=3),
    st.sampled_from(TAKE_OUT),
    st.sampled_from([" and ", ", and ", " or ", " & "]),
    st.randoms(use_true_random=False),
)
def test_a_list_taken_out_by_commas_is_taken_out_whole(
    restaurant: str, out: int, take: str, closing: str, rnd: object
) -> None:
    """ "A, B, C and D. drop the B, C and D": a reading that keeps any of B, C, D is never agreed, and the one
    that keeps A alone is (as written before the change, the list joined by commas closing with and/or)."""
    import random

    assert isinstance(rnd, random.Random)
    plain = [d["name"] for d in RESTAURANTS[restaurant]["menu"] if not d["options"]]
    if len(plain) < out + 1:
        return
    kept, *gone = rnd.sample(plain, out + 1)

    def listing(names: list[str], last: str) -> str:
        said = [re.sub(r"\s*\(.*?\)", "", n).lower() for n in names]  # "samosa", as people write it
        return ", ".join(said[:-1]) + last + said[-1]

    goal = f"{restaurant.lower()}: {kept.lower()}, {listing(gone, ' and ')}. {take} {listing(gone, closing)}"
    for keep in gone:
        assert not _acts_on(restaurant, goal, [(kept, 1, ()), (keep, 1, ())]), (goal, keep)
    assert _acts_on(restaurant, goal, [(kept, 1, ())]), goal


def test_a_long_word_two_edits_off_names_a_dish_only_with_the_rest_of_its_name() -> None:
    """ "a margarita" at the Italian Bistro may be the pizza or a drink it does not sell: one word of a name two
    edits off is no mention of it (the model's reading of it as the Margherita Pizza is asked about)."""
    goal = "italian bistro: a lasagna al forno and a margarita"
    assert not _acts_on(
        "Italian Bistro", goal, [("Lasagna al Forno", 1, ()), ("Margherita Pizza", 1, ("Regular",))]
    )


ARROW_REFUSED = [
    ("BBQ Smokehouse", "bbq smokehouse: brisket plate and cornbread. brisket plate sold out -> anything but smoked chicken",
     "Brisket Plate", "Smoked Chicken"),
    ("BBQ Smokehouse", "bbq smokehouse: brisket plate and cornbread. brisket plate sold out -> skip it, smoked chicken is gross",
     "Brisket Plate", "Smoked Chicken"),
    ("BBQ Smokehouse", "bbq smokehouse: brisket plate and cornbread. if the brisket plate is sold out, anything but smoked chicken",
     "Brisket Plate", "Smoked Chicken"),
    ("Seafood Shack", "seafood shack: lobster roll and clam chowder. lobster roll sold out -> anything but fish and chips",
     "Lobster Roll", "Fish and Chips"),
    ("BBQ Smokehouse", "bbq smokehouse: brisket plate and cornbread. brisket plate sold out -> smoked ribs or smoked chicken",
     "Brisket Plate", "Smoked Chicken"),
    ("BBQ Smokehouse", "bbq smokehouse: brisket plate, smoked chicken and cornbread. smoked chicken or cornbread gone -> mac and cheese",
     "Cornbread", "Mac and Cheese"),
]  # fmt: skip
"""A reviewer's fallbacks the words refuse or leave open, agreed once an arrow after a dish stated one."""


@pytest.mark.parametrize(
    ("restaurant", "goal", "dish", "instead"), ARROW_REFUSED, ids=[g for _, g, _, _ in ARROW_REFUSED]
)
def test_a_fallback_the_words_refuse_or_leave_open_is_never_acted_on(
    restaurant: str, goal: str, dish: str, instead: str
) -> None:
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    rules = read_goal(goal, NAMES, menu)
    items = tuple(Want(i.dish, i.quantity, tuple(i.options)) for i in rules.items)
    model = Reading("model", restaurant, items, fallbacks=(Fallback(dish, Want(instead)),))
    acted = agree(goal, rules, model, menu).reading
    assert acted is None or all(f.take is None or f.take.dish != instead for f in acted.fallbacks), acted
