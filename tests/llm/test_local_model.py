"""A real language model drives the loop: llama.cpp's server (xllamacpp) with the default local model,
through the real openai SDK, the real shop and Chromium; judged in the shop's database.

Skipped where the ``local`` extra is not installed — except under ``WEBAGENT_REQUIRE_LOCAL=1`` (set by
.ci/run), where a missing runtime or weights fail the test instead of hiding it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from webagent.config import Profile, RunConfig
from webagent.errors import LocalModelError
from webagent.llm import local
from webagent.runs.runner import start_run
from webagent.sync import run_sync

pytestmark = pytest.mark.slow

PROFILE = Profile(name="Ada Demo", address="12 Oak Street", phone="555-0101")


def _local_or_skip() -> None:
    required = os.environ.get("WEBAGENT_REQUIRE_LOCAL") == "1"
    try:
        import xllamacpp  # noqa: F401

        local.check_available(local.DEFAULT_LOCAL)
    except (ImportError, LocalModelError) as error:
        if required:
            raise
        pytest.skip(f"no local model here: {error}")


def _order(db: Path) -> tuple[list[int], list[tuple[str, int, str]]]:
    with sqlite3.connect(db) as conn:
        orders = [row[0] for row in conn.execute("select id from orders")]
        lines = conn.execute("select dish_name, quantity, options_json from order_items").fetchall()
    return orders, sorted(lines)


def test_the_local_model_drives_the_demo_order_and_the_gate_holds_what_it_gets_wrong(tmp_path: Path) -> None:
    """Measured (docs/local-model.md): held to the page and to the goal's words, the 1.5B searches, opens
    the restaurant, fills the cart and the checkout and has ordered the demo order exactly — but not
    every time, and other goals less often (a wrong quantity, a dish left out), which the approval gate
    then holds. So this asserts what must hold whatever the model does, and that the model really drove
    the loop; how often it orders exactly is the benchmark's table, not a gate on CI."""
    _local_or_skip()
    db = tmp_path / "shop.db"
    config = RunConfig(
        goal="Order 2 Margherita Pizza (Large) and a Tiramisu from Italian Bistro, pay cash",
        model="local",
        approve="auto",
        budget_cents=8000,
        profile=PROFILE,
        db_path=db,
        runs_dir=tmp_path / "runs",
        max_steps=10,  # ~1 minute a turn on a busy 2-core machine
    )
    result = run_sync(start_run(config))
    events = [json.loads(line) for line in Path(result.run_dir, "transcript.jsonl").read_text().splitlines()]
    calls = [(e["name"], e["arguments"], e["ok"]) for e in events if e["event"] == "tool"]
    said = " ".join(str(e["narration"]) for e in events if e["event"] == "tool")
    # A real model drove it: a call every turn (the structured step guarantees one), and it got as far
    # as the restaurant's menu.
    turns = [e for e in events if e["event"] == "model"]
    assert turns and all(turn["calls"] for turn in turns), turns
    assert 'Opened "Italian Bistro"' in said, calls
    # Whatever it did: at most one order, exactly what the goal asks when there is one, and a run that
    # reports an order only when the shop holds it.
    orders, lines = _order(db)
    assert len(orders) <= 1, calls
    if orders:
        assert result.outcome == "ordered" and orders == [result.order_id], (result.message, calls)
        assert [(dish, qty) for dish, qty, _ in lines] == [("Margherita Pizza", 2), ("Tiramisu", 1)], lines
        assert "Large" in lines[0][2] and "Bacon" not in lines[0][2], lines
    else:
        assert result.outcome != "ordered", result.message


def test_the_planner_consults_the_local_model_and_orders_only_the_goal(tmp_path: Path) -> None:
    """``--consult local`` (webagent/planner/consult.py): words the reader does not know are put to the
    1.5B, labelled within the JSON schema's two labels, recorded in the transcript; whatever it says, the
    order holds only the goal's dishes. Measured (docs/local-model.md#consulted): it labels chit-chat
    "not food" and an unknown dish "food to order"; here the praise at the end is the only such words."""
    _local_or_skip()
    db = tmp_path / "shop.db"
    config = RunConfig(
        goal="2 Salmon Nigiri and a Miso Soup and a Green Tea from Sushi House, pay cash, you guys are the best",
        consult="local",
        approve="auto",
        profile=PROFILE,
        db_path=db,
        runs_dir=tmp_path / "runs",
    )
    result = run_sync(start_run(config))
    events = [json.loads(line) for line in Path(result.run_dir, "transcript.jsonl").read_text().splitlines()]
    records = [
        json.loads(line.removeprefix("Consulted the local model: "))
        for e in events
        if e["event"] == "model"
        for line in (e.get("content") or "").splitlines()
        if line.startswith("Consulted the local model: ")
    ]
    [record] = records  # asked once; later turns read the answer back
    assert record["options"] == ["guys"] and set(record["chosen"]) <= {"guys"}, record
    orders, lines = _order(db)
    if orders:
        assert result.outcome == "ordered" and not record["chosen"], result.message
        assert [(dish, qty) for dish, qty, _ in lines] == [
            ("Green Tea", 1),
            ("Miso Soup", 1),
            ("Salmon Nigiri", 2),
        ]
        assert "“guys”" in result.message
    else:  # the model kept "guys" as food: the person is asked about it, as without a consultant
        assert result.outcome == "paused" and record["chosen"] == ["guys"], result.message
