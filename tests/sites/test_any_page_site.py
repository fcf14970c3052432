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
            ["batch", "lines.jsonl", "--site", "any-page", "--url", "http://x.test/"],
            "a batch drives the demo shop",
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
