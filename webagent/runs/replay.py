"""Replay: re-execute a recorded run's tool calls without any model, and report where it diverges.

Useful after a change to the tools or the shop: the same calls on the same shop should narrate the same
page. Times of day are masked before comparing; anything else that differs is a divergence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webagent.browser.session import Browser
from webagent.agent.checkpoint import RunFolder
from webagent.config import RunConfig
from webagent.errors import UsageError
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.tools.toolbox import Toolbox

__all__ = ["Divergence", "ReplayReport", "load_recording", "replay"]

TIME = re.compile(r"\b\d{2}:\d{2}:\d{2}\b")
# Calls the loop settles rather than the page; their recorded results are not page narrations.
NOT_REPLAYED = frozenset({"ask_human", "finish"})
# A place_order the loop refused (denied, over budget, already ordered) never reached the page.
LOOP_DECISION = re.compile(r"^(Not placed:|Refused: order #)")


@dataclass(frozen=True)
class Divergence:
    step: int
    tool: str
    arguments: str
    expected: str
    got: str


@dataclass
class ReplayReport:
    transcript: str
    replayed: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    trace: str | None = None
    """The replay's Playwright trace, when one was recorded."""

    @property
    def clean(self) -> bool:
        return not self.divergences

    def as_json(self) -> dict[str, Any]:
        return {
            "transcript": self.transcript,
            "replayed": self.replayed,
            "clean": self.clean,
            "divergences": [d.__dict__ for d in self.divergences],
            "skipped": self.skipped,
            "trace": self.trace,
        }


def masked(text: str) -> str:
    return TIME.sub("HH:MM:SS", text).strip()


def load_recording(target: Path) -> tuple[RunConfig, list[dict[str, Any]], Path]:
    """The run's config and its recorded tool events, from a run folder or a transcript file."""
    path = target / "transcript.jsonl" if target.is_dir() else target
    if not path.is_file():
        raise UsageError(f"No transcript at {path}; give a run folder or its transcript.jsonl")
    folder = RunFolder(path.parent.parent, path.parent.name)
    events = folder.transcript()
    started = next((event for event in events if event.get("event") == "started"), None)
    if started is None:
        raise UsageError(f"{path} has no 'started' event; is it a webagent transcript?")
    config = RunConfig.model_validate(started["config"])
    return config, [event for event in events if event.get("event") == "tool"], path


async def replay(
    target: Path,
    *,
    shop_url: str | None = None,
    db_path: Path | None = None,
    headed: bool = False,
    slow_mo: float = 0,
    trace: bool = False,
) -> ReplayReport:
    """Run the recorded calls again on a fresh shop (or ``shop_url``) and compare the narrations.

    The page is set up as the recorded run's was (clutter, seed, init scripts, popup shortcuts);
    ``trace`` records the replay as ``replay-trace.zip`` beside the transcript.
    """
    config, calls, path = load_recording(target)
    report = ReplayReport(str(path), trace=str(path.parent / "replay-trace.zip") if trace else None)
    from demo_site import running_shop  # replay starts its own shop unless given one

    async with await Browser.launch(headed=headed, slow_mo=slow_mo) as browser:
        if shop_url:
            await _replay_on(browser, shop_url, config, calls, report, fresh_shop=False)
        else:
            with running_shop(db_path=db_path, clutter=config.clutter, seed=config.seed) as shop:
                await _replay_on(browser, shop.url, config, calls, report, fresh_shop=True)
    return report


async def _replay_on(
    browser: Browser,
    shop_url: str,
    config: RunConfig,
    calls: list[dict[str, Any]],
    report: ReplayReport,
    fresh_shop: bool,
) -> None:
    session = await browser.new_session(
        shop_url,
        DEMO_SHOP,
        trace=report.trace is not None,
        trace_title=f"webagent replay of {report.transcript}",
        known_overlays=config.overlay_shortcuts,
        init_scripts=config.init_scripts,
    )
    try:
        await session.goto(DEMO_SHOP.start_url(session.shop_url, config.clutter, config.seed))
        toolbox = Toolbox(session, DEMO_SHOP)
        toolbox.new_breadcrumbs()
        for step, event in enumerate(calls, start=1):
            name, arguments = str(event.get("name")), str(event.get("arguments") or "{}")
            expected = str(event.get("narration", ""))
            if name in NOT_REPLAYED or LOOP_DECISION.match(expected):
                continue
            if name == "place_order" and not fresh_shop:
                report.skipped.append(
                    f"step {step} place_order: not replayed on a shop you gave (it would order)"
                )
                continue
            result = await toolbox.call(name, arguments)
            report.replayed += 1
            if masked(expected) != masked(result.text):
                report.divergences.append(Divergence(step, name, arguments, expected, result.text))
    finally:
        await session.close(Path(report.trace) if report.trace else None)
