"""Run folders read back for people: the typed `RunRecord` a report shows, and the list of runs.

Everything here is read back from run folders — ``transcript.jsonl`` (each event as it happened),
``state.json`` (the checkpoint) and the JPEGs the toolbox saved — so a report can be written again at
any time (``webagent report RUN``), also for a run that was interrupted half-way. The HTML is built in
webagent/report/html.py and written by webagent/report/write.py.

A ``screenshot`` event follows the ``tool`` event whose page it shows (written by the runner), so the
picture of each step is found by its call, not guessed from file names.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from webagent.agent.checkpoint import Checkpoint
from webagent.agent.result import RunResult

__all__ = [
    "REPORT_FILE",
    "Note",
    "RunRecord",
    "RunSummary",
    "Step",
    "Turn",
    "list_runs",
    "read_run",
    "read_transcript",
]

REPORT_FILE = "report.html"
"""The name of a run's report in its folder."""


@dataclass
class Step:
    """One tool call: what was asked, what the model read back, and the page after it."""

    number: int
    id: str
    name: str
    arguments: str
    narration: str
    ok: bool
    ms: int | None = None
    detail: str | None = None
    """The browser driver's own words when the action failed (for people, not the model)."""
    screenshot: str | None = None
    """The JPEG's file name in the run folder."""
    screenshot_ms: int | None = None
    """How long taking it took."""


@dataclass
class Note:
    """Something decided around the tool calls: an approval, a pause, a resume, an endpoint downgrade."""

    kind: str
    text: str
    audio: str | None = None
    """A recording in the run folder this note is about (a spoken goal, a spoken reply)."""


WITHOUT_MODEL = "(Taken without asking the model: the only step the page allowed, every argument fixed.)"
"""What a turn the loop took itself (`webagent.llm.protocol.fixed_step`) says in the report."""


@dataclass
class Turn:
    """One model turn (or, with ``number`` 0, what happened before the first turn of a resume)."""

    number: int
    content: str | None = None
    calls: int = 0
    usage: dict[str, Any] = field(default_factory=dict)
    seconds: float | None = None
    """How long the model took to answer: from the previous event to this reply."""
    items: list[Step | Note] = field(default_factory=list)


@dataclass
class RunRecord:
    """A run folder read back for people."""

    run_id: str
    path: Path
    goal: str
    config: dict[str, Any]
    outcome: str
    """ordered | done | failed | paused, or "unfinished" (still running, or interrupted)."""
    message: str
    result: RunResult | None
    question: str | None = None
    started_at: float | None = None
    turns: list[Turn] = field(default_factory=list)
    ending: list[Note] = field(default_factory=list)

    @property
    def steps(self) -> list[Step]:
        return [item for turn in self.turns for item in turn.items if isinstance(item, Step)]


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """The events of a transcript; a line cut short by a crash is skipped, not fatal."""
    if not path.is_file():
        return []
    events = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(event, dict):
            events.append(event)
    return events


def _checkpoint(folder: Path) -> Checkpoint | None:
    try:
        return Checkpoint.model_validate_json((folder / "state.json").read_text(encoding="utf-8"))
    except (OSError, ValidationError, ValueError):
        return None


def _goal(config: Mapping[str, Any]) -> str:
    if config.get("goal"):
        return str(config["goal"])
    if config.get("order"):
        return "Place exactly this order: " + json.dumps(config["order"], ensure_ascii=False)
    return "(no goal recorded)"


def _reading(event: dict[str, Any]) -> str:
    """The two readings of the person's words and which stands (webagent/planner/reading.py)."""
    stands = {
        "agreed": "the model's reading stands: it accounts for the words the rules could not place",
        "differ": f"they differ ({event.get('why')}): the person is asked",
        "unread": "the model gave no reading: the words the rules could not place are asked about",
        "rules": "the rules' reading stands",
    }.get(str(event.get("verdict")), str(event.get("verdict")))
    return (
        f"Reading of {event.get('restaurant')}'s order — rules: {event.get('rules')}; model: {event.get('model')};"
        f" {stands}."
    )


def _arguments(raw: Any) -> str:
    """Arguments as the model sent them, pretty when they are JSON."""
    try:
        return json.dumps(json.loads(raw) if isinstance(raw, str) else raw, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(raw)


def _resumed(event: Mapping[str, Any]) -> str:
    if event.get("interrupted"):
        return "Resumed after an interruption: the shop is asked first whether the order exists."
    if event.get("approve") is True:
        return "Resumed: the order was approved."
    if event.get("approve") is False:
        return "Resumed: the order was denied."
    if event.get("answer") is not None:
        return f"Resumed with the answer {json.dumps(event['answer'], ensure_ascii=False)}."
    return "Resumed."


def _voice_note(folder: Path, event: Mapping[str, Any]) -> Note:
    """A spoken goal as it was heard, or what the agent said out loud, with the recording to play."""
    name = Path(str(event.get("audio") or "")).name  # a name in this folder, nothing else
    audio = name if name and (folder / name).is_file() else None
    if event.get("event") == "heard":
        text = f'Heard ({event.get("engine")}): "{event.get("text")}"'
        if not event.get("usable"):
            text += " — not an order it could read: the agent asks instead"
        return Note("voice", text, audio)
    if audio is None:
        return Note("voice", f"Could not speak the {event.get('kind')}: {event.get('error') or 'no audio'}")
    return Note("voice", f'Spoke the {event.get("kind")}: "{event.get("text")}"', audio)


def read_run(folder: Path) -> RunRecord:
    """Read a run folder (transcript, checkpoint, screenshots) into a `RunRecord`."""
    folder = Path(folder)
    events = read_transcript(folder / "transcript.jsonl")
    state = _checkpoint(folder)
    started = next((e for e in events if e.get("event") == "started"), {})
    config = started.get("config") or (state.config.model_dump(mode="json") if state else {})
    record = RunRecord(
        run_id=state.run_id if state else folder.name,
        path=folder,
        goal=_goal(config),
        config=config,
        outcome="unfinished",
        message="The run has not finished: it is still running, or it was interrupted.",
        result=state.result if state else None,
        started_at=started.get("t"),
    )
    turn = Turn(number=0)
    record.turns.append(turn)
    steps_by_id: dict[str, Step] = {}
    last_t, last_kind = started.get("t"), "started"
    for event in events:
        kind = event.get("event")
        if kind == "model":
            calls = event.get("calls") or []
            # The first reply of a run or a resume also waited for the shop and the browser to start.
            timed = (
                isinstance(last_t, float | int) and "t" in event and last_kind not in ("started", "resumed")
            )
            seconds = event["t"] - last_t if timed else None
            turn = Turn(
                number=len(record.turns),
                content=event.get("content") or (WITHOUT_MODEL if event.get("without_model") else None),
                calls=len(calls),
                usage=event.get("usage") or {},
                seconds=seconds,
            )
            record.turns.append(turn)
        elif kind == "tool":
            step = Step(
                number=len(record.steps) + 1,
                id=str(event.get("id", "")),
                name=str(event.get("name", "")),
                arguments=_arguments(event.get("arguments") or "{}"),
                narration=str(event.get("narration", "")),
                ok=bool(event.get("ok")),
                ms=event.get("ms"),
                detail=event.get("detail"),
            )
            turn.items.append(step)
            steps_by_id[step.id] = step
        elif kind == "screenshot":
            shown = steps_by_id.get(str(event.get("id", "")))
            if shown is not None and event.get("file"):
                shown.screenshot = Path(str(event["file"])).name  # a name in this folder, nothing else
                shown.screenshot_ms = event.get("ms")
        elif kind in ("heard", "spoke"):
            note = _voice_note(folder, event)
            turn.items.append(note)
            if kind == "heard" and event.get("usable") and not config.get("goal"):
                record.goal = f"{event.get('text')} (spoken)"
        elif kind == "approval":
            turn.items.append(Note("approval", f"Approval: {event.get('decision')} — {event.get('reason')}"))
        elif kind == "reading":
            turn.items.append(Note("reading", _reading(event)))
        elif kind == "downgrade":
            detail = ", ".join(f"{k}: {v}" for k, v in event.items() if k not in ("t", "event"))
            turn.items.append(Note("downgrade", f"The endpoint refused a request feature ({detail})."))
        elif kind == "paused":
            waiting = "approval" if event.get("kind") == "approval" else "an answer"
            record.outcome, record.question = "paused", str(event.get("question"))
            record.message = f"Paused, waiting for {waiting}: {event.get('question')}"
            if event.get("choices"):
                record.message += f" (choices: {' | '.join(map(str, event['choices']))})"
            turn.items.append(Note("paused", record.message))
        elif kind == "resumed":
            record.outcome = "unfinished"
            turn = Turn(number=0)
            record.turns.append(turn)
            turn.items.append(Note("resumed", _resumed(event)))
        elif kind == "reconciled":
            orders = event.get("orders") or []
            seen = ", ".join(f"#{number}" for number in orders) if orders else "no order"
            turn.items.append(Note("resumed", f"The shop's order history for this run shows {seen}."))
        elif kind == "continued":
            turn.items.append(Note("resumed", f"Went on from the checkpoint at {event.get('url')}."))
        elif kind == "resume_failed":
            turn.items.append(Note("paused", f"The resume could not start: {event.get('reason')}"))
        elif kind == "finished":
            record.outcome = str(event.get("outcome"))
            record.message = str(event.get("message", ""))
            record.question = None
        if "t" in event:
            last_t, last_kind = event["t"], str(kind)
    record.turns = [t for t in record.turns if t.number or t.items]
    if record.outcome == "paused" and state is not None:
        record.result = state.result_of("paused", record.message, str(folder))
    return record


# The list of runs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunSummary:
    """One line of ``webagent runs``."""

    run_id: str
    goal: str
    outcome: str
    order_id: int | None
    total_cents: int | None
    steps: int
    wall_s: float
    path: Path

    def as_json(self) -> dict[str, Any]:
        return {**self.__dict__, "path": str(self.path)}


def list_runs(runs_dir: Path, limit: int | None = 20) -> list[RunSummary]:
    """The most recent runs in ``runs_dir``, newest first (run ids sort by start time)."""
    folders = sorted((p.parent for p in Path(runs_dir).glob("*/state.json")), reverse=True)
    summaries: list[RunSummary] = []
    for folder in folders:
        if limit and len(summaries) == limit:
            break
        state = _checkpoint(folder)
        if state is None:
            continue  # not a checkpoint this version can read
        result = state.result
        outcome: str = result.outcome if result is not None else state.status
        if outcome == "running":
            outcome = "unfinished"  # still running, or interrupted
        summaries.append(
            RunSummary(
                run_id=state.run_id,
                goal=_goal(state.config.model_dump(mode="json")),
                outcome=outcome,
                order_id=result.order_id if result else None,
                total_cents=result.total_cents if result else None,
                steps=state.steps,
                wall_s=round(state.wall_s, 1),
                path=folder,
            )
        )
    return summaries
