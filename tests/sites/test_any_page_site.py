"""`--site`: which adapter a run drives (webagent/sites/), and `ANY_PAGE`, the adapter for a page nobody
wrote one for, driving a three-step form written here — each step narrated, no tool of the shop's offered,
and the last step's "Send request" held by the gate — with the page's server recording what it received.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.served import Served
from webagent.agent.checkpoint import RunFolder
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.errors import RunError, UsageError
from webagent.runs.model_choice import check_model_choice
from webagent.runs.runner import start_run
from webagent.sites import SITES, UnknownSite, site_named
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sites.generic.site import ANY_PAGE
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply
from webagent.tools.site import Site

SHIPPED: list[Site] = [DEMO_SHOP, ANY_PAGE]  # each implements the Protocol (mypy checks this line)


def test_a_site_is_named_shipped_or_as_an_import_path() -> None:
    assert site_named("any-page") is ANY_PAGE and site_named("demo-shop") is DEMO_SHOP
    assert site_named("webagent.sites.generic.site:ANY_PAGE") is ANY_PAGE
    assert set(SITES) == {"demo-shop", "any-page"}


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("shop", "unknown site 'shop': use demo-shop, any-page or an adapter of your own"),
        ("nowhere.at.all:SITE", "site 'nowhere.at.all:SITE' could not be loaded"),
        ("webagent.sites.generic.site:NO_SUCH_SITE", "could not be loaded"),
        ("webagent.config:RunConfig", "is not a site adapter (it has no tools, read, offered, start_url)"),
    ],
)
def test_a_name_that_is_no_site_says_what_to_give(name: str, said: str) -> None:
    with pytest.raises(UnknownSite, match=None) as raised:
        site_named(name)
    assert said in str(raised.value)


def test_the_planner_is_not_sent_to_a_page_it_has_no_adapter_for(tmp_path: Path) -> None:
    config = RunConfig(goal="sign me up", site="any-page", shop_url="http://x.test/", model="planner")
    with pytest.raises(UsageError, match="the offline planner drives only the demo shop"):
        check_model_choice(config)


def test_any_page_without_a_url_is_a_clear_error(agent_browser: Browser, tmp_path: Path) -> None:
    model = ScriptedModel([])
    config = RunConfig(goal="sign me up", site="any-page", runs_dir=tmp_path)
    with pytest.raises(RunError, match="--site any-page needs the page to open: give it with --url"):
        run_sync(start_run(config, model=model, browser=agent_browser))


# -- a three-step form nobody wrote an adapter for ---------------------------------------------------------

WIZARD = """<!doctype html><html><head><meta charset='utf-8'><title>Allotment waiting list</title></head><body>
<main><h1>Join the waiting list</h1>
<form id='f' method='post' action='/join'>
<section data-step='1'><h2 aria-current='step'>Step 1 of 3: You</h2>
  <label>Full name <input name='name' required></label>
  <button type='button' onclick='go(2)'>Next</button></section>
<section data-step='2' hidden><h2 aria-current='step'>Step 2 of 3: Plot</h2>
  <label>Plot size <select name='size'><option value=''>Choose</option><option>Half plot</option>
  <option>Full plot</option></select></label>
  <button type='button' onclick='go(3)'>Next</button></section>
<section data-step='3' hidden><h2 aria-current='step'>Step 3 of 3: Check and send</h2>
  <p id='check'></p><button>Send request</button></section>
</form></main>
<script>
function go(n) {
  for (const s of document.querySelectorAll('section')) s.hidden = s.dataset.step !== String(n);
  const f = new FormData(document.getElementById('f'));
  document.getElementById('check').textContent = 'Name: ' + f.get('name') + ', plot: ' + f.get('size');
}
</script></body></html>"""
THANKS = "<!doctype html><title>Thanks</title><h1>You are on the list</h1>"


@pytest.fixture
def wizard() -> Iterator[Served]:
    served = Served(WIZARD, after=THANKS, path="/waiting-list")
    yield served
    served.close()


def test_any_page_drives_a_three_step_form_and_the_gate_holds_its_send(
    agent_browser: Browser, wizard: Served, tmp_path: Path
) -> None:
    moves = [
        reply(call("fill_field", label="Full name", text="Ana Tester")),
        reply(call("press", name="Next")),
        reply(call("choose_option", label="Plot size", choice="Half plot")),
        reply(call("press", name="Next")),
        reply(call("press", name="Send request")),
        reply(call("finish", outcome="done", summary="The request was not sent: it needs approval.")),
    ]
    model = ScriptedModel(moves)
    config = RunConfig(
        goal="Put me on the allotment waiting list",
        site="any-page",
        shop_url=wizard.url,
        runs_dir=tmp_path,
        approve="deny",
    )
    result = run_sync(start_run(config, model=model, browser=agent_browser))
    events = RunFolder(tmp_path, result.run_id).transcript()
    said = [str(e.get("narration", "")) for e in events if e["event"] == "tool"]
    assert "Step 2 of 3: Plot" in said[1], said[1]
    assert "Step 3 of 3: Check and send" in said[3], said[3]
    assert not any("No visible change" in s for s in said[:4]), said
    assert "cart" not in " ".join(said).lower(), said  # a page with no cart is never said to have one
    offered = {tool["function"]["name"] for _messages, tools in model.calls for tool in tools}
    assert offered and offered <= {t.name for t in ANY_PAGE.tools}, offered
    assert not offered & {"search_restaurants", "add_to_cart", "place_order", "view_cart"}, offered
    assert wizard.forms == [], wizard.forms  # the send was held: the page's server got nothing
    refused = [e for e in events if e["event"] == "approval"]
    assert [e["decision"] for e in refused] == ["deny"], refused
    assert "it sends a form that holds a name" in refused[0]["why"], refused[0]
    assert "Nothing was pressed" in said[4], said[4]
    assert json.dumps(events)  # the transcript is whole


# -- the edges say what to give (a reviewer's cases, helper-20) ---------------------------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["run", "sign me up", "--site", "any-page", "--model", "null"],
            "--site any-page needs the page to open",
        ),
        (["mcp", "--site", "any-page"], "--site any-page needs the page to open"),
        (
            ["batch", "lines.jsonl", "--site", "any-page", "--url", "http://x.test/", "--model", "m"],
            "keeps no order history webagent can ask",
        ),
        (["run", "x", "--site", "nowhere"], "unknown site 'nowhere'"),
    ],
)
def test_the_command_line_says_what_a_site_needs(
    argv: list[str],
    said: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from webagent.cli import main

    (tmp_path / "lines.jsonl").write_text('{"goal": "x"}\n')
    monkeypatch.chdir(tmp_path)
    code = main(argv)
    assert code == 2 and said in capsys.readouterr().err, code


def test_a_run_on_another_site_is_replayed_only_where_the_person_says(tmp_path: Path) -> None:
    from webagent.runs.site_choice import replayed_on

    config = RunConfig(goal="x", site="any-page", shop_url="https://live.example/form")
    with pytest.raises(RunError, match="a replay acts on that page again, so give the page"):
        replayed_on(config, None)
    assert replayed_on(config, "http://127.0.0.1:9/copy") == "http://127.0.0.1:9/copy"
    assert replayed_on(RunConfig(goal="x", shop_url="http://shop.test"), None) is None  # the demo: embedded


# -- a run folder never chooses what webagent imports --------------------------------------------------------

MARKED = """
import pathlib
pathlib.Path(__file__).with_name("imported.txt").write_text("the adapter's code ran")
from webagent.sites.generic.site import ANY_PAGE as SITE
"""


@pytest.mark.parametrize("command", ["resume", "replay"])
def test_an_adapter_a_run_folder_names_is_imported_only_when_the_person_names_it(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run folder copied from elsewhere names ``package.module:NAME``: resume and replay refuse it, and
    import nothing, until the person names the adapter themselves; the shipped adapters need no naming."""
    from webagent.agent.checkpoint import Checkpoint
    from webagent.cli import main

    (tmp_path / "someone_elses_adapter.py").write_text(MARKED)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    config = RunConfig(goal="sign me up", site="someone_elses_adapter:SITE", shop_url="http://127.0.0.1:9/")
    folder = RunFolder.create(tmp_path / "runs")
    folder.save(Checkpoint(run_id=folder.run_id, config=config, messages=[]))
    folder.record("started", config=config.model_dump(mode="json"))

    code = main([command, folder.run_id, "--json"] if command == "resume" else [command, folder.run_id])
    said = capsys.readouterr()
    assert code == 2, said
    assert "add --site someone_elses_adapter:SITE if it is yours" in said.err + said.out
    assert not (tmp_path / "imported.txt").exists()  # nothing of the adapter ran
    assert folder.load().status == "running"  # the run is as it was

    code = main([command, folder.run_id, "--site", "any-page"])
    assert code == 2 and "not any-page" in capsys.readouterr().err
    assert not (tmp_path / "imported.txt").exists()


def test_a_shipped_adapter_or_one_named_by_the_person_is_loaded() -> None:
    from webagent.runs.site_choice import named_by_you

    named_by_you(RunConfig(goal="x", site="any-page", shop_url="http://x.test/"), None)
    named_by_you(RunConfig(goal="x"), None)  # the demo shop
    named_by_you(RunConfig(goal="x", site="mine:SITE", shop_url="http://x.test/"), "mine:SITE")
    with pytest.raises(UsageError, match="add --site mine:SITE"):
        named_by_you(RunConfig(goal="x", site="mine:SITE", shop_url="http://x.test/"), None)


HELP = """<!doctype html><html><head><meta charset='utf-8'><title>Help centre</title></head><body>
<main><h1>Help centre</h1><p>Answers to common questions.</p></main>
<dialog open aria-label='Contact us'><form method='post' action='/contact'>
  <label>Your message <textarea name='message' required></textarea></label>
  <button>Send message</button></form></dialog></body></html>"""


def test_a_form_filled_in_a_dialog_and_never_sent_is_no_task_done(
    agent_browser: Browser, tmp_path: Path
) -> None:
    """The reader lists a dialog's fields as the dialog's, not the page's form: a "done" after filling one
    and pressing nothing was taken at its word. Refused once now; the second "done" stands."""
    served = Served(HELP, path="/help")
    try:
        moves = [
            reply(call("fill_field", label="Your message", text="Where is my order?")),
            reply(call("finish", outcome="done", summary="Your message was sent.")),
            reply(call("finish", outcome="done", summary="I filled the message in; it is not sent.")),
        ]
        config = RunConfig(
            goal="Ask the help desk where my order is",
            site="any-page",
            shop_url=served.url,
            runs_dir=tmp_path,
        )
        result = run_sync(start_run(config, model=ScriptedModel(moves), browser=agent_browser))
    finally:
        served.close()
    events = RunFolder(tmp_path, result.run_id).transcript()
    said = [str(e.get("narration", "")) for e in events if e["event"] == "tool"]
    assert said[0].startswith('Filled "Your message"'), said[0]
    assert "Contact us" in said[0]  # the dialog is named
    assert said[1].startswith("Refused: the form filled in this run was not sent"), said[1]
    assert (result.outcome, result.message) == ("done", "I filled the message in; it is not sent.")
    assert served.forms == []
