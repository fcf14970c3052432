"""`webagent eval`: the task-file parser, the DB verifier on a real shop, why nothing was ordered, and the
command. The shipped suite end to end is in test_suite_planner.py and test_suite_baselines.py (files of
their own, so that pytest-xdist can run them on different workers)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from demo_site import Shop, running_shop
from webagent.errors import UsageError
from webagent.evals.summary import TaskResult
from webagent.evals.tasks import (
    DEFAULT_PROFILE,
    SHOP_DEFAULT_PAYMENT,
    SHOP_DEFAULT_SLOT,
    Expect,
    load_tasks,
    parse_tasks,
)
from webagent.evals.verify import bought_beyond, read_orders, verify, wrong_order

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "evals" / "tasks.jsonl"

PIZZA = "italian-bistro--margherita-pizza"
TIRAMISU = "italian-bistro--tiramisu"
DETAILS = {
    "name": "Eval Customer",
    "address": "1 Test Street",
    "phone": "555-0100",
    "delivery_slot": "19:00-19:30",
    "payment_method": "Cash",
}
FINISHED_ORDERED = {"event": "finished", "outcome": "ordered", "order_id": 1}


# Task file ---------------------------------------------------------------------------------------


def line(**fields: Any) -> str:
    task: dict[str, Any] = {"id": "t1", "goal": "a tiramisu from Italian Bistro", "expect": {"ordered": True}}
    task.update(fields)
    return json.dumps(task)


def test_parser_reads_good_lines_with_defaults_and_skips_blank_lines() -> None:
    text = "\n".join(
        [
            line(),
            "",
            line(
                id="t2",
                clutter=3,
                approve="deny",
                answers=["Pizza Planet"],
                budget_cents=4000,
                kind="question",
            ),
        ]
    )
    first, second = parse_tasks(text)
    assert (first.id, first.clutter, first.seed, first.approve, first.profile) == ("t1", 0, 7, "auto", None)
    assert (second.clutter, second.approve, second.answers, second.budget_cents) == (
        3,
        "deny",
        ["Pizza Planet"],
        4000,
    )
    # A task's class is for readers and counts only; it survives the trip to a Ray worker unchanged.
    assert (first.kind, second.kind) == (None, "question")
    assert type(second).model_validate_json(second.model_dump_json()) == second


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (line() + "\n{not json", "line 2: not valid JSON"),
        ('["a list"]', "line 1: a task must be a JSON object"),
        (line(expect={}), "line 1: missing field 'expect.ordered'"),
        (line(clutter=5), "line 1: field 'clutter'"),
        (line(approve="ask"), "line 1: field 'approve'"),
        (line(expekt={"ordered": True}), "line 1: unknown field 'expekt' (did you mean 'expect'?)"),
        (
            line(expect={"ordered": True, "items": [{"dish": "Tiramisu", "quantiy": 2}]}),
            "line 1: unknown field 'expect.items.0.quantiy' (did you mean 'quantity'?)",
        ),
        (line(expect={"ordered": False}), "ordered is false, so say why nothing is ordered: stopped_by"),
        (line(expect={"ordered": False, "stopped_by": "bored"}), "line 1: field 'expect.stopped_by'"),
        (line(expect={"ordered": True, "stopped_by": "budget"}), "this task expects an order"),
        (
            line(expect={"ordered": False, "stopped_by": "popup", "restaurant": "X"}),
            "ordered is false, so restaurant cannot",
        ),
        (
            line(expect={"ordered": False, "stopped_by": "not_on_menu", "items": [{"dish": "X"}]}),
            "ordered is false, so items cannot",
        ),
        (
            line(expect={"ordered": False, "stopped_by": "sold_out", "missing": ["X"]}),
            "missing names what a menu lacks: only with stopped_by not_on_menu",
        ),
        (
            line(expect={"ordered": False, "stopped_by": "popup", "answer": {"restaurants_selling": "X"}}),
            "only with stopped_by answered_question",
        ),
        (
            line(
                expect={
                    "ordered": False,
                    "stopped_by": "answered_question",
                    "answer": {"restaurant_selling": "X"},
                }
            ),
            "missing field 'expect.answer.restaurants_selling'",
        ),
        (line(init_script="nowhere.js"), "line 1: init_script 'nowhere.js': no file"),
        (line() + "\n" + line(), "line 2: task id 't1' already used on line 1"),
        ("\n\n", "no tasks"),
    ],
)
def test_parser_names_the_line_and_field_of_a_bad_task(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=r"^tasks") as error:
        parse_tasks(text, "tasks")
    assert message in str(error.value)


def test_shipped_suite_parses_and_covers_every_clutter_level() -> None:
    tasks = load_tasks(SUITE)
    assert len(tasks) >= 30
    assert {task.clutter for task in tasks} == {0, 1, 2, 3, 4}
    assert len({task.goal for task in tasks}) >= 25
    assert any(not task.expect.ordered for task in tasks)
    assert any(task.approve == "deny" for task in tasks)
    assert all(Path(task.init_script).is_file() for task in tasks if task.init_script)


def test_a_refused_cart_may_be_named_and_the_tasks_budget_is_checked() -> None:
    [task] = parse_tasks(
        line(budget_cents=3000, expect={"ordered": False, "stopped_by": "budget", "items": [{"dish": "X"}]})
    )
    assert task.expect.budget_cents == 3000 and task.expect.items is not None


def test_every_task_checks_what_its_goal_states() -> None:
    """A budget, a tip, a name, a phone or an address the goal states is in the task's expectations, and
    every order's total is: an agent that ignores them must fail (read with the goal reader)."""
    from webagent.planner import read_goal

    restaurants = [
        r["name"] for r in json.loads((ROOT / "demo_site" / "catalog.json").read_text())["restaurants"]
    ]
    for task in load_tasks(SUITE):
        details = read_goal(task.goal, restaurants).details
        expect = task.expect
        if "budget_cents" in details:
            assert expect.budget_cents == details["budget_cents"].value, task.id
        if not expect.ordered:
            assert expect.stopped_by is not None, task.id
            continue
        assert expect.total_cents is not None and expect.name and expect.phone, task.id
        if expect.budget_cents is not None:
            assert expect.total_cents <= expect.budget_cents, task.id
        for key in ("name", "phone", "tip_cents"):
            if key in details:
                assert getattr(expect, key) == details[key].value, (task.id, key)
        if "address" in details:
            assert expect.address_contains == details["address"].value, task.id


# Verifier on a real shop database ----------------------------------------------------------------


@pytest.fixture
def ordered_shop(tmp_path: Path) -> Iterator[Shop]:
    """A fresh shop holding one order placed through its HTTP API: 2 large pizzas with bacon, a tiramisu."""
    with running_shop(db_path=tmp_path / "shop.db") as shop, httpx.Client(base_url=shop.url) as client:
        pizza = {"dish_id": PIZZA, "quantity": 2, "options": {"Size": "Large", "Extras": ["Bacon"]}}
        assert client.post("/api/cart/items", json=pizza).status_code < 300
        tiramisu = {"dish_id": TIRAMISU, "quantity": 1, "options": {}}
        assert client.post("/api/cart/items", json=tiramisu).status_code < 300
        token = client.get("/api/cart").json()["checkout_token"]
        placed = client.post(
            "/api/orders", json={**DETAILS, "checkout_token": token, "promo_code": "WELCOME10"}
        )
        assert placed.status_code < 300, placed.text
        yield shop


def expect(**fields: Any) -> Expect:
    return Expect.model_validate({"ordered": True, **fields})


PIZZAS = {"dish": "margherita pizza", "quantity": 2, "options": {"Size": "Large", "Extras": ["Bacon"]}}
TOTAL = 2 * (1150 + 400 + 200) + 750 + 299 + 213 - 425  # lines, delivery, 5 % service, WELCOME10 (10 %)


def test_verifier_passes_what_the_database_holds(ordered_shop: Shop) -> None:
    orders = read_orders(ordered_shop.db_path)
    wanted = expect(
        restaurant="italian bistro",
        items=[PIZZAS, {"dish": "Tiramisu"}],
        address_contains="test street",
        delivery_slot="19:00-19:30",
        payment_method="cash",
        promo_code="welcome10",
        name="eval customer",
        phone="555-0100",
        tip_cents=0,
        total_cents=TOTAL,
        budget_cents=TOTAL,
        asked_human=False,
    )
    verdict = verify(wanted, orders, [FINISHED_ORDERED])
    assert verdict.passed, verdict.reason
    assert verdict.order_id == 1 and not verdict.bought_beyond_goal
    assert "2 × Margherita Pizza {Size: Large, Extras: Bacon}" in verdict.reason


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        (
            {"items": [{**PIZZAS, "options": {"Size": "Regular"}}]},
            "expected 2 × margherita pizza {Size: Regular}, DB has 2 × Margherita Pizza "
            "{Size: Large, Extras: Bacon}, 1 × Tiramisu",
        ),
        (  # an extra nobody asked for is a different line, not a detail
            {"items": [{**PIZZAS, "options": {"Size": "Large"}}, {"dish": "Tiramisu"}]},
            "expected 2 × margherita pizza {Size: Large}, DB has",
        ),
        (
            {"items": [{**PIZZAS, "quantity": 3}]},
            "expected 3 × margherita pizza {Size: Large, Extras: Bacon}",
        ),
        ({"items": [PIZZAS]}, "unexpected extra lines in the DB: 1 × Tiramisu"),
        ({"items": [{**PIZZAS, "options": {"Extras": []}}]}, "expected 2 × margherita pizza, DB has"),
        ({"name": "Ada"}, "expected name 'Ada', DB has 'Eval Customer'"),
        ({"phone": "555-0199"}, "expected phone '555-0199', DB has '555-0100'"),
        ({"tip_cents": 300}, "expected a tip of $3.00, DB has $0.00"),
        ({"total_cents": TOTAL - 1}, f"expected a total of $43.36, DB has ${TOTAL // 100}.{TOTAL % 100}"),
        (
            {"budget_cents": TOTAL - 1},
            f"the total ${TOTAL // 100}.{TOTAL % 100} is over the budget of $43.36",
        ),
        ({"restaurant": "Italian Bistro Express"}, "expected restaurant 'Italian Bistro Express'"),
        ({"address_contains": "Elm"}, "expected the address to contain 'Elm', DB has '1 Test Street'"),
        ({"delivery_slot": "ASAP"}, "expected delivery_slot 'ASAP', DB has '19:00-19:30'"),
        ({"payment_method": "Voucher"}, "expected payment_method 'Voucher', DB has 'Cash'"),
        ({"promo_code": ""}, "expected no promo code, DB has 'WELCOME10'"),
        ({"asked_human": True}, "expected the agent to ask a person, it did not"),
    ],
)
def test_verifier_says_what_differs(ordered_shop: Shop, fields: dict[str, Any], reason: str) -> None:
    verdict = verify(expect(**fields), read_orders(ordered_shop.db_path), [FINISHED_ORDERED])
    assert not verdict.passed
    assert reason in verdict.reason
    assert not verdict.false_claim


def test_verifier_accepts_a_one_element_list_or_a_string_for_multi_choice(ordered_shop: Shop) -> None:
    orders = read_orders(ordered_shop.db_path)
    for extras in ("Bacon", ["bacon"]):
        items = [{**PIZZAS, "options": {"Size": "Large", "Extras": extras}}, {"dish": "Tiramisu"}]
        assert verify(expect(items=items), orders, []).passed


def test_exact_items_false_allows_other_lines(ordered_shop: Shop) -> None:
    verdict = verify(expect(items=[PIZZAS], exact_items=False), read_orders(ordered_shop.db_path), [])
    assert verdict.passed, verdict.reason


def test_an_order_where_none_was_expected_fails(ordered_shop: Shop) -> None:
    verdict = verify(Expect(ordered=False, stopped_by="sold_out"), read_orders(ordered_shop.db_path), [])
    assert not verdict.passed and verdict.bought_beyond_goal
    assert verdict.reason.startswith("expected no order, DB has order #1: 2 × Margherita Pizza")


def test_what_was_bought_beyond_the_goal(ordered_shop: Shop) -> None:
    orders = read_orders(ordered_shop.db_path)
    tiramisu = {"dish": "Tiramisu", "quantity": 1}
    assert not bought_beyond(expect(items=[PIZZAS, tiramisu]), orders)
    assert bought_beyond(expect(items=[PIZZAS]), orders)  # the tiramisu
    assert bought_beyond(expect(items=[{**PIZZAS, "quantity": 1}, tiramisu]), orders)  # one pizza too many
    assert bought_beyond(expect(items=[{**PIZZAS, "options": {"Size": "Large"}}, tiramisu]), orders)  # bacon
    assert bought_beyond(expect(items=[PIZZAS, tiramisu], budget_cents=TOTAL - 1), orders)
    assert not bought_beyond(
        expect(items=[{**PIZZAS, "quantity": 3}, tiramisu]), orders
    )  # less is not beyond
    assert not bought_beyond(Expect(ordered=False, stopped_by="budget"), [])


@pytest.mark.parametrize(
    ("fields", "beyond"),
    [
        ({"items": [PIZZAS, {"dish": "Tiramisu"}, {"dish": "Lemonade"}]}, False),  # one dish fewer
        ({"items": [{**PIZZAS, "quantity": 3}, {"dish": "Tiramisu"}]}, False),  # fewer of one
        ({"items": [{**PIZZAS, "quantity": 1}, {"dish": "Tiramisu"}]}, True),  # more of one
        ({"items": [PIZZAS]}, True),  # a line nobody asked for
        (
            {
                "items": [
                    {**PIZZAS, "options": {"Size": "Regular", "Extras": ["Bacon"]}},
                    {"dish": "Tiramisu"},
                ]
            },
            True,
        ),
        ({"items": [PIZZAS, {"dish": "Tiramisu"}], "restaurant": "Italian Bistro Express"}, False),
        ({"items": [PIZZAS, {"dish": "Tiramisu"}], "payment_method": "Voucher"}, False),
        ({"items": [PIZZAS, {"dish": "Tiramisu"}], "delivery_slot": "ASAP"}, False),
    ],
)
def test_an_order_that_differs_in_any_way_is_a_wrong_order_whether_or_not_it_buys_beyond(
    ordered_shop: Shop, fields: dict[str, Any], beyond: bool
) -> None:
    """A build that orders one dish fewer is reported as a wrong order (issue 37), beside "bought beyond"."""
    orders = read_orders(ordered_shop.db_path)
    verdict = verify(expect(**fields), orders, [FINISHED_ORDERED])
    assert not verdict.passed and verdict.wrong_order and wrong_order(expect(**fields), orders)
    assert verdict.bought_beyond_goal == beyond, verdict.reason
    right = expect(items=[PIZZAS, {"dish": "Tiramisu"}], restaurant="Italian Bistro")
    assert not wrong_order(right, orders) and not verify(right, orders, [FINISHED_ORDERED]).wrong_order
    assert wrong_order(Expect(ordered=False, stopped_by="sold_out"), orders)
    assert not wrong_order(right, []) and wrong_order(right, orders + orders)  # none is not wrong; two are


def test_a_time_or_payment_nobody_asked_for_is_a_wrong_order(ordered_shop: Shop) -> None:
    """A task that pins no delivery time or payment expects them left as nobody changed them: the shop's
    first time (ASAP) and the customer's own payment method; the order at 19:00-19:30, paid Cash, is wrong."""
    catalog = json.loads((ROOT / "demo_site" / "catalog.json").read_text())
    assert (
        catalog["delivery_slots"][0],
        catalog["payment_methods"][0],
    ) == (SHOP_DEFAULT_SLOT, SHOP_DEFAULT_PAYMENT)
    goal = {"restaurant": "Italian Bistro", "items": [PIZZAS, {"dish": "Tiramisu"}]}
    [plain] = parse_tasks(line(expect={"ordered": True, **goal}))
    assert (plain.expect.delivery_slot, plain.expect.payment_method) == (
        "ASAP",
        DEFAULT_PROFILE.payment_method,
    )
    orders = read_orders(ordered_shop.db_path)
    verdict = verify(plain.expect, orders, [FINISHED_ORDERED])
    assert not verdict.passed and verdict.wrong_order and not verdict.bought_beyond_goal
    assert "expected delivery_slot 'ASAP', DB has '19:00-19:30'" in verdict.reason
    assert "expected payment_method 'Card on delivery', DB has 'Cash'" in verdict.reason
    # What the task pins, or the customer's profile, is what is expected.
    asked = line(
        expect={"ordered": True, "delivery_slot": "19:00-19:30", **goal}, profile={"payment_method": "Cash"}
    )
    [pinned] = parse_tasks(asked)
    assert verify(pinned.expect, orders, [FINISHED_ORDERED]).passed
    [no_payment] = parse_tasks(line(expect={"ordered": True}, profile={"name": "Bo"}))
    assert no_payment.expect.payment_method == SHOP_DEFAULT_PAYMENT
    [none] = parse_tasks(line(expect={"ordered": False, "stopped_by": "asked_human"}))
    assert (none.expect.delivery_slot, none.expect.payment_method) == (None, None)


def test_a_claimed_order_missing_from_the_database_is_a_false_claim(tmp_path: Path) -> None:
    with running_shop(db_path=tmp_path / "shop.db") as shop:
        orders = read_orders(shop.db_path)
    assert orders == []
    verdict = verify(expect(), orders, [FINISHED_ORDERED])
    assert verdict.false_claim
    assert "the run claimed order #1, but the DB does not hold it" in verdict.reason
    assert "expected an order, DB has none" in verdict.reason


def test_a_paused_question_counts_as_asking_and_as_nothing_ordered(tmp_path: Path) -> None:
    with running_shop(db_path=tmp_path / "shop.db") as shop:
        orders = read_orders(shop.db_path)
    paused = [{"event": "paused", "kind": "answer", "question": "Which restaurant?"}]
    assert verify(Expect(ordered=False, stopped_by="asked_human", asked_human=True), orders, paused).passed
    verdict = verify(expect(), orders, paused)
    assert verdict.reason == "expected an order, DB has none (the run paused: 'Which restaurant?')"


# Why nothing was ordered: tests/evals/test_stop_reasons.py ----------------------------------------


# The command --------------------------------------------------------------------------------------


def test_cli_json_reports_a_wrong_order_and_exits_4(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    right = {"ordered": True, "restaurant": "Italian Bistro", "items": [{"dish": "Tiramisu", "quantity": 2}]}
    wrong = {"ordered": True, "items": [{"dish": "Lemonade", "quantity": 3}]}
    goal = "two tiramisu from Italian Bistro"
    tasks.write_text(
        json.dumps({"id": "right", "goal": goal, "expect": right})
        + "\n"
        + json.dumps({"id": "wrong", "goal": goal, "expect": wrong})
        + "\n",
        encoding="utf-8",
    )
    command = [sys.executable, "-m", "webagent", "eval", str(tasks), "--json", "--model", "planner"]
    done = subprocess.run(
        [*command, "--runs-dir", str(tmp_path / "runs")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    # The "wrong" task's order differs from what it expects: a wrong order, worse than a failure.
    assert done.returncode == 4 and "1 wrong order(s) placed" in done.stderr, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"tasks", "summary", "baselines"} and report["baselines"] == {}
    by_id = {task["id"]: task for task in report["tasks"]}
    assert by_id["right"]["passed"] and by_id["right"]["outcome"] == "ordered"
    assert not by_id["wrong"]["passed"]
    assert by_id["wrong"]["reason"].startswith("expected 3 × Lemonade, DB has 2 × Tiramisu")
    for key in ("order_id", "steps", "model_calls", "tool_calls", "tokens", "wall_s", "run_dir", "said"):
        assert key in by_id["wrong"]
    assert "Tiramisu" in by_id["wrong"]["said"]  # the run's own words: it ordered what the goal said
    summary = report["summary"]
    assert (summary["total"], summary["passed"], summary["success_rate"], summary["false_claims"]) == (
        2,
        1,
        0.5,
        0,
    )
    assert (
        summary["wrong_orders"] == 1 and by_id["wrong"]["wrong_order"] and not by_id["right"]["wrong_order"]
    )


def test_cli_prints_each_baselines_score_beside_the_models(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    right = {"ordered": True, "restaurant": "Italian Bistro", "items": [{"dish": "Tiramisu", "quantity": 2}]}
    tasks.write_text(
        json.dumps({"id": "t", "goal": "two tiramisu from Italian Bistro", "expect": right}) + "\n"
    )
    command = [sys.executable, "-m", "webagent", "eval", str(tasks), "--model", "planner", "--baselines"]
    runs = ["--runs-dir", str(tmp_path / "runs")]
    done = subprocess.run([*command, *runs], capture_output=True, text=True, cwd=ROOT, timeout=300)
    # Every baseline fails the task but buys nothing beyond it: the model under test passing is what counts.
    assert done.returncode == 0, done.stdout + done.stderr
    scores = done.stdout[done.stdout.index("scores (") : done.stdout.index("Report: ")].splitlines()
    assert [row.split()[0] for row in scores[1:]] == ["planner", "null", "ask", "random", "gullible", "namer"]
    by_model = {row.split()[0]: row.split()[1] for row in scores[1:]}
    assert by_model == {
        "planner": "1/1",
        "null": "0/1",
        "ask": "0/1",
        "random": "0/1",
        "gullible": "1/1",
        "namer": "0/1",
    }
    assert (tmp_path / "runs" / "baselines" / "random").is_dir()
    page = (tmp_path / "runs" / "eval-report.html").read_text()  # with a column for each baseline
    assert all(f">{name}<" in page for name in ("null", "ask", "random", "gullible", "namer"))


def test_cli_rejects_a_malformed_task_file_with_exit_2(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(line() + "\n" + line(id="t2", clutter="lots") + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "webagent", "eval", str(tasks)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2
    assert "line 2: field 'clutter'" in done.stderr


def test_a_failing_line_carries_the_runs_own_words_and_a_passing_one_stays_short() -> None:
    said = "Could not fill in the delivery details: the page did not accept the action."
    failed = TaskResult(
        id="t69", passed=False, reason="expected an order, DB has none", outcome="failed", said=said
    )
    assert failed.line().startswith(
        f"t69 FAIL: expected an order, DB has none — the run said: {said!r} [failed"
    )
    passed = failed.model_copy(update={"passed": True, "reason": "order #1", "outcome": "ordered"})
    assert "the run said" not in passed.line()
