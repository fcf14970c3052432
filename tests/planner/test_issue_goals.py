"""Goals as people write them, through the doors people use: the ``webagent`` command and the pytest
plugin's ``agent`` fixture. Both run this checkout's code (PYTHONPATH), in subprocesses, against the
real shop and Chromium; the shop's database says what was ordered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from demo_site.db import ShopDB
from webagent.browser.chromium import find_chromium

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
KIM = "Order two large Pepperoni Pizzas from Italian Bistro for Kim Lee, 3 Oak Road, phone 555-0177, pay by card on delivery."
SAM = "A Lasagna al Forno and a Tiramisu from Italian Bistro for Sam Roe, 4 Plugin Path, 555-0142, pay cash"
EXPECTED = {
    KIM: (
        [("Pepperoni Pizza", 2, {"Size": "Large"})],
        ("Kim Lee", "3 Oak Road", "555-0177", "Card on delivery"),
    ),
    SAM: (
        [("Lasagna al Forno", 1, {}), ("Tiramisu", 1, {})],
        ("Sam Roe", "4 Plugin Path", "555-0142", "Cash"),
    ),
}


def env() -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBAGENT_MODEL"))}
    return {
        **clean,
        "PYTHONPATH": str(ROOT),
        "WEBAGENT_CHROMIUM": find_chromium(headless=True),
        "COLUMNS": "200",
    }


def webagent(*args: str, cwd: Path) -> tuple[int, dict[str, Any], str]:
    done = subprocess.run(
        [sys.executable, "-m", "webagent", *args, "--json"],
        cwd=cwd, env=env(), capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


def lines_of(order: dict[str, Any]) -> list[tuple[str, int, dict[str, Any]]]:
    return sorted((i["dish_name"], i["quantity"], i["options"]) for i in order["items"])


@pytest.mark.parametrize("goal", [KIM, SAM], ids=["kim-lee", "sam-roe"])
def test_the_issues_goals_order_correctly_from_the_cli(goal: str, tmp_path: Path) -> None:
    code, result, err = webagent("run", goal, "--approve", "auto", cwd=tmp_path)
    assert (code, result["outcome"]) == (0, "ordered"), err
    [order] = ShopDB(tmp_path / result["run_dir"] / "shop.db").orders()
    items, details = EXPECTED[goal]
    assert lines_of(order) == sorted(items)
    assert (order["name"], order["address"], order["phone"], order["payment_method"]) == details
    assert result["asked_human"] is False


def test_a_paused_question_carries_its_choices_in_json_and_again_on_resume(tmp_path: Path) -> None:
    code, paused, _ = webagent("run", "a margherita pizza and a tiramisu from Italian Bistro", "--approve", "auto",
                               "--name", "Ada", "--address", "1 Oak Street", "--phone", "555-0101", "--payment", "Cash", cwd=tmp_path)  # fmt: skip
    assert code == 3
    assert paused["question"] == "Which Size for Margherita Pizza: Regular or Large?"
    assert (paused["choices"], paused["waiting_for"]) == (["Regular", "Large"], "answer")
    code, again, _ = webagent("resume", paused["run_id"], cwd=tmp_path)
    assert code == 3 and (again["question"], again["choices"]) == (paused["question"], paused["choices"])
    code, done, err = webagent("resume", paused["run_id"], "--answer", "Large", cwd=tmp_path)
    assert (code, done["outcome"]) == (0, "ordered"), err
    [order] = ShopDB(tmp_path / paused["run_dir"] / "shop.db").orders()
    assert lines_of(order) == [("Margherita Pizza", 1, {"Size": "Large"}), ("Tiramisu", 1, {})]


def test_a_paused_question_shows_its_choices_to_a_person(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "webagent", "run", "a margherita pizza and a tiramisu from Italian Bistro",
         "--approve", "auto", "--name", "Ada", "--address", "1 Oak Street", "--phone", "555-0101", "--payment", "Cash", "--quiet"],
        cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert (
        "Paused: Which Size for Margherita Pizza: Regular or Large?\nChoices: Regular | Large\n"
        in done.stdout
    )
    assert '--answer "Regular"' in done.stdout


def test_the_issues_goals_order_correctly_from_the_agent_fixture(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in env().items():
        monkeypatch.setenv(key, value)
    pytester.makepyfile(
        test_user=textwrap.dedent(
            f"""
            import pytest

            EXPECTED = {EXPECTED!r}

            @pytest.mark.parametrize("goal", list(EXPECTED))
            def test_goal(demo_shop, agent, goal):
                result = agent.run(goal)
                assert result.outcome == "ordered", result.message
                [order] = demo_shop.orders()
                items, details = EXPECTED[goal]
                got = sorted((i["dish_name"], i["quantity"], i["options"]) for i in order["items"])
                assert got == sorted(items)
                assert (order["name"], order["address"], order["phone"], order["payment_method"]) == details
            """
        )
    )
    outcome = pytester.runpytest_subprocess()
    outcome.assert_outcomes(passed=2)
