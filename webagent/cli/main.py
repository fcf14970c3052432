"""``webagent``: headless ordering runs, headed debugging, scripted orders, resume, replay, chat.

Exit codes: 0 ordered or done · 1 failed · 2 usage error · 3 paused (awaiting approval or an answer) ·
130 interrupted (Ctrl-C; ``webagent resume`` continues the run). With ``--json``, ``run`` and ``resume``
print exactly one JSON object on stdout whatever stops them.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from webagent.agent.result import RunResult
from webagent.errors import RunError, UsageError, WebagentError
from webagent.runs.config import Profile, RunConfig

__all__ = ["main"]

EXAMPLES = """examples:
  webagent run "Order 2 Margherita Pizza (Large) from Italian Bistro, deliver at 7pm, pay cash" --approve auto
  webagent run --order order.json --profile me.yaml --json
  webagent run "a tiramisu from Italian Bistro" --headed --slow-mo 400 --trace
  webagent run --voice-in goal.wav --speak --approve auto
  webagent resume 20261129-140209-a1b2c3 --approve
  webagent replay runs/20261129-140209-a1b2c3
  webagent batch orders.jsonl --approve auto --budget 60 --workers 2
  webagent eval evals/tasks.jsonl --ray local --actors 2
  webagent runs                                   # recent runs: id, goal, outcome, order, steps, time
  webagent report runs/20261129-140209-a1b2c3     # write its report.html again
  webagent chat
  webagent chat --voice
  webagent shop --port 8000 --clutter 2
  webagent models --base-url http://localhost:11434/v1
  webagent graph --format dot

exit codes: 0 ordered/done · 1 failed · 2 usage error · 3 paused (resume it with `webagent resume`) ·
130 interrupted (resume it too)
"""


def parse_amount(text: str) -> int:
    """``"40"``, ``"$40"``, ``"39.50"`` → cents."""
    match = re.fullmatch(r"\s*\$?\s*(\d+)(?:\.(\d{1,2}))?\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"not an amount: {text!r} (write e.g. 40 or 39.50)")
    return int(match.group(1)) * 100 + int((match.group(2) or "0").ljust(2, "0"))


def parse_seconds(text: str) -> float:
    """``"90"``, ``"2.5"`` → seconds, more than 0."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text!r}")
    return seconds


def _display_flags(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    group = parser.add_argument_group("display and debugging")
    group.add_argument("--headed", action="store_true", default=None, help="show the browser window")
    group.add_argument(
        "--slow-mo", type=float, metavar="MS", help="wait MS milliseconds after each browser step"
    )
    group.add_argument(
        "--trace", action="store_true", help="record trace.zip in the run folder (playwright show-trace)"
    )
    group.add_argument(
        "--screenshots",
        action="store_true",
        default=None,
        help="save a small JPEG after each tool call for report.html (the default)",
    )
    group.add_argument(
        "--no-screenshots", dest="screenshots", action="store_false", help="take no screenshots"
    )
    group.add_argument(
        "--init-script",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help="JavaScript run in every page before the shop's own (repeatable)",
    )
    group.add_argument(
        "--no-overlay-shortcuts",
        dest="overlay_shortcuts",
        action="store_false",
        help="handle the shop's known popups like unknown ones (by what they look like)",
    )
    group.add_argument(
        "--runs-dir", type=Path, default=Path("runs"), help="where run folders go (default ./runs)"
    )
    group.add_argument(
        "--json", action="store_true", help="print exactly one JSON object on stdout (and no live view)"
    )
    group.add_argument("--quiet", action="store_true", help="no live view, only the result")
    return group


def _watch_flags(group: argparse._ArgumentGroup) -> None:
    group.add_argument(
        "--keep-open",
        action="store_true",
        help="keep the window open after the run until you close it or press Enter (implies --headed)",
    )
    group.add_argument(
        "--pause-on-failure",
        action="store_true",
        help="open Playwright's inspector when a tool fails or the run fails (implies --headed)",
    )


def _runs_dir_flag(parser: argparse.ArgumentParser | argparse._ArgumentGroup, default: str = "runs") -> None:
    parser.add_argument(
        "--runs-dir", type=Path, default=Path(default), help=f"where run folders are (default ./{default})"
    )


def _model_flags(parser: argparse.ArgumentParser, *, tuning: bool = True) -> None:
    group = parser.add_argument_group("model")
    group.add_argument(
        "--model",
        help="'planner' (offline, the default without OPENAI_API_KEY), a model name, or a baseline agent "
        "that deserves no score: null, ask, random, gullible",
    )
    group.add_argument("--base-url", help="an OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp server)")
    if tuning:
        group.add_argument(
            "--no-strict",
            dest="strict",
            action="store_false",
            default=None,
            help="send tools without strict: true (for endpoints that refuse it)",
        )
        group.add_argument(
            "--timeout",
            type=parse_seconds,
            metavar="SECONDS",
            help="most one model call may take, retries included (default: WEBAGENT_TIMEOUT, else 60)",
        )


def _shop_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("shop")
    group.add_argument(
        "--clutter",
        type=int,
        choices=range(5),
        default=0,
        metavar="{0..4}",
        help="clutter level: 0 clean … 3 popups, late menus, slow API, 4 + unpredictable popups (default 0)",
    )
    group.add_argument("--seed", type=int, default=7, help="clutter seed (default 7)")
    group.add_argument("--shop-url", help="use an already running shop instead of the embedded one")
    group.add_argument(
        "--db", type=Path, help="the embedded shop's database (default: a fresh one in the run folder)"
    )


def _people_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("people in the loop")
    group.add_argument(
        "--approve",
        choices=("ask", "auto", "deny", "pause"),
        help="placing the order: ask at the terminal, auto within budget, deny, or pause "
        "(default: ask on a terminal, pause otherwise)",
    )
    group.add_argument(
        "--budget", type=parse_amount, metavar="AMOUNT", help="refuse any order above this total"
    )
    group.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="TEXT",
        help="a scripted reply to the agent's questions (repeatable, used in order)",
    )
    group.add_argument("--max-steps", type=int, default=30, help="model turns before giving up (default 30)")
    group.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="prompt + completion tokens before giving up (default: no limit)",
    )
    group.add_argument(
        "--profile", type=Path, metavar="FILE", help="JSON/YAML with name, address, phone, payment_method"
    )
    group.add_argument("--name", help="customer name (overrides the profile)")
    group.add_argument("--address", help="delivery address (overrides the profile)")
    group.add_argument("--phone", help="phone number (overrides the profile)")
    group.add_argument("--payment", help="payment method, e.g. Cash (overrides the profile)")


def _remote_browser_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("a browser elsewhere").add_mutually_exclusive_group()
    group.add_argument(
        "--browser-ws",
        metavar="URL",
        help="use the browser a Playwright server gives (playwright run-server --port 3000 → ws://HOST:3000/)",
    )
    group.add_argument(
        "--cdp",
        metavar="URL",
        help="use a running Chrome started with --remote-debugging-port (http://HOST:9222)",
    )


def _ray_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("Ray (pip install 'webagent[ray]')")
    group.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run on Ray actors, each with a warm browser: 'local' (the default) starts Ray here, "
        "an address (ray://HOST:10001 or HOST:6379) joins a cluster",
    )
    group.add_argument(
        "--actors", type=int, metavar="N", help="Ray actors (default: 1 locally, one per node in a cluster)"
    )
    group.add_argument(
        "--workers-per-node",
        type=int,
        default=2,
        metavar="N",
        help="runs at once in each actor, as contexts of its browser (default 2)",
    )


class SuggestingParser(argparse.ArgumentParser):
    """argparse, which also suggests the nearest flag for a misspelled one ("did you mean --slow-mo?")."""

    def parse_args(self, args: Any = None, namespace: Any = None) -> argparse.Namespace:  # type: ignore[override]
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            # The subcommand's parser knows its flags and prints its own usage line.
            command = getattr(parsed, "command", None)
            chosen = next(
                (
                    action.choices[command]
                    for action in self._actions
                    if isinstance(action, argparse._SubParsersAction) and command in action.choices
                ),
                self,
            )
            chosen.error(_unrecognized(extras, chosen))
        return parsed


def _unrecognized(extras: list[str], parser: argparse.ArgumentParser) -> str:
    flags = [flag for action in parser._actions for flag in action.option_strings if flag.startswith("--")]
    hints = []
    for extra in extras:
        if extra.startswith("-"):
            close = difflib.get_close_matches(extra.split("=", 1)[0], flags, n=1, cutoff=0.6)
            if close:
                hints.append(f"{extra}: did you mean {close[0]}?")
    return f"unrecognized arguments: {' '.join(extras)}" + (f" ({'; '.join(hints)})" if hints else "")


def _voice_flags(parser: argparse.ArgumentParser, *, chat: bool = False) -> None:
    group = parser.add_argument_group("voice")
    if chat:
        group.add_argument(
            "--voice-in",
            type=Path,
            nargs="+",
            default=[],
            metavar="FILE",
            help="your turns, spoken, one recording per turn (WAV; FLAC/MP3/Ogg/WebM/M4A with OpenAI)",
        )
        group.add_argument(
            "--voice", action="store_true", help="hands-free: listen on the microphone, speak the replies"
        )
    else:
        group.add_argument(
            "--voice-in",
            type=Path,
            metavar="FILE",
            help="the goal, spoken (WAV; FLAC/MP3/Ogg/WebM/M4A with the OpenAI engine)",
        )
    group.add_argument(
        "--speak",
        action="store_true",
        help="speak the agent's questions and final message (saved in the run folder)",
    )
    group.add_argument(
        "--voice-engine",
        choices=("auto", "openai", "offline"),
        default="auto",
        help="openai: the SDK's audio endpoints (at --base-url if given); offline: pocketsphinx and "
        "espeak-ng (default: openai when OPENAI_API_KEY or a base URL is set)",
    )
    group.add_argument("--transcribe-model", metavar="NAME", help="speech-to-text model (openai engine)")
    group.add_argument("--speech-model", metavar="NAME", help="text-to-speech model (openai engine)")


def build_parser() -> argparse.ArgumentParser:
    parser = SuggestingParser(
        prog="webagent",
        description="A browser agent that orders food in the bundled demo shop through typed tools whose "
        "results are short narrations of the page. Works offline: without OPENAI_API_KEY the "
        "deterministic planner drives.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser(
        "run",
        help="run an ordering goal (or --order FILE) headless",
        description="Run one goal in a fresh browser context on the shop.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument(
        "goal", nargs="?", help='what to order, in words: "2 tiramisu from Italian Bistro, pay cash"'
    )
    run.add_argument(
        "--order", type=Path, metavar="FILE", help="a structured order (JSON or YAML) instead of a goal"
    )
    _shop_flags(run)
    _model_flags(run)
    _people_flags(run)
    _voice_flags(run)
    _watch_flags(_display_flags(run))
    _remote_browser_flags(run)

    batch = commands.add_parser(
        "batch",
        help="one run per line of a JSONL file; results to a JSONL file; rerun to go on",
        description="Run each line of FILE.jsonl (a goal or an order, and its own settings) against one "
        "shop, each in its own session; results are appended to --out as each run ends. Running the same "
        "command again skips the lines already there and never orders a line twice. Without --shop-url "
        "an embedded shop is started on OUT's database (OUT.shop.db, kept; --db to choose).",
    )
    batch.add_argument("file", type=Path, metavar="FILE.jsonl")
    batch.add_argument(
        "--out",
        type=Path,
        metavar="OUT.jsonl",
        help="results, one JSON object per line (default: FILE.results.jsonl beside FILE)",
    )
    batch.add_argument(
        "--workers", type=int, default=2, help="runs at once, as contexts of one browser (default 2)"
    )
    _shop_flags(batch)
    _model_flags(batch)
    _people_flags(batch)
    _display_flags(batch)
    _remote_browser_flags(batch)
    _ray_flags(batch)

    resume = commands.add_parser(
        "resume",
        help="continue a paused or interrupted run",
        description="Settle a paused run's pending approval or question and go on. An interrupted run "
        "(killed, Ctrl-C) first asks the shop whether its order exists: if so it is reported, never "
        "placed twice; otherwise the run goes on from its checkpoint. A finished run reports its result.",
    )
    resume.add_argument(
        "run_id",
        metavar="RUN",
        help="the run id (printed when it paused; the run folder's name), or its folder",
    )
    decision = resume.add_mutually_exclusive_group()
    decision.add_argument("--approve", action="store_true", default=None, help="approve the pending order")
    decision.add_argument("--deny", action="store_true", help="deny the pending order")
    resume.add_argument("--answer", metavar="TEXT", help="answer the pending question")
    _model_flags(resume)
    watching = resume.add_argument_group("display and debugging")
    watching.add_argument("--headed", action="store_true", default=None, help="show the browser window")
    watching.add_argument(
        "--slow-mo", type=float, metavar="MS", help="wait MS milliseconds after each browser step"
    )
    _watch_flags(watching)
    _runs_dir_flag(watching)
    watching.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")
    watching.add_argument("--quiet", action="store_true", help="no live view, only the result")

    replay = commands.add_parser(
        "replay",
        help="re-run a recorded run's tool calls and report divergences",
        description="Re-execute the recorded tool calls without any model, with the recorded run's clutter, "
        "init scripts and popup handling; exit 0 when every narration matches, 1 when some step diverges.",
    )
    replay.add_argument(
        "target", metavar="RUN", help="a run folder, its transcript.jsonl, or a run id in --runs-dir"
    )
    replay.add_argument("--shop-url", help="replay against this shop instead of a fresh embedded one")
    replay.add_argument("--db", type=Path, help="the embedded shop's database for the replay")
    replay.add_argument("--headed", action="store_true", help="show the browser window")
    replay.add_argument(
        "--slow-mo", type=float, metavar="MS", help="wait MS milliseconds after each browser step"
    )
    replay.add_argument(
        "--trace", action="store_true", help="record the replay as replay-trace.zip in the run folder"
    )
    _runs_dir_flag(replay)
    replay.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")

    runs = commands.add_parser(
        "runs",
        help="list recent runs: id, goal, outcome, order, steps, wall time",
        description="The most recent runs in the runs directory, newest first.",
    )
    _runs_dir_flag(runs)
    runs.add_argument("--limit", type=int, default=20, metavar="N", help="how many (default 20; 0 for all)")
    runs.add_argument("--json", action="store_true", help="print a JSON list on stdout")

    report = commands.add_parser(
        "report",
        help="write a run's report.html (again)",
        description="Write report.html in a run's folder from its transcript, checkpoint and screenshots: "
        "one self-contained file with every model turn, tool call, narration and screenshot.",
    )
    report.add_argument("run", metavar="RUN", help="a run id (in --runs-dir) or a run folder")
    _runs_dir_flag(report)

    shop = commands.add_parser("shop", help="serve the demo shop", add_help=False)
    shop.add_argument("shop_args", nargs=argparse.REMAINDER)

    models = commands.add_parser(
        "models",
        help="list the models an OpenAI-compatible endpoint serves",
        description="Ask the endpoint which models it serves (GET /models): --base-url, else "
        "OPENAI_BASE_URL, else OpenAI with OPENAI_API_KEY. One name per line.",
    )
    models.add_argument("--base-url", help="an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
    models.add_argument(
        "--timeout", type=parse_seconds, metavar="SECONDS", help="how long to wait (default 60)"
    )
    models.add_argument("--json", action="store_true", help='print {"base_url": ..., "models": [...]}')

    graph = commands.add_parser("graph", help="print the tools' precondition graph")
    graph.add_argument("--format", choices=("mermaid", "dot"), default="mermaid")

    chat = commands.add_parser(
        "chat",
        help="talk to the agent while it drives a browser you can see",
        description="A conversation: you type, the agent acts, you can click too.",
    )
    chat.add_argument("--headless", action="store_true", help="no window (chat is headed by default)")
    _shop_flags(chat)
    _model_flags(chat)
    _people_flags(chat)
    _voice_flags(chat, chat=True)
    _display_flags(chat)

    evaluate = commands.add_parser(
        "eval",
        help="run a task suite and verify outcomes in the shop's database",
        description="Run TASKS.jsonl; each task passes only if the shop's database "
        "shows exactly what it expects. Exit 0 when all pass.",
    )
    evaluate.add_argument("tasks", type=Path, metavar="TASKS.jsonl")
    evaluate.add_argument("--workers", type=int, default=1, help="tasks run in parallel (default 1)")
    evaluate.add_argument("--only", action="append", default=[], metavar="ID", help="run only these task ids")
    _model_flags(evaluate, tuning=False)
    evaluate.add_argument(
        "--baselines",
        action="store_true",
        help="also run the baseline agents (null, ask, random, gullible; each is a --model too) "
        "and print their scores beside this one",
    )
    evaluate.add_argument("--runs-dir", type=Path, default=Path("runs/eval"), help="where run folders go")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    evaluate.add_argument("--quiet", action="store_true", help="no progress bar")
    evaluate.add_argument(
        "--shop-url",
        help="run every task against this shop, each in a session of its own, verified by that "
        "session's order history (default: a fresh embedded shop per task)",
    )
    _remote_browser_flags(evaluate)
    _ray_flags(evaluate)
    return parser


def _load_mapping(path: Path, what: str) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"cannot read {what} {path}: {error.strerror}") from error
    except yaml.YAMLError as error:
        # One line for people: PyYAML's own message spans several, with a drawing of the spot.
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or type(error).__name__
        raise UsageError(f"{what} {path} is not valid JSON or YAML: {problem}{where}") from error
    if not isinstance(data, dict):
        raise UsageError(f"{what} {path} must hold an object (a mapping of fields)")
    return data


def _profile(args: argparse.Namespace) -> Profile:
    base = Profile()
    if args.profile:
        try:
            base = Profile.model_validate(_load_mapping(args.profile, "profile"))
        except ValidationError as error:
            raise UsageError(
                f"profile {args.profile}: {error.errors()[0]['msg']} ({error.errors()[0]['loc']})"
            ) from error
    flags = Profile(name=args.name, address=args.address, phone=args.phone, payment_method=args.payment)
    return base.merged_under(flags)


def _config(args: argparse.Namespace, *, headed_default: bool = False) -> RunConfig:
    from webagent.agent.approval import default_policy

    order = None
    goal = getattr(args, "goal", None)
    if getattr(args, "order", None):
        order = _load_mapping(args.order, "order file")
        from webagent.planner import OrderSpec

        try:
            order = OrderSpec.model_validate(order).model_dump(mode="json", exclude_none=True)
        except ValidationError as error:
            raise UsageError(
                f"order file {args.order}: {error.errors()[0]['msg']} at {error.errors()[0]['loc']}"
            ) from error
    headed = args.headed if args.headed is not None else headed_default
    keep_open, pause_on_failure = getattr(args, "keep_open", False), getattr(args, "pause_on_failure", False)
    headed = headed or keep_open or pause_on_failure  # both are about a window a person looks at
    return RunConfig(
        goal=goal,
        order=order,
        profile=_profile(args),
        shop_url=args.shop_url,
        db_path=args.db,
        clutter=args.clutter,
        seed=args.seed,
        headed=headed,
        slow_mo=args.slow_mo or 0,
        trace=args.trace,
        screenshots=args.screenshots is not False,
        keep_open=keep_open,
        pause_on_failure=pause_on_failure,
        overlay_shortcuts=getattr(args, "overlay_shortcuts", True),
        init_scripts=getattr(args, "init_script", []),
        model=args.model,
        base_url=args.base_url,
        strict=args.strict is not False,
        timeout=args.timeout,
        approve=args.approve or default_policy(),
        budget_cents=args.budget,
        answers=args.answer,
        max_steps=args.max_steps,
        max_tokens=args.max_tokens,
        runs_dir=args.runs_dir,
    )


def _finish(result: RunResult, args: argparse.Namespace) -> int:
    from webagent.narration.narrate import money
    from webagent.report.live import summary_line

    if args.json:
        print(json.dumps(result.model_dump(mode="json")))
    elif not args.quiet or result.outcome != "ordered":
        print(summary_line(result))
    else:
        print(f"Ordered: order #{result.order_id}, total {money(result.total_cents)}")
    report = Path(result.run_dir) / "report.html"
    if result.run_dir and report.is_file() and not getattr(args, "quiet", False):
        print(f"Report: {report}", file=sys.stderr if args.json else sys.stdout)
    trace = Path(result.run_dir) / "trace.zip"
    if result.run_dir and trace.is_file():
        # On stderr with --json: stdout carries exactly one JSON object.
        # --port serves the viewer to any browser: the bare command needs Playwright's own Chromium.
        print(
            f"Trace: playwright show-trace --port 9323 {trace}  (then open http://localhost:9323)",
            file=sys.stderr if args.json else sys.stdout,
        )
    return result.exit_code


def _live(args: argparse.Namespace) -> Any:
    from webagent.report.live import LiveView

    return LiveView(quiet=args.quiet or args.json)


def cmd_run(args: argparse.Namespace) -> int:
    from webagent.report.write import write_report
    from webagent.runs.checkpoint import new_run_id
    from webagent.runs.runner import start_run
    from webagent.sync import run_sync

    given = sum(map(bool, (args.goal, args.order, args.voice_in)))
    if not given:
        raise UsageError('give a goal ("2 tiramisu from Italian Bistro"), --order FILE or --voice-in FILE')
    if given > 1:
        raise UsageError("give either a goal, --order FILE or --voice-in FILE, not both")
    from webagent.voice.run import RunVoice, options_from_args

    config = _config(args)
    options = options_from_args(args)
    # A bad recording or a missing speech engine stops here, before the shop or a browser starts.
    voice = RunVoice.from_options(options) if options is not None else None
    view = _live(args)
    args.run_id = new_run_id()  # known before it starts: a failure or Ctrl-C can still name the run
    prompt = voice.prompt(input) if voice is not None else input

    def start(browser: Any = None) -> Coroutine[Any, Any, RunResult]:
        return start_run(
            config,
            listen=view,
            on_text=view.text,
            run_id=args.run_id,
            browser=browser,
            prompt=prompt,
            voice=voice,
            report=write_report,
        )

    if args.browser_ws or args.cdp:
        return _finish(run_sync(_in_remote_browser(args, start)), args)
    return _finish(run_sync(start()), args)


async def _in_remote_browser(
    args: argparse.Namespace, start: Callable[[Any], Awaitable[RunResult]]
) -> RunResult:
    """A run started by ``start(browser)`` in the browser ``--browser-ws`` or ``--cdp`` names."""
    from webagent.browser.session import Browser

    async with await Browser.open(
        ws_url=args.browser_ws, cdp_url=args.cdp, slow_mo=args.slow_mo or 0
    ) as browser:
        return await start(browser)


def run_location(run: str, runs_dir: Path) -> tuple[Path, str]:
    """(runs directory, run id) of RUN, given as an id in ``runs_dir`` or as the path of its folder
    (or of a file in it, such as its report.html)."""
    path = Path(run)
    if path.name == run and (runs_dir / run / "state.json").is_file():
        return runs_dir, run
    if path.is_file():
        path = path.parent
    if (path / "state.json").is_file():
        return path.parent, path.name
    if "/" in run or "\\" in run:
        raise UsageError(f"{run} is not a run folder: it has no state.json")
    return runs_dir, run


def cmd_resume(args: argparse.Namespace) -> int:
    from webagent.report.write import write_report
    from webagent.runs.checkpoint import RunFolder
    from webagent.runs.runner import make_model, resume_run
    from webagent.sync import run_sync

    approve = True if args.approve else (False if args.deny else None)
    args.runs_dir, args.run_id = run_location(args.run_id, args.runs_dir)  # also for _failure's sake
    state = RunFolder.find(args.runs_dir, args.run_id).load()
    if state.status == "finished" and state.result is not None:
        print(f"webagent: run {args.run_id} already finished; nothing to resume", file=sys.stderr)
        message = f"run already finished: {state.result.message}"
        return _finish(state.result.model_copy(update={"message": message}), args)
    changed = (
        ("model", args.model),
        ("base_url", args.base_url),
        ("strict", args.strict),
        ("timeout", args.timeout),
    )
    config = state.config.model_copy(update={k: v for k, v in changed if v is not None})
    view = _live(args)
    watching = args.keep_open or args.pause_on_failure
    result = run_sync(
        resume_run(
            args.run_id,
            args.runs_dir,
            approve=approve,
            answer=args.answer,
            listen=view,
            model=make_model(config, on_text=view.text),
            headed=True if watching else args.headed,
            slow_mo=args.slow_mo,
            keep_open=args.keep_open or None,
            pause_on_failure=args.pause_on_failure or None,
            report=write_report,
        )
    )
    return _finish(result, args)


def _failure(args: argparse.Namespace, message: str) -> dict[str, Any]:
    """The one JSON object of a run that stopped on an error: its closed-out result when there is one."""
    from webagent.runs.checkpoint import RunFolder

    run_id = getattr(args, "run_id", None)
    if run_id and getattr(args, "runs_dir", None):
        folder = RunFolder(args.runs_dir, run_id)
        try:
            state = folder.load()
        except (OSError, ValueError):
            state = None
        if state is not None:
            closed = state.result if state.status == "finished" else None
            if closed is not None and closed.outcome == "failed":
                return closed.model_dump(mode="json")
            return state.result_of("failed", message, str(folder.path)).model_dump(mode="json")
    empty = RunResult(run_id="", outcome="failed", message=message).model_dump(mode="json")
    return {**empty, "run_id": None, "run_dir": None}


def _fail(args: argparse.Namespace, message: str, code: int) -> int:
    """One line for people on stderr; with --json, also exactly one JSON object on stdout."""
    print(f"webagent: {message}", file=sys.stderr)
    if getattr(args, "json", False) and args.command in ("run", "resume"):
        print(json.dumps(_failure(args, message)))
    return code


def cmd_replay(args: argparse.Namespace) -> int:
    from webagent.runs.replay import replay
    from webagent.sync import run_sync

    target = Path(args.target)
    if not target.exists() and (args.runs_dir / args.target).is_dir():
        target = args.runs_dir / args.target  # a run id
    report = run_sync(
        replay(
            target,
            shop_url=args.shop_url,
            db_path=args.db,
            headed=args.headed,
            slow_mo=args.slow_mo or 0,
            trace=args.trace,
        )
    )
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        for d in report.divergences:
            print(
                f"step {d.step} {d.tool} {d.arguments} diverged:\n  expected: "
                + "\n            ".join(d.expected.splitlines())
                + "\n  got:      "
                + "\n            ".join(d.got.splitlines())
            )
        verdict = "no divergence" if report.clean else f"{len(report.divergences)} step(s) diverged"
        for note in report.skipped:
            print(note)
        print(f"Replayed {report.replayed} tool calls from {report.transcript}: {verdict}.")
    if report.trace:
        print(
            f"Trace: playwright show-trace --port 9323 {report.trace}",
            file=sys.stderr if args.json else sys.stdout,
        )
    return 0 if report.clean else 1


def cmd_runs(args: argparse.Namespace) -> int:
    from webagent.narration.narrate import money
    from webagent.report.record import list_runs

    runs = list_runs(args.runs_dir, limit=args.limit or None)
    if args.json:
        print(json.dumps([run.as_json() for run in runs]))
        return 0
    if not runs:
        print(f"No runs in {args.runs_dir}.")
        return 0
    for run in runs:
        order = f"#{run.order_id} {money(run.total_cents)}" if run.order_id is not None else "—"
        goal = run.goal if len(run.goal) <= 60 else run.goal[:59] + "…"
        print(
            f"{run.run_id}  {run.outcome:<10} {order:<14} {run.steps:>3} steps {run.wall_s:>6.1f} s  {goal}"
        )
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from webagent.report.write import write_report
    from webagent.runs.checkpoint import RunFolder

    runs_dir, run_id = run_location(args.run, args.runs_dir)
    folder = RunFolder.find(runs_dir, run_id)
    print(write_report(folder.path))
    return 0


def cmd_shop(args: argparse.Namespace) -> int:
    from demo_site.__main__ import main as shop_main

    shop_main(args.shop_args)
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    from webagent.errors import ModelError
    from webagent.llm.model import OpenAIModel
    from webagent.sync import run_sync

    endpoint = OpenAIModel(base_url=args.base_url, timeout=args.timeout)
    served = run_sync(endpoint.served_models())
    if served is None:
        raise ModelError(f"{endpoint.base_url} does not list its models (GET {endpoint.base_url}/models)")
    if args.json:
        print(json.dumps({"base_url": endpoint.base_url, "models": served}))
    else:
        print("\n".join(served) if served else f"{endpoint.base_url} serves no models")
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    from webagent.tools.graph import render

    print(render(args.format))
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    from webagent.report.write import write_report
    from webagent.runs.chat import converse
    from webagent.sync import run_sync

    if args.headless:
        args.headed = False
    config = _config(args, headed_default=True)
    if args.approve is None:
        config = config.model_copy(update={"approve": "ask"})
    from webagent.voice.run import options_from_args

    options = options_from_args(args)
    if options is not None:
        from webagent.voice.handsfree import VoiceChat

        run_sync(VoiceChat.from_options(options, hands_free=args.voice).converse(config, _live(args)))
        return 0
    run_sync(converse(config, _live(args), report=write_report))
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    from webagent.fleet.batch import main as batch_main

    if args.approve is None:
        args.approve = "pause"  # no terminal per run: unapproved orders wait for `webagent resume`
    return batch_main(args, _config(args))


def cmd_eval(args: argparse.Namespace) -> int:
    from webagent.evals.command import main as eval_main

    return eval_main(args)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": cmd_run,
    "resume": cmd_resume,
    "replay": cmd_replay,
    "runs": cmd_runs,
    "report": cmd_report,
    "shop": cmd_shop,
    "models": cmd_models,
    "graph": cmd_graph,
    "chat": cmd_chat,
    "eval": cmd_eval,
    "batch": cmd_batch,
}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``webagent`` command; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["shop"]:
        # argparse's REMAINDER does not take arguments that start with "-" after a subcommand
        # ("webagent shop --port 0" would be an error), so the shop's own parser gets them directly.
        return cmd_shop(argparse.Namespace(shop_args=argv[1:]))
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return COMMANDS[args.command](args)
    except UsageError as error:
        return _fail(args, str(error), 2)
    except (RunError, WebagentError) as error:
        return _fail(args, str(error), 1)
    except KeyboardInterrupt:
        run_id = getattr(args, "run_id", None)
        again = f"; continue it with: webagent resume {run_id}" if run_id else ""
        return _fail(args, f"interrupted; the run's transcript and checkpoint are kept{again}", 130)
    except Exception as error:
        if getattr(args, "json", False) and args.command in ("run", "resume"):
            print(json.dumps(_failure(args, f"internal error: {error!r}")))  # stdout's one object
        raise


if __name__ == "__main__":
    sys.exit(main())
