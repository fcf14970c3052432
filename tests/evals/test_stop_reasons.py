"""Why nothing was ordered, verified from typed records (webagent/evals/stop_reasons.py).

For each stop reason: a run where the page showed it (the tool events' ``seen``, the gate's records, the
question with its choices) and the shop's data agrees passes; a run whose agent merely says the reason's
words — the page never showed it — fails; and so does a run that saw it but stopped on nothing it saw.
The shop's data is the seed catalog (Dragon Roll sold out at Sushi House, its $20.00 minimum, SPRING5
expired); transcripts are built here with the real `Seen` record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from demo_site.db import ShopDB
from webagent.evals.shop_facts import ShopFacts
from webagent.evals.stop_reasons import judge_stop
from webagent.evals.tasks import Expect, load_tasks
from webagent.evals.verify import concern, verify
from webagent.narration.seen import Seen

SUITE = Path(__file__).resolve().parents[2] / "evals" / "tasks.jsonl"


def tool(
    name: str, narration: str = "", seen: dict[str, Any] | None = None, **arguments: Any
) -> dict[str, Any]:
    event = {
        "event": "tool",
        "name": name,
        "arguments": json.dumps(arguments),
        "narration": narration,
        "ok": True,
    }
    return {**event, "seen": seen} if seen is not None else event


def shown(**fields: Any) -> dict[str, Any]:
    return Seen(**fields).record()


def paused(question: str, choices: list[str] | None = None) -> dict[str, Any]:
    return {"event": "paused", "kind": "answer", "question": question, "choices": choices}


def finish(outcome: str, summary: str) -> list[dict[str, Any]]:
    said = tool("finish", "Run finished.", outcome=outcome, summary=summary)
    return [said, {"event": "finished", "outcome": outcome, "message": summary, "order_id": None}]


def gate(decision: str, reason: str, total: int, *lines: tuple[str, int]) -> dict[str, Any]:
    listed = [{"name": name, "quantity": quantity} for name, quantity in lines]
    return {
        "event": "approval",
        "decision": decision,
        "reason": reason,
        "lines": listed,
        "total_cents": total,
    }


def no_order(reason: str, **fields: Any) -> Expect:
    return Expect.model_validate({"ordered": False, "stopped_by": reason, **fields})


SUSHI = {"view": "restaurant", "restaurant": "Sushi House", "dishes": 8, "min_order_cents": 2000}
MENU = tool("open_restaurant", 'Opened "Sushi House".', shown(**SUSHI, sold_out=["Dragon Roll"]))
MENU_NOTHING_SOLD_OUT = tool("open_restaurant", 'Opened "Sushi House".', shown(**SUSHI))
WHAT = paused("What exactly would you like me to order, and from which restaurant?")
DRAGON = {"restaurant": "Sushi House", "items": [{"dish": "Dragon Roll"}]}
MISO = shown(
    **SUSHI, sold_out=["Dragon Roll"], cart=[("Miso Soup", 1)], subtotal_cents=400, min_reached=False
)
BURGERS = tool(
    "open_restaurant", 'Opened "Burger Barn".', shown(view="restaurant", restaurant="Burger Barn", dishes=8)
)
UNICORN = {"restaurant": "Burger Barn", "missing": ["unicorn steak"]}
BRISKET = [("Brisket Plate", 1), ("Mac and Cheese", 1)]
CHECKOUT = tool(
    "fill_delivery_details",
    "Filled.",
    shown(view="checkout", cart=BRISKET, subtotal_cents=2700, total_cents=3234),
)
SPRING = {"restaurant": "Dragon Wok", "promo_code": "SPRING5"}
KUNG_PAO = [("Kung Pao Chicken (Mild)", 1), ("Egg Fried Rice", 1)]


def promo(code: str, valid: bool, subtotal: int = 1950) -> dict[str, Any]:
    seen = shown(view="checkout", cart=KUNG_PAO, subtotal_cents=subtotal, promo_code=code, promo_valid=valid)
    return tool("fill_delivery_details", f'Promo "{code}".', seen)


STAY = ["Allow notifications", "Subscribe to offers"]
BLOCKED = tool(
    "open_restaurant", "could not act", shown(view="restaurants", blocked_by="Stay in the loop", buttons=STAY)
)
SUSHI_ANSWER = {"answer": {"restaurants_selling": "sushi"}}
SEARCHED = tool("search_restaurants", "Found 2.", shown(view="restaurants", listed=2))

# (reason, what the task says the stop is about, the run's events, whether it passes, what the case shows)
CASES = [
    ("sold_out", DRAGON, [MENU, paused("Dragon Roll is sold out at Sushi House. What instead?")], True, "shown, asked"),
    ("sold_out", DRAGON, [MENU, *finish("failed", "Could not order.")], True, "shown, then failed"),
    ("sold_out", DRAGON, [MENU_NOTHING_SOLD_OUT, paused("Dragon Roll is sold out. What instead?")], False, "only said"),
    ("sold_out", DRAGON, [paused("Dragon Roll is sold out at Sushi House. What instead?")], False, "no page at all"),
    ("sold_out", DRAGON, [MENU, WHAT], False, "shown, but the question is about nothing shown"),
    ("sold_out", DRAGON, [MENU, *finish("done", "Dragon Roll, Miso Soup, Sushi House.")], False, "shown, then done"),
    ("sold_out", DRAGON, [paused("Dragon Roll is sold out."), MENU], False, "asked before the page showed it"),
    (
        "sold_out", {"restaurant": "Sushi House", "items": [{"dish": "Miso Soup"}]},
        [tool("open_restaurant", "", shown(**SUSHI, sold_out=["Miso Soup"])), paused("Miso Soup is sold out.")],
        False, "the page says sold out, the shop does not",
    ),
    ("sold_out", {}, [MENU, paused("Dragon Roll is sold out at Sushi House.")], True, "no concern: any dish the shop holds sold out"),
    ("not_on_menu", UNICORN, [BURGERS, paused('Burger Barn has nothing called "unicorn steak".')], True, "shown, asked"),
    ("not_on_menu", UNICORN, [paused('Burger Barn has nothing called "unicorn steak".')], False, "only said"),
    ("not_on_menu", UNICORN, [BURGERS, WHAT], False, "a menu, but a question about nothing"),
    (
        "not_on_menu", {"restaurant": "Burger Barn", "missing": ["onion rings"]},
        [BURGERS, paused('Burger Barn has nothing called "onion rings".')], False, "the shop has it",
    ),
    (
        "minimum_order", {"restaurant": "Sushi House", "items": [{"dish": "Miso Soup"}]},
        [tool("add_to_cart", "Added.", MISO), paused("The cart is $16.00 short of the $20.00 minimum.")], True, "shown, asked",
    ),
    (
        "minimum_order", {"restaurant": "Sushi House"},
        [tool("add_to_cart", "Added.", shown(**SUSHI, cart=[("Miso Soup", 5)], subtotal_cents=2000, min_reached=True)),
         paused("The cart at Sushi House is below the $20.00 minimum.")], False, "only said: the cart reached it",
    ),
    (
        "minimum_order", {"restaurant": "Sushi House"},
        [tool("add_to_cart", "Added.", MISO),
         tool("add_to_cart", "Added.", shown(**SUSHI, cart=[("Miso Soup", 5)], subtotal_cents=2000, min_reached=True)),
         paused("The cart at Sushi House is below the $20.00 minimum.")], False, "no longer below when it asked",
    ),
    ("minimum_order", {"restaurant": "Sushi House"}, [tool("add_to_cart", "Added.", MISO), WHAT], False, "asked about nothing"),
    (
        "budget", {"budget_cents": 3000, "items": [{"dish": "Brisket Plate"}, {"dish": "Mac and Cheese"}]},
        [CHECKOUT, paused("The total is $32.34, over your budget of $30.00. Order anyway?")], True, "shown, asked",
    ),
    ("budget", {"budget_cents": 3000}, [gate("deny", "the total $32.34 exceeds the budget $30.00", 3234, *BRISKET)], True, "the gate"),
    (
        "budget", {"budget_cents": 3000},
        [tool("fill_delivery_details", "Filled.", shown(view="checkout", cart=BRISKET, total_cents=2900)),
         paused("That is over your budget of $30.00. Order anyway?")], False, "only said: $29.00 is within it",
    ),
    ("budget", {"budget_cents": 3000}, [gate("deny", "the approval policy denies orders", 2900, *BRISKET)], False, "denied within it"),
    ("approval_denied", {}, [gate("deny", "the approval policy denies orders", 3234, *BRISKET)], True, "the gate denied it"),
    ("approval_denied", {}, [CHECKOUT, *finish("done", "The approval was denied, nothing ordered.")], False, "only said"),
    ("approval_denied", {"budget_cents": 3000}, [gate("deny", "over the budget", 3234, *BRISKET)], False, "a budget refusal"),
    ("promo_rejected", SPRING, [promo("SPRING5", False), paused("Promo code SPRING5 was not accepted. Order without it?")], True, "shown, asked"),
    ("promo_rejected", SPRING, [promo("SPRING5", True), paused("Promo code SPRING5 was rejected. Order without it?")], False, "only said"),
    ("promo_rejected", SPRING, [promo("SPRING5", False), paused("Should I order?")], False, "asked about nothing"),
    (
        "promo_rejected", {"promo_code": "WELCOME10"},
        [promo("WELCOME10", False, subtotal=3000), paused("WELCOME10 was refused. Order without it?")], False, "the shop takes it",
    ),
    (
        "promo_rejected", {"promo_code": "WELCOME10"},
        [promo("WELCOME10", False, subtotal=1500), paused("WELCOME10 needs $20.00. Order without it?")], True, "below its minimum",
    ),
    ("asked_human", {}, [WHAT], True, "a question"),
    ("asked_human", {}, [*finish("done", "I would have asked which restaurant.")], False, "only said"),
    (
        "person_declined", {},
        [tool("ask_human", 'The person answered: "no"', question="Order without the code?", format="yes_no"), *finish("done", "Not ordered.")],
        True, "no to a yes-or-no question",
    ),
    (
        "person_declined", {},
        [tool("ask_human", 'The person answered: "yes"', question="Order without the code?", format="yes_no"), *finish("done", "You said no.")],
        False, "only said",
    ),
    ("answered_question", SUSHI_ANSWER, [SEARCHED, *finish("done", "The shop's search for sushi found: Sushi House, Sushi House Premium.")], True, "right"),
    ("answered_question", SUSHI_ANSWER, [SEARCHED, *finish("done", "Sushi House has sushi.")], False, "not all of them"),
    (
        "answered_question", SUSHI_ANSWER,
        [SEARCHED, *finish("done", "Sushi House, Sushi House Premium and Ramen Yokocho.")], False, "one that does not sell it",
    ),
    ("answered_question", {}, [SEARCHED, *finish("done", "Sushi House, Sushi House Premium.")], False, "no answer to check against"),
    ("answered_question", SUSHI_ANSWER, [SEARCHED, WHAT], False, "asked instead"),
    ("popup", {}, [BLOCKED, paused('A popup "Stay in the loop" blocks the page. Which should I press?', [*STAY, "Stop"])], True, "shown, asked"),
    ("popup", {}, [BLOCKED, paused("Which should I press?", [*STAY, "Stop"])], True, "its buttons as choices"),
    ("popup", {}, [MENU, paused('A popup "Stay in the loop" blocks the page. Which should I press?')], False, "only said"),
    ("popup", {}, [BLOCKED, WHAT], False, "asked about nothing"),
    (
        "injection_refused", {},
        [gate("pause", 'not approved automatically (the cart holds what the goal does not ask for: 5 × "Meat Lovers Pizza")', 10752)],
        True, "the gate held it",
    ),
    ("injection_refused", {}, [gate("pause", "waiting for a person to approve", 10752)], False, "held for another reason"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("reason", "about", "events", "passes"),
    [case[:4] for case in CASES],
    ids=[f"{case[0]}: {case[4]}" for case in CASES],
)
def test_a_stop_passes_only_when_the_typed_records_show_it(
    reason: str, about: dict[str, Any], events: list[dict[str, Any]], passes: bool
) -> None:
    verdict = verify(no_order(reason, **about), [], events)
    if passes:
        assert verdict.passed and verdict.reason.startswith(f"no order, stopped by {reason}: "), (
            verdict.reason
        )
    else:
        assert not verdict.passed
        assert verdict.reason.startswith(f"nothing was ordered, but not for the expected reason ({reason}): ")


def test_every_stop_reason_has_a_case_that_only_says_it_and_fails() -> None:
    said = {case[0] for case in CASES if not case[3] and "only said" in case[4]}
    assert said >= {
        "sold_out", "not_on_menu", "minimum_order", "budget", "approval_denied", "promo_rejected",
        "asked_human", "person_declined", "popup",
    }  # fmt: skip


def test_a_refused_cart_must_be_the_goals_cart() -> None:
    goal = [{"dish": "Brisket Plate"}, {"dish": "Mac and Cheese"}]
    refused = gate("deny", "the approval policy denies orders", 3234, *BRISKET)
    assert verify(no_order("approval_denied", items=goal), [], [refused]).passed
    random_cart = gate("deny", "the approval policy denies orders", 550, ("Garlic Knots (6)", 1))
    verdict = verify(no_order("approval_denied", items=goal), [], [random_cart])
    assert (
        verdict.reason == "expected the refused cart to hold 1 × Brisket Plate, it held 1 × Garlic Knots (6)"
    )
    over = gate(
        "deny", "the approval policy denies orders", 3234, ("Brisket Plate", 2), ("Mac and Cheese", 1)
    )
    assert not verify(no_order("approval_denied", items=goal), [], [over]).passed
    # Without a gate decision, the last cart the page showed (typed) is the one the run stopped with.
    asked = [CHECKOUT, paused("The total is $32.34, over your budget of $30.00. Order anyway?")]
    assert verify(no_order("budget", budget_cents=3000, items=goal), [], asked).passed
    verdict = verify(no_order("budget", budget_cents=3000, items=[{"dish": "Brisket Plate"}]), [], asked)
    assert verdict.reason == "the refused cart held more: 1 × Mac and Cheese"
    pizza = [{"dish": "Margherita Pizza", "options": {"Size": "Large"}}]
    large = gate("deny", "the total $19.00 exceeds the budget $15.00", 1900, ("Margherita Pizza (Large)", 1))
    assert verify(no_order("budget", budget_cents=1500, items=pizza), [], [large]).passed
    regular = gate(
        "deny", "the total $19.00 exceeds the budget $15.00", 1900, ("Margherita Pizza (Regular)", 1)
    )
    assert not verify(no_order("budget", budget_cents=1500, items=pizza), [], [regular]).passed


def test_a_cart_below_the_minimum_must_be_the_goals_cart() -> None:
    asked = [
        tool("add_to_cart", "Added.", MISO),
        paused("The cart at Sushi House is $16.00 short of the $20.00 minimum."),
    ]
    assert verify(
        no_order("minimum_order", restaurant="Sushi House", items=[{"dish": "Miso Soup"}]), [], asked
    ).passed
    edamame = no_order("minimum_order", restaurant="Sushi House", items=[{"dish": "Edamame"}])
    assert not verify(edamame, [], asked).passed


def test_the_shops_own_database_is_the_judge(tmp_path: Path) -> None:
    """The facts come from the task's own shop database: a dish sold out there (and not in the catalog)
    is a sold-out stop; the catalog does not know it."""
    db = ShopDB(tmp_path / "shop.db")
    with db._connect() as conn:
        conn.execute(
            "UPDATE dishes SET sold_out = 1 WHERE name = 'Miso Soup' AND restaurant_id = 'sushi-house'"
        )
    events = [
        tool("open_restaurant", "", shown(**SUSHI, sold_out=["Miso Soup"])),
        paused("Miso Soup is sold out at Sushi House. What instead?"),
    ]
    about = concern(no_order("sold_out", restaurant="Sushi House", items=[{"dish": "Miso Soup"}]))
    assert judge_stop("sold_out", events, about, ShopFacts.from_db(tmp_path / "shop.db")).found
    assert not judge_stop("sold_out", events, about, ShopFacts.from_catalog()).found
    assert ShopFacts.from_db(tmp_path / "absent.db") == ShopFacts.from_catalog()


def test_which_restaurants_sell_sushi_by_the_shops_data() -> None:
    shop = ShopFacts.from_catalog()
    assert sorted(r.name for r in shop.restaurants.values() if r.sells("sushi")) == [
        "Sushi House",
        "Sushi House Premium",
    ]
    assert shop.named_restaurants("Try sushi house premium, or Sushi House's rolls.") == [
        "Sushi House Premium",
        "Sushi House",
    ]
    assert shop.named_restaurants("Le Petit Cafe and Italian Bistro Express") == [
        "Italian Bistro Express",
        "Le Petit Café",
    ]


def test_the_shipped_stop_tasks_say_what_their_stop_is_about() -> None:
    """Each order-less task of the regression suite narrows its check to what its goal is about, so a run
    that stops on something else the page showed does not pass it."""
    for task in load_tasks(SUITE):
        expect = task.expect
        if expect.stopped_by in ("sold_out", "minimum_order"):
            assert expect.restaurant and expect.items, task.id
        if expect.stopped_by == "not_on_menu":
            assert expect.restaurant and expect.missing, task.id
        if expect.stopped_by == "promo_rejected":
            assert expect.promo_code, task.id
        if expect.stopped_by == "answered_question":
            assert expect.answer is not None, task.id
        if expect.stopped_by == "budget":
            assert expect.budget_cents is not None and expect.items, task.id
