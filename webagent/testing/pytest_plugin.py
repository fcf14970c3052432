"""pytest plugin: fixtures for end-to-end tests with webagent, of the demo shop or of a site of your own.

Registered as a ``pytest11`` entry point, so a project that installed webagent needs no conftest:

- ``demo_shop`` — a running demo shop with a fresh database of its own (`DemoShop`);
- ``agent`` — an agent bound to it (`ShopAgent`): ``agent.run(goal, **overrides)`` runs to the end
  and returns the `RunResult` ``webagent run --json`` prints;
- ``site_agent`` — an agent bound to a site of your own (``--webagent-site``, default any-page, at
  ``--webagent-url`` or a run's ``shop_url=``), driven by your model or a `ScriptedModel`;
- ``webagent_browser`` — the one Chromium, launched on first use, that every ``agent`` run shares;
- the ``live_model`` marker, skipped without ``OPENAI_API_KEY``;
- pytest-playwright's browser launch pointed at the Chromium `find_chromium` discovers.

The agent's browser follows pytest-playwright's ``--headed``, ``--slowmo`` and ``--tracing``. When a
test fails, each of its agent runs is copied to ``test-results/<test>/<run-id>/`` (pytest-playwright's
``--output``) and the failure output gets a "webagent" section: outcome, question, message, and the
paths of the run's report.html and trace. See docs/pytest-plugin.md. The plugin is loaded into every pytest session of the environment, so webagent's
heavier modules (Playwright, pydantic, the shop) are imported only when a fixture is used.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from webagent.browser.chromium import find_chromium, ignored_default_args, launch_args

if TYPE_CHECKING:
    from webagent.agent.result import RunResult
    from webagent.browser.session import Browser
    from webagent.config import RunConfig

__all__ = ["DEFAULT_PROFILE", "DemoShop", "ShopAgent"]

DEFAULT_PROFILE = {
    "name": "Test Customer",
    "address": "1 Test Street",
    "phone": "555-0100",
    "payment_method": "Card on delivery",
}
"""Delivery details the ``agent`` fills in when a goal does not state them, so any goal can order."""

_FAILED = pytest.StashKey[bool]()
_AGENT = pytest.StashKey["ShopAgent"]()


# -- options, marker, hooks -------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("webagent", "webagent: the demo_shop and agent fixtures")
    group.addoption(
        "--webagent-model",
        default=None,
        metavar="NAME",
        help="Model for the agent fixture: 'planner' (the default, offline), 'local' or 'local:1.5b' (a "
        "small open model run in this process by llama.cpp; pip install 'webagent[local]'), or a model "
        "name for the OpenAI-compatible endpoint. Tests marked live_model default to the endpoint's model.",
    )
    group.addoption(
        "--webagent-gguf",
        default=None,
        metavar="FILE",
        help="A GGUF model file the agent fixture runs in this process with llama.cpp (implies a local "
        "model; pip install 'webagent[local]'). One server per file, shared by every test.",
    )
    group.addoption(
        "--webagent-base-url",
        default=None,
        metavar="URL",
        help="OpenAI-compatible endpoint for the agent fixture (vLLM, Ollama, …); implies a real model.",
    )
    group.addoption(
        "--webagent-clutter",
        type=int,
        default=0,
        choices=range(5),
        help="Clutter of the demo_shop fixture, 0 (none) to 4 (popups nobody catalogued). Default 0.",
    )
    group.addoption(
        "--webagent-seed",
        type=int,
        default=7,
        metavar="N",
        help="Seed of the demo_shop's clutter. Default 7.",
    )
    group.addoption(
        "--webagent-browser-ws",
        default=None,
        metavar="URL",
        help="Run the agent in the browser a Playwright server gives (playwright run-server), e.g. "
        "ws://host:3000/, instead of launching one.",
    )
    group.addoption(
        "--webagent-cdp",
        default=None,
        metavar="URL",
        help="Run the agent in a Chrome already running with --remote-debugging-port, e.g. http://host:9222.",
    )
    group.addoption(
        "--webagent-site",
        default="any-page",
        metavar="NAME",
        help="The site adapter the site_agent fixture drives: any-page (default) or package.module:NAME.",
    )
    group.addoption(
        "--webagent-url",
        default=None,
        metavar="URL",
        help="The page the site_agent fixture opens (a run may give its own with shop_url=…).",
    )
    group.addoption(
        "--webagent-runs-dir",
        default=None,
        metavar="DIR",
        help="Where the agent fixture writes run folders; default <tmp_path>/webagent-runs per test.",
    )


def pytest_configure(config: pytest.Config) -> None:
    # A project may register the marker itself (webagent's own pyproject does); listed once either way.
    if not any(str(line).startswith("live_model") for line in config.getini("markers")):
        config.addinivalue_line(
            "markers", "live_model: talks to a real model endpoint; skipped without OPENAI_API_KEY"
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("OPENAI_API_KEY"):
        return
    skip = pytest.mark.skip(reason="live_model: OPENAI_API_KEY is not set")
    for item in items:
        if item.get_closest_marker("live_model") is not None:
            item.add_marker(skip)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    # Remembered for ``--tracing retain-on-failure``: the agent fixture's teardown drops the traces
    # of a test that passed.
    report = yield
    if report.failed:
        item.stash[_FAILED] = True
        bound = item.stash.get(_AGENT, None)
        if report.when == "call" and bound is not None and bound.run_dirs:
            kept = _keep_runs(bound.run_dirs, _output_folder(item))
            report.sections.append(("webagent", _describe_runs(kept)))
    return report


def _output_folder(item: pytest.Item) -> Path:
    """``<--output>/<slug of the test id>``: the folder pytest-playwright keeps this test's artifacts in."""
    from slugify import slugify  # pytest-playwright's own (a dependency), so both land in one folder

    output = item.config.getoption("--output", default=None) or "test-results"
    return (item.config.invocation_params.dir / output / slugify(item.nodeid)[:250]).absolute()


def _keep_runs(run_dirs: list[Path], output: Path) -> list[Path]:
    """Copy each run folder into ``output`` and write its report there again (so its paths are the copy's)."""
    from webagent.report.write import write_report

    kept = []
    for run_dir in run_dirs:
        if not run_dir.is_dir():
            continue
        copy = output / run_dir.name
        shutil.copytree(run_dir, copy, dirs_exist_ok=True)
        write_report(copy)
        kept.append(copy)
    return kept


def _describe_runs(folders: list[Path]) -> str:
    """What the failure output says about each run: how it ended, why, and where to look."""
    from webagent.report.record import REPORT_FILE, read_run

    def field(name: str, text: str) -> str:
        first, *rest = text.splitlines() or [""]
        return "\n".join([f"  {name + ':':<10}{first}", *(" " * 12 + line for line in rest)])

    lines = []
    for number, folder in enumerate(folders, start=1):
        record = read_run(folder)
        waiting = record.result.waiting_for if record.result is not None else None
        ended = (
            f"{record.outcome}, waiting for {'an answer' if waiting == 'answer' else 'approval'}"
            if waiting
            else record.outcome
        )
        lines.append(f"agent run {number} of {len(folders)}: {ended} ({record.run_id})")
        if record.question:
            lines.append(field("question", record.question))
        else:
            lines.append(field("message", record.message))
        lines.append(field("report", str(folder / REPORT_FILE)))
        trace = folder / "trace.zip"
        if trace.is_file():
            lines.append(field("trace", f"playwright show-trace --port 9323 {trace}"))
        else:
            lines.append(field("trace", "none (pytest --tracing retain-on-failure records one)"))
    return "\n".join(lines)


def pytest_assertrepr_compare(
    config: pytest.Config, op: str, left: object, right: object
) -> list[str] | None:
    """``assert result.outcome == "ordered"`` failing: say how the test's last agent run ended and why.

    pytest shows a string diff there and drops the "where … = RunResult(…)" line, so the outcome alone
    ('paused' vs 'ordered') would be all a person reads.
    """
    bound = _running.stash.get(_AGENT, None) if _running is not None else None
    if op != "==" or bound is None or not bound.results:
        return None
    last = bound.results[-1]
    pair = {left, right} if isinstance(left, str) and isinstance(right, str) else set()
    if last.outcome not in pair or not pair <= {"ordered", "done", "paused", "failed"}:
        return None
    lines = [f"{left!r} == {right!r}", f"the agent's last run ended {last.outcome}:"]
    said = ("question", last.question) if last.question else ("message", last.message)
    first, *rest = said[1].splitlines() or [""]
    lines += [f"  {said[0] + ':':<10}{first}", *(" " * 12 + line for line in rest)]
    return [*lines, f"  run_dir:  {last.run_dir}"]


_running: pytest.Item | None = None
"""The test being run, so an assertion's explanation can find its agent's runs."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    global _running
    _running = item
    try:
        return (yield)
    finally:
        _running = None


# -- fixtures ---------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments, pointed at the Chromium `find_chromium` discovers."""
    headless = browser_type_launch_args.get("headless", True)
    return {
        **browser_type_launch_args,
        "executable_path": find_chromium(headless=headless),
        "args": [*browser_type_launch_args.get("args", []), *launch_args(headless=headless)],
        "ignore_default_args": [
            *browser_type_launch_args.get("ignore_default_args", []),
            *ignored_default_args(),
        ],
    }


@dataclass(frozen=True)
class DemoShop:
    """A running demo shop and read access to its database."""

    url: str
    db_path: Path
    clutter: int
    seed: int

    def orders(self) -> list[dict[str, Any]]:
        """Every order in the shop's database, newest first, each with its ``items``."""
        from demo_site.db import ShopDB

        return ShopDB(self.db_path).orders()

    def order(self, order_id: int) -> dict[str, Any] | None:
        """One order with its ``items``, or None."""
        from demo_site.db import ShopDB

        return ShopDB(self.db_path).order(order_id)


class ShopAgent:
    """webagent bound to a `DemoShop` (or, as ``site_agent``, to a site of your own): each `run` is one run,
    as a context of the shared browser."""

    def __init__(self, config: RunConfig, browser: Browser, shop: DemoShop | None = None) -> None:
        self.config = config
        """What every run starts from; `run`'s overrides replace fields of it."""
        self.browser = browser
        self.shop = shop
        self.results: list[RunResult] = []
        """Every run's result, in order."""
        self.run_dirs: list[Path] = []
        """Every run's folder, in order — also of a run that raised instead of returning a result."""

    def run(self, goal: str | None = None, **overrides: Any) -> RunResult:
        """Run ``goal`` to the end (ordered, done, failed or paused) and return its `RunResult`.

        ``overrides`` are `RunConfig` fields (``clutter=3``, ``budget_cents=2000``, ``answers=[...]``,
        ``approve="pause"``, …). ``profile`` (a `Profile` or a dict) fills in over the defaults, and
        ``model`` may also be a `Model` object such as ``webagent.testing.ScriptedModel``.
        """
        from webagent.config import Profile, RunConfig
        from webagent.report.write import write_report
        from webagent.runs.runner import start_run
        from webagent.sync import run_sync

        chosen = "model" in overrides
        model = overrides.pop("model", self.config.model)
        model_object = None if model is None or isinstance(model, str) else model
        if chosen and "gguf" not in overrides:
            overrides["gguf"] = None  # a model named for this run replaces the session's --webagent-gguf
        if "profile" in overrides:
            overrides["profile"] = self.config.profile.merged_under(
                Profile.model_validate(overrides["profile"])
            )
        config = RunConfig.model_validate(
            {
                **self.config.model_dump(),
                "goal": goal,
                "model": None if model_object is not None else model,
                **overrides,
            }
        )
        before = set(config.runs_dir.iterdir()) if config.runs_dir.is_dir() else set()
        try:
            result = run_sync(
                start_run(config, model=model_object, browser=self.browser, report=write_report)
            )
        finally:
            if config.runs_dir.is_dir():
                self.run_dirs += sorted(set(config.runs_dir.iterdir()) - before)
        self.results.append(result)
        return result


def _launch_options(request: pytest.FixtureRequest) -> tuple[bool, float]:
    """(headed, slow_mo) as pytest-playwright would launch its browser."""
    if _remote_browser(request.config) != (None, None):  # nothing is launched here, so no Chromium is needed
        return False, float(request.config.getoption("--slowmo", 0) or 0)
    if request.config.pluginmanager.has_plugin("playwright"):
        launch = request.getfixturevalue("browser_type_launch_args")
        return not launch.get("headless", True), float(launch.get("slow_mo") or 0)
    return (
        bool(request.config.getoption("--headed", False)),
        float(request.config.getoption("--slowmo", 0) or 0),
    )


def _remote_browser(config: pytest.Config) -> tuple[str | None, str | None]:
    """(``--webagent-browser-ws``, ``--webagent-cdp``)."""
    return config.getoption("--webagent-browser-ws"), config.getoption("--webagent-cdp")


@pytest.fixture(scope="session")
def webagent_browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """The Chromium every ``agent`` run is a context of; launched when first needed, closed at exit.

    With ``--webagent-browser-ws`` or ``--webagent-cdp`` it is a browser elsewhere, connected to instead.
    """
    from webagent.browser.session import Browser
    from webagent.sync import run_sync

    headed, slow_mo = _launch_options(request)
    ws_url, cdp_url = _remote_browser(request.config)
    browser = run_sync(Browser.open(ws_url=ws_url, cdp_url=cdp_url, headed=headed, slow_mo=slow_mo))
    yield browser
    run_sync(browser.close())


@pytest.fixture
def demo_shop(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoShop]:
    """A demo shop with a fresh database for this test, at ``--webagent-clutter``/``--webagent-seed``."""
    from demo_site import running_shop

    db_path = tmp_path_factory.mktemp("demo-shop") / "shop.db"
    clutter = int(pytestconfig.getoption("--webagent-clutter"))
    seed = int(pytestconfig.getoption("--webagent-seed"))
    with running_shop(db_path=db_path, clutter=clutter, seed=seed) as shop:
        yield DemoShop(url=shop.url, db_path=Path(shop.db_path), clutter=clutter, seed=seed)


def _base_config(request: pytest.FixtureRequest, tmp_path: Path, **fields: Any) -> RunConfig:
    """What every run of an agent fixture starts from: the model, browser and run-folder options, approval
    ``auto``, the plugin's profile, and ``fields``."""
    from webagent.config import Profile, RunConfig

    options = request.config
    base_url = options.getoption("--webagent-base-url")
    gguf = options.getoption("--webagent-gguf")
    runs_dir = options.getoption("--webagent-runs-dir")
    headed, slow_mo = _launch_options(request)
    return RunConfig(
        profile=Profile(**DEFAULT_PROFILE),
        headed=headed,
        slow_mo=slow_mo,
        trace=str(options.getoption("--tracing", "off")) != "off",
        gguf=Path(gguf) if gguf else None,
        base_url=base_url,
        approve="auto",
        runs_dir=options.invocation_params.dir / runs_dir if runs_dir else tmp_path / "webagent-runs",
        **fields,
    )


def _bound(request: pytest.FixtureRequest, bound: ShopAgent) -> Iterator[ShopAgent]:
    request.node.stash[_AGENT] = bound
    yield bound
    if str(
        request.config.getoption("--tracing", "off")
    ) == "retain-on-failure" and not request.node.stash.get(_FAILED, False):
        for result in bound.results:
            (Path(result.run_dir) / "trace.zip").unlink(missing_ok=True)


@pytest.fixture
def agent(
    request: pytest.FixtureRequest, demo_shop: DemoShop, webagent_browser: Browser, tmp_path: Path
) -> Iterator[ShopAgent]:
    """An agent bound to ``demo_shop``: planner unless ``--webagent-model``, approval ``auto``."""
    options = request.config
    live = request.node.get_closest_marker("live_model") is not None
    # None lets webagent pick the endpoint's model from the environment (or run the --webagent-gguf file).
    quiet = live or options.getoption("--webagent-base-url") or options.getoption("--webagent-gguf")
    model = options.getoption("--webagent-model") or (None if quiet else "planner")
    config = _base_config(
        request, tmp_path, shop_url=demo_shop.url, clutter=demo_shop.clutter, seed=demo_shop.seed, model=model
    )
    yield from _bound(request, ShopAgent(config, webagent_browser, demo_shop))


@pytest.fixture
def site_agent(
    request: pytest.FixtureRequest, webagent_browser: Browser, tmp_path: Path
) -> Iterator[ShopAgent]:
    """An agent bound to a site of your own: ``--webagent-site`` (any-page, or ``package.module:NAME``) at
    ``--webagent-url`` (or each run's ``shop_url=…``); the model is ``--webagent-model``, the endpoint's,
    or the one a run passes (``model=ScriptedModel([...])``) — the offline planner drives only the demo
    shop. Approval ``auto``: anything that pays, orders or submits still passes the gate."""
    options = request.config
    config = _base_config(
        request,
        tmp_path,
        site=str(options.getoption("--webagent-site")),
        shop_url=options.getoption("--webagent-url"),
        model=options.getoption("--webagent-model"),
    )
    yield from _bound(request, ShopAgent(config, webagent_browser))
