"""A conversation across user turns (``webagent chat``), with a person clicking in the window too."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import expect
from webagent.session import ChatSession

from demo_site import Shop
from webagent.approval import ApprovalGate, HumanChannel
from webagent.browser import Browser
from webagent.checkpoint import Checkpoint, RunFolder
from webagent.config import RunConfig
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply
from webagent.toolbox import Toolbox


def test_chat_keeps_the_conversation_and_hears_the_persons_clicks(
    agent_browser: Browser, shop: Shop, tmp_path: Path
) -> None:
    session = run_sync(agent_browser.new_session(shop.url))
    try:
        run_sync(session.open("/"))
        model = ScriptedModel(
            [
                reply(call("open_restaurant", name="Italian Bistro")),
                reply(content="Italian Bistro is open."),
                reply(content="You added a Lemonade yourself."),
            ]
        )
        folder = RunFolder.create(tmp_path)
        chat = ChatSession(
            Toolbox(session),
            model,
            folder,
            Checkpoint(run_id=folder.run_id, config=RunConfig()),
            ApprovalGate("deny"),
            HumanChannel(),
        )
        first = run_sync(chat.send("Open Italian Bistro"))
        assert first.outcome == "done" and first.message == "Italian Bistro is open."

        lemonade = session.page.get_by_test_id("menu-item").filter(has_text="Lemonade")
        run_sync(lemonade.get_by_role("button", name="Add Lemonade to cart").click())  # the person clicks
        run_sync(expect(session.page.get_by_test_id("cart-count")).to_have_text("1"))

        second = run_sync(chat.send("What did I just do?"))
        assert second.message == "You added a Lemonade yourself."
        sent = model.calls[-1][0]
        assert [m["role"] for m in sent].count("user") == 2  # one conversation across both turns
        assert "@action: added 1 × Lemonade to the cart" in sent[-1]["content"]
        model.assert_complete()
    finally:
        run_sync(session.close())
