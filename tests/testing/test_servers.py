"""A real order through each server profile FakeOpenAI plays (openai, vllm, ollama, llama.cpp), model
faults that end a run with their own reason, and the command line against a fake served over HTTP.

Everything real but the model: the shop, SQLite, Chromium, the openai SDK, the ``webagent`` command.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from webagent.agent.checkpoint import RunFolder
from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.llm.protocol import Model, Reply
from webagent.runs.runner import start_run
from webagent.sync import run_sync
from webagent.testing import FakeOpenAI, ScriptedModel, call, cut_stream, no_choices, reply

PROFILE = Profile(name="Ana Tester", address="12 Oak Street", phone="555-0101", payment_method="Cash")
GOAL = "Order 2 Tiramisu from Italian Bistro, pay cash"
DETAILS = {
    "name": "Ana Tester",
    "address": "12 Oak Street",
    "phone": "555-0101",
    "payment_method": "Cash",
    "delivery_slot": "ASAP",
    # The strict schema makes every field required: a model sends null for what it leaves alone.
    "promo_code": None,
    "tip_cents": None,
}

Run = Callable[..., RunResult]


@pytest.fixture
def run(agent_browser: Browser, tmp_path: Path) -> Run:
    """``run(model, **config)``: one run on a fresh embedded shop, in the shared browser."""

    def go(model: Model, **overrides: Any) -> RunResult:
        settings: dict[str, Any] = {
            "goal": GOAL,
            "approve": "auto",
            "runs_dir": tmp_path / "runs",
            "profile": PROFILE,
            **overrides,
        }
        return run_sync(start_run(RunConfig(**settings), model=model, browser=agent_browser))

    return go


def orders(result: RunResult) -> list[tuple[Any, ...]]:
    with sqlite3.connect(Path(result.run_dir) / "shop.db") as db:
        return db.execute("select id, total_cents, name from orders").fetchall()


def events(result: RunResult, kind: str) -> list[dict[str, Any]]:
    folder = RunFolder(Path(result.run_dir).parent, result.run_id)
    return [event for event in folder.transcript() if event["event"] == kind]


def finish_with_order(messages: list[dict[str, Any]]) -> Reply:
    """Read the order number from the last narration, as a model would."""
    text = next(m["content"] for m in reversed(messages) if m["role"] == "tool")
    number = int(re.search(r"Order #(\d+) placed", text).group(1))  # type: ignore[union-attr]
    return reply(call("finish", outcome="ordered", summary="Ordered 2 Tiramisu.", order_id=number))


def order_script() -> list[Any]:
    """The turns of a model that orders GOAL, each call with every argument the strict schema asks for."""
    return [
        reply(
            call("open_restaurant", name="Italian Bistro"),
            call("add_to_cart", dish="Tiramisu", quantity=2, options=None),
            content="Opening Italian Bistro and adding the tiramisu.",
        ),
        reply(call("go_to_checkout"), call("fill_delivery_details", **DETAILS), call("place_order")),
        finish_with_order,
    ]


# --- an order through each server -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "downgraded", "estimated"),
    [
        ("openai", [], False),
        ("vllm", [], False),
        ("ollama", [], True),  # no usage in its streams: counted here
        ("llama.cpp", ["stream"], False),  # refuses streaming with tools: sent again without
    ],
)
def test_each_server_profile_places_the_order(
    run: Run, profile: str, downgraded: list[str], estimated: bool
) -> None:
    fake = FakeOpenAI(order_script(), profile=profile, models=["served-model"])
    texts: list[str] = []

    result = run(fake.model("served-model", stream=True, on_text=texts.append))

    assert result.outcome == "ordered", result.message
    assert orders(result) == [(result.order_id, result.total_cents, "Ana Tester")]
    fake.assert_complete()
    assert [event["feature"] for event in events(result, "downgrade")] == downgraded
    assert "".join(texts).startswith("Opening Italian Bistro")
    usages = [event["usage"] for event in events(result, "model")]
    assert all(usage["estimated"] is estimated for usage in usages) and result.tokens.prompt > 0
    if profile == "openai":  # the strict validation was on all the way, and nothing was refused
        assert fake.answers == [200, 200, 200]
        assert all(tool["function"]["strict"] for body in fake.requests for tool in body["tools"])
    # Whatever ids the server made (none, for llama.cpp), every call got one and every result its id.
    state = RunFolder(Path(result.run_dir).parent, result.run_id).load()
    asked = [c["id"] for m in state.messages if m["role"] == "assistant" for c in m.get("tool_calls", [])]
    answered = [m["tool_call_id"] for m in state.messages if m["role"] == "tool"]
    assert asked == answered and all(asked) and len(set(asked)) == len(asked)


def test_an_endpoint_refusing_strict_parallel_and_stream_options_still_orders(run: Run) -> None:
    refused = {"strict", "parallel_tool_calls", "stream_options"}
    fake = FakeOpenAI(order_script(), refuses=refused)

    result = run(fake.model(stream=True))

    assert result.outcome == "ordered" and len(orders(result)) == 1
    recorded = events(result, "downgrade")
    assert sorted(event["feature"] for event in recorded) == sorted(refused)
    assert all(event["reason"] for event in recorded)
    assert len(fake.requests) == 3 + 3, "each refused feature costs one request, once in the run"


def test_a_non_strict_run_against_openai_orders_too(run: Run) -> None:
    fake = FakeOpenAI(order_script())

    result = run(fake.model(strict=False))

    assert result.outcome == "ordered"
    assert [event["reason"] for event in events(result, "downgrade")] == ["turned off by --no-strict"]
    assert all("strict" not in tool["function"] for body in fake.requests for tool in body["tools"])


# --- model faults end the run honestly --------------------------------------------------------------


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (cut_stream, "cut its streamed reply off mid-way, 4 times in a row"),
        (no_choices, "answered with no choices, 4 times in a row"),
    ],
    ids=["cut-stream", "no-choices"],
)
def test_broken_replies_end_the_run_with_their_own_reason(run: Run, fault: Any, message: str) -> None:
    fake = FakeOpenAI([fault()] * 4)

    result = run(fake.model(stream=True))

    assert result.outcome == "failed" and result.tool_calls == 0
    assert result.message.endswith(message) and "failed tool calls" not in result.message
    assert events(result, "finished")[0]["message"] == result.message


def test_a_fault_in_the_middle_of_a_run_is_weathered(run: Run) -> None:
    script = order_script()
    fake = FakeOpenAI([script[0], cut_stream(), no_choices(), script[1], script[2]])

    result = run(fake.model(stream=True))

    assert result.outcome == "ordered" and result.model_calls == 3 and len(orders(result)) == 1


def test_an_order_refused_for_the_budget_is_the_final_reason(run: Run) -> None:
    wander = [
        reply(call("add_to_cart", dish="Tiramisu", quantity=1, options=None))
    ] * 2  # refused at checkout
    model = ScriptedModel([*order_script()[:2], *wander])

    result = run(model, budget_cents=1000)

    assert result.outcome == "failed" and orders(result) == []
    assert re.fullmatch(
        r"Not placed: the total \$\d+\.\d\d exceeds the budget \$10\.00\. Nothing was ordered\. "
        r"\(stopped after 3 failed tool calls in a row\)",
        result.message,
    ), result.message


def test_replies_without_tool_calls_are_not_called_failed_tool_calls(run: Run) -> None:
    result = run(ScriptedModel([Reply(content="I think I am done.")] * 3))

    assert result.message == "stopped: 3 replies in a row called no tool" and result.tool_calls == 0


# --- the command line, against a fake served over HTTP ----------------------------------------------


REPO = Path(__file__).resolve().parents[2]


def webagent(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command as a person runs it, on this checkout's code, with no endpoint of the developer's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBAGENT_"))}
    done = subprocess.run(
        [sys.executable, "-m", "webagent", *args],
        cwd=cwd,
        env={**env, "COLUMNS": "200", "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def test_models_lists_what_the_endpoint_serves(tmp_path: Path) -> None:
    served = ["qwen2.5-7b-instruct", "llama3.1:8b"]
    fake = FakeOpenAI([], profile="ollama", models=served)
    with fake.serve() as listed_url:
        listed = webagent("models", "--base-url", listed_url, cwd=tmp_path)
        as_json = webagent("models", "--base-url", listed_url, "--json", cwd=tmp_path)
    without = FakeOpenAI([])
    with without.serve() as url:
        missing = webagent("models", "--base-url", url, cwd=tmp_path)

    assert listed.returncode == 0 and listed.stdout.splitlines() == served
    assert json.loads(as_json.stdout) == {"base_url": listed_url, "models": served}
    assert missing.returncode == 1 and missing.stdout == ""
    assert missing.stderr.strip() == f"webagent: {url} does not list its models (GET {url}/models)"


def test_a_run_whose_model_is_not_served_says_so_before_it_starts(tmp_path: Path) -> None:
    fake = FakeOpenAI([], profile="vllm", models=["Qwen/Qwen3-8B"])
    with fake.serve() as url:
        done = webagent("run", GOAL, "--base-url", url, "--model", "qwen3", "--approve", "auto", cwd=tmp_path)

    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == (
        f"webagent: model 'qwen3' is not served by {url}; it serves Qwen/Qwen3-8B "
        "(list them with `webagent models`, pick one with --model)"
    )
    assert fake.log == ["GET /v1/models"], "nothing else was asked: no run started"
    # The run folder is closed out with that reason (nothing was ordered, no browser was started).
    [state] = [json.loads(p.read_text()) for p in (tmp_path / "runs").glob("*/state.json")]
    assert state["status"] == "finished" and state["result"]["outcome"] == "failed"
    assert "is not served by" in state["result"]["message"] and state["result"]["steps"] == 0


def test_the_command_line_orders_through_vllm_with_no_strict_and_a_timeout(tmp_path: Path) -> None:
    fake = FakeOpenAI(order_script(), profile="vllm", models=["Qwen/Qwen3-8B"])
    with fake.serve() as url:
        done = webagent(
            "run", GOAL, "--base-url", url, "--model", "Qwen/Qwen3-8B", "--no-strict", "--timeout", "30",
            "--approve", "auto", "--name", "Ana Tester", "--address", "12 Oak Street", "--phone", "555-0101",
            "--json", cwd=tmp_path,
        )  # fmt: skip

    result = json.loads(done.stdout)
    assert done.returncode == 0 and result["outcome"] == "ordered", done.stderr
    fake.assert_complete()
    assert all(body["stream"] for body in fake.requests), "the command line streams"
    assert all("strict" not in tool["function"] for body in fake.requests for tool in body["tools"])
    state = json.loads((tmp_path / result["run_dir"] / "state.json").read_text())
    assert state["config"]["strict"] is False and state["config"]["timeout"] == 30
