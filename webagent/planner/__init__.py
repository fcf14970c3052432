"""The offline planner: a deterministic `Model` that orders what a person's goal asks for.

It acts only through the tools and reads only their narrations, like an LLM. Reading a goal:

    words.py          tokens that remember where they stand; forgiving word comparison (rapidfuzz)
    details.py        delivery details by their shape: phone, promo, tip, budget, time, address, name, payment
    goal.py           the goal reader: spots restaurant, dish and choice names; quantities; list syntax
    spec.py           `OrderSpec` (an order), `GoalReading` (a goal read, every part pointing at its words) and
                      `Reading` (the final order a reader — the rules, a model, the person — read)
    menu.py           a menu as its narration shows it
    doubts.py         what the rules' reading leaves in doubt: unplaced words, amendments
    mentions.py       where the words say something about a dish: mentions, counts, conditions, negations
    reserve.py        what the words hold in reserve (fallbacks), and what of a model's reading is pruned
    accounts.py       whether a model's reading accounts for the words (the checks it is put to)
    reading.py        the rules' and a model's readings put together (`agree`), proposed, settled, planned

Planning the next turn:

    transcript.py     the planner's reader of messages: requests, steps, answers, what the pages showed
    decision.py       `Decision`: one turn's facts, and the helpers every stage asks (answers, results)
    policy.py         `Planner`: the stages of one decision, walked in order
    shop_questions.py questions about the shop ("what restaurants have sushi?"), answered from the pages
    restaurant.py     which restaurant (named, answered, searched for) and its menu
    dishes.py         the dishes to order, with every question about them asked and folded back in
    cart.py           making the cart equal the order, and checking it did, before checkout
    checkout.py       details, the form, a rejected promo code, the budget, placing the order
    questions.py      the questions it asks, and how it understands answers
    plan.py           a turn: `Plan`, `ask`, `finish`; `Line`, one line the cart must hold

Pure: it imports no browser code (nothing of Playwright). It may import webagent/narration/ (the readers
of the sentences it reads, money, line names), the consent words (webagent/narration/consent.py, plain text
rules), the `Model` reply types (webagent/llm/) and `webagent.sync` (a consultation on a thread of its
own); nothing else of webagent. A model reader (webagent/llm/reader.py) is passed in as a `ModelReader`. Inside it the arrows point
one way: policy → the stages (restaurant, dishes, cart, checkout, popups, shop_questions) → decision →
transcript, goal reading, plan.

Baselines (baselines.py): naive planners — null, ask, random, gullible, namer — that an eval score is read beside.
"""

from webagent.planner.goal import read_goal
from webagent.planner.policy import MAX_TURNS, Planner
from webagent.planner.spec import GoalReading, OrderItem, OrderSpec

__all__ = ["MAX_TURNS", "GoalReading", "OrderItem", "OrderSpec", "Planner", "read_goal"]
