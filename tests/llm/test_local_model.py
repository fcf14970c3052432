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


def test_the_local_model_places_the_demo_order(tmp_path: Path) -> None:
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
        max_steps=25,
    )
    result = run_sync(start_run(config))
    events = [json.loads(line) for line in Path(result.run_dir, "transcript.jsonl").read_text().splitlines()]
    steps = [(e["name"], e["arguments"]) for e in events if e["event"] == "tool"]
    orders, lines = _order(db)
    # Whatever the model does, nothing beyond the goal is bought and no order is claimed that the shop
    # does not hold: the gate and the checks are the product's, not the model's.
    assert len(orders) <= 1, steps
    if result.outcome == "ordered":
        assert orders == [result.order_id], steps
    # And this model, on this order, places it exactly.
    assert result.outcome == "ordered", (result.message, steps)
    assert [(dish, qty) for dish, qty, _ in lines] == [("Margherita Pizza", 2), ("Tiramisu", 1)], lines
    assert "Large" in lines[0][2], lines
    assert "Bacon" not in lines[0][2] and "Extra cheese" not in lines[0][2], lines  # no extras unasked
