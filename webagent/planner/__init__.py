"""The offline planner: a deterministic `Model` that orders what a person's goal asks for.

    words.py       tokens that remember where they stand; forgiving word comparison (rapidfuzz)
    spec.py        `OrderSpec` (an order) and `GoalReading` (a goal read, every part pointing at its words)
    details.py     delivery details by their shape: phone, promo, tip, budget, time, address, name, payment
    goal.py        the goal reader: spot restaurant, dish and choice names; quantities; list syntax
    menu.py        a menu as its narration shows it
    transcript.py  the planner's reader of messages: requests, steps, answers, what the pages showed
    questions.py   the questions it asks, and how it understands answers
    policy.py      the planning policy: `Planner` and the stages of one decision
    checkout.py    details, fill, promo, budget, place

Importing it imports no browser code.
"""

from webagent.planner.goal import read_goal
from webagent.planner.policy import MAX_TURNS, Planner
from webagent.planner.spec import GoalReading, OrderItem, OrderSpec

__all__ = ["MAX_TURNS", "GoalReading", "OrderItem", "OrderSpec", "Planner", "read_goal"]
