"""The planner acting on the reading the rules and a model agree on (webagent/planner/reading.py), through the
real loop, the real approval gate and its anchor, against the shop double.

The model reader is scripted: it answers a fixed reading and counts how often it is asked. With a right
reading the corrected, swapped, fallback and group orders are placed exactly and approved automatically;
with a wrong one the person is asked, with the model's reading proposed, and nothing is ordered until they
say yes; a model that gives nothing leaves the planner asking about the words, as without one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.planner.test_planner import PROFILE, lines, questions
from tests.planner.test_reading import Scripted
from tests.shop_double import run_planner
from webagent.planner import Planner
from webagent.planner.consult import readings_recorded
from webagent.planner.reading import PROPOSE, Fallback, Reading, Remembered, Want


def order(goal: str, tmp_path: Path, answer: Reading | None, **kwargs: Any) -> Any:
    reader = Scripted(answer)
    kwargs.setdefault("profile", PROFILE)
    result, shop, messages = run_planner(goal, tmp_path, model=Planner(reader=Remembered(reader)), **kwargs)
    return result, shop, messages, reader


def ordered(shop: Any) -> Any:
    from tests.shop_double import ordered_lines

    [placed] = shop.orders
    return ordered_lines(placed)


def test_a_corrected_quantity_read_by_the_model_is_ordered_and_approved_automatically(tmp_path: Path) -> None:
    goal = "two lasagna al forno, no wait, make that three, and a lemonade from Italian Bistro"
    right = Reading("model", "Italian Bistro", (Want("Lasagna al Forno", 3), Want("Lemonade", 1)))
    result, shop, messages, reader = order(goal, tmp_path, right, approve="auto", budget_cents=10_000)
    assert result.outcome == "ordered", result.message
    assert ordered(shop) == lines(("Lasagna al Forno", 3), ("Lemonade", 1))
    assert questions(messages) == []
    assert reader.calls == 1  # the planner's turns, the holds and the anchor share one reading
    texts = [m["content"] or "" for m in messages if m["role"] == "assistant"]
    [kept] = readings_recorded(texts)  # written into the turn, for a resumed run to read back
    assert kept.reading == right


def test_a_misreading_is_proposed_to_the_person_and_nothing_is_ordered_without_their_yes(
    tmp_path: Path,
) -> None:
    goal = "two lasagna al forno, no wait, make that three, and a lemonade from Italian Bistro"
    wrong = Reading("model", "Italian Bistro", (Want("Lasagna al Forno", 2), Want("Lemonade", 1)))
    result, shop, messages, _ = order(goal, tmp_path, wrong, approve="auto", budget_cents=10_000)
    assert result.outcome == "paused" and shop.orders == []
    [asked] = questions(messages)
    # The question proposes the one reading an edit from the rules' that the checks agree to — not the
    # model's, which they did not (webagent/planner/edits.py).
    assert asked["question"] == f"{PROPOSE}3 × Lasagna al Forno and 1 × Lemonade. Is that right?"
    assert asked["choices"][0] == "Yes" and asked["choices"][-1] == "Stop"


def test_yes_to_the_reading_the_checks_single_out_orders_it_not_the_models(tmp_path: Path) -> None:
    goal = "two lasagna al forno, no wait, make that three, and a lemonade from Italian Bistro"
    wrong = Reading("model", "Italian Bistro", (Want("Lasagna al Forno", 2), Want("Lemonade", 1)))
    result, shop, _, _ = order(goal, tmp_path, wrong, approve="auto", answers=["yes"], budget_cents=10_000)
    assert result.outcome == "ordered", result.message
    assert ordered(shop) == lines(("Lasagna al Forno", 3), ("Lemonade", 1))


def test_the_persons_yes_to_a_proposed_reading_orders_it(tmp_path: Path) -> None:
    goal = "3 lasagna al forno from Italian Bistro... hmm, make it 4"
    proposed = Reading("model", "Italian Bistro", (Want("Lasagna al Forno", 4),))
    result, shop, _, _ = order(goal, tmp_path, proposed, approve="auto", answers=["yes"], budget_cents=10_000)
    assert result.outcome == "ordered", result.message
    assert ordered(shop) == lines(("Lasagna al Forno", 4))


def test_stop_to_a_proposed_reading_orders_nothing(tmp_path: Path) -> None:
    goal = "two lasagna al forno, no wait, make that three, from Italian Bistro"
    wrong = Reading("model", "Italian Bistro", (Want("Lasagna al Forno", 2),))
    result, shop, _, _ = order(goal, tmp_path, wrong, approve="auto", answers=["Stop"])
    assert result.outcome == "done" and shop.orders == []


def test_a_fallback_is_taken_for_a_sold_out_dish_and_the_summary_says_so(tmp_path: Path) -> None:
    goal = (
        "sushi house: a dragon roll, 2 california rolls and a miso soup. if the dragon roll's sold out get a "
        "spicy tuna roll instead"
    )
    right = Reading(
        "model",
        "Sushi House",
        (Want("Dragon Roll", 1), Want("California Roll", 2), Want("Miso Soup", 1)),
        fallbacks=(Fallback("Dragon Roll", Want("Spicy Tuna Roll", 1)),),
    )
    result, shop, messages, _ = order(goal, tmp_path, right, approve="auto", budget_cents=10_000)
    assert result.outcome == "ordered", result.message
    assert ordered(shop) == lines(("Spicy Tuna Roll", 1), ("California Roll", 2), ("Miso Soup", 1))
    assert '"Dragon Roll" is sold out: 1 × Spicy Tuna Roll instead' in result.message
    assert questions(messages) == []


def test_a_group_order_is_worked_out(tmp_path: Path) -> None:
    goal = "one lasagna al forno each for the four of us from italian bistro"
    right = Reading("model", "Italian Bistro", (Want("Lasagna al Forno", 4),))
    result, shop, _, _ = order(goal, tmp_path, right, approve="auto", budget_cents=10_000)
    assert result.outcome == "ordered", result.message
    assert ordered(shop) == lines(("Lasagna al Forno", 4))


def test_a_model_that_gives_nothing_leaves_the_questions_as_they_were(tmp_path: Path) -> None:
    goal = "two lasagna al forno, no wait, make that three, from Italian Bistro"
    result, shop, messages, reader = order(goal, tmp_path, None, approve="auto")
    assert result.outcome == "paused" and shop.orders == []
    [asked] = questions(messages)
    assert not asked["question"].startswith(PROPOSE)
    assert reader.calls == 1


def test_a_goal_the_rules_read_without_doubt_never_asks_the_model(tmp_path: Path) -> None:
    result, shop, _, reader = order(
        "2 Lasagna al Forno and a Tiramisu from Italian Bistro", tmp_path, None, approve="auto"
    )
    assert result.outcome == "ordered" and reader.calls == 0
    assert ordered(shop) == lines(("Lasagna al Forno", 2), ("Tiramisu", 1))


def test_a_recipient_the_rules_did_not_place_is_never_passed_over_for_the_sign_off(tmp_path: Path) -> None:
    """The rules read the sign-off's name as the delivery name and leave the recipient unplaced; a model's
    reading of the dishes settles the dishes only: the run does not order to the sign-off automatically."""
    goal = "for my uncle, Tomas Reyes: 2 butter croissants and a large café au lait from le petit café. cheers, Ana"
    right = Reading(
        "model", "Le Petit Café", (Want("Butter Croissant", 2), Want("Café au Lait", 1, ("Large",)))
    )
    result, shop, _, _ = order(goal, tmp_path, right, approve="auto", budget_cents=10_000)
    assert shop.orders == [] and result.outcome == "paused", result.message
    assert "Tomas Reyes" in result.message


def test_a_second_look_the_words_bear_out_is_ordered_and_kept_for_a_resumed_run(tmp_path: Path) -> None:
    """The first reading keeps the swapped-out dish (as the 1.5B reads "make the X a Y"); the second look,
    every dish mentioned with what became of it, reads the swap: that one is put to the words, agreed,
    ordered, approved automatically and written into the turn — the model asked once each way."""
    from tests.planner.test_reading import LooksTwice

    goal = "a tiramisu and a lasagna al forno from Italian Bistro, actually make the tiramisu a caesar salad"
    first = Reading(
        "model", "Italian Bistro", (Want("Tiramisu", 1), Want("Lasagna al Forno", 1), Want("Caesar Salad", 1))
    )
    second = Reading("model", "Italian Bistro", (Want("Lasagna al Forno", 1), Want("Caesar Salad", 1)))
    reader = LooksTwice(first, second)
    result, shop, messages = run_planner(
        goal, tmp_path, model=Planner(reader=Remembered(reader)), profile=PROFILE, approve="auto"
    )
    assert result.outcome == "ordered", result.message
    assert ordered(shop) == lines(("Lasagna al Forno", 1), ("Caesar Salad", 1))
    assert questions(messages) == [] and (reader.calls, reader.looks) == (1, 1)
    texts = [m["content"] or "" for m in messages if m["role"] == "assistant"]
    [kept] = readings_recorded(texts)
    assert kept.reading == second


def test_two_readings_the_words_do_not_bear_out_propose_the_first(tmp_path: Path) -> None:
    from tests.planner.test_reading import LooksTwice

    # No reading an edit from the rules' is agreed to either ("two, or maybe three" is the person's to
    # settle), so the question proposes the model's first reading.
    goal = "a tiramisu and two, or maybe three, lasagna al forno from Italian Bistro"
    first = Reading("model", "Italian Bistro", (Want("Tiramisu", 1), Want("Lasagna al Forno", 2)))
    second = Reading("model", "Italian Bistro", (Want("Lasagna al Forno", 3),))
    result, shop, messages = run_planner(
        goal,
        tmp_path,
        model=Planner(reader=Remembered(LooksTwice(first, second))),
        profile=PROFILE,
        approve="auto",
    )
    assert result.outcome == "paused" and shop.orders == []
    [asked] = questions(messages)
    assert asked["question"] == f"{PROPOSE}{first.describe()}. Is that right?"
