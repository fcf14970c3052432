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

__all__ = ["FOODS", "KINDS", "foods_in"]

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
"""
KINDS = FOODS | frozenset(key(w) for w in _KIND_WORDS.split())
"""`FOODS` and the words that tell one kind of a dish from another ("a vanilla shake", "a caesar salad")."""


def foods_in(text: str) -> list[tuple[int, str]]:
    """(position, word) of each word of ``text`` that names a food or a drink: "street corn like last time"
    → corn; "cheese garlic bread" → cheese, bread."""
    return [
        (t.start, t.text)
        for t in tokenize(text)
        if t.is_word and t.key in FOODS and not re.match(r"\d", t.text)
    ]
