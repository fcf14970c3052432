"""report.html, eval-report.html and the list of runs, read back from run folders written here by hand.

No browser: the folders are what a run leaves behind (transcript lines, a checkpoint, JPEG files), and
the HTML is read back with the standard library's parser, the way a browser would see its text.
Reports opened in a real Chromium, from real runs, are in tests/e2e/test_report_pages.py.
"""

from __future__ import annotations

import io
import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from webagent.agent.checkpoint import Checkpoint, RunFolder
from webagent.agent.result import RunResult, Tokens
from webagent.config import RunConfig
from webagent.evals.summary import SuiteReport, TaskResult
from webagent.report.live import LiveView
from webagent.report.record import list_runs, read_run
from webagent.report.write import write_eval_report, write_report

JPEG = b"\xff\xd8\xff\xe0" + b"not really a picture, but bytes a report must carry whole" + b"\xff\xd9"


class Page(HTMLParser):
    """The text of each element with a ``data-step``, ``data-note`` or class, and every tag seen."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.images: list[str] = []
        self.links: list[str] = []
        self.steps: dict[int, dict[str, Any]] = {}
        self.notes: list[tuple[str, str]] = []
        self.text: list[str] = []
        self._open: list[tuple[str, dict[str, str | None]]] = []
        self._step: int | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "img":
            self.images.append(str(a.get("src")))
            if self._step is not None:
                self.steps[self._step]["image"] = a.get("src")
            return
        if tag == "a":
            self.links.append(str(a.get("href")))
        if tag in ("meta", "br"):
            return
        self._open.append((tag, a))
        if a.get("data-step"):
            self._step = int(str(a["data-step"]))
            self.steps[self._step] = {"tool": a.get("data-tool"), "ok": a.get("data-ok"), "text": {}}

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, a = self._open.pop()
            if a.get("data-step"):
                self._step = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if not self._open:
            return
        _tag, a = self._open[-1]
        cls = str(a.get("class") or "")
        if a.get("data-note"):
            self.notes.append((str(a["data-note"]), data))
        if self._step is not None and cls:
            texts = self.steps[self._step]["text"]
            texts[cls] = texts.get(cls, "") + data


def write_run(folder: Path, events: list[dict[str, Any]], state: Checkpoint | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"t": 1_800_000_000 + i, **event}) for i, event in enumerate(events)]
    (folder / "transcript.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if state is not None:
        (folder / "state.json").write_text(state.model_dump_json(), encoding="utf-8")
    return folder


def started(goal: str = "a tiramisu from Italian Bistro", **config: Any) -> dict[str, Any]:
    return {"event": "started", "config": RunConfig(goal=goal, **config).model_dump(mode="json")}


def tool(call_id: str, name: str, narration: str, ok: bool = True, **extra: Any) -> dict[str, Any]:
    return {
        "event": "tool",
        "id": call_id,
        "name": name,
        "arguments": "{}",
        "narration": narration,
        "ok": ok,
        "ms": 12,
        **extra,
    }


# --- one run's report ------------------------------------------------------------------------------


def test_every_step_has_its_narration_picture_and_decisions_in_order(tmp_path: Path) -> None:
    folder = tmp_path / "20261201-100000-abcdef"
    folder.mkdir()
    (folder / "step-001-open_restaurant.jpg").write_bytes(JPEG)
    (folder / "step-002-place_order.jpg").write_bytes(JPEG[::-1])
    events = [
        started(),
        {
            "event": "model",
            "content": "Opening it.",
            "calls": [{"id": "a"}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 40, "cached_tokens": 512},
        },
        tool("a", "open_restaurant", 'Opened "Italian Bistro".\nPage: menu'),
        {"event": "screenshot", "id": "a", "name": "open_restaurant", "file": "step-001-open_restaurant.jpg"},
        {"event": "downgrade", "feature": "strict", "reason": "400 from the endpoint"},
        {
            "event": "model",
            "content": None,
            "calls": [{"id": "b"}, {"id": "c"}],
            "usage": {
                "prompt_tokens": 1100,
                "completion_tokens": 30,
                "cached_tokens": 940,
                "new_tokens": 160,
            },
        },
        tool("b", "add_to_cart", 'No dish called "Tiramsu".', ok=False, detail="Timeout 2500ms exceeded"),
        {"event": "approval", "decision": "pause", "reason": "waiting for a person"},
        {"event": "paused", "kind": "approval", "question": "Approve the order of $12.49?"},
        {"event": "resumed", "approve": True, "answer": None},
        tool("c", "place_order", "Placed order #1 at $12.49."),
        {
            "event": "screenshot",
            "id": "c",
            "name": "place_order",
            "file": "../../etc/step-002-place_order.jpg",
        },
        {"event": "model", "content": "Done.", "calls": [{"id": "d"}], "usage": {}},
        tool("d", "finish", "Run finished."),
        {
            "event": "finished",
            "outcome": "ordered",
            "order_id": 1,
            "total_cents": 1249,
            "message": "Ordered.",
        },
    ]
    write_run(folder, events)
    with (folder / "transcript.jsonl").open("a") as out:
        out.write('{"t": 1, "event": "tool", "name": "cut off by a cra')  # a crash mid-line

    page = Page(write_report(folder).read_text(encoding="utf-8"))

    assert sorted(page.steps) == [1, 2, 3, 4]
    assert [page.steps[n]["tool"] for n in (1, 2, 3, 4)] == [
        "open_restaurant",
        "add_to_cart",
        "place_order",
        "finish",
    ]
    assert page.steps[1]["text"]["narration"] == 'Opened "Italian Bistro".\nPage: menu'
    assert page.steps[2]["ok"] == "false"
    assert "Timeout 2500ms exceeded" in page.steps[2]["text"]["detail"]
    # Pictures are inlined whole, each beside its own call; a file name is only ever a name in the folder.
    import base64

    assert base64.b64decode(page.steps[1]["image"].split(",", 1)[1]) == JPEG
    assert base64.b64decode(page.steps[3]["image"].split(",", 1)[1]) == JPEG[::-1]
    assert "image" not in page.steps[2] and "image" not in page.steps[4]
    assert [kind for kind, _ in page.notes] == ["downgrade", "approval", "paused", "resumed"]
    assert "Approve the order of $12.49?" in dict(page.notes)["paused"]
    assert "approved" in dict(page.notes)["resumed"]
    text = "".join(page.text)
    assert "900 in / 40 out tokens, 512 cached" in text
    # What the server evaluated beside what was new since the last call (issue 38).
    assert "1100 in (160 evaluated anew, 160 new) / 30 out tokens, 940 cached" in text
    assert "Ordered — order #1" not in text  # no checkpoint: the total is not claimed from nowhere
    assert "Ordered." in text
    # Self-contained: nothing is fetched from anywhere; links only to files beside it.
    assert page.links == ["transcript.jsonl"]
    assert not any(src.startswith(("http", "//")) for src in page.images)
    assert "script" not in page.tags and "link" not in page.tags


def test_a_paused_run_says_what_it_waits_for_and_an_unfinished_one_says_so(tmp_path: Path) -> None:
    paused = write_run(
        tmp_path / "p",
        [started(), {"event": "paused", "kind": "answer", "question": "Which size?"}],
    )
    unfinished = write_run(tmp_path / "u", [started(), tool("a", "view_cart", "Cart is empty.")])

    paused_page = "".join(Page(write_report(paused).read_text()).text)
    unfinished_record = read_run(unfinished)

    assert "Paused, waiting for an answer: Which size?" in paused_page
    assert unfinished_record.outcome == "unfinished"
    assert [step.name for step in unfinished_record.steps] == ["view_cart"]


text_from_a_page = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=80)


@settings(max_examples=60, deadline=None)
@given(goal=text_from_a_page, narration=text_from_a_page, arguments=text_from_a_page, said=text_from_a_page)
def test_page_text_is_shown_never_run(goal: str, narration: str, arguments: str, said: str) -> None:
    """Whatever a goal, a model or a page says — markup, quotes, scripts — comes back as the same text and
    adds no element to the report."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "run"
        events = [
            started(goal),
            {"event": "model", "content": said, "calls": [{"id": "a"}], "usage": {}},
            {**tool("a", "press", narration), "arguments": json.dumps({"name": arguments})},
        ]
        page = Page(write_report(write_run(folder, events)).read_text(encoding="utf-8"))
        plain = Page(
            write_report(write_run(Path(tmp) / "plain", [started("x"), tool("a", "press", "y")])).read_text()
        )

    assert page.steps[1]["text"]["narration"] == narration
    assert page.steps[1]["text"]["args"] == json.dumps({"name": arguments}, ensure_ascii=False)
    assert goal in "".join(page.text) and said in "".join(page.text)
    assert set(page.tags) <= set(plain.tags) | {"h2", "small", "p"}  # the turn's heading and its words
    assert "script" not in page.tags


# --- the list of runs --------------------------------------------------------------------------------


def test_runs_are_listed_newest_first_with_what_became_of_them(tmp_path: Path) -> None:
    def checkpoint(run_id: str, **fields: Any) -> Checkpoint:
        return Checkpoint(run_id=run_id, config=RunConfig(goal=f"goal of {run_id}"), **fields)

    ordered = RunResult(run_id="20261201-090000-aaaaaa", outcome="ordered", order_id=3, total_cents=4342)
    folders = {
        "20261201-090000-aaaaaa": checkpoint(
            "20261201-090000-aaaaaa", status="finished", result=ordered, steps=4, wall_s=3.21
        ),
        "20261201-100000-bbbbbb": checkpoint("20261201-100000-bbbbbb", status="paused", steps=3),
        "20261201-110000-cccccc": checkpoint("20261201-110000-cccccc", status="running", steps=1),
    }
    for run_id, state in folders.items():
        RunFolder.create(tmp_path, run_id).save(state)
    (tmp_path / "20261201-120000-broken").mkdir()
    (tmp_path / "20261201-120000-broken" / "state.json").write_text("{not json")

    runs = list_runs(tmp_path)

    assert [(r.run_id, r.outcome, r.order_id, r.steps) for r in runs] == [
        ("20261201-110000-cccccc", "unfinished", None, 1),
        ("20261201-100000-bbbbbb", "paused", None, 3),
        ("20261201-090000-aaaaaa", "ordered", 3, 4),
    ]
    assert runs[-1].goal == "goal of 20261201-090000-aaaaaa"
    assert runs[-1].wall_s == 3.2
    assert [r.run_id for r in list_runs(tmp_path, limit=1)] == [
        "20261201-110000-cccccc"
    ]  # past the broken one
    assert list_runs(tmp_path / "nothing-here") == []


# --- the eval report -------------------------------------------------------------------------------


def suite(*results: tuple[str, bool], run_dirs: dict[str, str] | None = None) -> SuiteReport:
    tasks = [
        TaskResult(
            id=task_id,
            passed=passed,
            reason=f"reason for {task_id}",
            outcome="ordered",
            steps=4,
            tokens=Tokens(prompt=100, completion=10),
            wall_s=2.5,
            run_dir=(run_dirs or {}).get(task_id, ""),
        )
        for task_id, passed in results
    ]
    passed = sum(p for _, p in results)
    summary = {
        "total": len(results),
        "passed": passed,
        "failed": len(results) - passed,
        "success_rate": passed / len(results),
        "false_claims": 0,
        "steps_median": 4,
        "steps_mean": 4,
        "model_calls": 8,
        "tool_calls": 14,
        "prompt_tokens": 200,
        "completion_tokens": 20,
        "wall_s": 5.0,
        "workers": 1,
    }
    return SuiteReport(tasks=tasks, summary=summary)


def test_eval_report_links_each_task_to_its_run_and_leaves_room_for_baselines(tmp_path: Path) -> None:
    run = write_run(tmp_path / "runs" / "r1", [started(), tool("a", "view_cart", "Cart is empty.")])
    write_report(run)
    ours = suite(("t01", True), ("t02", False), run_dirs={"t01": str(run), "t02": str(tmp_path / "gone")})

    alone = Page(write_eval_report(ours, tmp_path / "runs" / "eval-report.html").read_text())
    compared = Page(
        write_eval_report(
            ours, tmp_path / "compare" / "eval-report.html", baselines={"raw DOM": suite(("t01", False))}
        ).read_text()
    )

    assert alone.links == ["r1/report.html"]  # relative, so the folder can be moved; none for a missing run
    assert "No baseline agents were run with this suite" in "".join(alone.text)
    assert compared.links == ["../runs/r1/report.html"]
    text = "".join(compared.text)
    assert "raw DOM" in text and "No baseline agents" not in text
    assert text.count("FAIL") == 2  # t02 here, t01 in the baseline's column


# --- things people read in a terminal or a test log ------------------------------------------------


def test_a_run_result_in_an_assertion_shows_why_and_where() -> None:
    result = RunResult(
        run_id="r",
        outcome="paused",
        question="Which Size for Margherita Pizza?",
        message="paused",
        run_dir="/tmp/runs/r",
    )

    shown = repr(result)

    assert shown.startswith("RunResult(outcome='paused'")
    assert "question='Which Size for Margherita Pizza?'" in shown
    assert shown.endswith("run_dir='/tmp/runs/r')")


def live_view_of(narration: str, *, terminal: bool, width: int) -> str:
    out = io.StringIO()
    view = LiveView(Console(file=out, width=width, force_terminal=terminal, color_system=None))
    view("model", {"calls": [{}], "usage": {}})
    view("tool", {"name": "read_page", "arguments": "{}", "narration": narration, "ok": True, "ms": 3})
    return out.getvalue()


@settings(max_examples=30, deadline=None)
@given(words=st.lists(st.text("abcdefghij", min_size=1, max_size=12), min_size=1, max_size=60))
def test_the_live_view_wraps_to_a_terminal_or_not_at_all(words: list[str]) -> None:
    narration = " ".join(words)

    piped = live_view_of(narration, terminal=False, width=40).splitlines()
    on_terminal = live_view_of(narration, terminal=True, width=40).splitlines()

    assert f"      {narration}" in piped  # one line, however long: a log keeps it whole
    under_the_call = on_terminal[next(i for i, line in enumerate(on_terminal) if "read_page" in line) + 1 :]
    assert all(len(line.rstrip()) <= 40 for line in on_terminal)
    assert all(line.startswith("      ") for line in under_the_call)  # wrapped lines stay indented
    assert " ".join(" ".join(line.split()) for line in under_the_call) == " ".join(narration.split())
