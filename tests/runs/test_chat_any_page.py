"""``webagent chat`` on a page nobody wrote an adapter for (issue 39): the conversation is told what a run
there is told — the any-page system prompt, and a goal that names no food shop — while a chat on the shop
keeps the shop's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.served import Served
from tests.shop_double import ShopDouble
from webagent.agent import prompt
from webagent.agent.approval import ApprovalGate, HumanChannel
from webagent.agent.checkpoint import Checkpoint, RunFolder
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.runs.chat import ANY_PAGE_CHAT_GOAL, CHAT_GOAL, ChatSession
from webagent.sites.generic.site import ANY_PAGE
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, reply
from webagent.tools.toolbox import Toolbox

BOOKING = (
    "<!doctype html><html><head><meta charset='utf-8'><title>Book a table</title></head><body><main>"
    "<h1>Book a table</h1><form><label>Name <input name='name'></label><button>Book</button></form>"
    "</main></body></html>"
)


@pytest.fixture
def booking() -> Iterator[Served]:
    served = Served(BOOKING, path="/book")
    yield served
    served.close()


def chat_on(toolbox: object, model: ScriptedModel, tmp_path: Path, site: str) -> ChatSession:
    folder = RunFolder.create(tmp_path)
    checkpoint = Checkpoint(run_id=folder.run_id, config=RunConfig(site=site, runs_dir=tmp_path))
    return ChatSession(toolbox, model, folder, checkpoint, ApprovalGate("deny"), HumanChannel())  # type: ignore[arg-type]


def system_message(model: ScriptedModel) -> str:
    first = model.calls[0][0][0]
    assert first["role"] == "system", first
    return str(first["content"])


def test_a_chat_on_any_page_gets_the_any_page_prompt_and_a_goal_naming_no_food_shop(
    agent_browser: Browser, booking: Served, tmp_path: Path
) -> None:
    session = run_sync(agent_browser.new_session(booking.url, ANY_PAGE))
    try:
        run_sync(session.goto(booking.url))
        model = ScriptedModel([reply(content="It is a form to book a table.")])
        chat = chat_on(Toolbox(session, ANY_PAGE), model, tmp_path, "any-page")
        answer = run_sync(chat.send("What is this page?"))
        assert (answer.outcome, answer.message) == ("done", "It is a form to book a table."), answer
        said = system_message(model)
        assert said == prompt.system_prompt(ANY_PAGE_CHAT_GOAL, any_page=True), said
        assert "food" not in said.lower() and "restaurant" not in said.lower(), said
        assert '"Book a table"' in model.calls[0][0][-1]["content"]  # the page, with the person's words
        model.assert_complete()
    finally:
        run_sync(session.close())


def test_a_chat_on_the_shop_keeps_the_shops_prompt_and_goal(tmp_path: Path) -> None:
    model = ScriptedModel([reply(content="Hello.")])
    chat = chat_on(ShopDouble(), model, tmp_path, "demo-shop")
    run_sync(chat.send("hi"))
    assert system_message(model) == prompt.system_prompt(CHAT_GOAL), system_message(model)
    model.assert_complete()
