"""The HTML of ``report.html`` and ``eval-report.html``: pure functions from records to one string.

Everything from a run — goals, arguments, narrations, page text quoted in them — is escaped: a report
shows page text, it never runs it. Styles are inlined; the one script toggles a picture's size.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, Protocol

from webagent.agent.result import Tokens
from webagent.config import screenshot_policy
from webagent.narration.money import money
from webagent.report.record import Note, RunRecord, Step, Turn

__all__ = ["EvalResult", "EvalSuite", "EvalTask", "render_eval", "render_run"]


class EvalTask(Protocol):
    """What the eval report shows of a task beside its id: the goal (`webagent.evals.tasks.Task`)."""

    @property
    def id(self) -> str: ...
    @property
    def goal(self) -> str: ...


class EvalResult(Protocol):
    """One task's verdict and cost as the eval report shows it (`webagent.evals.suite.TaskResult`)."""

    @property
    def id(self) -> str: ...
    @property
    def passed(self) -> bool: ...
    @property
    def reason(self) -> str: ...
    @property
    def outcome(self) -> str: ...
    @property
    def steps(self) -> int: ...
    @property
    def tokens(self) -> Tokens: ...
    @property
    def wall_s(self) -> float: ...
    @property
    def run_dir(self) -> str: ...


class EvalSuite(Protocol):
    """A suite's results and summary (`webagent.evals.suite.SuiteReport`)."""

    @property
    def tasks(self) -> Sequence[EvalResult]: ...
    @property
    def summary(self) -> Mapping[str, Any]: ...
    @property
    def all_passed(self) -> bool: ...


STYLE = """
:root { --ok: #15803d; --bad: #b91c1c; --wait: #a16207; --muted: #6b7280; --line: #e5e7eb; --soft: #f9fafb; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111827; background: #fff; }
header, main, footer { max-width: 1180px; margin: 0 auto; padding: 16px 24px; }
header { border-bottom: 1px solid var(--line); }
h1 { font-size: 18px; margin: 0 0 6px; } h1 code { font-size: 15px; color: var(--muted); }
h2 { font-size: 15px; margin: 22px 0 8px; }
.goal { font-size: 16px; margin: 6px 0 10px; }
.outcome { display: inline-block; padding: 3px 10px; border-radius: 999px; font-weight: 600; color: #fff; }
.outcome.ordered, .outcome.done, .outcome.pass { background: var(--ok); }
.outcome.failed, .outcome.fail, .outcome.error { background: var(--bad); }
.outcome.paused, .outcome.unfinished { background: var(--wait); }
.reason { margin: 8px 0; }
.facts { color: var(--muted); margin: 6px 0; } .facts span + span::before { content: " · "; }
nav a { margin-right: 14px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.turn { border-top: 1px solid var(--line); padding-top: 6px; } main > .turn:first-child { border-top: 0; }
.turn > h2 { display: flex; gap: 10px; align-items: baseline; }
.turn > h2 small { font-weight: normal; color: var(--muted); }
.said { margin: 0 0 8px; font-style: italic; color: #374151; }
.step { display: grid; grid-template-columns: minmax(0, 1fr) 480px; gap: 16px; padding: 10px 12px; margin: 8px 0;
        border: 1px solid var(--line); border-left: 4px solid var(--ok); border-radius: 6px; background: #fff; }
.step.failed { border-left-color: var(--bad); }
.step h3 { margin: 0 0 4px; font-size: 14px; } .step h3 .mark { color: var(--ok); }
.step.failed h3 .mark { color: var(--bad); }
.step .args { display: block; color: #1f2937; background: var(--soft); padding: 4px 6px; border-radius: 4px;
              white-space: pre-wrap; word-break: break-word; }
.step .ms { color: var(--muted); font-weight: normal; }
.narration { white-space: pre-wrap; word-break: break-word; margin: 8px 0 0; padding: 8px; background: var(--soft);
             border-radius: 4px; }
.detail { color: var(--bad); margin: 6px 0 0; }
figure { margin: 0; } figure img { width: 100%; border: 1px solid var(--line); border-radius: 4px; cursor: zoom-in; }
figure img.zoom { position: fixed; inset: 2vh 2vw; width: 96vw; height: 96vh; object-fit: contain; background: rgba(0,0,0,.85);
                  z-index: 10; cursor: zoom-out; border: 0; }
figure figcaption, .noshot { color: var(--muted); font-size: 12px; }
.noshot { align-self: center; text-align: center; padding: 16px; border: 1px dashed var(--line); border-radius: 4px; }
.note { margin: 8px 0; padding: 6px 10px; border-radius: 6px; background: #fef9c3; }
.note.resumed, .note.downgrade { background: #e0f2fe; }
.note.voice { background: #ede9fe; } .note audio { vertical-align: middle; height: 28px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.reason { max-width: 480px; }
.verdict { font-weight: 700; } .verdict.pass { color: var(--ok); } .verdict.fail { color: var(--bad); }
.empty { color: var(--muted); }
"""

ZOOM = "this.classList.toggle('zoom')"


def _page(title: str, body: str) -> str:
    return (
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n{body}\n</body></html>\n"
    )


def _when(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) if t else "unknown"


def _tokens(usage: Mapping[str, Any]) -> str:
    prompt, completion = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
    if not (prompt or completion):
        return "no tokens"
    cached = usage.get("cached_tokens") or 0
    estimated = " (estimated)" if usage.get("estimated") else ""
    new = usage.get("new_tokens")
    # What the server evaluated (prompt − cached) beside what was new since the last call: equal when the
    # prompt only grows (issue 38).
    anew = f" ({prompt - cached} evaluated anew, {new} new)" if new is not None and cached else ""
    return (
        f"{prompt} in{anew} / {completion} out tokens" + (f", {cached} cached" if cached else "") + estimated
    )


def _headline(record: RunRecord) -> str:
    result = record.result
    if record.outcome == "ordered" and result is not None:
        return f"Ordered — order #{result.order_id}, total {money(result.total_cents)}"
    return {
        "done": "Done",
        "failed": "Failed",
        "paused": "Paused",
        "unfinished": "Not finished",
    }.get(record.outcome, record.outcome.capitalize())


def _facts(record: RunRecord) -> str:
    result, config = record.result, record.config
    facts = [f"started {_when(record.started_at)}"]
    if result is not None:
        tokens = result.tokens
        facts += [
            f"{result.steps} steps",
            f"{result.model_calls} model calls",
            f"{result.tool_calls} tool calls",
            f"{tokens.prompt} + {tokens.completion} tokens"
            + (f" ({tokens.cached} cached)" if tokens.cached else ""),
            f"{result.wall_s:.1f} s",
        ]
    else:
        facts.append(f"{len(record.steps)} tool calls recorded")
    facts.append(f"model {config.get('model') or 'chosen automatically'}")
    if config.get("clutter") is not None:
        facts.append(f"clutter {config.get('clutter')}, seed {config.get('seed')}")
    if config.get("approve"):
        facts.append(f"approval {config.get('approve')}")
    return "".join(f"<span>{escape(fact)}</span>" for fact in facts)


def _links(record: RunRecord, links: Mapping[str, str]) -> str:
    parts = []
    if "transcript.jsonl" in links:
        parts.append(f'<a href="{escape(links["transcript.jsonl"])}">transcript.jsonl</a>')
    if "trace.zip" in links:
        parts.append(
            f'<a href="{escape(links["trace.zip"])}">trace.zip</a> '
            f"<code>playwright show-trace --port 9323 {escape(str(record.path / 'trace.zip'))}</code>"
        )
    else:
        parts.append('<span class="empty">no trace (run with --trace)</span>')
    if "state.json" in links:
        parts.append(f'<a href="{escape(links["state.json"])}">state.json</a>')
    return "<nav>" + " ".join(parts) + "</nav>"


PICTURES = {
    "views": "a picture of the page right after it when the call left another view on screen or failed. "
    "Click a picture to enlarge it.",
    "all": "a picture of the page right after it. Click a picture to enlarge it.",
    "off": "no picture: the run took none.",
}
"""The footer's words on pictures, by the run's screenshot policy."""


def _no_picture(step: Step, policy: str, earlier: int | None) -> str:
    """Why a step has no picture, in the words of the run's screenshot policy."""
    if step.name in ("finish", "ask_human"):
        return "handled by the agent; nothing done on the page"
    if policy == "off":
        return "no screenshot: the run took none (--screenshots views or all takes them)"
    if policy == "views" and step.ok:
        seen = f"as in the picture of step {earlier}" if earlier is not None else "as before"
        return (
            f"no new picture: the same view {seen}; the narration says what changed "
            "(--screenshots all takes one after every call)"
        )
    return "no screenshot: nothing was done on the page"


def _step(step: Step, image: str | None, policy: str, earlier: int | None) -> str:
    state = "ok" if step.ok else "failed"
    mark = "✓" if step.ok else "✗"
    ms = f' <span class="ms">{step.ms} ms</span>' if step.ms is not None else ""
    detail = f'<p class="detail">Browser: {escape(step.detail)}</p>' if step.detail else ""
    taken = f" · screenshot {step.screenshot_ms} ms" if step.screenshot_ms is not None else ""
    if image:
        picture = (
            f'<figure><img class="shot" src="{image}" alt="the page after step {step.number}, {escape(step.name)}" '
            f'onclick="{ZOOM}" loading="lazy"><figcaption>the page after this call{taken}</figcaption></figure>'
        )
    else:
        picture = f'<div class="noshot">{escape(_no_picture(step, policy, earlier))}</div>'
    return (
        f'<article class="step {state}" id="step-{step.number}" data-step="{step.number}" '
        f'data-tool="{escape(step.name)}" data-ok="{str(step.ok).lower()}">'
        f'<div><h3><span class="mark">{mark}</span> {step.number}. {escape(step.name)}{ms}</h3>'
        f'<code class="args">{escape(step.arguments)}</code>'
        f'<pre class="narration">{escape(step.narration)}</pre>{detail}</div>'
        f"{picture}</article>"
    )


def _note(note: Note) -> str:
    audio = (
        f' <audio controls preload="none" src="{escape(note.audio)}"></audio> '
        f'<a href="{escape(note.audio)}">{escape(note.audio)}</a>'
        if note.audio
        else ""
    )
    return f'<div class="note {escape(note.kind)}" data-note="{escape(note.kind)}">{escape(note.text)}{audio}</div>'


def _turn(turn: Turn, images: Mapping[int, str | None], policy: str, earlier: Mapping[int, int]) -> str:
    items = "".join(
        _step(item, images.get(item.number), policy, earlier.get(item.number))
        if isinstance(item, Step)
        else _note(item)
        for item in turn.items
    )
    if turn.number == 0:
        return f'<section class="turn resumed">{items}</section>'
    seconds = f" · replied in {turn.seconds:.1f} s" if turn.seconds is not None else ""
    said = f'<p class="said">{escape(turn.content)}</p>' if turn.content else ""
    return (
        f'<section class="turn" id="turn-{turn.number}" data-turn="{turn.number}">'
        f"<h2>Turn {turn.number} <small>{turn.calls} tool call(s) · {escape(_tokens(turn.usage))}{seconds}</small></h2>"
        f"{said}{items}</section>"
    )


def render_run(record: RunRecord, images: Mapping[int, str | None], links: Mapping[str, str]) -> str:
    """The whole ``report.html`` of one run; ``images`` are data URIs by step number."""
    policy = screenshot_policy(record.config.get("screenshots", "views"))
    earlier: dict[int, int] = {}  # step number -> the step before it with a picture
    last: int | None = None
    for step in record.steps:
        if last is not None:
            earlier[step.number] = last
        if images.get(step.number):
            last = step.number
    question = f'<p class="question">Question: {escape(record.question)}</p>' if record.question else ""
    header = (
        f"<header><h1>webagent run <code>{escape(record.run_id)}</code></h1>"
        f'<p class="goal">Goal: {escape(record.goal)}</p>'
        f'<span class="outcome {escape(record.outcome)}" data-outcome="{escape(record.outcome)}">'
        f"{escape(_headline(record))}</span>"
        f'<p class="reason">{escape(record.message)}</p>{question}'
        f'<p class="facts">{_facts(record)}</p>{_links(record, links)}</header>'
    )
    turns = "".join(_turn(turn, images, policy, earlier) for turn in record.turns)
    if not turns:
        turns = '<p class="empty">No model turn was recorded.</p>'
    footer = (
        "<footer class=empty>Each step shows the tool call, the narration the model read back, and "
        f"{PICTURES.get(policy, PICTURES['views'])}</footer>"
    )
    return _page(f"webagent run {record.run_id}: {record.outcome}", f"{header}<main>{turns}</main>{footer}")


# The eval report -----------------------------------------------------------------------------------


def _verdict(passed: bool) -> str:
    word = "PASS" if passed else "FAIL"
    return f'<span class="verdict {word.lower()}">{word}</span>'


def _summary_row(name: str, suite: EvalSuite) -> str:
    s = suite.summary
    cells = [
        escape(name),
        f"{s['passed']}/{s['total']}",
        f"{s['success_rate']:.0%}",
        str(s.get("wrong_orders", 0)),
        str(s["false_claims"]),
        str(s["steps_median"]),
        f"{s['prompt_tokens']} + {s['completion_tokens']}",
        f"{s['wall_s']:.1f} s",
    ]
    return (
        "<tr>"
        + "".join(
            f"<td>{cell}</td>" if i == 0 else f'<td class="num">{cell}</td>' for i, cell in enumerate(cells)
        )
        + "</tr>"
    )


def _task_row(
    task: EvalResult, link: str | None, goal: str | None, baselines: Mapping[str, Mapping[str, EvalResult]]
) -> str:
    name = f'<a href="{escape(link)}">{escape(task.id)}</a>' if link else escape(task.id)
    goal_line = f'<div class="empty">{escape(goal)}</div>' if goal else ""
    tokens = f"{task.tokens.prompt} + {task.tokens.completion}"
    others = "".join(
        f"<td>{_verdict(theirs[task.id].passed) if task.id in theirs else '—'}</td>"
        for theirs in baselines.values()
    )
    return (
        f'<tr data-task="{escape(task.id)}" data-passed="{str(task.passed).lower()}">'
        f"<td>{name}</td><td>{_verdict(task.passed)}</td>"
        f'<td class="reason">{escape(task.reason)}{goal_line}</td><td>{escape(task.outcome)}</td>'
        f'<td class="num">{task.steps}</td><td class="num">{tokens}</td>'
        f'<td class="num">{task.wall_s:.1f} s</td>{others}</tr>'
    )


def render_eval(
    suite: EvalSuite,
    links: Mapping[str, str],
    goals: Mapping[str, str],
    baselines: Mapping[str, EvalSuite],
) -> str:
    """The whole ``eval-report.html``; ``links`` are relative paths to each task's run report."""
    s = suite.summary
    by_baseline = {name: {t.id: t for t in report.tasks} for name, report in baselines.items()}
    head = (
        "<tr><th>agent</th><th class=num>passed</th><th class=num>rate</th><th class=num>wrong orders</th>"
        "<th class=num>false claims</th>"
        "<th class=num>median steps</th><th class=num>tokens</th><th class=num>wall</th></tr>"
    )
    rows = _summary_row("webagent", suite) + "".join(_summary_row(n, r) for n, r in baselines.items())
    if baselines:
        compared = f"<table class=agents>{head}{rows}</table>"
    else:
        compared = (
            f"<table class=agents>{head}{rows}</table>"
            '<p class="empty" id="no-baselines">No baseline agents were run with this suite; '
            "when they are, each gets a row here and a column in the table below.</p>"
        )
    task_head = (
        "<tr><th>task</th><th>verdict</th><th>reason</th><th>outcome</th><th class=num>steps</th>"
        "<th class=num>tokens</th><th class=num>wall</th>"
        + "".join(f"<th>{escape(name)}</th>" for name in baselines)
        + "</tr>"
    )
    task_rows = "".join(
        _task_row(task, links.get(task.id), goals.get(task.id), by_baseline) for task in suite.tasks
    )
    outcome = "pass" if suite.all_passed else "fail"
    header = (
        "<header><h1>webagent eval</h1>"
        f'<span class="outcome {outcome}" data-outcome="{outcome}">{s["passed"]}/{s["total"]} passed</span>'
        f'<p class="facts"><span>{s.get("wrong_orders", 0)} wrong orders</span>'
        f"<span>{s['false_claims']} false claims</span><span>{s['model_calls']} model calls</span>"
        f"<span>{s['tool_calls']} tool calls</span><span>{s['wall_s']:.1f} s with {s['workers']} worker(s)</span></p>"
        "</header>"
    )
    body = (
        f"{header}<main><h2>Agents</h2>{compared}<h2>Tasks</h2>"
        f"<table class=tasks>{task_head}{task_rows}</table>"
        f"<details><summary>summary as JSON</summary><pre>{escape(json.dumps(s, indent=1))}</pre></details></main>"
    )
    return _page(f"webagent eval: {s['passed']}/{s['total']} passed", body)
