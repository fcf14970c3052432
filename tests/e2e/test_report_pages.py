"""Reports of real runs, opened in a real Chromium; the headed-debugging stops, headless.

A run of the planner on the cluttered shop writes its report.html; the test opens it as a person would
(``file://``, no server) and checks every tool call in the transcript against the page: its narration,
and the picture of the page after it, decoded by the browser. ``webagent eval`` (a real subprocess)
writes eval-report.html, opened the same way. The stops a person asks for (``--pause-on-failure``,
``--keep-open``) are passed in as functions, the way the runner takes them, and observed headless.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import webagent
from demo_site import Shop
from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.browser.watch import keep_open
from webagent.config import Profile, RunConfig
from webagent.report.record import read_transcript
from webagent.report.write import write_report
from webagent.runs.runner import start_run
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply
from webagent.tools.toolbox import Toolbox

GOAL = "Order 2 Margherita Pizza (Large) and a Tiramisu from Italian Bistro, deliver at 7pm, pay cash"
PROFILE = Profile(name="Ada", address="12 Oak Street", phone="555-0101")
NOT_ON_THE_PAGE = ("finish", "ask_human")


@pytest.fixture(scope="module")
def ordered(agent_browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    """A real run at clutter 2, traced, with screenshots of each new view (the default)."""
    config = RunConfig(
        goal=GOAL,
        profile=PROFILE,
        clutter=2,
        approve="auto",
        trace=True,
        model="planner",
        runs_dir=tmp_path_factory.mktemp("report-runs"),
    )
    result = run_sync(start_run(config, browser=agent_browser, report=write_report))
    assert result.outcome == "ordered", result
    return result


def tool_events(run_dir: Path) -> list[dict[str, Any]]:
    return [e for e in read_transcript(run_dir / "transcript.jsonl") if e["event"] == "tool"]


def test_the_report_of_a_real_run_shows_every_step_with_its_narration_and_picture(
    ordered: RunResult, page: Page
) -> None:
    run_dir = Path(ordered.run_dir)
    calls = tool_events(run_dir)
    shots = {
        e["id"]: e["file"]
        for e in read_transcript(run_dir / "transcript.jsonl")
        if e["event"] == "screenshot"
    }

    page.goto((run_dir / "report.html").as_uri())

    expect(page.locator("[data-outcome]")).to_have_text(f"Ordered — order #{ordered.order_id}, total $43.42")
    expect(page.locator("article.step")).to_have_count(len(calls))
    for number, event in enumerate(calls, start=1):
        step = page.locator(f'article.step[data-step="{number}"]')
        expect(step).to_have_attribute("data-tool", event["name"])
        assert step.locator(".narration").inner_text() == event["narration"]
        picture = step.locator("img.shot")
        if event["name"] in NOT_ON_THE_PAGE:
            expect(picture).to_have_count(0)
            continue
        if event["id"] not in shots:  # --screenshots views (the default): the same view as a picture before
            expect(picture).to_have_count(0)
            said = step.locator(".noshot").inner_text()
            earlier = int(said.split("in the picture of step ")[1].split(";")[0])
            assert earlier < number and calls[earlier - 1]["id"] in shots, said
            continue
        picture.scroll_into_view_if_needed()
        # The browser decoded it (a broken image has no natural size), and it is the file of this very call.
        assert picture.evaluate("(img) => img.complete && img.naturalWidth") == 640  # half the viewport
        src = str(picture.get_attribute("src"))
        assert base64.b64decode(src.split(",", 1)[1]) == (run_dir / shots[event["id"]]).read_bytes()
    # A picture of the first page and of the last (the confirmation), not of every call; none left over.
    on_the_page = [e for e in calls if e["name"] not in NOT_ON_THE_PAGE]
    assert {on_the_page[0]["id"], on_the_page[-1]["id"]} <= shots.keys()
    assert 3 <= len(shots) < len(on_the_page)
    assert sorted(p.name for p in run_dir.glob("*.jpg")) == sorted(shots.values())
    # The links lead to the files beside it.
    for name in ("transcript.jsonl", "trace.zip"):
        href = page.get_by_role("link", name=name).get_attribute("href")
        assert (run_dir / str(href)).is_file()


def test_the_trace_groups_carry_what_the_model_read(ordered: RunResult) -> None:
    run_dir = Path(ordered.run_dir)
    with zipfile.ZipFile(run_dir / "trace.zip") as trace:
        lines = [json.loads(line) for line in trace.read("trace.trace").decode().splitlines() if line]
    groups = [e for e in lines if e.get("type") == "before" and e.get("method") == "tracingGroup"]
    children: dict[str, list[str]] = {}
    for group in groups:
        children.setdefault(group.get("parentId", ""), []).append(group["title"])

    for event in tool_events(run_dir):
        if event["name"] in NOT_ON_THE_PAGE:
            continue
        first, *rest = event["narration"].splitlines()
        narration = next(g for g in groups if g["title"] == f"→ {first}")
        assert children.get(narration["callId"], []) == rest


def test_webagent_eval_writes_a_report_linking_each_task_to_its_run(tmp_path: Path, page: Page) -> None:
    tasks = tmp_path / "tasks.jsonl"
    expected = {
        "ordered": True,
        "restaurant": "Italian Bistro",
        "items": [{"dish": "Tiramisu", "quantity": 2}],
    }
    tasks.write_text(
        json.dumps({"id": "tiramisu", "goal": "Order 2 Tiramisu from Italian Bistro", "expect": expected})
        + "\n"
        # Expects what the goal does not ask for: the verifier must fail it, and the report must say why.
        + json.dumps({"id": "wrong", "goal": "Order 4 Lemonade from Italian Bistro", "expect": expected})
        + "\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env["PYTHONPATH"] = str(Path(webagent.__file__).parents[1])  # this checkout's webagent, wherever it runs

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "webagent",
            "eval",
            str(tasks),
            "--runs-dir",
            "eval-runs",
            "--json",
            "--workers",
            "2",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )

    # One task fails, and by placing an order other than its task's: a wrong order, which exits 4, not 1.
    assert done.returncode == 4, done.stderr
    assert "1 wrong order(s) placed" in done.stderr
    assert "Traceback" not in done.stderr
    assert f"Report: {Path('eval-runs') / 'eval-report.html'}" in done.stderr  # stdout is only the JSON
    results = {task["id"]: task for task in json.loads(done.stdout)["tasks"]}
    page.goto((tmp_path / "eval-runs" / "eval-report.html").as_uri())
    expect(page.locator("[data-outcome]")).to_have_text("1/2 passed")
    expect(page.locator('tr[data-task="tiramisu"] .verdict')).to_have_text("PASS")
    expect(page.locator('tr[data-task="wrong"] .verdict')).to_have_text("FAIL")
    expect(page.locator('tr[data-task="wrong"] .reason')).to_contain_text(results["wrong"]["reason"])
    expect(page.locator("#no-baselines")).to_be_visible()

    page.locator('tr[data-task="wrong"]').get_by_role("link", name="wrong").click()

    expect(page).to_have_url((tmp_path / results["wrong"]["run_dir"] / "report.html").resolve().as_uri())
    expect(page.locator("article.step").first).to_be_visible()
    expect(page.locator(".goal")).to_have_text("Goal: Order 4 Lemonade from Italian Bistro")


# --- headed debugging, observed headless -------------------------------------------------------------


def scripted_failure() -> ScriptedModel:
    return ScriptedModel(
        [
            reply(call("open_restaurant", name="No Such Bistro")),
            reply(call("finish", outcome="failed", summary="there is no such restaurant")),
        ]
    )


@pytest.mark.parametrize("pause_on_failure", [True, False], ids=["on", "off"])
def test_pause_on_failure_stops_at_the_failed_tool_and_at_the_failed_end(
    agent_browser: Browser, shop: Shop, tmp_path: Path, pause_on_failure: bool
) -> None:
    stops: list[tuple[str, str, bool]] = []

    async def pause(page: Any, why: str) -> None:  # what a person would see when the inspector opens
        stops.append((why, await page.evaluate("document.body.dataset.view"), page.is_closed()))

    config = RunConfig(
        goal="Order from No Such Bistro",
        shop_url=shop.url,
        approve="auto",
        runs_dir=tmp_path,
        pause_on_failure=pause_on_failure,
        screenshots=False,
    )
    result = run_sync(
        start_run(config, model=scripted_failure(), browser=agent_browser, pause=pause, report=write_report)
    )

    assert result.outcome == "failed"
    if not pause_on_failure:
        assert stops == []
        return
    [(tool_why, view, closed), (end_why, _, _)] = stops
    assert tool_why.startswith("open_restaurant failed: ") and "No Such Bistro" in tool_why
    assert (view, closed) == ("restaurants", False)
    assert end_why == "the run failed: there is no such restaurant"
    # With --no-screenshots the report says so instead of showing a picture.
    report = (Path(result.run_dir) / "report.html").read_text()
    assert "no screenshot: the run took none" in report
    assert not list(Path(result.run_dir).glob("*.jpg"))


def test_keep_open_holds_the_page_after_the_run_with_its_report_written(
    agent_browser: Browser, shop: Shop, tmp_path: Path
) -> None:
    seen: dict[str, Any] = {}

    async def stay(page: Any) -> None:
        seen["open"] = not page.is_closed()
        seen["view"] = await page.evaluate("document.body.dataset.view")
        seen["report"] = next(tmp_path.glob("*/report.html")).read_text()
        seen["page"] = page

    model = ScriptedModel([reply(call("finish", outcome="done", summary="looked around"))])
    config = RunConfig(goal="Look around", shop_url=shop.url, runs_dir=tmp_path, keep_open=True)
    result = run_sync(start_run(config, model=model, browser=agent_browser, stay=stay, report=write_report))

    assert result.outcome == "done"
    assert seen["open"] and seen["view"] == "restaurants"
    assert 'data-outcome="done"' in seen["report"]  # readable while the window stays open
    assert seen["page"].is_closed()  # closed once the stop returned


def test_keep_open_returns_when_enter_is_pressed_or_the_window_closes(
    agent_browser: Browser, shop: Shop, capsys: pytest.CaptureFixture[str]
) -> None:
    async def scenario() -> tuple[bool, bool]:
        session = await agent_browser.new_session(shop.url, DEMO_SHOP)
        await session.open("/")
        enter: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_later(0.05, enter.set_result, "\n")
        await asyncio.wait_for(keep_open(session.page, enter=enter), 10)
        still_open = not session.page.is_closed()

        never: asyncio.Future[str] = asyncio.get_running_loop().create_future()  # nobody presses Enter
        closing = asyncio.ensure_future(session.page.close())  # the person closes the window
        await asyncio.wait_for(keep_open(session.page, enter=never), 10)
        await closing
        await session.context.close()
        return still_open, never.cancelled()

    still_open, stopped_waiting = run_sync(scenario())

    assert still_open  # Enter ends the wait, not the page
    assert stopped_waiting  # a closed window ends it too, and nothing is left waiting for Enter
    assert "close it or press Enter" in capsys.readouterr().err


OUTLINE_ON_SEARCH = """() => {
  const box = window.__webagentWatch.state().box;
  const button = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Search");
  if (!box || !button) return false;
  const r = button.getBoundingClientRect();
  return Math.abs(box.x + 3 - r.x) < 2 && Math.abs(box.width - 6 - r.width) < 2;
}"""


def test_a_watched_page_shows_each_call_and_narration_and_outlines_its_target(
    agent_browser: Browser, fresh_shop: Shop
) -> None:
    """The panel and outline are on, at clutter 3 (every popup), for a whole order: they must never be
    in the way of the agent, nor in what it reads."""

    async def scenario() -> dict[str, Any]:
        session = await agent_browser.new_session(fresh_shop.url, DEMO_SHOP, watch=True)
        try:
            await session.goto(DEMO_SHOP.start_url(session.shop_url, {"clutter": 3, "seed": 11}))
            tools = Toolbox(session, DEMO_SHOP, screenshots=None)
            seen: dict[str, Any] = {}
            searched = await tools.call("search_restaurants", {"query": "Italian"})
            # The outline follows its target on each frame, easing over 80 ms: the search re-renders the
            # list (a scrollbar may come or go and move the button), so wait until it has caught up.
            await session.page.wait_for_function(OUTLINE_ON_SEARCH)
            seen["after search"] = await session.page.evaluate("window.__webagentWatch.state()")
            seen["search button"] = await session.page.get_by_role(
                "button", name="Search", exact=True
            ).bounding_box()
            seen["search"] = searched.text
            results = [
                await tools.call("open_restaurant", {"name": "Italian Bistro"}),
                await tools.call("add_to_cart", {"dish": "Tiramisu", "quantity": 2}),
                await tools.call("go_to_checkout", {}),
                await tools.call(
                    "fill_delivery_details",
                    {
                        "name": "Ada",
                        "address": "12 Oak Street",
                        "phone": "555-0101",
                        "payment_method": "Cash",
                    },
                ),
                await tools.call("place_order", {}),
            ]
            seen["results"] = [(r.name, r.ok, r.text) for r in results]
            seen["read_page"] = (await tools.call("read_page", {})).text
            seen["panel"] = await session.page.evaluate("window.__webagentWatch.state().panel")
            return seen
        finally:
            await session.close()

    seen = run_sync(scenario())

    panel = seen["after search"]["panel"]
    assert panel.startswith('▶ search_restaurants {"query": "Italian"}')
    assert seen["search"].splitlines()[0] in panel  # the narration the model read, under the call
    box, button = seen["after search"]["box"], seen["search button"]
    assert abs(box["x"] + 3 - button["x"]) < 2 and abs(box["width"] - 6 - button["width"]) < 2
    assert all(ok for _, ok, _ in seen["results"]), [r for r in seen["results"] if not r[1]]
    assert seen["results"][-1][2].startswith("Order #1 placed")
    assert seen["panel"].startswith("▶ read_page")
    assert "▶" not in seen["read_page"] and "search_restaurants" not in seen["read_page"]


def test_pictures_go_on_after_those_already_in_the_folder_and_follow_the_policy(
    agent_browser: Browser, fresh_shop: Shop, tmp_path: Path
) -> None:
    """A resumed run's toolbox finds step-007 in its folder: its pictures are step-008 on, none
    overwritten; with ``every_call`` off, a call that keeps the view gets none, a failed one does."""
    earlier = tmp_path / "step-007-view_cart.jpg"
    earlier.write_bytes(b"the picture of the run before it was killed")

    async def scenario() -> list[str]:
        session = await agent_browser.new_session(fresh_shop.url, DEMO_SHOP)
        try:
            await session.goto(DEMO_SHOP.start_url(session.shop_url, {"clutter": 0, "seed": 1}))
            tools = Toolbox(session, DEMO_SHOP, screenshots=tmp_path)
            await tools.call("open_restaurant", {"name": "Italian Bistro"})  # another view: a picture
            await tools.call("add_to_cart", {"dish": "Tiramisu", "quantity": 1})  # the same view: none
            failed = await tools.call("open_restaurant", {"name": "Nowhere Diner"})  # failed: a picture
            assert not failed.ok and not failed.refused, failed.text
            await tools.pictured()
            return sorted(p.name for p in tmp_path.glob("*.jpg"))
        finally:
            await session.close()

    assert run_sync(scenario()) == [
        "step-007-view_cart.jpg",
        "step-008-open_restaurant.jpg",
        "step-010-open_restaurant.jpg",
    ]
    assert earlier.read_bytes() == b"the picture of the run before it was killed"
