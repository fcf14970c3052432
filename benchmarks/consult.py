"""What consulting the local model adds to the planner (``--consult local``), on goals it was not built on.

    python benchmarks/consult.py                       # the planner alone, then consulting the 1.5B
    python benchmarks/consult.py --consult local:0.5b

Two kinds of goal, written down (2026-12-03) before any consultation ran: orders with words around them
that the goal reader does not know (praise, small talk, excuses, a child's name) — a person would not be
asked about them — and orders naming a dish the restaurant does not sell, which the person must be
asked about. Each goal runs against a fresh embedded shop (clutter 0) and is judged in the shop's database.

Per agent: chit-chat goals ordered exactly without a question, unknown dishes asked about (not dropped,
not ordered), orders beyond the goal, consultations and the seconds they took. Speed is measured, never
asserted.
"""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from webagent.config import Profile, RunConfig
from webagent.runs.runner import start_run
from webagent.sync import run_sync

MARK = "Consulted the local model: "
PROFILE = Profile(name="Ada Demo", address="12 Oak Street", phone="555-0101", payment_method="Cash")
CHATTY: list[tuple[str, list[tuple[str, int]]]] = [
    ("2 Salmon Nigiri and a Miso Soup and a Green Tea from Sushi House, you guys are the best",
     [("Green Tea", 1), ("Miso Soup", 1), ("Salmon Nigiri", 2)]),
    ("A Lobster Roll and a Clam Chowder from Seafood Shack, it's our anniversary dinner",
     [("Clam Chowder", 1), ("Lobster Roll", 1)]),
    ("Two Beef Pho and a Banh Mi from Pho Saigon. Sorry for the late order, long day at work",
     [("Banh Mi", 1), ("Beef Pho", 2)]),
    ("a Falafel Plate and a Tabbouleh from Falafel Corner, my kid Leo is starving",
     [("Falafel Plate", 1), ("Tabbouleh", 1)]),
    ("Brisket Plate and Mac and Cheese from BBQ Smokehouse, big game tonight!",
     [("Brisket Plate", 1), ("Mac and Cheese", 1)]),
    ("Pad Thai, mild, and a Green Curry, medium, from Bangkok Street, happy Friday",
     [("Green Curry", 1), ("Pad Thai", 1)]),
    ("a Moussaka and a Greek Salad from Athens Grill, love your food btw",
     [("Greek Salad", 1), ("Moussaka", 1)]),
    ("Seafood Paella and Patatas Bravas from Tapas Barcelona, fingers crossed it's quick",
     [("Patatas Bravas", 1), ("Seafood Paella", 1)]),
]  # fmt: skip
UNKNOWN: list[tuple[str, str]] = [
    ("2 Salmon Nigiri and a Tuna Sashimi from Sushi House", "Tuna Sashimi"),
    ("2 Beef Pho and a bowl of rice noodles from Pho Saigon", "rice noodles"),
    ("Butter Chicken, hot, and a Peshwari Naan from Curry Palace", "Peshwari"),
    ("a Croque Monsieur and a Pain au Chocolat from Le Petit Café", "Pain au Chocolat"),
]


def run(goal: str, consult: str | None, workdir: Path) -> dict[str, object]:
    db = workdir / f"shop-{time.monotonic_ns()}.db"
    config = RunConfig(goal=goal, consult=consult, approve="auto", profile=PROFILE, db_path=db,
                       runs_dir=workdir / "runs", screenshots=False)  # fmt: skip
    started = time.monotonic()
    result = run_sync(start_run(config))
    wall = time.monotonic() - started
    events = [json.loads(line) for line in Path(result.run_dir, "transcript.jsonl").read_text().splitlines()]
    consulted = sum(
        1
        for e in events
        if e["event"] == "model"
        for line in (e.get("content") or "").splitlines()
        if line.startswith(MARK)
    )
    with sqlite3.connect(db) as conn:
        lines = sorted(conn.execute("select dish_name, quantity from order_items").fetchall())
    asked = " ".join(  # the planner's questions: ask_human calls in its turns
        str(call.get("arguments", ""))
        for e in events
        if e["event"] == "model"
        for call in e.get("calls") or []
        if call.get("name") == "ask_human"
    )
    return {
        "outcome": result.outcome,
        "lines": [tuple(x) for x in lines],
        "asked": asked,
        "consulted": consulted,
        "wall": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--consult", default="local:1.5b", help="the local model to consult (default local:1.5b)"
    )
    args = parser.parse_args()
    print(
        f"# consult benchmark · {date.today()} · {platform.machine()} · {len(CHATTY)} chatty + {len(UNKNOWN)} unknown-dish goals"
    )
    print(
        "agent                | chatty ordered, no question | unknown dish asked | beyond goal | consultations | s/consulted run"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for consult in (None, args.consult):
            label = f"planner + {consult}" if consult else "planner alone"
            ordered = asked = beyond = consultations = 0
            consulted_walls: list[float] = []
            for goal, expected in CHATTY:
                got = run(goal, consult, Path(tmp))
                print(f"  {label}: {goal!r} → {got['outcome']} {got['asked'][:120]}", file=sys.stderr)
                ordered += got["outcome"] == "ordered" and got["lines"] == expected and not got["asked"]
                beyond += bool(got["lines"]) and got["lines"] != expected
                consultations += int(got["consulted"])  # type: ignore[call-overload]
                if got["consulted"]:
                    consulted_walls.append(float(got["wall"]))  # type: ignore[arg-type]
            for goal, words in UNKNOWN:
                got = run(goal, consult, Path(tmp))
                asked += (
                    got["outcome"] == "paused"
                    and words.lower() in str(got["asked"]).lower()
                    and not got["lines"]
                )
                beyond += bool(got["lines"])
                consultations += int(got["consulted"])  # type: ignore[call-overload]
                if got["consulted"]:
                    consulted_walls.append(float(got["wall"]))  # type: ignore[arg-type]
            mean = f"{sum(consulted_walls) / len(consulted_walls):.1f}" if consulted_walls else "-"
            print(
                f"{label:20} | {ordered}/{len(CHATTY):<26} | {asked}/{len(UNKNOWN):<16} | {beyond:<11} | {consultations:<13} | {mean}",
                flush=True,
            )


if __name__ == "__main__":
    main()
