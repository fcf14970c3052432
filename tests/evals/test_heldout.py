"""The held-out suite (evals/heldout/): append-only against its manifest, every line a task, every class
and clutter level covered. The goals are never read here (nor with the planner's goal reader): what a
goal means is its task's ``expect``, written before the code it measures (evals/heldout/README.md)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from webagent.evals.tasks import load_tasks

HELDOUT = Path(__file__).resolve().parents[2] / "evals" / "heldout"
TASKS = HELDOUT / "tasks.jsonl"
MANIFEST = HELDOUT / "MANIFEST"

CLASSES = (
    "plain",
    "misspelt",
    "details",
    "words_around",
    "no_restaurant",
    "correction",
    "substitution",
    "fallback_sold_out",
    "fallback_available",
    "left_out",
    "group_quantity",
    "mixed_choices",
    "budget_words",
    "stop_sold_out",
    "stop_minimum",
    "stop_not_on_menu",
    "stop_budget",
    "stop_promo",
    "question",
)
"""Every class of goal the suite must hold a task of (the README says what each is)."""
STOPS = {
    "stop_sold_out": "sold_out",
    "stop_minimum": "minimum_order",
    "stop_not_on_menu": "not_on_menu",
    "stop_budget": "budget",
    "stop_promo": "promo_rejected",
}

APPEND = (
    "evals/heldout/ is append-only (evals/heldout/README.md): a new task goes at the end of tasks.jsonl, in a "
    "commit before the code it measures, together with its line in MANIFEST: the sha256 of the line's bytes "
    "(without its newline) and its id, two spaces apart."
)


def manifest_line(line: bytes) -> str:
    """The MANIFEST line of a task line: ``<sha256 of its bytes>  <id>``."""
    return f"{hashlib.sha256(line).hexdigest()}  {json.loads(line)['id']}"


def task_lines() -> list[bytes]:
    data = TASKS.read_bytes()
    assert data.endswith(b"\n"), f"tasks.jsonl must end with a newline. {APPEND}"
    return data[:-1].split(b"\n")


def test_the_tasks_are_the_manifests_lines_in_order_unchanged() -> None:
    lines = task_lines()
    manifest = MANIFEST.read_text(encoding="utf-8").splitlines()
    for number, (line, recorded) in enumerate(zip(lines, manifest, strict=False), start=1):
        assert manifest_line(line) == recorded, (
            f"tasks.jsonl line {number} is not the line MANIFEST recorded ({recorded.split()[-1]}): held-out "
            "tasks are never edited, moved or removed. Restore it (git log -p evals/heldout/tasks.jsonl); a task "
            "found wrong stays, listed as known-bad in evals/heldout/README.md, and a corrected one is appended "
            f"under a new id. {APPEND}"
        )
    assert len(manifest) <= len(lines), (
        f"MANIFEST records {len(manifest)} lines, tasks.jsonl holds {len(lines)}: a task was removed. {APPEND}"
    )
    new = [manifest_line(line) for line in lines[len(manifest) :]]
    assert not new, (
        f"tasks.jsonl has {len(new)} line(s) MANIFEST does not record. {APPEND} If they are such tasks, append "
        "to MANIFEST:\n" + "\n".join(new)
    )


def test_every_line_is_a_task_with_a_unique_id_and_a_known_class() -> None:
    lines = task_lines()
    assert all(line.strip() for line in lines), "no blank lines: MANIFEST records every line"
    tasks = load_tasks(TASKS)  # a bad line or a repeated id raises, naming the line
    assert len(tasks) == len(lines)
    assert len({task.id for task in tasks}) == len(tasks)
    unknown = {task.id: task.kind for task in tasks if task.kind not in CLASSES}
    assert not unknown, f"every held-out task names its class (one of CLASSES, README): {unknown}"


def test_the_suite_covers_every_clutter_level_and_class() -> None:
    tasks = load_tasks(TASKS)
    assert {task.clutter for task in tasks} >= {0, 1, 2, 3, 4}
    missing = set(CLASSES) - {task.kind for task in tasks}
    assert not missing, f"no held-out task of class {sorted(missing)}"
    for task in tasks:
        if task.kind in STOPS:
            assert not task.expect.ordered and task.expect.stopped_by == STOPS[task.kind], task.id
        if task.kind == "question":
            assert task.expect.asked_human, task.id


def test_fallbacks_are_tried_both_ways() -> None:
    """A fallback whose first choice the catalog marks sold out, and one whose first choice is available
    (found by the catalog's names in the goal's words, not by reading the goal)."""
    catalog = json.loads((HELDOUT.parents[1] / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
    sold_out = {d["name"].casefold() for r in catalog["restaurants"] for d in r["menu"] if d["sold_out"]}
    tasks = load_tasks(TASKS)
    for task in tasks:
        names = {name for name in sold_out if name in task.goal.casefold()}
        if task.kind == "fallback_sold_out":
            assert names, f"{task.id}: names no dish the catalog marks sold out"
        if task.kind == "fallback_available":
            assert not names, f"{task.id}: names a dish the catalog marks sold out: {names}"
        if task.kind in ("fallback_sold_out", "fallback_available") and task.expect.ordered:
            ordered = {item.dish.casefold() for item in task.expect.items or []}
            assert not ordered & sold_out, f"{task.id} expects a sold-out dish ordered"
    assert any(t.kind == "fallback_sold_out" and t.expect.ordered for t in tasks)
    assert any(t.kind == "fallback_available" and t.expect.ordered for t in tasks)
