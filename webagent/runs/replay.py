"""Replay: re-execute a recorded run's tool calls without any model, and report where it diverges.

Useful after a change to the tools or the shop: the same calls on the same shop should have the same
results. What is compared is what matters (webagent/runs/compare.py): each call's typed result — done or
refused, the order and total, the view and cart it left — recorded beside its narration, and the outcome
(an order placed or not, its total and lines, from the ``order_result`` event); order numbers are not
compared. Transcripts recorded before the typed facts are compared by the tool's own lines, as then.
Popups that came in one run and not the other are clutter: notes, not divergences. ``clutter``/``seed``
replay with other clutter than the recording's.

Replay never acts consequentially on its own. Before each call it asks whether the call would commit
something — by the recording (a consequential tool such as `place_order`, a call the run's approval gate
was asked about, a press whose name says pay or order) and by the recogniser on the live page at that
moment (webagent/tools/consequence.py) — and it stops there, reporting the step and what it would have
done, on any shop: an embedded fresh one as well as one you gave. Only an explicit ``approve`` policy
(``webagent replay RUN --approve auto``) lets the call go on, through the approval gate and the budget
exactly as in a run (webagent/agent/controls.py); the gate's own record goes to ``replay/`` in the run
folder.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from webagent.agent.approval import ApprovalGate, HumanChannel, Prompt
from webagent.agent.checkpoint import Checkpoint, RunFolder
from webagent.agent.controls import Controls, Paused
from webagent.browser.session import Browser
from webagent.config import ApprovalPolicy, RunConfig
from webagent.errors import UsageError
from webagent.llm.protocol import ToolCall
from webagent.narration.narrate import quote
from webagent.runs.compare import Order, compare_step, facts
from webagent.runs.site_choice import named_by_you, replayed_on, site_of, start_url
from webagent.tools.consequence import says_consequential
from webagent.tools.toolbox import LOOP_REFUSALS, Toolbox, ToolResult

__all__ = ["Divergence", "Note", "Order", "ReplayReport", "Stop", "load_recording", "replay"]

# Calls the loop settles rather than the page; their recorded results are not page narrations.
NOT_REPLAYED = frozenset({"ask_human", "finish"})
# A call the loop refused (denied, over budget, already ordered) never reached the page: the tool event
# says so (`LOOP_REFUSALS`); a transcript recorded before it did is read by its sentence, as then.
LOOP_DECISION = re.compile(r"^(Not placed:|Refused: order #)")
GATED = frozenset({"approval", "order_intent"})
"""Events the run's approval gate wrote before the call they were about."""


@dataclass(frozen=True)
class Divergence:
    """A call whose result differs from the recorded one, or (``what == "outcome"``) the run's outcome."""

    step: int
    tool: str
    arguments: str
    expected: str
    """The recorded result (the tool's own lines), or the recorded outcome."""
    got: str
    what: str = "result"


@dataclass(frozen=True)
class Note:
    """Something incidental that differed at one step (a popup that came in one run only): not a divergence."""

    step: int
    tool: str
    text: str

    def sentence(self) -> str:
        return f"step {self.step} {self.tool}: {self.text}"


@dataclass(frozen=True)
class Stop:
    """Where a replay stopped before a consequential call, and why."""

    step: int
    tool: str
    arguments: str
    would: str
    """What it would have done: 'place_order', 'pressing "Place order"'."""
    why: str
    """Why that is consequential: 'its name says "Place order"', 'the recorded run asked for approval'."""
    decision: str | None = None
    """With ``approve``: the approval gate's answer that stopped it ("deny: the total … exceeds …")."""

    def sentence(self) -> str:
        head = f"Stopped before step {self.step} ({self.tool} {self.arguments}), which would mean {self.would}: {self.why}"
        if self.decision is not None:
            return f"{head}; the approval gate answered {self.decision}."
        return (
            f"{head}. A replay does nothing consequential on its own: replay with --approve POLICY "
            "(ask, auto, deny or pause) to let the approval gate decide, as in a run."
        )


@dataclass
class ReplayReport:
    transcript: str
    replayed: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    recorded_order: Order = field(default_factory=lambda: Order(placed=False))
    """The recorded run's outcome."""
    replayed_order: Order | None = None
    """The replay's outcome; None when it stopped before the end (the outcome was not compared)."""
    stopped: Stop | None = None
    """The consequential call the replay stopped before, if any (nothing after it was replayed)."""
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
            "notes": [{**n.__dict__, "sentence": n.sentence()} for n in self.notes],
            "outcome": {
                "recorded": {**self.recorded_order.__dict__, "sentence": self.recorded_order.sentence()},
                "replayed": {**self.replayed_order.__dict__, "sentence": self.replayed_order.sentence()}
                if self.replayed_order
                else None,
            },
            "stopped": {**self.stopped.__dict__, "sentence": self.stopped.sentence()}
            if self.stopped
            else None,
            "trace": self.trace,
        }


def load_recording(target: Path) -> tuple[RunConfig, list[dict[str, Any]], Path]:
    """The run's config and its recorded tool events, from a run folder or a transcript file; each
    event's ``gated`` says whether the run's approval gate was asked about that call, ``placed`` what the
    shop confirmed for it (the gate's ``order_result``: order id and total) when it placed an order."""
    path = target / "transcript.jsonl" if target.is_dir() else target
    if not path.is_file():
        raise UsageError(f"No transcript at {path}; give a run folder or its transcript.jsonl")
    folder = RunFolder(path.parent.parent, path.parent.name)
    events = folder.transcript()
    started = next((event for event in events if event.get("event") == "started"), None)
    if started is None:
        raise UsageError(f"{path} has no 'started' event; is it a webagent transcript?")
    config = RunConfig.model_validate(started["config"])
    calls, gated, placed = [], False, None
    for event in events:
        if event.get("event") in GATED:
            gated = True
        elif event.get("event") == "order_result":
            placed = event if event.get("ok") and event.get("order_id") is not None else None
        elif event.get("event") == "tool":
            calls.append({**event, "gated": gated, "placed": placed})  # the gate was asked about this call
            gated, placed = False, None
    return config, calls, path


async def replay(
    target: Path,
    *,
    shop_url: str | None = None,
    db_path: Path | None = None,
    headed: bool = False,
    slow_mo: float = 0,
    trace: bool = False,
    approve: ApprovalPolicy | None = None,
    budget_cents: int | None = None,
    prompt: Prompt = input,
    browser: Browser | None = None,
    clutter: int | None = None,
    seed: int | None = None,
    site: str | None = None,
) -> ReplayReport:
    """Run the recorded calls again on a fresh shop (or ``shop_url``) and compare the narrations.

    The page is set up as the recorded run's was (clutter, seed, init scripts, popup shortcuts);
    ``trace`` records the replay as ``replay-trace.zip`` beside the transcript. The replay stops before
    any consequential call unless ``approve`` names a policy: then the call passes the approval gate
    (with ``budget_cents``, else the recorded run's budget; ``prompt`` asks at the terminal) as in a run.
    ``browser`` is shared rather than launched. ``clutter`` and ``seed`` replace the recorded run's (say,
    0 to see whether the run still holds without its popups). ``site``: the recorded run's adapter, named
    by the person when it is one of their own (`named_by_you`).
    """
    config, calls, path = load_recording(target)
    named_by_you(config, site)
    if clutter is not None or seed is not None:
        changed = {"clutter": clutter, "seed": seed}
        config = config.model_copy(update={key: value for key, value in changed.items() if value is not None})
    report = ReplayReport(str(path), trace=str(path.parent / "replay-trace.zip") if trace else None)
    gate = None
    if approve is not None:
        budget = budget_cents if budget_cents is not None else config.budget_cents
        gate = _Gate(path.parent, config, ApprovalGate(approve, budget, prompt))
    from demo_site import running_shop  # replay starts its own shop unless given one

    async with contextlib.AsyncExitStack() as stack:
        if browser is None:
            browser = await stack.enter_async_context(await Browser.launch(headed=headed, slow_mo=slow_mo))
        if url := replayed_on(config, shop_url):
            await _replay_on(browser, url, config, calls, report, gate)
        else:
            with running_shop(db_path=db_path, clutter=config.clutter, seed=config.seed) as shop:
                await _replay_on(browser, shop.url, config, calls, report, gate)
    return report


@dataclass
class _Gate:
    """The approval gate as a run has it, for a replay given ``--approve``: its record in ``replay/``."""

    run_dir: Path
    config: RunConfig
    gate: ApprovalGate

    def controls(self, toolbox: Toolbox) -> Controls:
        folder = RunFolder.create(self.run_dir, "replay")
        recorded = RunFolder(self.run_dir.parent, self.run_dir.name)
        # The recorded conversation anchors automatic approval to the person's words, as in the run.
        messages = recorded.load().messages if recorded.state_path.is_file() else []
        state = Checkpoint(run_id=f"replay of {self.run_dir.name}", config=self.config, messages=messages)
        return Controls(toolbox, self.gate, HumanChannel(), state, folder, folder.record)


async def _replay_on(
    browser: Browser,
    shop_url: str,
    config: RunConfig,
    calls: list[dict[str, Any]],
    report: ReplayReport,
    gate: _Gate | None,
) -> None:
    site = site_of(config)
    session = await browser.new_session(
        shop_url,
        site,
        trace=report.trace is not None,
        trace_title=f"webagent replay of {report.transcript}",
        known_overlays=config.overlay_shortcuts,
        init_scripts=config.init_scripts,
    )
    try:
        await session.goto(start_url(config, session.shop_url))
        toolbox = Toolbox(session, site)
        toolbox.new_breadcrumbs()
        controls = gate.controls(toolbox) if gate is not None else None
        report.recorded_order = _recorded_order(calls)
        replayed = Order(placed=False)
        for step, event in enumerate(calls, start=1):
            name, arguments = str(event.get("name")), str(event.get("arguments") or "{}")
            expected = str(event.get("narration", ""))
            if name in NOT_REPLAYED or _loop_decided(event):
                continue
            stop = await _consequential(toolbox, step, event, name, arguments)
            if stop is not None:
                result = await _through_gate(controls, stop, name, arguments)
                if isinstance(result, Stop):
                    report.stopped = result
                    return
            else:
                result = await toolbox.call(name, arguments)
            report.replayed += 1
            now = facts({**result.recorded(), "ok": result.ok})  # as the run's tool event records them
            compared = compare_step(expected, result.text, facts(event), now)
            if compared.diverged:
                report.divergences.append(Divergence(step, name, arguments, compared.expected, compared.got))
            report.notes.extend(Note(step, name, text) for text in compared.notes)
            if result.order_id is not None:
                shown = await toolbox.state()  # the confirmation's lines, as a run records them
                replayed = Order(True, result.order_id, result.total_cents, tuple(shown.order_lines))
        report.replayed_order = replayed
        if not replayed.same_as(report.recorded_order):
            step, event = _placing(calls)
            report.divergences.append(
                Divergence(
                    step,
                    str(event.get("name")),
                    str(event.get("arguments") or "{}"),
                    report.recorded_order.sentence(),
                    replayed.sentence(),
                    what="outcome",
                )
            )
    finally:
        await session.close(Path(report.trace) if report.trace else None)


def _loop_decided(event: dict[str, Any]) -> bool:
    """Whether the recorded call was refused by the loop before it reached the page (`LOOP_REFUSALS`)."""
    if "refused" in event:
        return bool(event["refused"]) and event.get("refusal") in LOOP_REFUSALS
    return bool(LOOP_DECISION.match(str(event.get("narration", ""))))  # recorded before the typed fields


def _recorded_order(calls: Sequence[dict[str, Any]]) -> Order:
    placing = [event for event in calls if event.get("placed")]
    if not placing:
        return Order(placed=False)
    event, placed = placing[-1], placing[-1]["placed"]
    if "lines" in placed:  # the order_result event's own lines, as the confirmation showed them
        return Order(True, placed["order_id"], placed.get("total_cents"), tuple(placed["lines"]))
    return Order.from_result(str(event.get("narration", "")), placed["order_id"], placed.get("total_cents"))


def _placing(calls: Sequence[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    """The step the outcome belongs to: the recorded call that placed the order, else the last call."""
    steps = list(enumerate(calls, start=1))
    return next(((step, event) for step, event in reversed(steps) if event.get("placed")), steps[-1])


async def _consequential(
    toolbox: Toolbox, step: int, event: dict[str, Any], name: str, arguments: str
) -> Stop | None:
    """Where to stop, when the recorded call — by the recording or by the page now — is consequential."""
    live = await toolbox.judged(name, arguments) if await toolbox.is_consequential(name, arguments) else None
    pressed = toolbox.parse(name, arguments)
    said = getattr(pressed, "name", None) if name == "press" else None
    if live is not None:
        why, would = live.reason, live.action
    elif event.get("gated"):
        why, would = "the recorded run asked its approval gate about it", name
    elif isinstance(said, str) and says_consequential(said):
        why, would = f"its name says {quote(said, 60)}", f"pressing {quote(said, 60)}"
    else:
        return None
    return Stop(step, name, arguments, would, why)


async def _through_gate(
    controls: Controls | None, stop: Stop, name: str, arguments: str
) -> ToolResult | Stop:
    """The call's result once the approval gate let it through, or where the replay stops."""
    if controls is None:
        return stop
    call = ToolCall(id=f"replay-{stop.step}", name=name, arguments=arguments)
    try:
        result = await controls.place_order(call)
    except Paused:
        return replace(stop, decision="pause: waiting for a person (a replay cannot wait)")
    if result.refused:
        return replace(stop, decision=quote(result.text.splitlines()[0], 200))
    return result
