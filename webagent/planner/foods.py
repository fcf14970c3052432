"""Words that name something to eat or drink, in any shop: the checks' way to tell a dish the menu lacks
("…, a horchata, house made salsa", "…, rice cakes") from filler, whatever words come around it ("… street
corn like last time", "… beef tamales if u have"). A second reviewer found such dishes dropped in silence by
readings that were agreed; the list of what a line of a list may *not* hold cannot keep up with what it may.

General English, not the demo shop's catalogue: a dish of the menu is read by the menu's own names first.
Pure: no browser code.
"""

from __future__ import annotations

import re

from webagent.planner.words import key, tokenize

__all__ = ["DIETS", "FOODS", "HANDHELD", "HOW_GOOD", "KINDS", "ORIGINS", "SERVED_AS", "foods_in"]

_WORDS = """
apple avocado bacon bagel baguette baklava banana bao bean beef beer biryani biscuit bisque bread brisket
brownie bruschetta burger burrito cake calamari calzone carnitas cheesecake chicken chili chip
chocolate chorizo chowder churro ciabatta cider coffee cola coleslaw cookie corn cornbread couscous crab
croissant croquette cupcake curry custard donut doughnut dumpling edamame egg eggroll empanada enchilada
espresso falafel fajita fish flan flatbread fries fry gelato gnocchi granola guacamole gyoza gyro ham
hotdog hummus icecream juice kebab kimchi lamb lasagna latte lemonade lobster macaron mango meatball
milkshake mochi muffin mushroom naan nacho noodle nugget oyster paella pancake paneer pasta pastry pastrami
pie pierogi pita pizza pork potato prawn pretzel pudding quesadilla quiche ramen ravioli rib rice risotto
roll salad salami salmon salsa samosa sandwich sausage scone shake shrimp slaw smoothie soda soup
spaghetti steak stew sushi taco tamale tart tea tempura tofu tortilla tuna turkey udon waffle
wings wrap yogurt pozole pico elote menudo birria sope tostada mole
"""
FOODS = frozenset(key(w) for w in _WORDS.split())
"""The keys (singular, no accents) of words that name a food or a drink."""
_KIND_WORDS = """
vanilla strawberry caramel chocolate hazelnut pistachio cinnamon coconut lemon lime peach berry blueberry
raspberry cherry caesar greek cobb garden nicoise waldorf marinara alfredo pesto teriyaki sesame garlic cheese
black white brown red green sweet iced hot cold house
vegetarian vegan gluten keto free sugar dairy diet halal kosher italian french american chinese japanese mexican
indian thai korean vietnamese spanish turkish lebanese persian cajun southern texas york philly chicago tex mex
plate platter bowl box combo meat pink yellow blue purple peanut almond walnut honey maple mocha ginger blood
frozen skinny decaf veg veggie meatless curly loaded kids mini
"""
KINDS = FOODS | frozenset(key(w) for w in _KIND_WORDS.split())
"""`FOODS` and the words that tell one kind of a dish from another ("a vanilla shake", "a caesar salad")."""


_SERVED_AS = (
    """plate platter box combo wrap sandwich burger roll taco salad soup pizza sub bun burrito float bites"""
)
SERVED_AS = frozenset(key(w) for w in _SERVED_AS.split())
"""Words after a dish's name that serve it as another dish ("a butter chicken wrap", "a root beer float"); a
bowl only after a dish held in the hand (`HANDHELD`: "a chicken burrito bowl"; "a tonkotsu ramen bowl" is the
ramen)."""
_HANDHELD = "burrito taco tacos wrap sandwich burger quesadilla gyro doner"
HANDHELD = frozenset(key(w) for w in _HANDHELD.split())
_DIETS = "vegan vegetarian veg veggie meatless gluten keto halal kosher diet dairy lactose paleo"
DIETS = frozenset(key(w) for w in _DIETS.split())
"""Words of a diet: said anywhere about a dish whose name lacks them, another kind of it ("… but vegan")."""
_ORIGINS = """italian french american chinese japanese mexican indian thai korean vietnamese spanish turkish
lebanese persian cajun southern texas york philly chicago tex mex"""
ORIGINS = frozenset(key(w) for w in _ORIGINS.split())
"""Where a dish is from: another kind where the name has another word ("a new york cheesecake" of the
Strawberry Cheesecake); before a whole name mostly the shop's own cuisine ("thai green curry")."""
_HOW_GOOD = """tasty yummy delicious famous homemade home made crispy crunchy juicy tender hearty warm hot cold
iced fresh nice lovely great best favorite favourite fave usual regular normal plain classic original special
signature scrumptious fancy proper decent cheap house big huge small little yr ur sweet"""
HOW_GOOD = frozenset(key(w) for w in _HOW_GOOD.split())
"""Words before a dish's name that say how good, how warm or how usual it is, not what kind ("a tasty
lasagna", "your famous tiramisu", "a hot lasagna")."""


def foods_in(text: str) -> list[tuple[int, str]]:
    """(position, word) of each word of ``text`` that names a food or a drink: "street corn like last time"
    → corn; "cheese garlic bread" → cheese, bread."""
    return [
        (t.start, t.text)
        for t in tokenize(text)
        if t.is_word and t.key in FOODS and not re.match(r"\d", t.text)
    ]
