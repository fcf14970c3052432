"""`webagent eval`: the task-file parser, the DB verifier on a real shop, and the shipped suite end to end."""

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
from webagent.eval import Expect, load_tasks, parse_tasks, read_orders, run_suite, verify
from webagent.sync import run_sync

ROOT = Path(__file__).resolve().parents[1]
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
            line(id="t2", clutter=3, approve="deny", answers=["Pizza Planet"], budget_cents=4000),
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
        (line(expect={"ordered": False, "restaurant": "X"}), "ordered is false, so restaurant cannot"),
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


PIZZAS = {"dish": "margherita pizza", "quantity": 2, "options": {"Size": "Large"}}


def test_verifier_passes_what_the_database_holds(ordered_shop: Shop) -> None:
    orders = read_orders(ordered_shop.db_path)
    wanted = expect(
        restaurant="italian bistro",
        items=[PIZZAS, {"dish": "Tiramisu"}],
        address_contains="test street",
        delivery_slot="19:00-19:30",
        payment_method="cash",
        promo_code="welcome10",
        asked_human=False,
    )
    verdict = verify(wanted, orders, [FINISHED_ORDERED])
    assert verdict.passed, verdict.reason
    assert verdict.order_id == 1
    assert "2 × Margherita Pizza {Size: Large, Extras: Bacon}" in verdict.reason


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        (
            {"items": [{**PIZZAS, "options": {"Size": "Regular"}}]},
            "expected 2 × margherita pizza {Size: Regular}, DB has 2 × Margherita Pizza {Size: Large, "
            "Extras: Bacon}, 1 × Tiramisu",
        ),
        ({"items": [{**PIZZAS, "quantity": 3}]}, "expected 3 × margherita pizza {Size: Large}"),
        ({"items": [PIZZAS]}, "unexpected extra lines in the DB: 1 × Tiramisu"),
        ({"items": [{**PIZZAS, "options": {"Extras": []}}]}, "expected 2 × margherita pizza, DB has"),
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
    verdict = verify(Expect(ordered=False), read_orders(ordered_shop.db_path), [])
    assert not verdict.passed
    assert verdict.reason.startswith("expected no order, DB has order #1: 2 × Margherita Pizza")


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
    assert verify(Expect(ordered=False, asked_human=True), orders, paused).passed
    verdict = verify(expect(), orders, paused)
    assert verdict.reason == "expected an order, DB has none (the run paused: 'Which restaurant?')"


# The suite end to end ----------------------------------------------------------------------------


def test_the_shipped_suite_passes_with_the_planner(tmp_path: Path) -> None:
    report = run_sync(run_suite(load_tasks(SUITE), runs_dir=tmp_path, workers=2, model="planner"))
    lines = "\n".join(task.line() for task in report.tasks)
    assert report.summary["false_claims"] == 0, lines
    assert report.summary["passed"] == report.summary["total"] == len(report.tasks), lines
    assert all(Path(task.run_dir, "transcript.jsonl").exists() for task in report.tasks)


def test_cli_json_reports_a_failing_task_and_exits_1(tmp_path: Path) -> None:
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
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"tasks", "summary"}
    by_id = {task["id"]: task for task in report["tasks"]}
    assert by_id["right"]["passed"] and by_id["right"]["outcome"] == "ordered"
    assert not by_id["wrong"]["passed"]
    assert by_id["wrong"]["reason"].startswith("expected 3 × Lemonade, DB has 2 × Tiramisu")
    for key in ("order_id", "steps", "model_calls", "tool_calls", "tokens", "wall_s", "run_dir"):
        assert key in by_id["wrong"]
    summary = report["summary"]
    assert (summary["total"], summary["passed"], summary["success_rate"], summary["false_claims"]) == (
        2,
        1,
        0.5,
        0,
    )


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
