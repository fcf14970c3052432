"""Shared fixtures: a real shop server on a free port, read access to its database.

The browser for pytest-playwright comes from webagent's pytest plugin (browser discovery), so
`pytest --headed --slowmo 300` shows every end-to-end test in a visible Chromium.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from demo_site import Shop, running_shop
from webagent.browser.session import Browser
from webagent.sync import run_sync


@pytest.fixture(scope="session")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shop]:
    """One shop at clutter 0 for the whole session; each browser context is its own shop session."""
    with running_shop(db_path=tmp_path_factory.mktemp("shop") / "shop.db", clutter=0, seed=7) as running:
        yield running


@pytest.fixture
def fresh_shop(tmp_path: Path) -> Iterator[Shop]:
    """A shop with an empty database of its own, for tests that count orders."""
    with running_shop(db_path=tmp_path / "shop.db", clutter=0, seed=7) as running:
        yield running


@pytest.fixture(scope="session")
def agent_browser(pytestconfig: pytest.Config) -> Iterator[Browser]:
    """webagent's own (async) browser, shared by tests as contexts; honours --headed and --slowmo."""
    headed = bool(pytestconfig.getoption("--headed", default=False))
    slow_mo = float(pytestconfig.getoption("--slowmo", default=0) or 0)
    browser = run_sync(Browser.launch(headed=headed, slow_mo=slow_mo))
    yield browser
    run_sync(browser.close())


@pytest.fixture
def ctrl_c_reaches_children() -> Iterator[None]:
    """Commands this test starts take SIGINT as a terminal's Ctrl-C, however the suite was started.

    A suite run as a background job (`make test &`) starts with SIGINT ignored, and an ignored signal
    stays ignored through exec: a Python child would never raise KeyboardInterrupt. A handler set here
    is reset to the default in each child, where Python installs its own.
    """
    before = signal.getsignal(signal.SIGINT)
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


# The longest files first (measured: `pytest --durations`), so that under `--dist loadfile` no worker is
# left running one of them alone at the end while the other has finished. Order only: nothing is skipped.
LONGEST_FIRST = (
    "tests/llm/test_local_model.py",
    "tests/evals/test_suite_planner.py",
    "tests/fleet/test_batch.py",
    "tests/evals/test_suite_baselines.py",
    "tests/runs/test_durable.py",
    "tests/e2e/test_busy_shop.py",
    "tests/fleet/test_ray.py",
    "tests/cli/test_cli.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(str(config.rootpath))

    def rank(item: pytest.Item) -> int:
        path = Path(str(item.path)).relative_to(root).as_posix()
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: each file's tests keep their order
