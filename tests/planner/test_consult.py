"""The planner's consultations of a local model (webagent/planner/consult.py), with a strict consultant
passed in: it answers from a table, records every question, and refuses a question the planner may not
put (labels it does not know, an option offered twice, an option that accepts something). Whatever it
answers, the planner orders only what the goal names and presses nothing that agrees to anything.

The real model is asked the same questions in tests/llm/test_local_model.py.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.planner.test_planner import PROFILE, calls, lines, questions
from tests.shop_double import ShopDouble, ordered_lines, run_planner
from webagent.browser.obstruction import Blocker
from webagent.narration.consent import accepts
from webagent.planner import Planner
from webagent.planner.consult import BUTTON_LABELS, MARK, WORD_LABELS, recorded

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class TableConsultant:
    """Labels each option from ``table`` (else with the second label); records what it was asked."""

    table: dict[str, str]
    asked: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    def classify(
        self, question: str, context: str, options: Sequence[str], labels: tuple[str, str]
    ) -> dict[str, str]:
        assert labels in (WORD_LABELS, BUTTON_LABELS), labels
        assert options and len(set(options)) == len(options), options
        if labels == BUTTON_LABELS:
            assert not [o for o in options if accepts(o)], f"offered a button that accepts: {options}"
        self.asked.append((question, tuple(options)))
        return {option: self.table.get(option, labels[1]) for option in options}


def order(goal: str, tmp_path: Path, consultant: TableConsultant, **kwargs: Any) -> Any:
    kwargs.setdefault("profile", PROFILE)
    return run_planner(goal, tmp_path, model=Planner(consultant=consultant), **kwargs)


def test_words_labelled_not_food_are_not_asked_about_and_the_summary_names_them(tmp_path: Path) -> None:
    consultant = TableConsultant({"guys": "not food"})
    goal = "2 Salmon Nigiri and a Miso Soup from Sushi House, you guys are the best"
    result, shop, messages = order(goal, tmp_path, consultant)
    assert result.outcome == "ordered", result.message
    assert ordered_lines(shop.orders[0]) == lines(("Salmon Nigiri", 2), ("Miso Soup", 1))
    assert not questions(messages)
    assert "“guys”" in result.message
    [(_, options)] = consultant.asked
    assert options == ("guys",)
    texts = [m["content"] or "" for m in messages if m["role"] == "assistant"]
    [made] = recorded(texts)
    assert (made.options, made.chosen) == (("guys",), ())


def test_words_labelled_food_are_still_asked_about(tmp_path: Path) -> None:
    consultant = TableConsultant({"Tuna Sashimi": "food to order"})
    result, shop, messages = order(
        "a Salmon Nigiri and a Tuna Sashimi from Sushi House", tmp_path, consultant
    )
    assert result.outcome == "paused" and shop.orders == []
    [asked] = questions(messages)
    assert '"Tuna Sashimi"' in asked["question"]


def test_without_a_consultant_every_such_word_is_asked_about(tmp_path: Path) -> None:
    goal = "2 Salmon Nigiri and a Miso Soup from Sushi House, you guys are the best"
    result, shop, messages = run_planner(goal, tmp_path, profile=PROFILE)
    assert result.outcome == "paused" and shop.orders == []
    assert '"guys"' in questions(messages)[0]["question"]
    assert not any(MARK in (m.get("content") or "") for m in messages if m["role"] == "assistant")


def test_a_consultation_is_made_once_and_read_back_from_the_transcript(tmp_path: Path) -> None:
    consultant = TableConsultant({"guys": "not food", "Tuna Sashimi": "food to order"})
    goal = "3 Salmon Nigiri and a Tuna Sashimi from Sushi House, you guys rock"
    result, shop, messages = order(goal, tmp_path, consultant, answers=["skip"])
    assert result.outcome == "ordered", result.message
    assert ordered_lines(shop.orders[0]) == lines(("Salmon Nigiri", 3))
    assert len(consultant.asked) == 1  # later turns read the answer back from the transcript
    assert len(questions(messages)) == 1


GOAL_WORDS = ["you guys rock", "Tuna Sashimi", "thanks heaps", "Dragon Roll", "extra napkins", "Kim"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(labels=st.lists(st.sampled_from(WORD_LABELS), min_size=len(GOAL_WORDS), max_size=len(GOAL_WORDS)))
def test_whatever_the_model_answers_nothing_beyond_the_goal_is_added(
    tmp_path: Path, labels: list[str]
) -> None:
    consultant = TableConsultant(dict(zip(GOAL_WORDS, labels, strict=True)))
    goal = "2 Salmon Nigiri, " + ", ".join(GOAL_WORDS) + " from Sushi House"
    _, shop, messages = order(goal, tmp_path, consultant, answers=["skip"] * 6)
    added = {args["dish"] for name, args in calls(messages) if name == "add_to_cart"}
    assert added <= {"Salmon Nigiri"}
    assert all(ordered_lines(o) == lines(("Salmon Nigiri", 2)) for o in shop.orders)


def test_a_popup_way_out_the_model_picks_is_pressed_and_accepting_buttons_are_never_offered(
    tmp_path: Path,
) -> None:
    buttons = ["Allow notifications", "Remind me in a week", "Show me the settings"]
    popup = Blocker("Turn on alerts?", [("button", name) for name in buttons], modal=True)
    consultant = TableConsultant({"Remind me in a week": "closes without agreeing"})
    result, shop, messages = order("a tiramisu and 2 lemonades from Italian Bistro", tmp_path, consultant,
                                   shop=ShopDouble(popup=popup))  # fmt: skip
    assert result.outcome == "ordered", result.message
    assert shop.pressed == ["Remind me in a week"] and not questions(messages)
    [(_, options)] = consultant.asked
    assert options == ("Remind me in a week", "Show me the settings")


def test_a_popup_the_model_sees_no_way_out_of_is_asked_about(tmp_path: Path) -> None:
    buttons = ["Allow notifications", "Remind me in a week", "Show me the settings"]
    popup = Blocker("Turn on alerts?", [("button", name) for name in buttons], modal=True)
    consultant = TableConsultant({})
    result, shop, messages = order(
        "a tiramisu from Italian Bistro", tmp_path, consultant, shop=ShopDouble(popup=popup)
    )
    assert result.outcome == "paused" and shop.pressed == [] and shop.orders == []
    assert "Allow notifications" in questions(messages)[0]["question"]


def test_the_record_of_a_consultation_reads_back_and_ignores_what_was_not_offered() -> None:
    line = MARK + json.dumps({"question": "q", "context": "c", "options": ["a", "b"], "chosen": ["b", "zzz"]})
    [made] = recorded(["Something said first.\n" + line, "no record here", MARK + "{not json"])
    assert (made.options, made.chosen) == (("a", "b"), ("b",))


# -- Ctrl-C while the model thinks ----------------------------------------------------------------------

STUCK_RUN = """
import sys, tempfile, threading
from pathlib import Path
from tests.planner.test_planner import PROFILE
from tests.shop_double import run_planner
from webagent.planner import Planner

class Stuck:  # a model that takes ten minutes to answer
    def classify(self, question, context, options, labels):
        print("consulting", flush=True)
        threading.Event().wait(600)
        return {option: labels[1] for option in options}

try:
    run_planner("2 Salmon Nigiri and a Miso Soup from Sushi House, you guys are the best",
                Path(tempfile.mkdtemp()), model=Planner(consultant=Stuck()), profile=PROFILE)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
"""


def test_ctrl_c_during_a_consultation_stops_the_process_without_waiting_for_the_model(
    ctrl_c_reaches_children: None,
) -> None:
    # Before, the consultation ran on the default executor, whose threads Python joins at exit: the
    # process lived on until the model answered.
    process = subprocess.Popen([sys.executable, "-c", STUCK_RUN], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "consulting"
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)  # the model would answer in 600 s
    finally:
        if process.poll() is None:
            process.kill()
    assert (process.returncode, out.strip()) == (130, "interrupted")
