"""The agent tests' one run on a fresh embedded shop: the person's details, and the ``run`` fixture."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.llm.protocol import Model
from webagent.runs.runner import start_run
from webagent.sync import run_sync

PROFILE = Profile(name="Ana Tester", address="12 Oak Street", phone="555-0101", payment_method="Cash")
DETAILS = {
    **PROFILE.model_dump(exclude={"payment_method"}),
    "payment_method": "Cash",
    "delivery_slot": "ASAP",
}

Run = Callable[..., RunResult]


@pytest.fixture
def run(agent_browser: Browser, tmp_path: Path) -> Run:
    """``run(model, **config)``: one run on a fresh embedded shop, in the shared browser."""

    def go(model: Model, prompt: Callable[[str], str] = input, **overrides: Any) -> RunResult:
        settings: dict[str, Any] = {
            "goal": "Order 2 Tiramisu from Italian Bistro",
            "approve": "auto",
            "runs_dir": tmp_path / "runs",
            "profile": PROFILE,
            **overrides,
        }
        return run_sync(start_run(RunConfig(**settings), model=model, browser=agent_browser, prompt=prompt))

    return go
