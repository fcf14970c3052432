"""How well the goal reader reads the orders people write, and what automatic approval does with what it misses.

    python benchmarks/reading.py [--json PATH] [--markdown PATH] [--reader local:1.5b] [--cache PATH]

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

With ``--reader local[:KEY]`` the model reader (webagent/llm/reader.py) reads every goal too, against the
menu of the restaurant the goal is for, and two more columns are judged the same way:

- **model**: the model's reading alone (exact when its items and fallbacks are the final order);
- **both**: rules and model together (webagent/planner/reading.py ``agree``), as a run would act — the rules'
  reading where they left nothing in doubt, the model's where it is agreed, a question otherwise (``asks``).
  Its **wrong** readings are the ones a run would act on and approve automatically. Where the first reading
  is not agreed, the second look and then the mend (the model told why) are taken as a run takes them
  (``read_agreed``); ``--again none`` and ``--no-mend`` go without.

``--cache PATH`` keeps the model's readings (by model and goal), so a second look at the same readings does
not ask the model again; a reading's seconds are the model's, measured when it was asked.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from webagent.agent.anchor import check_cart
from webagent.llm.reader import FORMS
from webagent.narration import said
from webagent.narration.narrate import Narration, narrate
from webagent.narration.state import CartLine, MenuItem, MenuOption, PageState, RestaurantCard
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Agreement, Reading, agree, with_proposal
from webagent.planner.spec import GoalReading
from webagent.runs.runner import opening_said

ROOT = Path(__file__).resolve().parents[1]
CATALOG = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}
CORPUS_PATH = ROOT / "tests" / "corpus" / "reading.yaml"

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
    model: str | None = None
    """The model's outcome (``exact``, ``asks`` for no usable reading, ``wrong``), with ``--reader``."""
    model_read: list[str] | None = None
    model_seconds: float | None = None
    both: str | None = None
    """Rules and model together: ``exact``, ``asks`` or ``wrong``."""
    verdict: str | None = None
    why: str = ""
    again: str | None = None
    """With a second look (``--again``), where the first reading was not agreed: its outcome alone."""
    mended: str | None = None
    """Where neither look was agreed and the first was a disagreement: the mended reading's outcome alone."""
    proposed: str | None = None
    """Where rules and model disagree: whether the question proposes the final order (``exact``), another
    (``other``); ``singled`` when the reading proposed is the one the checks single out and it is exact."""


def expected_items(entry: dict[str, Any]) -> Counter[Item]:
    found: Counter[Item] = Counter()
    for item in entry.get("items") or []:
        found[(item["dish"], 1, frozenset(item.get("choices") or ()))] += item["quantity"]
    return found


def expected_fallbacks(entry: dict[str, Any]) -> set[tuple[str, Item | None]]:
    found: set[tuple[str, Item | None]] = set()
    for fallback in entry.get("fallbacks") or []:
        take = fallback.get("take")
        item = (take["dish"], take.get("quantity", 1), frozenset(take.get("choices") or ())) if take else None
        found.add((fallback["instead_of"], item))
    return found


def reading_fallbacks(reading: Reading) -> set[tuple[str, Item | None]]:
    return {
        (f.instead_of, (f.take.dish, f.take.quantity, frozenset(f.take.choices)) if f.take else None)
        for f in reading.fallbacks
    }


def reading_items(reading: Reading) -> Counter[Item]:
    return Counter({(dish, 1, choices): n for (dish, choices), n in reading.counts().items()})


def exact(reading: Reading, entry: dict[str, Any]) -> bool:
    """Whether ``reading`` is the final order of ``entry``: items, and fallbacks where the corpus has them — as
    read, or as a run places it (a corpus writes "a dragon roll if you have it, otherwise a california roll"
    as the California Roll, the Dragon Roll being sold out)."""
    if entry.get("ask") or reading.restaurant != entry.get("restaurant"):
        return False
    at = RESTAURANTS.get(reading.restaurant or "")
    sold_out = {dish["name"] for dish in at["menu"] if dish["sold_out"]} if at else set()
    return any(
        reading_items(r) == expected_items(entry) and reading_fallbacks(r) == expected_fallbacks(entry)
        for r in (reading, reading.placed(sold_out))
    )


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


def judge_both(judged: Judged, entry: dict[str, Any], model: Reading | None, seconds: float) -> Judged:
    """The model's reading alone, and the rules and the model together, as a run would act."""
    goal = entry["goal"]
    first = read_goal(goal, list(RESTAURANTS))
    at = first.restaurant.name if first.restaurant else None
    at = at or (entry.get("restaurant") if entry["class"] == "no_restaurant" else None)
    judged.model_seconds = seconds
    judged.model_read = [model.describe()] if model else None
    if model is None or (entry.get("ask") and (model.off_menu or not model.items)):
        judged.model = "exact" if entry.get("ask") else "asks"
    else:
        judged.model = "exact" if exact(model, entry) else "wrong"
    if at is None:  # no restaurant to read against: the run asks, as the rules alone do
        judged.both = "exact" if entry.get("ask") else "asks"
        return judged
    menu = Menu.from_catalog(RESTAURANTS[at])
    agreement: Agreement = agree(goal, read_goal(goal, list(RESTAURANTS), menu), model, menu)
    judged.verdict, judged.why = agreement.verdict, agreement.why
    if agreement.verdict == "differ":
        rules = read_goal(goal, list(RESTAURANTS), menu)
        asked = with_proposal(goal, rules, agreement, menu)
        right = asked.proposed is not None and exact(asked.proposed, entry)
        judged.proposed = ("singled" if asked.proposal else "exact") if right else "other"
    acted = agreement.reading
    if acted is None or choice_left_open(reading_items(acted), at):
        judged.both = "exact" if entry.get("ask") else "asks"
    else:
        judged.both = "exact" if exact(acted, entry) else "wrong"
    return judged


def choice_left_open(items: Counter[Item], at: str) -> bool:
    """Whether a line lacks a choice its dish requires: the planner asks for it at the menu
    (webagent/planner/dishes.py), so a run asks where the reading leaves it open."""
    menu = {dish["name"]: dish for dish in RESTAURANTS[at]["menu"]}
    for dish, _, choices in items:
        for option in menu[dish]["options"] if dish in menu else ():
            if option["required"] and not {c["name"] for c in option["choices"]} & set(choices):
                return True
    return False


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
    asks = bool(unplaced) or at is None or not got or (at is not None and choice_left_open(got, at))
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


def _cell(outcomes: list[str | None]) -> str:
    count = Counter(outcomes)
    return f"{count['exact']} ({count['exact'] / len(outcomes):.0%}) / {count['asks']} / {count['wrong']}"


def table(results: list[Judged], reader: str | None = None) -> str:
    by_kind: dict[str, list[Judged]] = defaultdict(list)
    for result in results:
        by_kind[result.kind].append(result)
    if reader is None:
        rows = ["| class | goals | exact | asks | wrong | approved wrong |", "|---|---|---|---|---|---|"]
    else:
        rows = [
            f"| class | goals | rules: exact / asks / wrong | {reader}: exact / none / wrong"
            " | both: exact / asks / wrong (wrong = approved) |",
            "|---|---|---|---|---|",
        ]
    for kind, group in [*sorted(by_kind.items()), ("all", results)]:
        if reader is None:
            count = Counter(r.outcome for r in group)
            rows.append(
                f"| {kind} | {len(group)} | {count['exact']} ({count['exact'] / len(group):.0%}) | {count['asks']}"
                f" | {count['wrong']} | {sum(r.approved_wrong for r in group)} |"
            )
        else:
            rows.append(
                f"| {kind} | {len(group)} | {_cell([r.outcome for r in group])}"
                f" | {_cell([r.model for r in group])} | {_cell([r.both for r in group])} |"
            )
    seconds = sorted(r.seconds for r in results)
    rows.append(f"\nRules: median {seconds[len(seconds) // 2] * 1000:.1f} ms a goal (cold cache).")
    if reader is not None:
        asked = sorted(
            r.model_seconds for r in results if r.verdict not in (None, "rules") and r.model_seconds
        )
        if asked:
            rows.append(
                f"{reader}: asked on {len(asked)} of {len(results)} goals (the rest the rules read with no"
                f" doubt); median {asked[len(asked) // 2]:.1f} s, slowest {asked[-1]:.1f} s a reading."
            )
        proposed = Counter(r.proposed for r in results if r.proposed and r.both == "asks")
        if proposed:
            rows.append(
                f"Asked after a disagreement on {sum(proposed.values())} goals: the question proposes the order"
                f" meant on {proposed['exact'] + proposed['singled']} ({proposed['singled']} the reading the"
                " checks single out among those an edit or two from the rules', where the model's was not)."
            )
        for label, outcomes in (
            ("A second look on {} goals the checks did not agree to", [r.again for r in results]),
            ("Mended, told why, on {} goals neither look was agreed to", [r.mended for r in results]),
        ):
            looked = Counter(o for o in outcomes if o)
            if looked:
                rows.append(
                    label.format(sum(looked.values()))
                    + f": agreed and exact {looked['exact']}, agreed and wrong {looked['wrong']}, still asked"
                    f" {looked['asks']} (the seconds above count every look)."
                )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write every goal's reading and judgement here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    parser.add_argument(
        "--reader", help="also read every goal with this model: local, local:0.5b, local:1.5b"
    )
    parser.add_argument(
        "--cache", type=Path, help="keep the model's readings here (JSON), and read them back"
    )
    parser.add_argument("--only", action="append", help="only goals of this class (repeatable)")
    parser.add_argument("--per-class", type=int, help="only the first N goals of each class")
    parser.add_argument("--form", default="names", choices=FORMS, help="how the model names dishes")
    parser.add_argument(
        "--again",
        default="mentions",
        choices=[*FORMS, "none"],
        help="the form of the second look where the checks cannot agree to the first reading (as a run "
        "reads: webagent.planner.reading.read_agreed); none for none",
    )
    parser.add_argument(
        "--no-mend",
        action="store_true",
        help="no third look told why the checks cannot agree to the first (a run takes it: LLMReader.mend)",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=CORPUS_PATH,
        help="the goals to read (default tests/corpus/reading.yaml; tests/corpus/reading_blind.yaml: 60 goals "
        "written blind, after the checks, for a figure on goals they were not refined on)",
    )
    args = parser.parse_args(argv)
    everything: list[dict[str, Any]] = yaml.safe_load(args.corpus.read_text("utf-8"))
    corpus = [entry for entry in everything if not args.only or entry["class"] in args.only]
    if args.per_class:
        seen: Counter[str] = Counter()
        corpus = [e for e in corpus if (seen.update([e["class"]]) or seen[e["class"]] <= args.per_class)]
    results = [judge(entry) for entry in corpus]
    if args.reader:
        read_all(
            args.reader,
            args.cache,
            corpus,
            results,
            args.form,
            None if args.again == "none" else args.again,
            mend=not args.no_mend,
        )
    text = table(results, args.reader)
    print(text)
    for result in results:
        if result.approved_wrong and not args.reader:
            print(
                f"APPROVED WRONG [{result.kind}] {result.goal!r}: read {result.read}, meant {result.expected}"
            )
        if result.both == "wrong":
            print(
                f"WRONG [{result.kind}] {result.goal!r}: {result.verdict}, read {result.model_read or result.read},"
                f" meant {result.expected}"
            )
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1), encoding="utf-8")
    if args.markdown:
        args.markdown.write_text(text + "\n", encoding="utf-8")
    return 0


def read_all(
    reader_name: str,
    cache: Path | None,
    corpus: list[dict[str, Any]],
    results: list[Judged],
    form: str,
    again: str | None = None,
    *,
    mend: bool = True,
) -> None:
    """Each goal read by the model (or read back from ``cache``), then judged alone and with the rules; where
    the rules and the first reading do not agree and there is a second form (``again``), the second look a run
    takes (webagent.planner.reading.read_agreed): it stands only where agreed; where neither look is and the
    first was a disagreement, the third, told why (``mend``)."""
    from webagent.llm.local import parse_local
    from webagent.llm.reader import LLMReader  # the SDK only when a model reads

    key = parse_local(reader_name)
    if key is None:
        raise SystemExit(f"--reader takes local or local:KEY, not {reader_name!r}")
    kept: dict[str, Any] = json.loads(cache.read_text("utf-8")) if cache and cache.exists() else {}
    reader = LLMReader(key, timeout=900.0, form=form, again=again, mend=mend)  # a loaded machine is slow

    def reading(
        entry: dict[str, Any],
        at: str | None,
        form: str,
        n: int,
        ask: Callable[[], Reading | None] | None = None,
    ) -> tuple[Reading | None, float]:
        slot = f"{key}|{form}|{entry['goal']}"
        if slot not in kept:
            model, seconds, before = None, 0.0, len(reader.seconds)
            if at is not None:
                model = (
                    ask() if ask else reader.read_as(entry["goal"], Menu.from_catalog(RESTAURANTS[at]), form)
                )
                seconds = reader.seconds[-1] if len(reader.seconds) > before else 0.0
            kept[slot] = {"reading": model.to_json() if model else None, "seconds": seconds}
            if cache:
                cache.write_text(json.dumps(kept, indent=1), encoding="utf-8")
            print(
                f"[{n + 1}/{len(corpus)}] {form.split(':')[0]} {seconds:.1f} s {entry['goal'][:60]!r}",
                file=sys.stderr,
            )
        found = kept[slot]
        return (Reading.from_json(found["reading"]) if found["reading"] else None), found["seconds"]

    for n, (entry, judged) in enumerate(zip(corpus, results, strict=True)):
        at = entry.get("restaurant")
        if at is None:
            first = read_goal(entry["goal"], list(RESTAURANTS))
            at = first.restaurant.name if first.restaurant else None
        first, seconds = reading(entry, at, form, n)
        judge_both(judged, entry, first, seconds)
        if judged.verdict not in ("differ", "unread") or at is None:
            continue
        why = judged.why if judged.verdict == "differ" else ""
        if again is not None:
            judged.again, agreed = _take_look(judged, entry, *reading(entry, at, again, n))
            if agreed:
                continue
        if not mend or first is None or not why:
            continue
        menu = Menu.from_catalog(RESTAURANTS[at])
        told = f"mend:{form}:{json.dumps(first.to_json(), sort_keys=True)}:{why}"  # a mend is of one reading and why
        mended = reading(entry, at, told, n, partial(reader.read_mended, entry["goal"], menu, first, why))
        judged.mended, _ = _take_look(judged, entry, *mended)


def _take_look(
    judged: Judged, entry: dict[str, Any], model: Reading | None, seconds: float
) -> tuple[str, bool]:
    """Another look at ``entry`` (the second, or the mend): its outcome alone and whether it was agreed —
    where it was, it is what ``judged`` stands by, as in a run; its seconds count either way."""
    looked = judge_both(replace(judged), entry, model, seconds)
    judged.model_seconds = (judged.model_seconds or 0.0) + seconds
    agreed = looked.verdict == "agreed"
    if agreed:
        judged.both, judged.verdict, judged.why = looked.both, looked.verdict, looked.why
    return (looked.both if agreed else "asks"), agreed


if __name__ == "__main__":
    sys.exit(main())
