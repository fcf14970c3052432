"""``webagent batch``: lines in, results out, each line's order checked in the shop's own database.

The order lines are drawn at random from the catalog (the seed is in every failure message), run against
one real shop, and judged by what the shop's database holds for each line's session. A batch is killed
(SIGKILL, and Ctrl-C) at a random moment and run again: every line ends with exactly one order.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from demo_site import Shop
from demo_site.db import CATALOG_PATH, ShopDB
from webagent.agent.checkpoint import Checkpoint, RunFolder
from webagent.cli.main import main
from webagent.config import Profile, RunConfig
from webagent.errors import UsageError
from webagent.fleet.batch import run_batch
from webagent.fleet.files import Attempt, AttemptLog, ResultFile, sidecar
from webagent.fleet.jobs import LocalRunner
from webagent.fleet.lines import parse_batch
from webagent.fleet.settle import settle_earlier_attempts
from webagent.sites.demo_shop.session_api import ShopSessions
from webagent.sync import run_sync

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ["--name", "Batch Customer", "--address", "7 Line Street", "--phone", "555-0107"]


# Random order lines from the catalog ------------------------------------------------------------


def _unit_cents(dish: dict[str, Any], choices: list[str]) -> int:
    deltas = {c["name"]: c["price_delta_cents"] for option in dish["options"] for c in option["choices"]}
    return dish["price_cents"] + sum(deltas[choice] for choice in choices)


def random_order_lines(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """``count`` batch lines, each a random order at a random restaurant that meets its minimum."""
    catalog = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))
    lines = []
    for number in range(count):
        restaurant = rng.choice(
            [r for r in catalog["restaurants"] if any(not d["sold_out"] for d in r["menu"])]
        )
        menu = [dish for dish in restaurant["menu"] if not dish["sold_out"]]
        items = []
        for dish in rng.sample(menu, k=rng.randint(1, min(3, len(menu)))):
            choices = [
                rng.choice(option["choices"])["name"]
                for option in dish["options"]
                if option["required"] or rng.random() < 0.3
            ]
            items.append(
                {"dish": dish["name"], "quantity": rng.randint(1, 3), "options": choices, "_dish": dish}
            )
        while (
            sum(_unit_cents(i["_dish"], i["options"]) * i["quantity"] for i in items)
            < restaurant["min_order_cents"]
        ):
            items[0]["quantity"] += 1
        order = {
            "restaurant": restaurant["name"],
            "items": [{k: v for k, v in item.items() if k != "_dish"} for item in items],
            "payment_method": "Cash",
        }
        lines.append({"id": f"random-{number}", "order": order, "clutter": rng.choice([0, 1, 2])})
    return lines


def wanted_items(line: dict[str, Any]) -> list[tuple[str, int, list[str]]]:
    return sorted((i["dish"], i["quantity"], sorted(i["options"])) for i in line["order"]["items"])


def ordered_items(order: dict[str, Any]) -> list[tuple[str, int, list[str]]]:
    def choices(options: dict[str, Any]) -> list[str]:
        return sorted(
            c for value in options.values() for c in (value if isinstance(value, list) else [value])
        )

    return sorted((i["dish_name"], i["quantity"], choices(i["options"])) for i in order["items"])


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def results_of(out: Path) -> dict[str, dict[str, Any]]:
    records = [json.loads(raw) for raw in out.read_text(encoding="utf-8").splitlines()]
    by_line = {record["line"]: record for record in records}
    assert len(by_line) == len(records), "a line was written twice"
    return by_line


def orders_by_line(out: Path, db_path: Path) -> dict[str, list[dict[str, Any]]]:
    """Every order the shop holds in the sessions of each line's attempts."""
    db = ShopDB(db_path)
    orders: dict[str, list[dict[str, Any]]] = {}
    for line_id, attempts in AttemptLog(sidecar(out, ".attempts.jsonl")).by_line().items():
        for attempt in attempts:
            orders.setdefault(line_id, []).extend(db.orders(attempt.cookies["shop_session"]))
    return orders


def count_orders(db_path: Path) -> int:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM orders").fetchone()[0])
    finally:
        conn.close()


# The batch file -----------------------------------------------------------------------------------


def test_lines_take_a_goal_or_an_order_and_their_own_settings(tmp_path: Path) -> None:
    (tmp_path / "sushi.yaml").write_text(
        "restaurant: Sushi House\nitems:\n  - {dish: Miso Soup, quantity: 2}\n"
    )
    text = "\n".join(
        [
            '{"goal": "2 tiramisu from Italian Bistro", "clutter": 3, "profile": {"name": "Bo"}}',
            "",
            '{"id": "sushi", "order": "sushi.yaml", "approve": "deny", "budget_cents": 900}',
        ]
    )
    first, second = parse_batch(text, "b.jsonl", tmp_path)

    assert first.id == "line-1" and second.id == "sushi"
    base = RunConfig(clutter=1, seed=3, approve="auto", profile=Profile(phone="555"))
    config = first.config(base)
    assert (config.goal, config.clutter, config.seed, config.approve) == (
        "2 tiramisu from Italian Bistro",
        3,
        3,
        "auto",
    )
    assert (config.profile.name, config.profile.phone) == ("Bo", "555")
    ordered = second.config(base)
    assert ordered.order == {
        "restaurant": "Sushi House",
        "items": [{"dish": "Miso Soup", "quantity": 2, "options": []}],
    }
    assert (ordered.goal, ordered.approve, ordered.budget_cents) == (None, "deny", 900)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"goal": "a tiramisu", "order": {"items": []}}', "line 1: give either goal or order"),
        ('{"clutter": 2}', "line 1: give either goal or order"),
        ('{"goal": "x", "budget": 10}', "unknown field 'budget' (did you mean 'budget_cents'?)"),
        (
            '{"goal": "x", "profile": {"adress": "1 St"}}',
            "unknown field 'profile.adress' (did you mean 'address'?)",
        ),
        ('{"goal": "x", "clutter": 9}', "field 'clutter'"),
        ('{"goal": "x", "approve": "ask"}', "field 'approve'"),
        ('{"order": {"items": [{"dish": "Tiramisu", "quantity": 0}]}}', "field 'order.items.0.quantity'"),
        ('{"order": "missing.yaml"}', "cannot read order file"),
        ('{"id": "a", "goal": "x"}\n{"id": "a", "goal": "y"}', "line 2: id 'a' already used on line 1"),
        ("{goal: x}", "line 1: not valid JSON"),
        ('["x"]', "line 1: a line must be a JSON object"),
        ("\n\n", "no lines"),
    ],
)
def test_a_bad_line_is_named_with_what_is_wrong(tmp_path: Path, text: str, says: str) -> None:
    with pytest.raises(UsageError) as raised:
        parse_batch(text, "b.jsonl", tmp_path)
    assert says in str(raised.value)


def test_a_torn_last_result_is_cut_off_and_the_log_is_held_by_one_batch(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"line": "a", "outcome": "ordered"}\n{"line": "b", "outc', encoding="utf-8")

    assert list(ResultFile(out).done()) == ["a"]
    assert out.read_text(encoding="utf-8") == '{"line": "a", "outcome": "ordered"}\n'

    first, second = AttemptLog(tmp_path / "log.jsonl"), AttemptLog(tmp_path / "log.jsonl")
    first.lock()
    try:
        with pytest.raises(UsageError, match="another batch is writing this output"):
            second.lock()
    finally:
        first.unlock()
    second.lock()
    second.unlock()


# Settling a line that was started before ---------------------------------------------------------


def _order_in_session(shop: Shop, cookies: dict[str, str]) -> int:
    """Place an order through the shop's API in that session, as a run cut off after ordering would."""
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())

    def call(method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(
            shop.url + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Cookie": cookie, "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    call("POST", "/api/cart/items", {"dish_id": "italian-bistro--tiramisu", "quantity": 3, "options": {}})
    token = call("GET", "/api/cart")["checkout_token"]
    details = {"name": "Ada", "address": "12 Oak Street", "phone": "555-0101"}
    order = call(
        "POST",
        "/api/orders",
        {**details, "delivery_slot": "ASAP", "payment_method": "Cash", "checkout_token": token},
    )
    return int(order["id"])


def test_an_order_placed_by_a_cut_off_attempt_is_reported_not_placed_again(
    fresh_shop: Shop, tmp_path: Path
) -> None:
    shop = ShopSessions(fresh_shop.url)
    empty, ordered = run_sync(shop.open()), run_sync(shop.open())
    assert empty != ordered
    order_id = _order_in_session(fresh_shop, ordered)
    # The newer attempt's run folder was cut off mid-run on this machine; the older one's is elsewhere.
    folder = RunFolder.create(tmp_path, "run-2")
    folder.save(Checkpoint(run_id="run-2", config=RunConfig(goal="x")))
    attempts = [
        Attempt(line="a", run_id="run-1", shop=shop.identity, cookies=ordered),
        Attempt(line="a", run_id="run-2", shop=shop.identity, cookies=empty),
    ]

    settled = run_sync(settle_earlier_attempts("a", attempts, shop, tmp_path))

    assert settled is not None
    assert (settled.outcome, settled.order_id, settled.run_id) == ("ordered", order_id, "run-1")
    assert "not ordered again" in settled.message
    assert count_orders(fresh_shop.db_path) == 1


def test_a_line_whose_attempts_ordered_nothing_may_start_again(fresh_shop: Shop, tmp_path: Path) -> None:
    shop = ShopSessions(fresh_shop.url)
    # The first attempt was given up for a second (its folder closed out as failed); the second was cut off.
    given_up = RunFolder.create(tmp_path, "run-1")
    state = Checkpoint(run_id="run-1", config=RunConfig(goal="x"), status="finished")
    state.result = state.result_of(
        "failed", "interrupted before ordering; line a ran again", str(given_up.path)
    )
    given_up.save(state)
    RunFolder.create(tmp_path, "run-2").save(Checkpoint(run_id="run-2", config=RunConfig(goal="x")))
    attempts = [
        Attempt(line="a", run_id=run_id, shop=shop.identity, cookies=run_sync(shop.open()))
        for run_id in ("run-1", "run-2")
    ]

    # Not the given-up attempt's "failed": nothing was ordered, so the line runs again.
    assert run_sync(settle_earlier_attempts("a", attempts, shop, tmp_path)) is None


def test_a_shop_that_cannot_be_asked_leaves_started_lines_for_the_next_run(tmp_path: Path) -> None:
    lines = parse_batch('{"id": "started", "goal": "x"}\n{"id": "new", "goal": "y"}')
    out = tmp_path / "out.jsonl"
    closed = ShopSessions("http://127.0.0.1:9")  # the discard port: nothing listens
    AttemptLog(sidecar(out, ".attempts.jsonl")).add(
        Attempt(line="started", run_id="run-1", shop=closed.identity, cookies={"shop_session": "s"})
    )
    base = RunConfig(shop_url=closed.url, runs_dir=tmp_path / "runs")

    summary = run_sync(
        run_batch(lines, out=out, base=base, runner=LocalRunner(None, base.runs_dir), shop=closed, workers=2)
    )

    assert summary.left == 1  # it may have ordered: not started again, not written off
    [record] = results_of(out).values()
    assert (record["line"], record["outcome"]) == ("new", "failed")
    assert record["message"].startswith("not started: the shop at http://127.0.0.1:9 did not answer")


def test_an_output_started_against_another_shop_is_refused(
    fresh_shop: Shop, tmp_path: Path, capsys: Any
) -> None:
    batch = write_lines(tmp_path / "b.jsonl", [{"goal": "a tiramisu from Italian Bistro"}])
    out = tmp_path / "b.results.jsonl"
    AttemptLog(sidecar(out, ".attempts.jsonl")).add(
        Attempt(line="line-1", run_id="r", shop="http://shop.example:8000", cookies={"shop_session": "s"})
    )

    code = main(["batch", str(batch), "--shop-url", fresh_shop.url, "--approve", "auto"])

    assert code == 2
    assert "was started against the shop http://shop.example:8000" in capsys.readouterr().err
    assert count_orders(fresh_shop.db_path) == 0


# Whole batches ------------------------------------------------------------------------------------


def test_twenty_order_lines_against_one_shop_give_twenty_orders_each_its_own_items(
    fresh_shop: Shop, tmp_path: Path, capsys: Any
) -> None:
    seed = random.randrange(10**6)
    lines = random_order_lines(random.Random(seed), 20)
    failing = [
        {"id": "unknown-dish", "order": {"restaurant": "Italian Bistro", "items": [{"dish": "Dragon Soup"}]}},
        {"id": "over-budget", "goal": "3 Tiramisu from Italian Bistro, pay cash", "budget_cents": 500},
    ]
    batch = write_lines(tmp_path / "orders.jsonl", lines[:10] + failing + lines[10:])
    out = tmp_path / "results.jsonl"

    code = main(
        [
            "batch",
            str(batch),
            "--out",
            str(out),
            "--shop-url",
            fresh_shop.url,
            "--approve",
            "auto",
            "--workers",
            "2",
            "--runs-dir",
            str(tmp_path / "runs"),
            "--json",
            *PROFILE,
        ]
    )

    summary = json.loads(capsys.readouterr().out)
    records = results_of(out)
    assert code in (1, 3), f"seed {seed}: {summary}"  # a line failed, or paused to ask a person
    assert (summary["lines"], summary["ran"], summary["orders"]) == (22, 22, 20), f"seed {seed}"
    orders = orders_by_line(out, fresh_shop.db_path)
    for line in lines:
        record = records[line["id"]]
        assert record["outcome"] == "ordered", f"seed {seed}, {line}: {record['message']}"
        [order] = orders[line["id"]]  # its own session holds its one order
        assert order["id"] == record["order_id"] and order["total_cents"] == record["total_cents"]
        assert ordered_items(order) == wanted_items(line), f"seed {seed}, line {line['id']}"
        assert order["restaurant_name"] == line["order"]["restaurant"]
        assert Path(record["run_dir"], "transcript.jsonl").is_file()
    for line in failing:  # they end without an order, and the batch goes on past them
        assert records[line["id"]]["outcome"] in ("failed", "paused"), records[line["id"]]
        assert records[line["id"]]["order_id"] is None
        assert orders.get(line["id"], []) == []
    assert count_orders(fresh_shop.db_path) == 20
    # The same command again finds everything done and orders nothing.
    assert (
        main(
            [
                "batch",
                str(batch),
                "--out",
                str(out),
                "--shop-url",
                fresh_shop.url,
                "--approve",
                "auto",
                "--json",
            ]
        )
        == code  # the same outcomes, read back: nothing ran again
    )
    assert json.loads(capsys.readouterr().out)["skipped"] == 22
    assert count_orders(fresh_shop.db_path) == 20


@pytest.mark.slow
@pytest.mark.usefixtures("ctrl_c_reaches_children")
@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT], ids=["killed", "ctrl-c"])
def test_a_batch_stopped_at_a_random_moment_and_run_again_orders_each_line_once(
    fresh_shop: Shop, tmp_path: Path, stop: signal.Signals, capsys: Any
) -> None:
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    lines = random_order_lines(rng, 6)
    batch = write_lines(tmp_path / "orders.jsonl", lines)
    out = tmp_path / "results.jsonl"
    command = ["batch", str(batch), "--out", str(out), "--shop-url", fresh_shop.url, "--approve", "auto"]
    command += ["--workers", "2", "--runs-dir", str(tmp_path / "runs"), "--quiet", *PROFILE]
    # Stop it just after the k-th order reaches the shop (plus a random few ms): the moment when an
    # order exists and its result may not be written yet. At that moment one worker has just placed an
    # order and the other holds at most one more line, so with two lines still to place, the second needs
    # a whole run from its start: never done within the jitter. (A k of 5 of 6 once was too late: the
    # sixth order, already under way, finished within the 0.26 s.)
    k, jitter = rng.randint(1, len(lines) - 2), rng.uniform(0, 0.3)
    process = subprocess.Popen(
        [sys.executable, "-m", "webagent", *command],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while count_orders(fresh_shop.db_path) < k and process.poll() is None:
            assert time.monotonic() < deadline, f"seed {seed}: no order {k} within 120 s"
            time.sleep(0.01)
        time.sleep(jitter)
        process.send_signal(stop)
        stdout, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
        # Whatever the signal left behind (the browser's processes) goes, as with a machine turned off.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    if stop == signal.SIGINT:
        assert process.returncode == 130, f"seed {seed}: {stdout.decode()}"
        assert b"interrupted: run the same command again to go on" in stdout
    before = results_of(out) if out.exists() else {}
    assert len(before) < len(lines), f"seed {seed}: stopped too late to test anything"

    code = main([*command, "--json"])

    summary = json.loads(capsys.readouterr().out)
    assert code == 0, f"seed {seed} k {k}: {summary}"
    assert summary["skipped"] == len(before)
    records = results_of(out)
    orders = orders_by_line(out, fresh_shop.db_path)
    for line in lines:
        assert records[line["id"]]["outcome"] == "ordered", f"seed {seed}: {records[line['id']]}"
        [order] = orders[line["id"]]  # never a second order, across every attempt's session
        assert order["id"] == records[line["id"]]["order_id"]
        assert ordered_items(order) == wanted_items(line), f"seed {seed}, line {line['id']}"
    assert count_orders(fresh_shop.db_path) == len(lines)
    # Every run folder the stop cut off is closed out: `webagent resume` cannot order its line again.
    for state_path in (tmp_path / "runs").glob("*/state.json"):
        assert Checkpoint.model_validate_json(state_path.read_text()).status == "finished", state_path


def test_ray_without_ray_installed_says_how_to_get_it(tmp_path: Path) -> None:
    batch = write_lines(tmp_path / "b.jsonl", [{"goal": "a tiramisu from Italian Bistro"}])
    hide_ray = "import sys; sys.modules['ray'] = None; from webagent.cli.main import main; "
    command = f"sys.exit(main(['batch', {str(batch)!r}, '--ray', '--shop-url', 'http://127.0.0.1:9']))"

    done = subprocess.run(
        [sys.executable, "-c", hide_ray + command], cwd=ROOT, capture_output=True, text=True
    )

    assert done.returncode == 2
    assert done.stderr == "webagent: --ray needs Ray, an optional extra: pip install 'webagent[ray]'\n"


def test_eval_against_one_shared_shop_judges_each_task_by_its_own_session(
    fresh_shop: Shop, tmp_path: Path, capsys: Any
) -> None:
    someone_else = _order_in_session(fresh_shop, run_sync(ShopSessions(fresh_shop.url).open()))
    tasks = ROOT / "evals" / "tasks.jsonl"

    code = main(
        [
            "eval",
            str(tasks),
            "--only",
            "t01",
            "--only",
            "t13",
            "--only",
            "t30",
            "--shop-url",
            fresh_shop.url,
            "--workers",
            "2",
            "--json",
            "--runs-dir",
            str(tmp_path / "runs"),
            "--model",
            "planner",
        ]
    )

    report = json.loads(capsys.readouterr().out)
    assert code == 0, [task["reason"] for task in report["tasks"]]
    # Two tasks expect no order: the shop holds one from another session, and they still pass.
    assert {task["id"]: task["passed"] for task in report["tasks"]} == {"t01": True, "t13": True, "t30": True}
    orders = ShopDB(fresh_shop.db_path).orders()
    assert sorted(order["id"] for order in orders) == sorted([someone_else, report["tasks"][0]["order_id"]])
    assert len({order["session_id"] for order in orders}) == 2


# A batch takes the site a run names (issue 39) ---------------------------------------------------------

ADAPTER = '''
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sites.demo_shop.session_api import ShopSessions


class Mine:
    """The demo shop under a name of its own, with sessions it says are its own."""

    def __getattr__(self, name):
        return getattr(DEMO_SHOP, name)

    def order_sessions(self, url, identity=None):
        return ShopSessions(url, identity or "mine:" + url)


class Forgetful(Mine):
    """The same shop, adapted by someone whose adapter keeps no order history."""

    def order_sessions(self, url, identity=None):
        return None


SITE, FORGETFUL = Mine(), Forgetful()
'''


def test_a_batch_opens_each_lines_session_through_the_sites_adapter(
    fresh_shop: Shop, tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An adapter of one's own (written here) gives the batch its sessions; one without an order history is
    refused before any line starts, by what it can do and not by its name."""
    (tmp_path / "my_site_adapter.py").write_text(ADAPTER)
    monkeypatch.syspath_prepend(str(tmp_path))
    batch = write_lines(tmp_path / "b.jsonl", [{"goal": "a tiramisu from Italian Bistro"}])
    out = tmp_path / "b.results.jsonl"
    common = [
        "--shop-url",
        fresh_shop.url,
        "--approve",
        "auto",
        "--model",
        "m",
        "--base-url",
        "http://127.0.0.1:9/v1",
    ]

    code = main(["batch", str(batch), "--out", str(out), "--site", "my_site_adapter:FORGETFUL", *common])
    assert code == 2 and "keeps no order history webagent can ask" in capsys.readouterr().err
    assert not sidecar(out, ".attempts.jsonl").exists()

    main(["batch", str(batch), "--out", str(out), "--site", "my_site_adapter:SITE", *common])
    [[attempt]] = AttemptLog(sidecar(out, ".attempts.jsonl")).by_line().values()
    assert attempt.shop == f"mine:{fresh_shop.url}" and attempt.cookies  # the adapter's own session
    assert count_orders(fresh_shop.db_path) == 0  # the model never answered: nothing ordered
