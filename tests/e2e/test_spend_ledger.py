"""Whole runs on pages nobody wrote an adapter for (written here, served by `Checkouts`, which records every
payment and every page asked for), in a real Chromium: the spend ledger across presses, failures, kills and
resumes (issue 35, items 1 and 2).

- A second consequential press in a run is asked about (or the run pauses), never approved automatically,
  even when the budget would allow both — the same button twice, or two different pay buttons.
- A person's yes on resume approves the one press it was asked about; the next one is asked again.
- The ledger is in the checkpoint: after a resume a second payment is still a second one.
- A run that paid and then failed, or was killed, ends ``paid`` and says what; one killed with a press
  under way ends ``failed`` saying it may have paid. Neither goes looking for the demo shop's pages on the
  foreign site, and nothing is pressed again.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_any_checkout import Checkouts, approvals, checkouts, finish_from_narration
from webagent.agent.checkpoint import RunFolder
from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.errors import RunError
from webagent.llm.protocol import Reply
from webagent.runs.runner import resume_run, start_run
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply

__all__ = ["checkouts"]  # the module's served pages (a fixture shared with test_any_checkout)


def pay_page(*labels: str, total: str = "$20.00") -> str:
    """A billing page that takes a payment each time one of its buttons is pressed, and stays."""
    buttons = "".join(
        f"<button type='button' onclick=\"fetch('/pay', {{method: 'POST', body: this.textContent}}).then(() => "
        f"{{ document.querySelector('#said').textContent = 'Payment received.'; }})\">{html.escape(label)}</button>"
        for label in labels
    )
    return (
        f"<!doctype html><html><body data-view='billing'><h1>Billing</h1><p>Total {total}</p>{buttons}"
        "<p id='said' role='status'></p></body></html>"
    )


def start(
    browser: Browser,
    url: str,
    runs: Path,
    moves: list[Any],
    *,
    prompt: Callable[[str], str] = input,
    listen: Callable[[str, dict[str, Any]], None] | None = None,
    **config: Any,
) -> tuple[RunResult, ScriptedModel]:
    model = ScriptedModel(moves)
    settings = RunConfig(goal="Pay my bill", shop_url=url, runs_dir=runs, **config)
    result = run_sync(start_run(settings, model=model, browser=browser, prompt=prompt, listen=listen))
    return result, model


def events_of(result: RunResult) -> list[dict[str, Any]]:
    return RunFolder(Path(result.run_dir).parent, result.run_id).transcript()


class Killed(BaseException):
    """The process dies right here: nothing after this line runs, and the run's checkpoint is as it was."""


def killed_at(event: str) -> Callable[[str, dict[str, Any]], None]:
    def listen(kind: str, fields: dict[str, Any]) -> None:
        if kind == event:
            raise Killed(event)

    return listen


def asking(answer: str, asked: list[str]) -> Callable[[str], str]:
    """A terminal whose person answers ``answer`` to every question (each noted in ``asked``)."""

    def prompt(question: str) -> str:
        asked.append(question)
        return answer

    return prompt


PAY_20 = call("press", name="Pay $20.00")


# -- a second press is asked about, whatever the budget allows --------------------------------------------


def test_the_same_pay_button_twice_within_the_budget_asks_the_second_time(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    """Under ``--approve auto --budget 60`` both presses of "Pay $20.00" fit the budget: the first is
    approved automatically, the second is put to the person (who says no), and the page is paid once."""
    url = checkouts.add(pay_page("Pay $20.00"))
    before = len(checkouts.paid)
    asked: list[str] = []
    moves = [reply(PAY_20), reply(PAY_20), finish_from_narration]
    result, model = start(
        agent_browser, url, tmp_path, moves, prompt=asking("n", asked), approve="auto", budget_cents=6000
    )
    model.assert_complete()
    assert len(checkouts.paid) == before + 1, checkouts.paid[before:]
    assert len(asked) == 1 and "this run already spent" in asked[0], asked
    decisions = [(a["decision"], a["reason"]) for a in approvals(events_of(result))]
    assert decisions[0] == ("approve", "approved automatically (within budget)"), decisions
    assert decisions[1][0] == "deny" and "declined at the terminal" in decisions[1][1], decisions
    assert result.outcome == "paid" and "$20.00" in result.message and result.spent_cents == 2000, result


def test_two_different_pay_buttons_in_one_run_pause_before_the_second(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    """Pressing "Pay $20.00", then "Pay now" on the same checkout: with nobody at a terminal the run pauses before
    the second, its question saying what was spent already; the page was paid once."""
    url = checkouts.add(pay_page("Pay $20.00", "Pay now"))
    before = len(checkouts.paid)
    moves = [reply(PAY_20), reply(call("press", name="Pay now"))]
    result, model = start(agent_browser, url, tmp_path, moves, approve="auto", budget_cents=6000)
    model.assert_complete()
    assert checkouts.paid[before:] == ["Pay $20.00"]
    assert [a["decision"] for a in approvals(events_of(result))] == ["approve", "pause"]
    assert result.outcome == "paused" and result.waiting_for == "approval", result
    assert result.question is not None and 'Approve pressing "Pay now"' in result.question
    assert "this run already spent" in result.question


# -- a yes on resume approves one press; the ledger survives the resume -------------------------------------


def test_a_yes_on_resume_pays_once_and_the_next_press_is_asked_again(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    """An ``auto`` run with no budget (nothing anchors it) pauses before "Pay $20.00"; ``resume --approve``
    pays that press, once. The model's next press is not covered by that yes: it is asked, and declined."""
    url = checkouts.add(pay_page("Pay $20.00"))
    before = len(checkouts.paid)
    paused, _ = start(agent_browser, url, tmp_path, [reply(PAY_20)], approve="auto")
    assert paused.outcome == "paused" and checkouts.paid[before:] == [], paused
    asked: list[str] = []
    model = ScriptedModel([reply(PAY_20), finish_from_narration])
    result = run_sync(
        resume_run(
            paused.run_id,
            tmp_path,
            approve=True,
            model=model,
            browser=agent_browser,
            prompt=asking("n", asked),
        )
    )
    model.assert_complete()
    assert checkouts.paid[before:] == ["Pay $20.00"]
    reasons = [a["reason"] for a in approvals(events_of(result))]
    assert reasons[1] == "approved by the person on resume", reasons
    assert len(asked) == 1 and "this run already spent" in asked[0], asked
    assert reasons[2].startswith("the person declined at the terminal"), reasons
    assert result.outcome == "paid" and "$20.00" in result.message, result


def test_the_ledger_survives_a_resume_and_a_second_payment_is_asked(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    """Paid $20.00, then the run pauses on a question; resumed (another process would read the same
    checkpoint), the model presses "Pay $20.00" again: the resumed run knows the first payment, so within
    the budget the second still needs a person's yes."""
    url = checkouts.add(pay_page("Pay $20.00"))
    before = len(checkouts.paid)
    question = reply(call("ask_human", question="Is there another bill to pay?", format="free_text"))
    paused, _ = start(
        agent_browser, url, tmp_path, [reply(PAY_20), question], approve="auto", budget_cents=6000
    )
    assert paused.outcome == "paused" and paused.waiting_for == "answer", paused
    asked: list[str] = []
    model = ScriptedModel([reply(PAY_20), finish_from_narration])
    result = run_sync(
        resume_run(
            paused.run_id, tmp_path, answer="yes, pay it", model=model, browser=agent_browser,
            prompt=asking("n", asked),
        )
    )  # fmt: skip
    model.assert_complete()
    assert checkouts.paid[before:] == ["Pay $20.00"]
    assert len(asked) == 1 and 'pressing "Pay $20.00"' in asked[0] and "already spent" in asked[0], asked
    assert result.outcome == "paid" and result.spent_cents == 2000, result


# -- after a failure or a kill: what was paid is said, nothing is pressed again ---------------------------


def went_away(messages: list[dict[str, Any]]) -> Reply:
    raise RunError("the model endpoint went away")


def no_demo_shop_pages(checkouts: Checkouts, since: int) -> None:
    asked = checkouts.requested[since:]
    assert not [path for path in asked if path.startswith("/orders")], asked


def test_a_run_that_paid_then_failed_ends_paid_without_looking_for_the_demo_shop(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    url = checkouts.add(pay_page("Pay $20.00"))
    before, seen = len(checkouts.paid), len(checkouts.requested)
    result, _ = start(
        agent_browser, url, tmp_path, [reply(PAY_20), went_away], approve="auto", budget_cents=6000
    )
    assert checkouts.paid[before:] == ["Pay $20.00"]
    assert result.outcome == "paid", result
    assert result.message.startswith('Paid: pressing "Pay $20.00" on http://127.0.0.1:'), result.message
    assert "the model endpoint went away" in result.message and result.paid, result
    no_demo_shop_pages(checkouts, seen)
    again = run_sync(resume_run(result.run_id, tmp_path, model=ScriptedModel([]), browser=agent_browser))
    assert again.outcome == "paid" and again.message.startswith("run already finished: Paid:"), again
    assert checkouts.paid[before:] == ["Pay $20.00"]


def test_a_run_killed_after_it_paid_is_resumed_as_paid_and_pressed_no_more(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    url = checkouts.add(pay_page("Pay $20.00"))
    before, seen = len(checkouts.paid), len(checkouts.requested)
    with pytest.raises(Killed):
        start(
            agent_browser, url, tmp_path, [reply(PAY_20)], listen=killed_at("order_result"),
            approve="auto", budget_cents=6000,
        )  # fmt: skip
    [folder] = [RunFolder(tmp_path, p.name) for p in tmp_path.iterdir() if (p / "state.json").is_file()]
    assert folder.load().status == "running" and len(folder.load().spent) == 1
    model = ScriptedModel([reply(PAY_20)])  # would press again, were it asked
    result = run_sync(resume_run(folder.run_id, tmp_path, model=model, browser=agent_browser))
    assert model.calls == [] and checkouts.paid[before:] == ["Pay $20.00"]
    assert result.outcome == "paid" and result.paid and "$20.00" in result.message, result
    assert "nothing was pressed again" in result.message
    no_demo_shop_pages(checkouts, seen)


def test_a_run_killed_with_a_press_under_way_says_it_may_have_paid_and_presses_no_more(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    """Killed after the intent was written and before the page answered: whether it paid cannot be known
    (no order history to ask on that site), so the resumed run ends saying so, and does not press again."""
    url = checkouts.add(pay_page("Pay $20.00"))
    before, seen = len(checkouts.paid), len(checkouts.requested)
    with pytest.raises(Killed):
        start(
            agent_browser, url, tmp_path, [reply(PAY_20)], listen=killed_at("order_intent"),
            approve="auto", budget_cents=6000,
        )  # fmt: skip
    [folder] = [RunFolder(tmp_path, p.name) for p in tmp_path.iterdir() if (p / "state.json").is_file()]
    model = ScriptedModel([reply(PAY_20)])
    result = run_sync(resume_run(folder.run_id, tmp_path, model=model, browser=agent_browser))
    assert model.calls == [] and checkouts.paid[before:] == []
    assert result.outcome == "failed", result
    assert result.message.startswith('May have paid: pressing "Pay $20.00" on http://127.0.0.1:'), result
    assert "It was not pressed again" in result.message
    no_demo_shop_pages(checkouts, seen)
