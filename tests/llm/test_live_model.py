"""Opt-in: a real model through the real SDK. Skipped without OPENAI_API_KEY (the ``live_model`` marker).

OPENAI_API_KEY=… [WEBAGENT_MODEL=…] [OPENAI_BASE_URL=…] pytest -m live_model
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.llm.openai_client import OpenAIModel
from webagent.runs.runner import start_run
from webagent.sync import run_sync


@pytest.mark.live_model
def test_a_real_model_places_exactly_the_order_asked(agent_browser: Browser, tmp_path: Path) -> None:
    config = RunConfig(
        goal="Order 2 Spicy Tuna Roll from Sushi House, deliver ASAP, pay cash",
        profile=Profile(name="Live Test", address="12 Oak Street", phone="555-0101"),
        approve="auto",
        budget_cents=5000,
        clutter=1,
        runs_dir=tmp_path,
    )
    result = run_sync(start_run(config, model=OpenAIModel(), browser=agent_browser))
    assert result.outcome == "ordered", result.message
    with sqlite3.connect(Path(result.run_dir) / "shop.db") as db:
        items = db.execute("select dish_name, quantity from order_items").fetchall()
    assert items == [("Spicy Tuna Roll", 2)]
