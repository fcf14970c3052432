"""The demo shop's adapter as the runs use it: where a run starts, whatever URL it is given."""

from __future__ import annotations

from pathlib import Path

import pytest

from demo_site import Shop
from webagent.agent.checkpoint import RunFolder
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.runs.runner import start_run
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply


@pytest.mark.parametrize(
    ("base", "started"),
    [
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000/?clutter=2&seed=7"),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/?clutter=2&seed=7"),
        ("http://shop.test/basket", "http://shop.test/basket"),
        ("http://shop.test/orders/3", "http://shop.test/orders/3"),
    ],
)
def test_the_clutter_query_applies_only_to_the_shops_root(base: str, started: str) -> None:
    assert DEMO_SHOP.start_url(base, {"clutter": 2, "seed": 7}) == started


def test_a_shop_url_with_a_path_is_opened_as_given(
    shop: Shop, agent_browser: Browser, tmp_path: Path
) -> None:
    # The runner used to append "/?clutter=0&seed=7" to any --shop-url: /orders became /orders/, a page
    # the shop does not know.
    model = ScriptedModel([reply(call("finish", outcome="done", summary="Looked at the order history."))])
    config = RunConfig(
        goal="show my orders", shop_url=f"{shop.url}/orders", runs_dir=tmp_path, profile=Profile()
    )
    result = run_sync(start_run(config, model=model, browser=agent_browser))
    assert RunFolder(tmp_path, result.run_id).load().url == f"{shop.url}/orders"
    assert "order history" in str(model.calls[0][0][-1]["content"])
