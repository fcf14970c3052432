"""Replay never acts consequentially on its own: a recorded run that ordered with a generic press of
"Place order", replayed against the same live shop, stops before that press and says so; only an explicit
``approve`` lets it through the approval gate — on the real shop, in a real Chromium."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from demo_site import Shop
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.llm.protocol import Reply
from webagent.runs.replay import load_recording, replay
from webagent.runs.runner import start_run
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply

PROFILE = Profile(name="Ana Tester", address="12 Oak Street", phone="555-0101", payment_method="Cash")
DETAILS = {"name": "Ana Tester", "address": "12 Oak Street", "phone": "555-0101", "payment_method": "Cash"}


def finish_from_narration(messages: list[dict[str, Any]]) -> Reply:
    text = next(m["content"] for m in reversed(messages) if m["role"] == "tool")
    placed = re.search(r"order #(\d+)", text)
    assert placed, text
    return reply(call("finish", outcome="ordered", summary="Ordered.", order_id=int(placed.group(1))))


def orders(shop: Shop) -> int:
    with sqlite3.connect(shop.db_path) as db:
        return int(db.execute("select count(*) from orders").fetchone()[0])


def test_a_replay_stops_before_the_press_that_ordered_unless_approved(
    fresh_shop: Shop, agent_browser: Browser, tmp_path: Path
) -> None:
    model = ScriptedModel(
        [
            reply(
                call("open_restaurant", name="Italian Bistro"),
                call("add_to_cart", dish="Tiramisu", quantity=2),
            ),
            reply(call("go_to_checkout"), call("fill_delivery_details", **DETAILS)),
            reply(call("press", name="Place order")),
            finish_from_narration,
        ]
    )
    config = RunConfig(
        goal="Order 2 Tiramisu from Italian Bistro",
        profile=PROFILE,
        shop_url=fresh_shop.url,
        runs_dir=tmp_path,
        approve="auto",
    )
    recorded = run_sync(start_run(config, model=model, browser=agent_browser))
    assert recorded.outcome == "ordered" and orders(fresh_shop) == 1
    run_dir = Path(recorded.run_dir)
    _, calls, _ = load_recording(run_dir)
    assert [c["name"] for c in calls if c["gated"]] == ["press"]  # the run's gate was asked about it

    stopped = run_sync(replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser))
    assert orders(fresh_shop) == 1, "the replay ordered on its own"
    assert stopped.stopped is not None and stopped.clean
    assert (stopped.stopped.step, stopped.stopped.tool) == (5, "press")
    assert stopped.stopped.sentence().startswith(
        'Stopped before step 5 (press {"name": "Place order"}), which would mean pressing "Place order": '
    )
    assert "--approve" in stopped.stopped.sentence()
    assert stopped.replayed == 4

    denied = run_sync(replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser, approve="deny"))
    assert orders(fresh_shop) == 1
    assert denied.stopped is not None
    assert (
        denied.stopped.decision is not None and "the approval policy denies orders" in denied.stopped.decision
    )

    approved = run_sync(replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser, approve="auto"))
    assert orders(fresh_shop) == 2, "the approval gate let the replay order, as in a run"
    assert approved.stopped is None and approved.replayed == 5
    gate = [json.loads(line)["event"] for line in (run_dir / "replay" / "transcript.jsonl").open()]
    assert gate[-3:] == ["approval", "order_intent", "order_result"]  # the replays' own approval record

    over = run_sync(
        replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser, approve="auto", budget_cents=500)
    )
    assert orders(fresh_shop) == 2
    assert over.stopped is not None and "exceeds the budget $5.00" in str(over.stopped.decision)
