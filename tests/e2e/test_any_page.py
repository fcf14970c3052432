"""A page nobody wrote an adapter for (issue 39): a three-step booking form written here, one URL, its
steps shown and hidden by its own script. Each press narrates the step it moved to, the ``Page:`` line
names the page, its heading and its form (no cart it does not have), and nothing waits for a marker the
page never sets."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_blind_gate import Ledger, fresh, ledger, page, press, run
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.planner import Planner
from webagent.runs.runner import start_run
from webagent.sync import run_sync
from webagent.testing import call, reply

__all__ = ["fresh", "ledger"]

WIZARD = page(
    """<main><h1 id='h'>Your details</h1>
<ol aria-label='Steps'><li id='s1' aria-current='step'>1 Details</li><li id='s2'>2 Time</li><li id='s3'>3 Confirm</li></ol>
<section id='one'><label>Name <input id='name' required></label><label>Email <input id='email' type='email' required></label>
<button onclick="go(2)">Next</button></section>
<section id='two' hidden><label>Date <input id='date' required></label>
<fieldset><legend>Guests</legend><label><input type='radio' name='g' value='2'> 2</label><label><input type='radio' name='g' value='4'> 4</label></fieldset>
<button onclick="go(3)">Next</button></section>
<section id='three' hidden><p id='summary'></p><button onclick="rec('booked:' + name.value)">Book table</button></section></main>""",
    title="Book a table",
    view=False,
    script="""
function go(n) {
  if (n === 2 && !document.getElementById('name').value) {
    document.getElementById('name').setAttribute('aria-invalid', 'true');
    return;
  }
  ['one', 'two', 'three'].forEach((id, i) => { document.getElementById(id).hidden = i + 1 !== n; });
  ['s1', 's2', 's3'].forEach((id, i) => {
    const li = document.getElementById(id);
    if (i + 1 === n) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
  });
  document.getElementById('h').textContent = ['Your details', 'When', 'Confirm'][n - 1];
}""",
)


def test_a_three_step_form_is_narrated_step_by_step(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(WIZARD)
    moves = [
        press("Next"),  # refused by the page: Name is required
        reply(call("fill_field", label="Name", text="Ada")),
        reply(call("fill_field", label="Email", text="ada@example.com")),
        press("Next"),
        reply(call("fill_field", label="Date", text="2026-12-24")),
        press("Next"),
    ]
    _, _, said = run(agent_browser, url, tmp_path, moves, approve="deny")
    refused, _, _, step_two, _, step_three = said[:6]
    assert 'Marked invalid: "Name".' in refused, refused
    assert 'The heading is now "When (step: 2 Time)" (was "Your details (step: 1 Details)")' in step_two, (
        step_two
    )
    assert 'The form now asks for "Date" *, "Guests" (one of "2", "4"); gone: "Name", "Email".' in step_two, (
        step_two
    )
    assert 'The heading is now "Confirm (step: 3 Confirm)"' in step_three, step_three
    page_line = next(line for line in step_two.splitlines() if line.startswith("Page: "))
    assert page_line.startswith(
        'Page: "Book a table" page · heading "When (step: 2 Time)" · form: "Date" *, "Guests"'
    )
    assert not any("No visible change" in s or "cart" in s for s in said[:6]), said


def test_read_page_reads_a_page_that_marks_no_main_region(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(page("<h1>Opening hours</h1><p>Mon–Fri 9–17</p>", title="Hours", view=False))
    _, _, said = run(agent_browser, url, tmp_path, [reply(call("read_page"))], approve="deny")
    assert "Mon–Fri 9–17" in said[0] and "Opening hours" in said[0], said


def test_the_planner_says_it_drives_only_the_shop_on_a_page_it_has_no_adapter_for(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(WIZARD)
    settings = RunConfig(goal="Book a table for two at 7pm", shop_url=url, runs_dir=tmp_path, approve="deny")
    result = run_sync(start_run(settings, model=Planner(), browser=agent_browser))
    assert result.outcome == "failed" and "drives only a site it has an adapter for" in result.message, result
    assert fresh.hits == [], fresh.hits
