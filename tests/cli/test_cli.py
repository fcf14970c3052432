"""The ``webagent`` command as a person or a CI job runs it: real subprocesses, real shop, real Chromium.

Each test runs ``python -m webagent …`` and checks the exit code, stdout (one JSON object with
``--json``), stderr (one clear line on errors, never a traceback) and the shop's database. The planner
drives (no OPENAI_* variables reach the subprocesses), so the runs are deterministic and offline.
Recorded runs are shared within the module where a test only reads them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from demo_site import Shop
from demo_site.db import ShopDB

GOAL = "Order 2 Margherita Pizza (Large) and a Tiramisu from Italian Bistro, deliver at 7pm, pay cash"
TOTAL = 4342  # 2 × 15.50 + 7.50, delivery and service fee: what the shop charges for GOAL
PROFILE = ["--name", "Ada", "--address", "12 Oak Street", "--phone", "555-0101"]
RESULT_KEYS = {
    "run_id",
    "outcome",
    "order_id",
    "total_cents",
    "steps",
    "model_calls",
    "tool_calls",
    "tokens",
    "wall_s",
    "run_dir",
    "message",
    "question",
    "choices",
    "waiting_for",
    "asked_human",
    "paid",
    "spent_cents",
}


@dataclass
class Ran:
    code: int
    out: str
    err: str
    cwd: Path

    def json(self) -> dict[str, Any]:
        """The one JSON object on stdout (fails if stdout holds anything else)."""
        return dict(json.loads(self.out))

    def run_dir(self) -> Path:
        return self.cwd / self.json()["run_dir"]


SOURCE = str(Path(__file__).resolve().parents[2])  # the checkout under test, not an installed copy


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBAGENT_MODEL"))}
    env["COLUMNS"] = "200"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [SOURCE, env.get("PYTHONPATH")]))
    return {**env, **(extra or {})}


def _command(args: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "webagent", *args]


def webagent(*args: str, cwd: Path, env: dict[str, str] | None = None, stdin: str | None = None) -> Ran:
    """Run the command to completion; a traceback on stderr fails the test whatever the exit code."""
    done = subprocess.run(
        _command(args), cwd=cwd, env=_env(env), input=stdin, capture_output=True, text=True, timeout=180
    )
    assert "Traceback" not in done.stderr, done.stderr
    return Ran(done.returncode, done.stdout, done.stderr, cwd)


def orders(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT id, name, address, total_cents FROM orders ORDER BY id"))


def one_error_line(ran: Ran) -> str:
    lines = [line for line in ran.err.splitlines() if line.strip()]
    assert len(lines) == 1, ran.err
    assert lines[0].startswith("webagent: "), ran.err
    assert ran.out == ""
    return lines[0]


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The subprocesses' working directory; run folders go to its ``runs/``."""
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module", autouse=True)
def refused_endpoint(work: Path) -> Iterator[subprocess.Popen[str]]:
    """A run against a model endpoint that refuses connections, started first: it spends a few seconds
    in the SDK's retries, which then overlap the other tests."""
    process = subprocess.Popen(
        _command(
            (
                "run",
                GOAL,
                "--base-url",
                "http://127.0.0.1:9/v1",
                "--model",
                "m",
                "--runs-dir",
                "refused",
                *PROFILE,
            )
        ),
        cwd=work,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    yield process
    if process.poll() is None:
        process.kill()
    process.communicate()


@pytest.fixture(scope="module")
def ordered(work: Path) -> Ran:
    """A plain recorded run, ``--json``, ordered."""
    return webagent("run", GOAL, "--approve", "auto", "--json", *PROFILE, cwd=work)


# --- run ---------------------------------------------------------------------------------------


def test_run_json_prints_exactly_one_object_with_the_documented_fields(ordered: Ran) -> None:
    assert ordered.code == 0, ordered.err
    assert len(ordered.out.strip().splitlines()) == 1
    result = ordered.json()
    assert set(result) == RESULT_KEYS
    assert result["outcome"] == "ordered"
    assert result["order_id"] == 1
    assert result["total_cents"] == TOTAL
    assert result["tool_calls"] >= result["steps"] == result["model_calls"] > 0
    assert set(result["tokens"]) >= {"prompt", "completion"}
    assert result["tokens"]["prompt"] == 0  # the planner spends no tokens
    assert result["wall_s"] > 0
    assert result["question"] is None
    run_dir = ordered.run_dir()
    assert run_dir.name == result["run_id"]
    assert (run_dir / "transcript.jsonl").is_file()
    assert orders(run_dir / "shop.db") == [(1, "Ada", "12 Oak Street", TOTAL)]


def test_run_human_output_live_view_trace_and_screenshots(work: Path) -> None:
    ran = webagent(
        "run",
        GOAL,
        "--approve",
        "auto",
        "--budget",
        "$60",
        "--trace",
        "--screenshots",
        "all",
        "--clutter",
        "1",
        "--seed",
        "3",
        "--slow-mo",
        "1",
        "--max-steps",
        "12",
        "--model",
        "planner",
        *PROFILE,
        cwd=work,
        env={"OPENAI_API_KEY": "sk-not-used"},  # --model planner wins over a key
    )
    assert ran.code == 0, ran.err
    assert f"Ordered: order #1, total ${TOTAL // 100}.{TOTAL % 100}." in ran.out
    # The live view is on stderr: each model turn, each tool call with arguments, narration, ms.
    assert "turn 1" in ran.err
    assert 'add_to_cart {"dish": "Tiramisu", "quantity": 1}' in ran.err
    assert 'Added 1 × "Tiramisu"' in ran.err
    assert " ms" in ran.err
    trace_lines = [line for line in ran.out.splitlines() if line.startswith("Trace: ")]
    assert len(trace_lines) == 1
    trace = Path(trace_lines[0].removeprefix("Trace: playwright show-trace --port 9323 ").split("  (")[0])
    assert trace.name == "trace.zip"
    run_dir = work / trace.parent
    assert (work / trace).stat().st_size > 0
    # With --screenshots all: a screenshot per page action, named after its step and tool.
    events = [json.loads(line) for line in (run_dir / "transcript.jsonl").read_text().splitlines()]
    page_calls = [
        e["name"] for e in events if e["event"] == "tool" and e["name"] not in ("finish", "ask_human")
    ]
    shots = sorted(p.name for p in run_dir.glob("*.jpg"))
    assert shots == [f"step-{i:03d}-{name}.jpg" for i, name in enumerate(page_calls, start=1)]
    started = next(e for e in events if e["event"] == "started")["config"]
    assert (started["clutter"], started["seed"], started["budget_cents"], started["max_steps"]) == (
        1,
        3,
        6000,
        12,
    )


def test_run_quiet_prints_only_the_result(work: Path) -> None:
    ran = webagent(
        "run", GOAL, "--approve", "auto", "--quiet", "--runs-dir", "quiet-runs", *PROFILE, cwd=work
    )
    assert ran.code == 0, ran.err
    assert ran.out == f"Ordered: order #1, total ${TOTAL // 100}.{TOTAL % 100}\n"
    assert ran.err == ""
    assert len(list((work / "quiet-runs").iterdir())) == 1


@pytest.mark.parametrize("suffix", ["json", "yaml"])
def test_run_order_file(work: Path, suffix: str) -> None:
    spec = {
        "restaurant": "Italian Bistro",
        "items": [
            {"dish": "Margherita Pizza", "quantity": 2, "options": ["Large"]},
            {"dish": "Tiramisu", "quantity": 1, "options": []},
        ],
        "name": "Bo Order",
        "address": "3 File Lane",
        "phone": "555-0199",
        "delivery_slot": "19:00-19:30",
        "payment_method": "Cash",
        "tip_cents": 100,
        "budget_cents": 6000,
    }
    order_file = work / f"order.{suffix}"
    if suffix == "json":
        order_file.write_text(json.dumps(spec))
    else:
        import yaml

        order_file.write_text(yaml.safe_dump(spec))
    db = work / f"order-{suffix}.db"
    ran = webagent(
        "run", "--order", str(order_file), "--approve", "auto", "--json", "--db", str(db), cwd=work
    )
    assert ran.code == 0, ran.err
    assert ran.json()["outcome"] == "ordered"
    (placed,) = ShopDB(db).orders()
    assert (placed["name"], placed["address"], placed["phone"]) == ("Bo Order", "3 File Lane", "555-0199")
    assert (placed["delivery_slot"], placed["payment_method"], placed["tip_cents"]) == (
        "19:00-19:30",
        "Cash",
        100,
    )
    lines = sorted(
        (i["dish_name"], i["quantity"], tuple(sorted(i["options"].values()))) for i in placed["items"]
    )
    assert [(name, quantity) for name, quantity, _ in lines] == [("Margherita Pizza", 2), ("Tiramisu", 1)]
    assert "Large" in str(lines[0][2])


def test_run_on_an_already_running_shop(work: Path, shop: Shop) -> None:
    ran = webagent(
        "run", GOAL, "--approve", "auto", "--json", "--shop-url", shop.url, *PROFILE[:2], "--address",
        "99 Running Shop Road", "--phone", "555-0101", cwd=work,
    )  # fmt: skip
    assert ran.code == 0, ran.err
    order_id = ran.json()["order_id"]
    placed = [o for o in ShopDB(shop.db_path).orders() if o["id"] == order_id]
    assert [o["address"] for o in placed] == ["99 Running Shop Road"]
    assert not (ran.run_dir() / "shop.db").exists()  # no embedded shop was started


def test_run_that_gives_up_exits_1(work: Path) -> None:
    ran = webagent("run", GOAL, "--approve", "auto", "--json", "--max-steps", "2", *PROFILE, cwd=work)
    assert ran.code == 1
    result = ran.json()
    assert (result["outcome"], result["steps"]) == ("failed", 2)
    assert orders(ran.run_dir() / "shop.db") == []


def test_scripted_answers_let_a_run_go_on_without_pausing(work: Path) -> None:
    ran = webagent(
        "run", GOAL, "--approve", "auto", "--json", "--name", "Ada", "--phone", "555-0101",
        "--answer", "12 Oak Street", cwd=work,
    )  # fmt: skip
    assert ran.code == 0, ran.err
    assert (ran.json()["outcome"], ran.json()["asked_human"]) == ("ordered", True)
    assert orders(ran.run_dir() / "shop.db") == [(1, "Ada", "12 Oak Street", TOTAL)]


# --- pause and resume, across processes ----------------------------------------------------------


def test_pause_for_approval_then_resume_orders_once(work: Path) -> None:
    paused = webagent("run", GOAL, "--approve", "pause", "--json", *PROFILE, cwd=work)
    assert paused.code == 3, paused.err
    result = paused.json()
    assert result["outcome"] == "paused"
    assert result["question"].startswith(f"Approve the order of ${TOTAL // 100}.{TOTAL % 100}?")
    db = paused.run_dir() / "shop.db"
    assert orders(db) == []

    resumed = webagent("resume", result["run_id"], "--approve", "--json", cwd=work)
    assert resumed.code == 0, resumed.err
    assert (resumed.json()["outcome"], resumed.json()["total_cents"]) == ("ordered", TOTAL)
    assert orders(db) == [(1, "Ada", "12 Oak Street", TOTAL)]

    again = webagent("resume", result["run_id"], "--approve", cwd=work)
    assert again.code == 0, again.err
    assert "already finished" in again.err
    assert "Ordered: order #1" in again.out
    assert len(orders(db)) == 1


def test_pause_for_a_question_then_resume_with_the_answer(work: Path) -> None:
    paused = webagent(
        "run", GOAL, "--approve", "auto", "--json", "--name", "Ada", "--phone", "555-0101", cwd=work
    )
    assert paused.code == 3, paused.err
    assert paused.json()["outcome"] == "paused"
    assert "address" in paused.json()["question"]

    resumed = webagent("resume", paused.json()["run_id"], "--answer", "12 Oak Street", "--json", cwd=work)
    assert resumed.code == 0, resumed.err
    assert resumed.json()["outcome"] == "ordered"
    assert orders(paused.run_dir() / "shop.db") == [(1, "Ada", "12 Oak Street", TOTAL)]


def test_resume_deny_places_nothing(work: Path) -> None:
    paused = webagent("run", GOAL, "--approve", "pause", *PROFILE, cwd=work)
    assert paused.code == 3
    assert "Resume with: webagent resume" in paused.out
    run_id = paused.out.split("webagent resume ")[1].split()[0]

    denied = webagent("resume", run_id, "--deny", "--json", cwd=work)
    assert denied.code == 0, denied.err
    assert denied.json()["outcome"] == "done"
    assert orders(work / "runs" / run_id / "shop.db") == []


# --- replay --------------------------------------------------------------------------------------


def test_replay_of_a_recorded_run_is_clean_and_orders_only_when_approved(work: Path, ordered: Ran) -> None:
    ran = webagent("replay", str(ordered.run_dir()), "--runs-dir", "runs", cwd=work)
    assert ran.code == 0, ran.err
    replayed = ordered.json()["tool_calls"] - 2  # all but place_order (consequential) and finish (the loop's)
    assert f"Replayed {replayed} tool calls from " in ran.out
    assert ran.out.rstrip().endswith(": no divergence.")
    # Even on the fresh embedded shop, the order is not placed on the replay's own say-so.
    assert (
        "), which would mean placing the order: place_order places an order. A replay does nothing "
        in ran.out
    )
    assert "replay with --approve POLICY" in ran.out

    approved = webagent("replay", str(ordered.run_dir()), "--approve", "auto", "--json", cwd=work)
    assert approved.code == 0, approved.err
    report = approved.json()
    assert report["stopped"] is None and report["replayed"] == replayed + 1 and report["clean"]
    assert report["notes"] == []
    outcome = report["outcome"]
    assert outcome["recorded"]["placed"] and outcome["replayed"]["placed"]
    assert outcome["replayed"]["total_cents"] == outcome["recorded"]["total_cents"] == TOTAL


def test_replay_notes_popups_that_come_only_in_the_replay(work: Path, ordered: Ran) -> None:
    ran = webagent("replay", str(ordered.run_dir()), "--clutter", "2", cwd=work)
    assert ran.code == 0, ran.out + ran.err
    assert "note: step 1 " in ran.out and "came in the replay only (dismissed)" in ran.out
    assert "Outcome not compared (the replay stopped before the end); recorded: order #1 placed" in ran.out
    assert ran.out.rstrip().endswith(": no divergence.")


def test_replay_reports_the_steps_that_diverge_when_the_shop_differs(work: Path, ordered: Ran) -> None:
    db = work / "dearer-tiramisu.db"
    ShopDB(db)  # created and seeded from the catalog
    with sqlite3.connect(db) as conn:
        assert conn.execute("UPDATE dishes SET price_cents = 850 WHERE name = 'Tiramisu'").rowcount > 0
    ran = webagent("replay", str(ordered.run_dir()), "--db", str(db), "--json", cwd=work)
    assert ran.code == 1, ran.err
    report = ran.json()
    assert report["clean"] is False
    first = report["divergences"][0]
    assert (first["step"], first["tool"]) == (1, "open_restaurant")  # the menu shows the price
    assert '"Tiramisu" $7.50' in first["expected"]
    assert '"Tiramisu" $8.50' in first["got"]
    assert "add_to_cart" in [d["tool"] for d in report["divergences"]]


def test_replay_of_a_missing_transcript_is_a_usage_error(work: Path) -> None:
    ran = webagent("replay", str(work / "no-such-run"), cwd=work)
    assert ran.code == 2
    assert "No transcript" in one_error_line(ran)


# --- shop, graph, chat ---------------------------------------------------------------------------


def test_shop_serves_on_the_port_it_prints(work: Path) -> None:
    process = subprocess.Popen(
        _command(("shop", "--port", "0", "--db", str(work / "served.db"))),
        cwd=work,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("Shop running at http://127.0.0.1:")
        url = line.split(" at ")[1].strip()
        with urllib.request.urlopen(f"{url}/api/restaurants", timeout=10) as response:
            body = json.load(response)
        assert "Italian Bistro" in json.dumps(body)
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize(("fmt", "head"), [("mermaid", "flowchart"), ("dot", "digraph")])
def test_graph(work: Path, fmt: str, head: str) -> None:
    ran = webagent("graph", "--format", fmt, cwd=work)
    assert ran.code == 0
    assert ran.out.startswith(head)
    assert "place_order" in ran.out


def test_chat_headless_orders_each_line_as_a_goal(work: Path) -> None:
    db = work / "chat.db"
    ran = webagent(
        "chat", "--headless", "--approve", "auto", "--db", str(db), *PROFILE, cwd=work,
        stdin="Order a Tiramisu and 2 Lemonade from Italian Bistro, pay cash\nexit\n",
    )  # fmt: skip
    assert ran.code == 0, ran.err
    assert "agent> Placed order #1" in ran.out
    (placed,) = ShopDB(db).orders()
    assert sorted((i["dish_name"], i["quantity"]) for i in placed["items"]) == [
        ("Lemonade", 2),
        ("Tiramisu", 1),
    ]
    assert placed["payment_method"] == "Cash"


# --- errors for people: one clear line, the right exit code, never a traceback --------------------


STARTUP_FAILURES = {
    # id: (extra arguments, environment, exit code, what the one line must say)
    "no-chromium": ((), {"WEBAGENT_CHROMIUM": "/nonexistent"}, 1, "Chromium"),
    "shop-not-answering": (("--shop-url", "http://127.0.0.1:9"), {}, 1, "http://127.0.0.1:9"),
    "shop-url-without-scheme": (
        ("--shop-url", "localhost:8000"),
        {},
        2,
        "did you mean http://localhost:8000",
    ),
    "headed-without-display": (("--headed",), {"DISPLAY": "", "WAYLAND_DISPLAY": ""}, 1, "xvfb-run"),
    "model-without-key": (("--model", "gpt-x"), {}, 1, "OPENAI_API_KEY"),
}


@pytest.mark.parametrize("case", STARTUP_FAILURES)
def test_a_run_that_cannot_start_says_why_in_one_line(work: Path, case: str) -> None:
    args, env, code, says = STARTUP_FAILURES[case]
    ran = webagent("run", GOAL, "--approve", "auto", *PROFILE, *args, cwd=work, env=env)
    assert ran.code == code
    line = one_error_line(ran)
    assert says in line and "ERR_BLOCKED_BY_CLIENT" not in line


@pytest.mark.parametrize("case", STARTUP_FAILURES)
def test_json_on_start_up_failures_is_one_object_and_the_run_folder_is_closed_out(
    work: Path, case: str
) -> None:
    args, env, code, says = STARTUP_FAILURES[case]
    runs = work / f"runs-{case}"
    ran = webagent(
        "run", GOAL, "--approve", "auto", "--json", "--runs-dir", str(runs), *PROFILE, *args,
        cwd=work, env=env,
    )  # fmt: skip
    assert ran.code == code
    result = ran.json()  # exactly one JSON object on stdout
    assert set(result) == RESULT_KEYS
    assert (result["outcome"], result["order_id"]) == ("failed", None)
    assert says in result["message"]
    [run_dir] = runs.iterdir()
    assert run_dir.name == result["run_id"]
    state = json.loads((run_dir / "state.json").read_text())
    assert state["status"] == "finished"
    assert (state["result"]["outcome"], state["result"]["message"]) == ("failed", result["message"])
    # The model is chosen (and named in the transcript) before the browser and the shop start.
    chosen = [] if case == "model-without-key" else ["endpoint"]
    assert [e["event"] for e in map(json.loads, (run_dir / "transcript.jsonl").read_text().splitlines())] == [
        "started",
        *chosen,
        "finished",
    ]


def test_json_on_a_usage_error_is_one_object_too(work: Path) -> None:
    ran = webagent("run", GOAL, "--order", "order.json", "--json", cwd=work)
    assert ran.code == 2
    result = ran.json()
    assert (result["outcome"], result["run_id"], result["run_dir"]) == ("failed", None, None)
    assert "not both" in result["message"]


@pytest.mark.parametrize(
    "args",
    [
        ("run", GOAL, "--clutter", "9"),
        ("run", GOAL, "--budget", "lots"),
        ("run", GOAL, "--approve", "maybe"),
        ("run", GOAL, "--no-such-flag"),
        ("resume", "x", "--approve", "--deny"),
        ("bogus",),
        (),
    ],
    ids=["clutter", "budget", "approve", "unknown-flag", "approve-and-deny", "unknown-command", "no-command"],
)
def test_bad_command_lines_exit_2(work: Path, args: tuple[str, ...]) -> None:
    ran = webagent(*args, cwd=work)
    assert ran.code == 2
    assert "usage: webagent" in ran.err + ran.out


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "cannot read order file"),
        ('{"restaurant": 5, "items": []}', "order file"),
        ("- just\n- a list\n", "must hold an object"),
        ("{not: [valid", "not valid JSON or YAML"),
    ],
    ids=["missing", "wrong-type", "not-a-mapping", "unparsable"],
)
def test_bad_order_file_exits_2(work: Path, content: str | None, says: str) -> None:
    path = work / "bad-order.yaml"
    path.unlink(missing_ok=True)
    if content is not None:
        path.write_text(content)
    ran = webagent("run", "--order", str(path), "--approve", "auto", cwd=work)
    assert ran.code == 2
    assert says in one_error_line(ran)


@pytest.mark.parametrize(
    ("args", "says"),
    [(("run",), "give a goal"), (("run", GOAL, "--order", "order.json"), "not both")],
    ids=["neither", "both"],
)
def test_goal_and_order_file_usage(work: Path, args: tuple[str, ...], says: str) -> None:
    ran = webagent(*args, cwd=work)
    assert ran.code == 2
    assert says in one_error_line(ran)


LOCAL_MISUSE = {
    # id: (arguments after the goal, what the one line must say)
    "gguf-missing": (("--gguf", "/nonexistent/model.gguf"), "--gguf /nonexistent/model.gguf: no such file"),
    "gguf-not-gguf": (("--gguf", "not-a-model.gguf"), "is not a GGUF model file"),
    "unknown-local": (("--model", "local:7b"), "no local model 'local:7b'"),
    "local-and-base-url": (
        ("--model", "local", "--base-url", "http://127.0.0.1:9/v1"),
        "leave out --base-url",
    ),
    "gguf-and-model": (("--gguf", "not-a-model.gguf", "--model", "gpt-x"), "leave out --model gpt-x"),
}


@pytest.mark.parametrize("case", LOCAL_MISUSE)
def test_a_local_model_asked_for_wrongly_is_one_line_and_exit_2_before_any_run(work: Path, case: str) -> None:
    args, says = LOCAL_MISUSE[case]
    (work / "not-a-model.gguf").write_text("hello")
    runs = work / f"runs-{case}"
    ran = webagent("run", GOAL, "--runs-dir", str(runs), *args, cwd=work)
    assert ran.code == 2
    assert says in one_error_line(ran)
    assert not runs.exists()  # refused before a run folder, a browser or a model server


def test_eval_refuses_a_missing_gguf_in_one_line(work: Path) -> None:
    ran = webagent("eval", "tasks.jsonl", "--gguf", "/nonexistent/model.gguf", cwd=work)
    assert ran.code == 2
    assert "no such file" in one_error_line(ran)


def test_resume_unknown_run_exits_2(work: Path) -> None:
    ran = webagent("resume", "19990101-000000-abcdef", "--approve", cwd=work)
    assert ran.code == 2
    assert "19990101-000000-abcdef" in one_error_line(ran)


def test_model_endpoint_refusing_connections(refused_endpoint: subprocess.Popen[str], work: Path) -> None:
    out, err = refused_endpoint.communicate(timeout=180)
    assert "Traceback" not in err, err
    assert refused_endpoint.returncode == 1
    # The model is checked before the browser starts: one line, the run folder closed out with the reason.
    [line] = [line for line in err.splitlines() if line.strip()]
    assert out.strip() == "" and line.startswith(
        "webagent: could not reach the model endpoint at http://127.0.0.1:9/v1"
    )
    [state_file] = (work / "refused").glob("*/state.json")  # its own folder: other tests run meanwhile
    state = json.loads(state_file.read_text())
    assert state["status"] == "finished" and state["result"]["outcome"] == "failed"
    assert "could not reach the model endpoint" in state["result"]["message"]
