"""Page events people meet, on pages written here: an alert, a confirm that pays (held by the gate), a
prompt, a new tab, a download and a file chooser — each narrated, and answered through the tools.

The pages report what happened on them to the ledger (tests/e2e/test_blind_gate.py): the tests assert what
the page recorded, not only what the agent said.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_blind_gate import Ledger, approvals, asking, finish, fresh, ledger, page, press, run
from webagent.agent.checkpoint import RunFolder
from webagent.browser.session import Browser
from webagent.llm.protocol import Reply
from webagent.runs.runner import resume_run
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply

__all__ = ["fresh", "ledger"]  # the ledger's fixtures, used here as they are there


def answer(accept: bool = True, text: str | None = None) -> Reply:
    args: dict[str, object] = {"accept": accept}
    if text is not None:
        args["text"] = text
    return reply(call("answer_dialog", **args))


ALERT = page(
    "<h1>Your order</h1><button onclick=\"alert('Tips go to the kitchen'); rec('after-alert')\">Show tip info</button>",
    title="Order",
    view=False,
)


def test_an_alert_is_narrated_and_closed_and_the_page_goes_on(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(ALERT)
    _, _, said = run(agent_browser, url, tmp_path, [press("Show tip info")], approve="deny")
    fresh.settle(lambda: "after-alert" in fresh.hits)
    assert "after-alert" in fresh.hits, (fresh.hits, said)
    assert any('The page showed an alert "Tips go to the kitchen"' in s for s in said), said
    assert not any("No visible change" in s.splitlines()[0] for s in said[:1]), said


PAYING_CONFIRM = page(
    """<h1>Review</h1><p>Total $42.50</p>
<button onclick="if (confirm('Pay $42.50 now?')) rec('paid'); else rec('kept')">Continue</button>""",
    title="Review",
    view=False,
)


def test_a_confirm_that_pays_is_answered_cancel_and_never_ok_under_deny(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(PAYING_CONFIRM)
    _, events, said = run(agent_browser, url, tmp_path, [press("Continue"), answer()], approve="deny")
    fresh.settle(lambda: "kept" in fresh.hits)
    assert "paid" not in fresh.hits and "kept" in fresh.hits, (fresh.hits, said)
    assert any('asked to confirm "Pay $42.50 now?"' in s and "answer_dialog" in s for s in said), said
    held = approvals(events)
    assert [a["decision"] for a in held] == ["deny"], held


def test_a_confirm_that_pays_is_answered_ok_once_when_the_person_approves_it(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(PAYING_CONFIRM)
    asked: list[str] = []
    _, _events, said = run(
        agent_browser,
        url,
        tmp_path,
        [press("Continue"), answer()],
        approve="ask",
        prompt=asking("y", asked),
    )
    fresh.settle(lambda: "paid" in fresh.hits)
    assert fresh.hits.count("paid") == 1, (fresh.hits, said)
    assert len(asked) == 1 and "42.50" in asked[0], asked
    assert any("answered OK, as answer_dialog said" in s for s in said), said


def test_a_harmless_confirm_and_a_prompt_are_answered_without_the_gate(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(
        page(
            """<h1>Addresses</h1>
<button onclick="if (confirm('Remove this address?')) rec('removed')">Remove</button>
<button onclick="const n = prompt('Name on the bell?', 'Flat 2'); rec('bell:' + n)">Bell name</button>""",
            title="Addresses",
            view=False,
        )
    )
    _, events, said = run(
        agent_browser,
        url,
        tmp_path,
        [press("Remove"), answer(), press("Bell name"), answer(text="Okafor")],
        approve="deny",
    )
    fresh.settle(lambda: "bell:Okafor" in fresh.hits)
    assert "removed" in fresh.hits and "bell:Okafor" in fresh.hits, (fresh.hits, said)
    assert "bell:null" in fresh.hits  # the first answer, before the model's: Cancel
    assert approvals(events) == [], approvals(events)
    assert any('(it suggested "Flat 2")' in s for s in said), said


def test_answer_dialog_with_nothing_asked_does_nothing(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(PAYING_CONFIRM)
    _, _, said = run(agent_browser, url, tmp_path, [answer()], approve="deny")
    assert fresh.hits == [], fresh.hits
    assert any("no question of the page is waiting" in s for s in said), said


def test_a_new_tab_is_followed_narrated_and_left_when_it_closes(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    _, tracking = fresh.add(
        page(
            """<h1>Parcel 7</h1><button onclick="rec('tracked')">Refresh status</button>
<button onclick="window.close()">Done</button>""",
            title="Tracking",
            view=False,
        )
    )
    url, _ = fresh.add(
        page(
            f"<h1>Orders</h1><a href='{tracking}' target='_blank'>Track parcel</a>",
            title="Orders",
            view=False,
        )
    )
    _, _, said = run(
        agent_browser,
        url,
        tmp_path,
        [
            press("Track parcel"),
            press("Refresh status"),
            press("Done"),
            reply(call("scroll_to_text", text="Orders")),
        ],
        approve="deny",
    )
    fresh.settle(lambda: "tracked" in fresh.hits)
    assert "tracked" in fresh.hits, (fresh.hits, said)
    assert any('A new tab opened: "Tracking"' in s for s in said), said
    assert any("tab closed; the tools act on the earlier one again" in s for s in said), said
    assert any(s.startswith('Scrolled to "Orders"') for s in said), said


def test_a_download_and_a_file_chooser_are_narrated(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    _, receipt = fresh.add("receipt")
    url, _ = fresh.add(
        page(
            f"""<h1>Receipts</h1><a href='{receipt}' download='receipt-7.txt'>Download receipt</a>
<input type='file' id='f' hidden><button onclick="document.getElementById('f').click()">Upload photo</button>""",
            title="Receipts",
            view=False,
        )
    )
    _, _, said = run(
        agent_browser, url, tmp_path, [press("Download receipt"), press("Upload photo")], approve="deny"
    )
    assert any('started a download of "receipt-7.txt"' in s for s in said), said
    assert any("opened a file chooser for a file; nothing was chosen" in s for s in said), said


COUNTDOWN_AD = page(
    """<h1>Trattoria</h1><button onclick="rec('hours')">Opening hours</button>
<div id='ad' role='dialog' aria-modal='true' aria-label='Advertisement'
     style='position:fixed;inset:0;background:#000d;color:#fff;z-index:10;padding:40px'>
  <p>Our sponsor. You can close this ad in <span id='n'>3</span> s</p>
  <button id='skip' disabled>Skip in 3</button>
</div>""",
    title="Trattoria",
    view=False,
    script="""
const skip = document.getElementById('skip'), ad = document.getElementById('ad');
let n = 3;
const tick = setInterval(() => {
  n -= 1;
  document.getElementById('n').textContent = n;
  skip.textContent = n > 0 ? 'Skip in ' + n : 'Skip ad';
  if (n <= 0) { skip.disabled = false; clearInterval(tick); }
}, 1000);
skip.addEventListener('click', () => { rec('skipped'); ad.remove(); });
document.addEventListener('keydown', (e) => e.stopPropagation(), true);""",
)


def test_an_ad_whose_way_out_comes_after_a_countdown_is_waited_out_and_narrated(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(COUNTDOWN_AD)
    _result, _, said = run(agent_browser, url, tmp_path, [press("Opening hours")], approve="deny")
    fresh.settle(lambda: "hours" in fresh.hits)
    assert fresh.hits == ["skipped", "hours"], (fresh.hits, said)
    assert any('"Advertisement" with "Skip ad" once its way out appeared' in s for s in said), said


APP_SHEET = page(
    """<h1>Trattoria</h1><button onclick="rec('hours')">Opening hours</button>
<div id='sheet' role='dialog' aria-label='Ordering is faster in our app'
     style='position:fixed;left:0;right:0;bottom:0;top:0;background:#fff;z-index:10;padding:40px'>
  <p>Get 10% off your first order in the app.</p>
  <button onclick="rec('app')">Open in app</button>
  <button onclick="rec('web'); document.getElementById('sheet').remove()">Continue on the web</button>
</div>""",
    title="Trattoria",
    view=False,
    script="document.addEventListener('keydown', (e) => e.stopPropagation(), true);",
)


def test_an_open_in_the_app_sheet_is_left_by_continuing_on_the_web(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(APP_SHEET)
    _, _, said = run(agent_browser, url, tmp_path, [press("Opening hours")], approve="deny")
    fresh.settle(lambda: "hours" in fresh.hits)
    assert fresh.hits == ["web", "hours"], (fresh.hits, said)
    assert any('with "Continue on the web"' in s for s in said), said


# -- what a reviewer found (each was a defect before its fix) ---------------------------------------------

TWICE = page(
    """<h1>Review</h1><p>Total $5.00</p>
<button onclick="if (confirm('Pay $5.00 now?')) rec('paid'); if (confirm('Pay $5.00 now?')) rec('paid again')">Continue</button>""",
    title="Review",
    view=False,
)


def test_one_approved_answer_answers_one_dialog_and_the_same_question_again_gets_cancel(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(TWICE)
    asked: list[str] = []
    _, _, said = run(
        agent_browser, url, tmp_path, [press("Continue"), answer()], approve="ask", prompt=asking("y", asked)
    )
    fresh.settle(lambda: "paid" in fresh.hits)
    assert fresh.hits == ["paid"], (fresh.hits, said)
    assert len(asked) == 1, asked


def test_a_question_left_unanswered_is_not_answered_after_another_call(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(
        page(
            """<h1>Review</h1>
<button onclick="if (confirm('Remove the tip?')) rec('removed')">Remove tip</button>
<button onclick="rec('other')">Other</button>""",
            title="Review",
            view=False,
        )
    )
    _, _, said = run(
        agent_browser, url, tmp_path, [press("Remove tip"), press("Other"), answer()], approve="deny"
    )
    fresh.settle(lambda: "other" in fresh.hits)
    assert fresh.hits == ["other"], (fresh.hits, said)
    assert any("no question of the page is waiting" in s for s in said), said


def test_a_tab_opened_between_calls_is_looked_at_before_anything_is_done_on_it(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    _, tracking = fresh.add(
        page(
            "<h1>Parcel 7</h1><button onclick=\"rec('tracked')\">Refresh status</button>",
            title="Tracking",
            script="rec('opened')",
        )
    )
    url, _ = fresh.add(
        page(
            f"<h1>Orders</h1><button onclick=\"setTimeout(() => window.open('{tracking}'), 1200)\">Track later</button>"
            "<button onclick=\"rec('here')\">Refresh status</button>",
            title="Orders",
            view=False,
        )
    )

    def later(messages: list[dict[str, object]]) -> Reply:
        fresh.settle(lambda: "opened" in fresh.hits, wait=15.0)  # the model thinks; the page opens its tab
        return reply(call("press", name="Refresh status"))

    _, _, said = run(
        agent_browser,
        url,
        tmp_path,
        [press("Track later"), later, press("Refresh status")],
        approve="deny",
    )
    fresh.settle(lambda: "tracked" in fresh.hits)
    assert fresh.hits == ["opened", "tracked"], (fresh.hits, said)  # never pressed on a tab not yet seen
    refused = next(s for s in said if "the tools act on another tab since the last call" in s)
    assert 'A new tab opened: "Tracking"' in refused, said


def test_an_answer_paused_for_approval_is_not_given_on_resume_to_a_question_the_page_no_longer_asks(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(PAYING_CONFIRM)
    paused, _, _ = run(agent_browser, url, tmp_path, [press("Continue"), answer()], approve="auto")
    assert paused.outcome == "paused" and paused.waiting_for == "approval", paused
    model = ScriptedModel([finish])
    result = run_sync(resume_run(paused.run_id, tmp_path, approve=True, model=model, browser=agent_browser))
    events = RunFolder(tmp_path, result.run_id).transcript()
    said = [str(e.get("narration", "")) for e in events if e["event"] == "tool"]
    fresh.settle()
    assert "paid" not in fresh.hits, (fresh.hits, said)
    assert any("the page's question was lost when the run stopped" in s for s in said), said
