"""The command line around reports: ``webagent runs``, ``webagent report``, and the small fixes that came
with them (resume by folder, replay's flags, flag suggestions, the live view in a pipe).

Real subprocesses on this checkout's code, the planner driving, one recorded run shared by the module.
Parse errors are checked in-process: argparse stops before anything starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import webagent
from webagent.cli import main
from webagent.cli.config import run_config
from webagent.cli.parser import build_parser

GOAL = "Order 2 Margherita Pizza (Large) and a Tiramisu from Italian Bistro, deliver at 7pm, pay cash"
PROFILE = ["--name", "Ada", "--address", "12 Oak Street", "--phone", "555-0101"]


@dataclass
class Ran:
    code: int
    out: str
    err: str


def webagent_cli(*args: str, cwd: Path) -> Ran:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBAGENT_MODEL"))}
    env["PYTHONPATH"] = str(Path(webagent.__file__).parents[1])  # this checkout, not an installed copy
    env["COLUMNS"] = "100"
    done = subprocess.run(
        [sys.executable, "-m", "webagent", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return Ran(done.returncode, done.stdout, done.stderr)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("report-cli")


@pytest.fixture(scope="module")
def recorded(work: Path) -> tuple[Ran, Path]:
    """One ordering run with the human output (live view on stderr); its run folder."""
    ran = webagent_cli("run", GOAL, "--approve", "auto", *PROFILE, cwd=work)
    assert ran.code == 0, ran.err
    [report_line] = [line for line in ran.out.splitlines() if line.startswith("Report: ")]
    report = work / report_line.removeprefix("Report: ")
    assert report.name == "report.html" and report.is_file()
    return ran, report.parent


def test_the_live_view_in_a_pipe_never_breaks_a_line(recorded: tuple[Ran, Path]) -> None:
    ran, _ = recorded
    menu = next(line for line in ran.err.splitlines() if line.lstrip().startswith('Opened "Italian Bistro"'))
    assert len(menu) > 100  # longer than COLUMNS, and still whole
    assert menu.rstrip().endswith('"Lemonade" $4.00.')


def test_runs_lists_the_recent_runs(recorded: tuple[Ran, Path], work: Path) -> None:
    _, run_dir = recorded

    listed = webagent_cli("runs", cwd=work)
    as_json = webagent_cli("runs", "--json", cwd=work)

    assert listed.code == 0
    [line] = listed.out.splitlines()
    assert line.startswith(f"{run_dir.name}  ordered")
    assert "#1 $43.42" in line and "4 steps" in line and "Order 2 Margherita Pizza" in line
    [run] = json.loads(as_json.out)
    assert (run["run_id"], run["outcome"], run["order_id"], run["total_cents"]) == (
        run_dir.name,
        "ordered",
        1,
        4342,
    )
    assert webagent_cli("runs", "--runs-dir", "nowhere", cwd=work).out == "No runs in nowhere.\n"


@pytest.mark.parametrize("given", ["id", "folder", "file in it"])
def test_report_writes_the_report_again_from_an_id_or_a_path(
    recorded: tuple[Ran, Path], work: Path, given: str
) -> None:
    _, run_dir = recorded
    report = run_dir / "report.html"
    before = report.read_text()
    report.unlink()
    target = {"id": run_dir.name, "folder": str(run_dir), "file in it": str(run_dir / "transcript.jsonl")}[
        given
    ]

    ran = webagent_cli("report", target, cwd=work)

    assert ran.code == 0, ran.err
    assert (work / ran.out.strip()).resolve() == report.resolve()
    assert report.read_text() == before  # built from the folder alone: the same report again


def test_report_of_an_unknown_run_is_one_line(work: Path) -> None:
    ran = webagent_cli("report", "19990101-000000-abcdef", cwd=work)
    assert ran.code == 2
    assert ran.err.startswith("webagent: No run '19990101-000000-abcdef'") and ran.err.count("\n") == 1


def test_resume_takes_a_run_folder_as_well_as_an_id(recorded: tuple[Ran, Path], work: Path) -> None:
    _, run_dir = recorded

    by_path = webagent_cli("resume", str(run_dir), "--approve", "--json", cwd=work)
    not_a_run = webagent_cli("resume", str(work / "runs"), "--approve", cwd=work)

    assert by_path.code == 0, by_path.err
    assert f"run {run_dir.name} already finished" in by_path.err
    assert json.loads(by_path.out)["order_id"] == 1
    assert not_a_run.code == 2
    assert "is not a run folder" in not_a_run.err


def test_replay_records_a_trace_and_refuses_flags_it_cannot_honour(
    recorded: tuple[Ran, Path], work: Path
) -> None:
    _, run_dir = recorded

    traced = webagent_cli("replay", run_dir.name, "--runs-dir", "runs", "--trace", "--json", cwd=work)
    refused = webagent_cli("replay", str(run_dir), "--screenshots", cwd=work)

    assert traced.code == 0, traced.out + traced.err
    report = json.loads(traced.out)
    assert report["clean"] is True
    assert (work / report["trace"]).resolve() == (run_dir / "replay-trace.zip").resolve()
    assert (run_dir / "replay-trace.zip").stat().st_size > 0
    assert refused.code == 2
    assert "unrecognized arguments: --screenshots" in refused.err
    assert refused.err.startswith("usage: webagent replay")


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["run", GOAL, "--sreenshots"], "--sreenshots: did you mean --screenshots?"),
        (["run", GOAL, "--keep-opne"], "did you mean --keep-open?"),
        (["run", GOAL, "--pause-on-falure"], "did you mean --pause-on-failure?"),
        (["resume", "x", "--aprove"], "did you mean --approve?"),
        (["eval", "tasks.jsonl", "--wrokers", "2"], "did you mean --workers?"),
    ],
)
def test_a_misspelled_flag_gets_the_nearest_one_suggested(
    argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)

    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert hint in err
    assert f"usage: webagent {argv[0]}" in err  # the subcommand's own usage, with its flags


def test_a_flag_nothing_like_any_other_gets_no_guess(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", GOAL, "--zzzzqqq"])
    err = capsys.readouterr().err
    assert "unrecognized arguments: --zzzzqqq" in err and "did you mean" not in err


@pytest.mark.parametrize("flag", ["--keep-open", "--pause-on-failure"])
def test_the_debugging_stops_open_a_window(flag: str) -> None:
    args = build_parser().parse_args(["run", GOAL, flag, "--approve", "auto"])

    config = run_config(args)

    assert config.headed is True
    assert (config.keep_open, config.pause_on_failure) == (
        flag == "--keep-open",
        flag == "--pause-on-failure",
    )
    assert config.screenshots == "views"  # the default
    assert run_config(build_parser().parse_args(["run", GOAL, "--no-screenshots"])).screenshots == "off"
    for which in ("all", "views", "off"):
        chosen = build_parser().parse_args(["run", GOAL, "--screenshots", which])
        assert run_config(chosen).screenshots == which
