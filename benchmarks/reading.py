"""How well the goal reader reads the orders people write, and what automatic approval does with what it misses.

    python benchmarks/reading.py [--json PATH] [--markdown PATH]

Over the reading corpus (tests/corpus/reading.yaml: 167 goals in 13 classes, written by someone who had not
seen the reader and committed before any reader change it measures), each with the final order the person
meant. Each goal is read as the planner reads it: against the restaurant list, then against the menu of the
restaurant it names (for `no_restaurant` goals, the menu of the one restaurant that serves the dishes, as
after a search). A reading is

- **exact**: the restaurant and the items (dish, quantity, choices, as a multiset) are the final order, and
  no words are left to ask about; for an `ask` goal, a reading that asks;
- **asks**: words are left unplaced (the planner asks about them), or the goal's restaurant is not found;
- **wrong**: a confident reading (nothing to ask) that is not the final order, or any confident reading of
  an `ask` goal.

For every reading that is not exact, a cart of what it read is put to the anchor of automatic approval
(webagent/agent/anchor.py) with the budget the corpus states (else a generous one): **approved wrong** counts
the wrong carts it would approve without asking — the worst failure there is; the target is 0. Nothing the
rules cannot express (fallbacks, fees in a budget) counts as read; a fallback goal is exact when the first
choice is. Speed is measured (seconds per goal), never asserted. Benchmarks are not tests.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from webagent.agent.anchor import check_cart
from webagent.narration import said
from webagent.narration.narrate import Narration, narrate
from webagent.narration.state import CartLine, MenuItem, MenuOption, PageState, RestaurantCard
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.spec import GoalReading
from webagent.runs.runner import opening_said

ROOT = Path(__file__).resolve().parents[1]
CATALOG = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}
CORPUS: list[dict[str, Any]] = yaml.safe_load((ROOT / "tests" / "corpus" / "reading.yaml").read_text("utf-8"))

Item = tuple[str, int, frozenset[str]]


@dataclass
class Judged:
    goal: str
    kind: str
    outcome: str
    """``exact``, ``asks`` or ``wrong``."""
    approved_wrong: bool
    read: list[str]
    expected: list[str]
    unplaced: list[str]
    seconds: float


def expected_items(entry: dict[str, Any]) -> Counter[Item]:
    found: Counter[Item] = Counter()
    for item in entry.get("items") or []:
        found[(item["dish"], 1, frozenset(item.get("choices") or ()))] += item["quantity"]
    return found


def read_items(reading: GoalReading) -> Counter[Item]:
    found: Counter[Item] = Counter()
    for item in reading.items:
        found[(item.dish, 1, frozenset(item.options))] += item.quantity
    return found


def menu_items(restaurant: dict[str, Any]) -> list[MenuItem]:
    return [
        MenuItem(
            name=dish["name"],
            price_cents=dish["price_cents"],
            sold_out=dish["sold_out"],
            has_options=bool(dish["options"]),
            options=[
                MenuOption(name=o["name"], required=o["required"], choices=[c["name"] for c in o["choices"]])
                for o in dish["options"]
            ],
        )
        for dish in restaurant["menu"]
    ]


def conversation(goal: str, restaurant: str) -> list[dict[str, Any]]:
    """A run's messages up to checkout, in the narrations the real functions write."""
    listing = PageState(view="restaurants", restaurants=[RestaurantCard(name=name) for name in RESTAURANTS])
    opening = narrate(Narration(said=opening_said(listing), after=listing))
    items = menu_items(RESTAURANTS[restaurant])
    page = PageState(view="restaurant", restaurant=restaurant, menu=items)
    opened = narrate(Narration(said=said.opened(restaurant, 1500, items).said, after=page))
    call = {"id": "c1", "type": "function", "function": {"name": "open_restaurant", "arguments": "{}"}}
    return [
        {"role": "system", "content": "…"},
        {"role": "user", "content": f"{goal}\n\n{opening}"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": opened},
    ]


def cart_of(items: Counter[Item], restaurant: str) -> tuple[list[CartLine], int]:
    """Cart lines named as the shop names them, and their total."""
    menu = {dish["name"]: dish for dish in RESTAURANTS[restaurant]["menu"]}
    lines, total = [], 0
    for (dish, _, choices), quantity in items.items():
        known = menu.get(dish)
        # One choice per option group, as the shop's dialog allows: a reading of "(Large, Regular)" puts
        # the first on the line, as a model following it would.
        groups = known["options"] if known else []
        ordered = [
            next(c["name"] for c in o["choices"] if c["name"] in choices)
            for o in groups
            if any(c["name"] in choices for c in o["choices"])
        ]
        price = (known["price_cents"] if known else 0) * quantity
        lines.append(
            CartLine(
                name=f"{dish} ({', '.join(ordered)})" if ordered else dish,
                quantity=quantity,
                total_cents=price,
            )
        )
        total += price
    return lines, total


def judge(entry: dict[str, Any]) -> Judged:
    goal = entry["goal"]
    started = time.perf_counter()
    first = read_goal(goal, list(RESTAURANTS))
    named = first.restaurant.name if first.restaurant else None
    at = named or (entry.get("restaurant") if entry["class"] == "no_restaurant" else None)
    reading = read_goal(goal, list(RESTAURANTS), Menu.from_catalog(RESTAURANTS[at])) if at else first
    seconds = time.perf_counter() - started
    got = read_items(reading)
    unplaced = [u.words.text for u in reading.unclear]
    expected = expected_items(entry)
    asks = bool(unplaced) or at is None or not got
    if entry.get("ask"):
        outcome = "exact" if asks else "wrong"
    elif asks:
        outcome = "asks"
    else:
        outcome = "exact" if at == entry["restaurant"] and got == expected else "wrong"
    approved_wrong = False
    differs = bool(entry.get("ask")) or got != expected or at != entry.get("restaurant")
    if outcome != "exact" and at is not None and got and differs:
        # What automatic approval would make of a cart holding the reading.
        cart, total = cart_of(got, at)
        check = check_cart(goal, None, conversation(goal, at), cart)
        approved_wrong = check.concern(total, entry.get("budget_cents") or 100_000) is None
    return Judged(
        goal,
        entry["class"],
        outcome,
        approved_wrong,
        [f"{q} × {d}" + (f" ({', '.join(sorted(c))})" if c else "") for (d, _, c), q in got.items()],
        [f"{q} × {d}" + (f" ({', '.join(sorted(c))})" if c else "") for (d, _, c), q in expected.items()],
        unplaced,
        seconds,
    )


def table(results: list[Judged]) -> str:
    by_kind: dict[str, list[Judged]] = defaultdict(list)
    for result in results:
        by_kind[result.kind].append(result)
    rows = ["| class | goals | exact | asks | wrong | approved wrong |", "|---|---|---|---|---|---|"]
    for kind, group in [*sorted(by_kind.items()), ("all", results)]:
        count = Counter(r.outcome for r in group)
        rows.append(
            f"| {kind} | {len(group)} | {count['exact']} ({count['exact'] / len(group):.0%}) | {count['asks']}"
            f" | {count['wrong']} | {sum(r.approved_wrong for r in group)} |"
        )
    seconds = sorted(r.seconds for r in results)
    rows.append(f"\nRules: median {seconds[len(seconds) // 2] * 1000:.1f} ms a goal (cold cache).")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write every goal's reading and judgement here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    args = parser.parse_args(argv)
    results = [judge(entry) for entry in CORPUS]
    text = table(results)
    print(text)
    for result in results:
        if result.approved_wrong:
            print(
                f"APPROVED WRONG [{result.kind}] {result.goal!r}: read {result.read}, meant {result.expected}"
            )
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1), encoding="utf-8")
    if args.markdown:
        args.markdown.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
