"""Durable runs: SIGKILL the real ``webagent`` process at random and at targeted moments, resume, and
check the shop's database — exactly one order per run, and ``resume`` reports it.

Everything is real: the CLI in a subprocess (its own process group, so the kill takes its Chromium
and embedded shop with it, as a crash would), the shop on the run's own SQLite file (restarted on the
same file by ``resume``), Chromium, the offline planner. The moments are found by watching what the
run writes — its checkpoint, its transcript, the shop's ``orders`` table — never by the clock alone.
The pure parts (settling an interrupted turn, the run lock, a torn transcript) are tested first.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.agent.approval import ApprovalGate, HumanChannel
from webagent.agent.checkpoint import Checkpoint, Intent, RunFolder
from webagent.agent.controls import Controls
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.errors import ModelError, UsageError
from webagent.llm.protocol import Reply
from webagent.narration.state import CartLine, CheckoutForm, MenuItem, MenuOption, PageState, RestaurantCard
from webagent.narration import said
from webagent.narration.narrate import Narration, narrate
from webagent.narration.seen import person_message, seen, tool_message
from webagent.planner.policy import Planner
from webagent.runs.recovery import CART_CALLS, resume_note, settle_interrupted_turn
from webagent.runs.runner import opening_said, start_run
from webagent.sites.demo_shop import TOOLS
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply
from webagent.tools import Args
from webagent.tools.toolbox import ToolResult, parse_call, tool_schemas

GOAL = "Order 2 Margherita Pizza (Large) and a Tiramisu from Italian Bistro, deliver at 7pm, pay cash"
TOTAL = 4342
PROFILE = ("--name", "Ada", "--address", "12 Oak Street", "--phone", "555-0101")
SOURCE = str(Path(__file__).resolve().parents[2])  # the checkout under test, not an installed copy


# --- settling the interrupted turn (pure) ---------------------------------------------------------


def _turn(names: list[str], answered: int) -> list[dict[str, Any]]:
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": "{}"}}
        for i, name in enumerate(names)
    ]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "goal"},
        {"role": "assistant", "content": "Doing it.", "tool_calls": calls},
    ]
    messages += [{"role": "tool", "tool_call_id": f"c{i}", "content": f"done {i}"} for i in range(answered)]
    return messages


@settings(max_examples=300, deadline=None)
@given(
    names=st.lists(st.sampled_from(sorted(tool.name for tool in TOOLS)), min_size=1, max_size=6),
    data=st.data(),
)
def test_every_call_left_in_an_interrupted_turn_has_exactly_one_answer(names: list[str], data: Any) -> None:
    answered = data.draw(st.integers(0, len(names)))
    returned = data.draw(st.booleans())
    before, now = data.draw(st.integers(0, 5)), data.draw(st.integers(0, 9))
    in_flight = answered < len(names) and data.draw(st.booleans())
    intent = (
        Intent(
            call_id=f"c{answered}",
            name=names[answered],
            arguments='{"dish": "Tiramisu", "quantity": 1}',
            cart_count=before if names[answered] in CART_CALLS else None,
            result="it returned" if returned else None,
        )
        if in_flight
        else None
    )
    messages = _turn(names, answered)
    taken_back = settle_interrupted_turn(messages, intent, now)

    assistant = [m for m in messages if m["role"] == "assistant"]
    kept = [c["id"] for m in assistant for c in m.get("tool_calls", [])]
    answers = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert sorted(answers) == sorted(kept)  # a Chat Completions conversation a server accepts
    assert all(m.get("content") or m.get("tool_calls") for m in assistant)
    # Calls run in order: the answered ones stay, the one in flight stays only when something is
    # known of it, and everything after it is taken back.
    assert kept[:answered] == [f"c{i}" for i in range(answered)]
    flight_known = in_flight and (returned or (names[answered] in CART_CALLS and now != before))
    assert kept == [f"c{i}" for i in range(answered + (1 if flight_known else 0))]
    assert taken_back == names[len(kept) :]


def test_a_cart_call_in_flight_is_judged_by_the_cart() -> None:
    add = '{"dish": "Margherita Pizza", "quantity": 2, "options": ["Large"]}'
    took = _turn(["add_to_cart", "add_to_cart"], 0)
    intent = Intent(call_id="c0", name="add_to_cart", arguments=add, cart_count=1)
    assert settle_interrupted_turn(took, intent, 3) == ["add_to_cart"]
    assert took[-1]["content"].startswith('Added 2 × "Margherita Pizza" — the cart went from 1 to 3 items')

    nothing = _turn(["add_to_cart"], 0)
    assert settle_interrupted_turn(nothing, intent, 1) == ["add_to_cart"]
    assert nothing[-1] == {"role": "assistant", "content": "Doing it."}  # taken back, words kept


MENU = [
    MenuItem(
        name="Margherita Pizza",
        price_cents=1150,
        has_options=True,
        options=[MenuOption(name="Size", required=True, choices=["Regular", "Large"])],
    ),
    MenuItem(name="Tiramisu", price_cents=750),
]


@settings(max_examples=40, deadline=None)
@given(took=st.booleans(), earlier=st.integers(0, 3))
def test_after_an_add_in_flight_the_planner_goes_on_from_the_cart_the_page_shows(
    took: bool, earlier: int
) -> None:
    """A kill during the planner's add: resumed, it reads the cart from the resume note's page (or looks),
    never from the page before the kill — the flake where it stopped "the cart would not match"."""
    planner = Planner()
    shown = PageState(view="restaurants", restaurants=[RestaurantCard(name="Italian Bistro")])
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "s"},
        person_message(f"{GOAL}\n\n{narrate(Narration(said=opening_said(shown), after=shown))}", shown),
    ]
    menu = PageState(view="restaurant", restaurant="Italian Bistro", menu=MENU, min_order_cents=1500)
    reply_ = planner.next_reply(messages)
    assert [c.name for c in reply_.tool_calls] == ["open_restaurant"]
    messages.append(reply_.to_message())
    messages.append(
        tool_message(
            reply_.tool_calls[0].id,
            narrate(Narration(said=said.opened("Italian Bistro", 1500, MENU).said, after=menu)),
            seen(menu).record(),
        )
    )
    turn = planner.next_reply(messages)
    add = turn.tool_calls[0]
    assert add.name == "add_to_cart" and json.loads(add.arguments)["options"] == ["Large"]
    messages.append(turn.to_message())
    intent = Intent(call_id=add.id, name=add.name, arguments=add.arguments, cart_count=0)
    lines = [CartLine(name="Margherita Pizza (Large)", quantity=2, total_cents=3100)] if took else []
    now = menu.model_copy(update={"cart_count": 2 if took else 0, "cart_lines": lines})
    for _ in range(earlier):  # resumed at the same page again and again before this one
        messages.append(person_message(resume_note([], now, [], []), now))
    taken_back = settle_interrupted_turn(messages, intent, now.cart_count)
    messages.append(person_message(resume_note(taken_back, now, [], []), now))

    going_on = planner.next_reply(messages)
    names = [c.name for c in going_on.tool_calls]
    assert "finish" not in names, going_on.content
    if took:  # the line is there: looked at, never added twice
        assert names[0] in ("view_cart", "add_to_cart") and '"Margherita' not in str(
            [c.arguments for c in going_on.tool_calls if c.name == "add_to_cart"]
        )
    else:
        assert (
            names[0] == "add_to_cart"
            and json.loads(going_on.tool_calls[0].arguments)["dish"] == "Margherita Pizza"
        )


def test_a_torn_last_transcript_line_is_left_out(tmp_path: Path) -> None:
    folder = RunFolder.create(tmp_path)
    folder.record("started", config={})
    with folder.transcript_path.open("a") as out:
        out.write('{"t": 1, "event": "tool", "narr')  # the process died mid-write
    assert [e["event"] for e in folder.transcript()] == ["started"]


def test_a_run_is_driven_by_one_process_and_a_killed_one_lets_go(tmp_path: Path) -> None:
    folder = RunFolder.create(tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from webagent.agent.checkpoint import RunFolder\n"
            f"with RunFolder(Path({str(tmp_path)!r}), {folder.run_id!r}).lock():\n"
            "    print('held', flush=True); time.sleep(300)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(UsageError, match="another webagent process"), folder.lock():
            pass
    finally:
        holder.kill()
        holder.wait()
    with folder.lock():  # the kernel released the dead process's lock
        pass


class CheckoutPage:
    """A page at checkout whose place_order looks at what the run folder holds at the moment it acts."""

    schemas = tool_schemas(TOOLS)

    def __init__(self, folder: RunFolder) -> None:
        self.folder = folder
        self.on_disk_when_pressed: Checkpoint | None = None

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str:
        return parse_call(TOOLS, name, arguments)

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        assert name == "place_order"
        self.on_disk_when_pressed = self.folder.load()
        return ToolResult(
            name, "Order #5 placed — the shop confirms it, total $18.74.", True, True, False, 5, 1874
        )

    async def state(self) -> PageState:
        form = CheckoutForm(
            name="A", address="1 Oak Street", phone="555", delivery_slot="ASAP", payment_method="Cash",
            checkout_token="tok-1",
        )  # fmt: skip
        return PageState(view="checkout", cart_count=2, summary_total_cents=1874, checkout=form)


def test_the_order_intent_is_on_disk_before_the_button_and_the_result_after(tmp_path: Path) -> None:
    folder = RunFolder.create(tmp_path)
    profile = Profile(name="A", address="1 Oak Street", phone="555")  # the form's details are the person's
    state = Checkpoint(run_id=folder.run_id, config=RunConfig(profile=profile))
    page = CheckoutPage(folder)
    events: list[str] = []

    def emit(event: str, **fields: Any) -> None:
        folder.record(event, **fields)
        events.append(event)

    # Within a budget: a goal that names no dish is approved automatically only within one.
    controls = Controls(page, ApprovalGate("auto", 5000), HumanChannel(), state, folder, emit)
    result = run_sync(controls.place_order(call("place_order")))

    before = page.on_disk_when_pressed
    assert before is not None and before.order_attempted and not before.placed
    assert before.order_intent is not None and before.order_intent.checkout_token == "tok-1"
    assert before.order_intent.total_cents == 1874
    after = folder.load()
    assert (result.order_id, [o.order_id for o in after.placed]) == (5, [5])
    assert events == ["approval", "order_intent", "order_result"]


# --- a run's result agrees with the shop ----------------------------------------------------------


def test_a_model_that_gives_out_after_the_order_ends_the_run_ordered(
    agent_browser: Browser, tmp_path: Path
) -> None:
    def endpoint_gone(messages: list[dict[str, Any]]) -> Reply:
        raise ModelError("could not reach the model endpoint: connection refused")

    details = {"name": "Ada", "address": "12 Oak Street", "phone": "555-0101", "payment_method": "Cash"}
    model = ScriptedModel(
        [
            reply(
                call("open_restaurant", name="Italian Bistro"),
                call("add_to_cart", dish="Tiramisu", quantity=2),
            ),
            reply(call("go_to_checkout"), call("fill_delivery_details", **details), call("place_order")),
            endpoint_gone,
        ]
    )
    config = RunConfig(
        goal="2 Tiramisu from Italian Bistro",
        approve="auto",
        runs_dir=tmp_path,
        profile=Profile(name="Ada", address="12 Oak Street", phone="555-0101"),
    )
    result = run_sync(start_run(config, model=model, browser=agent_browser))

    with sqlite3.connect(Path(result.run_dir) / "shop.db") as db:
        [(order_id, total)] = db.execute("SELECT id, total_cents FROM orders").fetchall()
    assert (result.outcome, result.order_id, result.total_cents) == ("ordered", order_id, total)
    assert "could not reach the model endpoint" in result.message
    assert RunFolder(tmp_path, result.run_id).load().result == result


# --- killing the real command -------------------------------------------------------------------


class Process:
    """A ``webagent`` command in its own process group, killed like a crash (SIGKILL to the group)."""

    def __init__(self, cwd: Path, *args: str, env: dict[str, str] | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBAGENT_MODEL"))} | (
            env or {}
        )
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [SOURCE, env.get("PYTHONPATH")]))
        self.out, self.err = (cwd / "out.txt").open("w+"), (cwd / "err.txt").open("w+")
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "webagent", *args],
            cwd=cwd,
            env=env,
            stdout=self.out,
            stderr=self.err,
            start_new_session=True,
        )

    def alive_when(self, condition: Callable[[], bool], timeout: float = 240) -> bool:
        """Wait until ``condition`` holds (True) or the process ends first (False)."""
        deadline = time.monotonic() + timeout
        while self.popen.poll() is None:
            if condition():
                return True
            if time.monotonic() > deadline:
                raise AssertionError("the condition never held while the run went on")
            time.sleep(0.002)
        return False

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):  # it ended by itself just before
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=60)

    def result(self) -> tuple[int, dict[str, Any]]:
        """Exit code and the one JSON object on stdout."""
        code = self.popen.wait(timeout=240)
        self.out.seek(0)
        self.err.seek(0)
        out, err = self.out.read(), self.err.read()
        assert "Traceback" not in err, err
        assert len(out.strip().splitlines()) == 1, (out, err)
        return code, json.loads(out)


def start(cwd: Path) -> Process:
    return Process(cwd, "run", GOAL, "--approve", "auto", "--json", *PROFILE)


def resume(cwd: Path, run_id: str) -> Process:
    return Process(cwd, "resume", run_id, "--json")


def the_run(cwd: Path) -> RunFolder | None:
    found = [p for p in (cwd / "runs").glob("*") if (p / "state.json").is_file()]
    return RunFolder(cwd / "runs", found[0].name) if found else None


def order_rows(cwd: Path) -> list[tuple[int, int]]:
    folder = the_run(cwd)
    db = folder.path / "shop.db" if folder else None
    if db is None or not db.is_file():
        return []
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return list(conn.execute("SELECT id, total_cents FROM orders ORDER BY id"))
    except sqlite3.Error:  # the shop is still creating its tables
        return []


def events(cwd: Path) -> int:
    folder = the_run(cwd)
    return len(folder.transcript()) if folder else 0


def in_flight(cwd: Path, name: str) -> bool:
    folder = the_run(cwd)
    try:
        state = folder.load() if folder else None
    except ValueError:
        return False
    return bool(state and state.in_flight and state.in_flight.name == name and state.in_flight.result is None)


def assert_one_order_reported(cwd: Path, code: int, result: dict[str, Any]) -> None:
    rows = order_rows(cwd)
    assert len(rows) == 1, rows
    assert (code, result["outcome"], result["order_id"], result["total_cents"]) == (0, "ordered", *rows[0])
    folder = the_run(cwd)
    assert folder is not None
    state = folder.load()
    assert state.status == "finished" and state.result is not None and state.result.order_id == rows[0][0]


def test_killed_right_after_the_order_row_is_written_resume_reports_that_order(tmp_path: Path) -> None:
    run = start(tmp_path)
    assert run.alive_when(lambda: bool(order_rows(tmp_path))), "the run ended before ordering"
    run.kill()
    folder = the_run(tmp_path)
    assert folder is not None
    state = folder.load()
    assert state.status == "running" and not state.placed  # killed before the run saw its order
    assert state.order_intent is not None and state.storage_state is not None

    code, result = resume(tmp_path, folder.run_id).result()
    assert_one_order_reported(tmp_path, code, result)
    assert "was placed before the run was interrupted" in result["message"]

    # Resuming again only reports it.
    code, again = resume(tmp_path, folder.run_id).result()
    assert (code, again["order_id"]) == (0, result["order_id"])
    assert again["message"].startswith("run already finished")
    assert len(order_rows(tmp_path)) == 1


def test_a_fill_that_returned_before_its_event_was_written_is_put_back_on_resume(tmp_path: Path) -> None:
    """Killed after the checkout form was filled and the checkpoint kept the fill's result, before the
    transcript's event for it (a CI run's random kill found it: the resumed run took the form as filled, the
    reload had emptied it, and the order waited at approval for details nobody had left out)."""
    run = start(tmp_path)

    def filling() -> bool:
        folder = the_run(tmp_path)
        try:
            state = folder.load() if folder else None
        except ValueError:
            return False
        flight = state.in_flight if state else None
        return bool(flight and flight.name == "fill_delivery_details" and flight.result is not None)

    assert run.alive_when(filling), "the run ended before the fill returned"
    run.kill()
    folder = the_run(tmp_path)
    assert folder is not None
    log = folder.path / "transcript.jsonl"  # the moment is narrow: its event may be written just before
    lines = [line for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    kept = [
        line
        for line in lines
        if (json.loads(line).get("event"), json.loads(line).get("name")) != ("tool", "fill_delivery_details")
    ]
    log.write_text("\n".join(kept) + "\n", encoding="utf-8")

    code, result = resume(tmp_path, folder.run_id).result()
    assert_one_order_reported(tmp_path, code, result)


def test_a_resumed_run_killed_at_its_commit_is_reported_by_the_next_resume(tmp_path: Path) -> None:
    run = start(tmp_path)
    assert run.alive_when(lambda: in_flight(tmp_path, "add_to_cart"))
    run.kill()
    folder = the_run(tmp_path)
    assert folder is not None and order_rows(tmp_path) == []

    resumed = resume(tmp_path, folder.run_id)
    assert resumed.alive_when(lambda: bool(order_rows(tmp_path))), "the resumed run never ordered"
    resumed.kill()

    code, result = resume(tmp_path, folder.run_id).result()
    assert_one_order_reported(tmp_path, code, result)


def test_killed_before_its_first_page_resume_begins_the_run(tmp_path: Path) -> None:
    run = start(tmp_path)
    assert run.alive_when(lambda: the_run(tmp_path) is not None)  # its folder exists, its page not yet
    run.kill()
    folder = the_run(tmp_path)
    assert folder is not None
    state = folder.load()
    assert (state.status, state.messages, state.storage_state) == ("running", [], None)

    code, result = resume(tmp_path, folder.run_id).result()
    assert_one_order_reported(tmp_path, code, result)


def _kill_and_resume(tmp_path: Path, seed: int, kills: int) -> None:
    """Kill at a random moment (a random number of recorded events in, plus a random delay), resume,
    ``kills`` times over; then let the last resume finish."""
    rng = random.Random(seed)
    process = start(tmp_path)
    for _ in range(kills):
        seen = events(tmp_path)
        trigger = seen + rng.randint(1, 15)
        if not process.alive_when(lambda n=trigger: events(tmp_path) >= n):
            break  # it finished first
        time.sleep(rng.uniform(0, 0.4))  # the fault lands at a random moment, not at an event
        process.kill()
        folder = the_run(tmp_path)
        if folder is None:
            process = start(tmp_path)  # killed before its folder existed: nothing to resume
            continue
        assert len(order_rows(tmp_path)) <= 1
        process = resume(tmp_path, folder.run_id)
    code, result = process.result()
    if result["message"].startswith("run already finished"):
        code, result = resume(tmp_path, result["run_id"]).result()
    assert_one_order_reported(tmp_path, code, result)


@pytest.mark.parametrize("seed", [11, *(pytest.param(seed, marks=pytest.mark.slow) for seed in (12, 13))])
def test_killed_at_a_random_moment_and_resumed_orders_exactly_once(tmp_path: Path, seed: int) -> None:
    _kill_and_resume(tmp_path, seed, kills=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(21, 25))  # four: each is three kills, ~20 s
def test_killed_again_and_again_and_resumed_orders_exactly_once(tmp_path: Path, seed: int) -> None:
    _kill_and_resume(tmp_path, seed, kills=3)


@pytest.mark.usefixtures("ctrl_c_reaches_children")
def test_ctrl_c_prints_one_json_object_and_the_run_resumes(tmp_path: Path) -> None:
    run = start(tmp_path)
    assert run.alive_when(lambda: in_flight(tmp_path, "add_to_cart"))
    os.kill(run.popen.pid, signal.SIGINT)  # Ctrl-C, as `kill -INT` delivers it
    code, result = run.result()
    assert code == 130
    assert (result["outcome"], result["order_id"]) == ("failed", None)
    assert f"webagent resume {result['run_id']}" in result["message"]
    folder = the_run(tmp_path)
    assert folder is not None and folder.load().status == "running"  # interrupted, not over

    # A resume that cannot start says why — one JSON object — and leaves the run as it was.
    no_display = {"DISPLAY": "", "WAYLAND_DISPLAY": ""}
    code, failed = Process(tmp_path, "resume", folder.run_id, "--json", "--headed", env=no_display).result()
    assert (code, failed["outcome"], failed["run_id"]) == (1, "failed", folder.run_id)
    assert "xvfb-run" in failed["message"]
    assert folder.load().status == "running"

    code, resumed = resume(tmp_path, folder.run_id).result()
    assert_one_order_reported(tmp_path, code, resumed)
