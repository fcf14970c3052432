"""``webagent eval TASKS.jsonl``: run a task suite, each task in a fresh shop, and verify the outcome.

A task passes only when the shop's own database shows what the task expects; the agent's claims are
never taken on trust. The verifier reads two things a run leaves behind:

- the shop's SQLite file (tables ``orders`` and ``order_items``, docs/shop-contract.md): which order
  exists, at which restaurant, with which lines, options, slot, payment and promo code;
- the run's ``transcript.jsonl``: whether the agent asked a person (an ``ask_human`` call) and what it
  claimed at the end (the ``finished`` event). A claimed order the database does not hold is a
  *false claim*, counted apart from ordinary failures.

One task per line (the format is a contract; task files outside this repository rely on it)::

    {"id": "t01", "goal": "…", "clutter": 2, "seed": 7,
     "profile": {"name": "…", "address": "…", "phone": "…", "payment_method": "…"},   # optional
     "answers": ["…"],          # optional replies to ask_human, in order; none left → the run pauses
     "approve": "auto",         # optional: auto (default) | deny
     "budget_cents": 5000,      # optional
     "note": "…",               # optional: what the task is about (for readers; evals/README.md lists it)
     "expect": {"ordered": true,                       # required; false = no order may exist
                "restaurant": "…", "items": [{"dish": "…", "quantity": 2, "options": {"Size": "Large"}}],
                "exact_items": true, "address_contains": "…", "delivery_slot": "…",
                "payment_method": "…", "promo_code": "…", "asked_human": true}}   # all optional

``promo_code: ""`` expects that no code was applied. A paused run counts as "nothing ordered".
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import json
import secrets
import sqlite3
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from webagent.browser import Browser
from webagent.config import Profile, RunConfig
from webagent.errors import RunError, UsageError
from webagent.result import RunResult, Tokens

__all__ = [
    "DEFAULT_PROFILE",
    "Expect",
    "ExpectedItem",
    "SuiteReport",
    "Task",
    "TaskResult",
    "Verdict",
    "format_summary",
    "load_tasks",
    "main",
    "parse_tasks",
    "read_orders",
    "run_suite",
    "run_task",
    "verify",
]

DEFAULT_PROFILE = Profile(
    name="Eval Customer", address="1 Test Street", phone="555-0100", payment_method="Card on delivery"
)
"""The customer of a task that gives no profile; what the goal says still wins."""


class ExpectedItem(BaseModel):
    """One order line the database must hold."""

    model_config = ConfigDict(extra="forbid")

    dish: str
    """The dish name as the catalog spells it (compared case-insensitively)."""
    quantity: int = Field(1, ge=1)
    options: dict[str, str | list[str]] = Field(default_factory=dict)
    """{option: choice}; only these options are compared. A list for multi-choice options ([] = none)."""


class Expect(BaseModel):
    """What the shop's database (and transcript) must show after the run; unset fields are not checked."""

    model_config = ConfigDict(extra="forbid")

    ordered: bool
    """True: exactly one order exists. False: no order may exist."""
    restaurant: str | None = None
    items: list[ExpectedItem] | None = None
    exact_items: bool | None = None
    """No lines beyond ``items`` (default: true when ``items`` is given)."""
    address_contains: str | None = None
    delivery_slot: str | None = None
    payment_method: str | None = None
    promo_code: str | None = None
    """The applied code; "" expects none applied."""
    asked_human: bool | None = None

    @model_validator(mode="after")
    def _order_details_need_an_order(self) -> Expect:
        details = ("restaurant", "items", "address_contains", "delivery_slot", "payment_method", "promo_code")
        given = [name for name in details if getattr(self, name) is not None]
        if not self.ordered and given:
            raise ValueError(f"ordered is false, so {', '.join(given)} cannot be checked")
        return self


class Task(BaseModel):
    """One line of a task file."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    goal: str = Field(min_length=1)
    clutter: int = Field(0, ge=0, le=4)
    seed: int = 7
    profile: Profile | None = None
    answers: list[str] = Field(default_factory=list)
    approve: Literal["auto", "deny"] = "auto"
    budget_cents: int | None = Field(None, ge=0)
    note: str | None = None
    expect: Expect


# Task file ---------------------------------------------------------------------------------------


def _field_error(error: ValidationError, known: dict[str, Any]) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "line"
    if first["type"] == "extra_forbidden":
        key = str(first["loc"][-1])
        close = difflib.get_close_matches(key, list(known), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"unknown field {where!r}{hint}"
    if first["type"] == "missing":
        return f"missing field {where!r}"
    return f"field {where!r}: {first['msg']}"


def _known_fields(loc: Sequence[int | str]) -> dict[str, Any]:
    """The fields of the model a validation error location points into, for "did you mean" hints."""
    model: type[BaseModel] = Task
    for part in loc[:-1]:
        if part == "expect":
            model = Expect
        elif part == "items":
            model = ExpectedItem
        elif part == "profile":
            model = Profile
    return dict(model.model_fields)


def parse_tasks(text: str, source: str = "tasks") -> list[Task]:
    """Parse JSON-lines task text; a bad line raises `UsageError` naming the line and the field."""
    tasks: list[Task] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise UsageError(
                f"{source} line {number}: not valid JSON ({error.msg} at column {error.colno})"
            ) from None
        if not isinstance(data, dict):
            raise UsageError(f"{source} line {number}: a task must be a JSON object")
        try:
            task = Task.model_validate(data)
        except ValidationError as error:
            known = _known_fields(error.errors()[0]["loc"])
            raise UsageError(f"{source} line {number}: {_field_error(error, known)}") from None
        if task.id in seen:
            raise UsageError(
                f"{source} line {number}: task id {task.id!r} already used on line {seen[task.id]}"
            )
        seen[task.id] = number
        tasks.append(task)
    if not tasks:
        raise UsageError(f"{source}: no tasks")
    return tasks


def load_tasks(path: Path) -> list[Task]:
    """Read and parse a task file (see the module docstring for the format)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read task file {path}: {error.strerror}") from error
    return parse_tasks(text, str(path))


# Verifier ----------------------------------------------------------------------------------------


class Verdict(BaseModel):
    """The verifier's judgement of one run."""

    passed: bool
    reason: str
    order_id: int | None = None
    """The order the database holds (the first, if several)."""
    false_claim: bool = False
    """The run claimed an order the database does not hold."""


def read_orders(db_path: Path) -> list[dict[str, Any]]:
    """Every order in a shop database, oldest first, each with its ``items`` (options decoded)."""
    if not db_path.exists():
        return []
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        orders = [dict(row) for row in conn.execute("SELECT * FROM orders ORDER BY id")]
        for order in orders:
            rows = conn.execute(
                "SELECT dish_name, quantity, options_json FROM order_items WHERE order_id = ? ORDER BY id",
                (order["id"],),
            )
            order["items"] = [
                {"dish_name": name, "quantity": quantity, "options": json.loads(options)}
                for name, quantity, options in rows
            ]
        return orders
    finally:
        conn.close()


def _choices(value: object) -> list[str]:
    if value is None:
        return []
    values = value if isinstance(value, list) else [value]
    return sorted(str(choice).casefold() for choice in values)


def _options_match(want: dict[str, str | list[str]], got: dict[str, Any]) -> bool:
    got_by_key = {key.casefold(): value for key, value in got.items()}
    return all(_choices(choice) == _choices(got_by_key.get(key.casefold())) for key, choice in want.items())


def _describe(dish: str, quantity: int, options: dict[str, Any]) -> str:
    shown = {key: value for key, value in options.items() if value not in (None, [], "")}
    if not shown:
        return f"{quantity} × {dish}"
    parts = ", ".join(
        f"{key}: {' + '.join(value) if isinstance(value, list) else value}" for key, value in shown.items()
    )
    return f"{quantity} × {dish} {{{parts}}}"


def _lines(items: list[dict[str, Any]]) -> str:
    return ", ".join(_describe(i["dish_name"], i["quantity"], i["options"]) for i in items) or "no lines"


def _item_problems(expect: Expect, items: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    unclaimed = list(items)
    for want in expect.items or []:
        matching = [
            line
            for line in unclaimed
            if line["dish_name"].casefold() == want.dish.casefold()
            and _options_match(want.options, line["options"])
        ]
        if sum(line["quantity"] for line in matching) != want.quantity:
            problems.append(
                f"expected {_describe(want.dish, want.quantity, dict(want.options))}, DB has {_lines(items)}"
            )
            return problems  # one clear mismatch says enough
        unclaimed = [line for line in unclaimed if line not in matching]
    exact = expect.exact_items if expect.exact_items is not None else expect.items is not None
    if exact and unclaimed:
        problems.append(f"unexpected extra lines in the DB: {_lines(unclaimed)}")
    return problems


def _order_problems(expect: Expect, order: dict[str, Any]) -> list[str]:
    problems = _item_problems(expect, order["items"])
    if expect.restaurant is not None and order["restaurant_name"].casefold() != expect.restaurant.casefold():
        problems.append(f"expected restaurant {expect.restaurant!r}, DB has {order['restaurant_name']!r}")
    if (
        expect.address_contains is not None
        and expect.address_contains.casefold() not in order["address"].casefold()
    ):
        problems.append(
            f"expected the address to contain {expect.address_contains!r}, DB has {order['address']!r}"
        )
    for field, wanted in (("delivery_slot", expect.delivery_slot), ("payment_method", expect.payment_method)):
        if wanted is not None and str(order[field]).casefold() != wanted.casefold():
            problems.append(f"expected {field} {wanted!r}, DB has {order[field]!r}")
    if expect.promo_code is not None:
        got = (order["promo_code"] or "").upper()
        if got != expect.promo_code.upper():
            wanted = repr(expect.promo_code) if expect.promo_code else "no promo code"
            problems.append(f"expected {wanted}, DB has {repr(got) if got else 'none'}")
    return problems


def _asked_human(events: list[dict[str, Any]]) -> bool:
    return any(
        (event.get("event") == "tool" and event.get("name") == "ask_human")
        or (event.get("event") == "paused" and event.get("kind") == "answer")
        for event in events
    )


def _claim(events: list[dict[str, Any]]) -> tuple[str | None, int | None]:
    """The outcome and order id the run ended on (its last ``finished`` event), or (None, None)."""
    finished = [event for event in events if event.get("event") == "finished"]
    if not finished:
        return None, None
    return finished[-1].get("outcome"), finished[-1].get("order_id")


def verify(expect: Expect, orders: list[dict[str, Any]], events: list[dict[str, Any]]) -> Verdict:
    """Judge one run from the shop's orders (`read_orders`) and the run's transcript events."""
    problems: list[str] = []
    claimed, claimed_id = _claim(events)
    ids = [order["id"] for order in orders]
    false_claim = claimed == "ordered" and claimed_id not in ids
    if false_claim:
        problems.append(f"the run claimed order #{claimed_id}, but the DB does not hold it")
    paused = [event for event in events if event.get("event") == "paused"]
    if expect.ordered:
        if not orders:
            why = f" (the run paused: {paused[-1].get('question')!r})" if claimed is None and paused else ""
            problems.append(f"expected an order, DB has none{why}")
        elif len(orders) > 1:
            problems.append(f"expected one order, DB has {len(orders)}: #{', #'.join(map(str, ids))}")
        else:
            problems += _order_problems(expect, orders[0])
    elif orders:
        problems.append(f"expected no order, DB has order #{ids[0]}: {_lines(orders[0]['items'])}")
    if expect.asked_human is not None and _asked_human(events) != expect.asked_human:
        problems.append(
            "expected the agent to ask a person, it did not"
            if expect.asked_human
            else "expected no question to a person, the agent asked one"
        )
    if problems:
        return Verdict(
            passed=False,
            reason="; ".join(problems),
            order_id=ids[0] if ids else None,
            false_claim=false_claim,
        )
    if orders:
        reason = f"order #{ids[0]} at {orders[0]['restaurant_name']}: {_lines(orders[0]['items'])}"
    else:
        reason = "no order, as expected" + (" (run paused)" if claimed is None and paused else "")
    return Verdict(passed=True, reason=reason, order_id=ids[0] if ids else None)


def _transcript(run_dir: str) -> list[dict[str, Any]]:
    path = Path(run_dir) / "transcript.jsonl"
    if not run_dir or not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# Running -----------------------------------------------------------------------------------------


class TaskResult(BaseModel):
    """One task's verdict and what its run cost."""

    id: str
    passed: bool
    reason: str
    outcome: str
    """The run's own outcome (ordered, done, paused, failed), or "error" when it could not run."""
    order_id: int | None = None
    false_claim: bool = False
    steps: int = 0
    model_calls: int = 0
    tool_calls: int = 0
    tokens: Tokens = Field(default_factory=Tokens)
    wall_s: float = 0.0
    """Whole task: shop start, browser context, run."""
    run_dir: str = ""

    def line(self) -> str:
        """The per-task line people read: ``t07 FAIL: expected …``."""
        verdict = "PASS" if self.passed else "FAIL"
        cost = f"{self.outcome}, {self.steps} steps, {self.wall_s:.1f}s"
        return f"{self.id} {verdict}: {self.reason} [{cost}]"


class SuiteReport(BaseModel):
    """Every task's result and the summary; ``--json`` prints exactly this."""

    tasks: list[TaskResult]
    summary: dict[str, Any]

    @property
    def all_passed(self) -> bool:
        return all(task.passed for task in self.tasks)


def _summary(results: list[TaskResult], wall_s: float, workers: int) -> dict[str, Any]:
    steps = [result.steps for result in results] or [0]
    passed = sum(result.passed for result in results)
    return {
        "total": len(results),
        "passed": passed,
        "failed": len(results) - passed,
        "success_rate": round(passed / len(results), 4) if results else 0.0,
        "false_claims": sum(result.false_claim for result in results),
        "steps_median": statistics.median(steps),
        "steps_mean": round(statistics.mean(steps), 2),
        "model_calls": sum(result.model_calls for result in results),
        "tool_calls": sum(result.tool_calls for result in results),
        "prompt_tokens": sum(result.tokens.prompt for result in results),
        "completion_tokens": sum(result.tokens.completion for result in results),
        "wall_s": round(wall_s, 2),
        "workers": workers,
    }


async def run_task(
    task: Task,
    *,
    runs_dir: Path,
    browser: Browser | None = None,
    model: str | None = None,
    base_url: str | None = None,
    shop_url: str | None = None,
) -> TaskResult:
    """Run one task through `start_run` in a fresh shop database, then verify it.

    With ``shop_url`` (a shop shared by many runs) the task runs in a shop session of its own instead,
    and is verified against that session's order history.
    """
    from webagent.runner import start_run

    if shop_url:
        return await _run_task_in_session(task, runs_dir, browser, model, base_url, shop_url)

    shops = runs_dir / "shops"
    shops.mkdir(parents=True, exist_ok=True)
    db_path = shops / f"{task.id}-{secrets.token_hex(4)}.db"
    config = RunConfig(
        goal=task.goal,
        profile=task.profile or DEFAULT_PROFILE,
        db_path=db_path,
        clutter=task.clutter,
        seed=task.seed,
        model=model,
        base_url=base_url,
        approve=task.approve,
        budget_cents=task.budget_cents,
        answers=list(task.answers),
        runs_dir=runs_dir,
    )
    started = time.monotonic()
    try:
        result: RunResult = await start_run(config, browser=browser)
    except RunError as error:  # e.g. the model endpoint failed: this task fails, the suite goes on
        return TaskResult(
            id=task.id,
            passed=False,
            reason=f"run error: {error}",
            outcome="error",
            wall_s=round(time.monotonic() - started, 2),
        )
    wall_s = time.monotonic() - started
    verdict = verify(task.expect, read_orders(db_path), _transcript(result.run_dir))
    return TaskResult(
        id=task.id,
        passed=verdict.passed,
        reason=verdict.reason,
        outcome=result.outcome,
        order_id=verdict.order_id,
        false_claim=verdict.false_claim,
        steps=result.steps,
        model_calls=result.model_calls,
        tool_calls=result.tool_calls,
        tokens=result.tokens,
        wall_s=round(wall_s, 2),
        run_dir=result.run_dir,
    )


async def _run_task_in_session(
    task: Task,
    runs_dir: Path,
    browser: Browser | None,
    model: str | None,
    base_url: str | None,
    shop_url: str,
) -> TaskResult:
    from webagent.batch import ShopSessions
    from webagent.runner import start_run

    shop = ShopSessions(shop_url)
    config = RunConfig(
        goal=task.goal,
        profile=task.profile or DEFAULT_PROFILE,
        shop_url=shop_url,
        clutter=task.clutter,
        seed=task.seed,
        model=model,
        base_url=base_url,
        approve=task.approve,
        budget_cents=task.budget_cents,
        answers=list(task.answers),
        runs_dir=runs_dir,
    )
    started = time.monotonic()
    try:
        cookies = await shop.open()
        result = await start_run(config, browser=browser, storage_state=shop.storage_state(cookies))
        orders = list(reversed(await shop.orders(cookies)))  # oldest first, as read_orders gives them
    except RunError as error:
        return TaskResult(
            id=task.id,
            passed=False,
            reason=f"run error: {error}",
            outcome="error",
            wall_s=time.monotonic() - started,
        )
    verdict = verify(task.expect, orders, _transcript(result.run_dir))
    return TaskResult(
        id=task.id,
        passed=verdict.passed,
        reason=verdict.reason,
        outcome=result.outcome,
        order_id=verdict.order_id,
        false_claim=verdict.false_claim,
        steps=result.steps,
        model_calls=result.model_calls,
        tool_calls=result.tool_calls,
        tokens=result.tokens,
        wall_s=round(time.monotonic() - started, 2),
        run_dir=result.run_dir,
    )


async def run_suite(
    tasks: Sequence[Task],
    *,
    runs_dir: Path,
    workers: int = 1,
    model: str | None = None,
    base_url: str | None = None,
    progress: bool = False,
    ws_url: str | None = None,
    cdp_url: str | None = None,
    shop_url: str | None = None,
) -> SuiteReport:
    """Run ``tasks`` — up to ``workers`` at once, as contexts of one shared browser — and verify each.

    The browser is launched here, or reached at ``ws_url`` (a Playwright server) or ``cdp_url``.
    """
    if workers < 1:
        raise UsageError("--workers must be at least 1")
    started = time.monotonic()
    semaphore = asyncio.Semaphore(workers)
    bar = _ProgressBar(len(tasks)) if progress else None

    async with await Browser.open(ws_url=ws_url, cdp_url=cdp_url) as browser:

        async def one(task: Task) -> TaskResult:
            async with semaphore:
                result = await run_task(
                    task,
                    runs_dir=runs_dir,
                    browser=browser,
                    model=model,
                    base_url=base_url,
                    shop_url=shop_url,
                )
            if bar is not None:
                bar.advance(result)
            return result

        try:
            results = await asyncio.gather(*(one(task) for task in tasks))
        finally:
            if bar is not None:
                bar.stop()
    return SuiteReport(
        tasks=list(results), summary=_summary(list(results), time.monotonic() - started, workers)
    )


class _ProgressBar:
    """A rich progress bar on stderr, so stdout keeps only the results."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            TextColumn("eval"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
            console=Console(stderr=True),
            transient=True,
        )
        self.task = self.progress.add_task("", total=total)
        self.failed = 0
        self.progress.start()

    def advance(self, result: TaskResult) -> None:
        self.failed += not result.passed
        self.progress.update(self.task, advance=1, description=f"last {result.id} · {self.failed} failed")

    def stop(self) -> None:
        self.progress.stop()


def format_summary(summary: dict[str, Any]) -> str:
    """The summary block under the per-task lines."""
    return (
        f"{summary['passed']}/{summary['total']} passed ({summary['success_rate']:.0%}) · "
        f"false claims {summary['false_claims']}\n"
        f"steps median {summary['steps_median']} mean {summary['steps_mean']} · "
        f"model calls {summary['model_calls']} · tool calls {summary['tool_calls']} · "
        f"tokens {summary['prompt_tokens']} prompt / {summary['completion_tokens']} completion · "
        f"wall {summary['wall_s']:.1f}s with {summary['workers']} worker(s)"
    )


def main(args: argparse.Namespace) -> int:
    """``webagent eval``: 0 when every task passes, 1 otherwise (2, via `UsageError`, for a bad file)."""
    from webagent.sync import run_sync

    tasks = load_tasks(args.tasks)
    if args.only:
        unknown = sorted(set(args.only) - {task.id for task in tasks})
        if unknown:
            raise UsageError(f"no task with id {', '.join(unknown)} in {args.tasks}")
        tasks = [task for task in tasks if task.id in args.only]
    progress = not (args.quiet or args.json) and sys.stderr.isatty()
    if getattr(args, "ray", None):
        from webagent.distributed import eval_on_ray

        report = eval_on_ray(tasks, args, progress)
    else:
        report = run_sync(
            run_suite(
                tasks,
                runs_dir=args.runs_dir,
                workers=args.workers,
                model=args.model,
                base_url=args.base_url,
                progress=progress,
                ws_url=getattr(args, "browser_ws", None),
                cdp_url=getattr(args, "cdp", None),
                shop_url=getattr(args, "shop_url", None),
            )
        )
    from webagent.report import write_eval_report

    # Beside the run folders, linking to each run's report.html; baselines, once run, are passed in here.
    page = write_eval_report(report, args.runs_dir / "eval-report.html", tasks=tasks)
    if args.json:
        print(report.model_dump_json())
    else:
        for task in report.tasks:
            print(task.line())
        print(format_summary(report.summary))
    print(f"Report: {page}", file=sys.stderr if args.json else sys.stdout)
    return 0 if report.all_passed else 1
