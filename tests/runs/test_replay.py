"""Replay never acts consequentially on its own: a recorded run that ordered with a generic press of
"Place order", replayed against the same live shop, stops before that press and says so; only an explicit
``approve`` lets it through the approval gate — on the real shop, in a real Chromium.

Replay compares what matters: a run recorded among popups replays cleanly without them (the popups are
notes), and a dish whose price changed is a divergence."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from demo_site import Shop
from demo_site.db import ShopDB
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.llm.protocol import Reply
from webagent.runs.replay import Order, load_recording, replay
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
    # The same outcome, though the shop numbered the replay's order #2: order numbers are masked. The
    # lines are the confirmation's, recorded typed (a generic press's sentence names none).
    assert approved.clean, approved.divergences
    assert approved.recorded_order == Order(True, 1, recorded.total_cents, ("2 × Tiramisu",))
    assert approved.replayed_order == Order(True, 2, recorded.total_cents, ("2 × Tiramisu",))
    assert stopped.replayed_order is None, "a replay that stopped compared no outcome"
    gate = [json.loads(line)["event"] for line in (run_dir / "replay" / "transcript.jsonl").open()]
    assert gate[-3:] == ["approval", "order_intent", "order_result"]  # the replays' own approval record

    over = run_sync(
        replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser, approve="auto", budget_cents=500)
    )
    assert orders(fresh_shop) == 2
    assert over.stopped is not None and "exceeds the budget $5.00" in str(over.stopped.decision)


def record_cart(shop: Shop, browser: Browser, runs: Path, clutter: int) -> Path:
    """A run that fills a cart with 2 Tiramisu at checkout (no order), on the shop at ``clutter``."""
    model = ScriptedModel(
        [
            reply(call("open_restaurant", name="Italian Bistro")),
            reply(call("add_to_cart", dish="Tiramisu", quantity=2)),
            reply(call("go_to_checkout")),
            reply(call("finish", outcome="done", summary="The cart is ready.")),
        ]
    )
    config = RunConfig(
        goal="Put 2 Tiramisu from Italian Bistro in the cart",
        profile=PROFILE,
        shop_url=shop.url,
        runs_dir=runs,
        clutter=clutter,
        seed=7,
    )
    return Path(run_sync(start_run(config, model=model, browser=browser)).run_dir)


def test_popups_that_came_only_in_the_recorded_run_are_notes_and_a_price_change_diverges(
    fresh_shop: Shop, agent_browser: Browser, tmp_path: Path
) -> None:
    run_dir = record_cart(fresh_shop, agent_browser, tmp_path, clutter=2)
    _, calls, _ = load_recording(run_dir)
    assert "dismissed the cookie banner" in calls[0]["narration"], "seed 7 at clutter 2 shows popups"

    calm = run_sync(replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser, clutter=0))
    assert calm.clean, calm.divergences
    assert calm.replayed == 3
    assert calm.notes and all("came in the recorded run only" in n.text for n in calm.notes)
    assert "the cookie banner" in calm.notes[0].text and calm.notes[0].step == 1
    assert calm.recorded_order == calm.replayed_order == Order(placed=False)
    assert calm.as_json()["notes"][0]["sentence"].startswith("step 1 open_restaurant: ")

    changed = tmp_path / "dearer-tiramisu.db"
    ShopDB(changed)  # created and seeded from the catalog, which the shop reads when it starts
    with sqlite3.connect(changed) as db:
        assert db.execute("UPDATE dishes SET price_cents = 800 WHERE name = 'Tiramisu'").rowcount > 0
    dearer = run_sync(replay(run_dir, db_path=changed, browser=agent_browser, clutter=0))
    assert not dearer.clean
    added = next(d for d in dearer.divergences if d.tool == "add_to_cart")
    assert (added.step, added.what) == (2, "result")
    assert added.expected == 'Added 2 × "Tiramisu" — cart now 2 items, $15.00.'
    assert added.got == 'Added 2 × "Tiramisu" — cart now 2 items, $16.00.'


def test_popups_that_come_only_in_the_replay_are_notes(
    fresh_shop: Shop, agent_browser: Browser, tmp_path: Path
) -> None:
    run_dir = record_cart(fresh_shop, agent_browser, tmp_path, clutter=0)
    cluttered = run_sync(replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser, clutter=2))
    assert cluttered.clean, cluttered.divergences
    assert cluttered.notes and all("came in the replay only" in n.text for n in cluttered.notes)
    assert "the cookie banner" in " ".join(n.text for n in cluttered.notes)


# -- typed results (issue 35, item 4): replay reads what the run recorded, not its sentences ---------------

TYPED = ("refused", "refusal", "order_id", "total_cents", "page")


def rewrite(run_dir: Path, change: Any) -> None:
    """Rewrite the run's transcript, each event through ``change`` (an edited or an older recording)."""
    path = run_dir / "transcript.jsonl"
    events = [json.loads(line) for line in path.read_text().splitlines()]
    path.write_text("".join(json.dumps(change(event)) + "\n" for event in events))


def reworded(event: dict[str, Any]) -> dict[str, Any]:
    if event.get("event") == "tool" and event.get("name") == "add_to_cart":
        return {**event, "narration": "Two Tiramisu are in the cart now."}
    return event


def untyped(event: dict[str, Any]) -> dict[str, Any]:
    """The event as a transcript recorded before the typed fields had it."""
    if event.get("event") == "order_result":
        return {k: v for k, v in event.items() if k != "lines"}
    return {k: v for k, v in event.items() if k not in TYPED} if event.get("event") == "tool" else event


def test_a_replay_compares_the_typed_result_and_an_older_transcript_by_its_lines(
    fresh_shop: Shop, agent_browser: Browser, tmp_path: Path
) -> None:
    run_dir = record_cart(fresh_shop, agent_browser, tmp_path, clutter=0)
    _, calls, _ = load_recording(run_dir)
    added = next(c for c in calls if c["name"] == "add_to_cart")
    assert added["page"]["cart_count"] == 2 and added["page"]["cart_subtotal_cents"] == 1500
    assert added["refused"] is False and added["order_id"] is None

    rewrite(run_dir, reworded)  # the same facts, worded otherwise: a note, not a divergence
    typed = run_sync(replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser))
    assert typed.clean, typed.divergences
    assert any("reads otherwise, with the same facts" in note.text for note in typed.notes), typed.notes

    rewrite(run_dir, untyped)  # recorded before the typed fields: compared by the tool's lines, as then
    older = run_sync(replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser))
    assert [d.tool for d in older.divergences] == ["add_to_cart"], older.divergences
    assert older.divergences[0].expected == "Two Tiramisu are in the cart now."


def test_a_call_the_gate_refused_is_known_by_its_recorded_refusal_not_its_sentence(
    fresh_shop: Shop, agent_browser: Browser, tmp_path: Path
) -> None:
    """A place_order the run's gate denied never reached the page: the replay does not run it, whatever its
    narration says — the tool event records the refusal. (Read by its sentence, as before, an edited
    narration would make the replay stop before a consequential call instead.)"""
    model = ScriptedModel(
        [
            reply(
                call("open_restaurant", name="Italian Bistro"),
                call("add_to_cart", dish="Tiramisu", quantity=2),
            ),
            reply(call("go_to_checkout"), call("fill_delivery_details", **DETAILS), call("place_order")),
            reply(call("finish", outcome="done", summary="Not ordered.")),
        ]
    )
    config = RunConfig(
        goal="Order 2 Tiramisu from Italian Bistro", profile=PROFILE, shop_url=fresh_shop.url,
        runs_dir=tmp_path, approve="deny",
    )  # fmt: skip
    recorded = run_sync(start_run(config, model=model, browser=agent_browser))
    run_dir = Path(recorded.run_dir)
    _, calls, _ = load_recording(run_dir)
    denied = next(c for c in calls if c["name"] == "place_order")
    assert (denied["refused"], denied["refusal"]) == (True, "denied")

    def elsewhere(event: dict[str, Any]) -> dict[str, Any]:
        if event.get("event") == "tool" and event.get("name") == "place_order":
            return {**event, "narration": "The person said no."}
        return event

    rewrite(run_dir, elsewhere)
    replayed = run_sync(replay(run_dir, shop_url=fresh_shop.url, browser=agent_browser))
    assert replayed.stopped is None and replayed.replayed == 4 and replayed.clean, replayed
    assert orders(fresh_shop) == 0
