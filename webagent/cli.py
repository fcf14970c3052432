"""``webagent``: headless ordering runs, headed debugging, scripted orders, resume, replay, chat.

Exit codes: 0 ordered or done · 1 failed · 2 usage error · 3 paused (awaiting approval or an answer) ·
130 interrupted (Ctrl-C; the transcript so far is kept).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from webagent.config import Profile, RunConfig
from webagent.errors import RunError, UsageError, WebagentError
from webagent.result import RunResult

__all__ = ["main"]

EXAMPLES = """examples:
  webagent run "Order 2 Margherita Pizza (Large) from Italian Bistro, deliver at 7pm, pay cash" --approve auto
  webagent run --order order.json --profile me.yaml --json
  webagent run "a tiramisu from Italian Bistro" --headed --slow-mo 400 --trace
  webagent run --voice-in goal.wav --speak --approve auto
  webagent resume 20261129-140209-a1b2c3 --approve
  webagent replay runs/20261129-140209-a1b2c3
  webagent chat
  webagent chat --voice
  webagent shop --port 8000 --clutter 2
  webagent graph --format dot

exit codes: 0 ordered/done · 1 failed · 2 usage error · 3 paused (resume it with `webagent resume`) ·
130 interrupted
"""


def parse_amount(text: str) -> int:
    """``"40"``, ``"$40"``, ``"39.50"`` → cents."""
    match = re.fullmatch(r"\s*\$?\s*(\d+)(?:\.(\d{1,2}))?\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"not an amount: {text!r} (write e.g. 40 or 39.50)")
    return int(match.group(1)) * 100 + int((match.group(2) or "0").ljust(2, "0"))


def _display_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("display and debugging")
    group.add_argument("--headed", action="store_true", default=None, help="show the browser window")
    group.add_argument(
        "--slow-mo", type=float, metavar="MS", help="wait MS milliseconds after each browser step"
    )
    group.add_argument(
        "--trace", action="store_true", help="record trace.zip in the run folder (playwright show-trace)"
    )
    group.add_argument("--screenshots", action="store_true", help="save a screenshot after each tool call")
    group.add_argument(
        "--runs-dir", type=Path, default=Path("runs"), help="where run folders go (default ./runs)"
    )
    group.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")
    group.add_argument("--quiet", action="store_true", help="no live view, only the result")


def _model_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("model")
    group.add_argument(
        "--model", help="'planner' (offline, the default without OPENAI_API_KEY) or a model name"
    )
    group.add_argument("--base-url", help="an OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp server)")


def _shop_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("shop")
    group.add_argument(
        "--clutter",
        type=int,
        choices=range(4),
        default=0,
        metavar="{0..3}",
        help="clutter level: 0 clean … 3 popups, late menus, slow API (default 0)",
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
    parser = argparse.ArgumentParser(
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
    _display_flags(run)

    resume = commands.add_parser(
        "resume",
        help="continue a paused run",
        description="Settle a paused run's pending approval or question and go on.",
    )
    resume.add_argument("run_id", help="the run id printed when it paused")
    decision = resume.add_mutually_exclusive_group()
    decision.add_argument("--approve", action="store_true", default=None, help="approve the pending order")
    decision.add_argument("--deny", action="store_true", help="deny the pending order")
    resume.add_argument("--answer", metavar="TEXT", help="answer the pending question")
    _model_flags(resume)
    _display_flags(resume)

    replay = commands.add_parser(
        "replay",
        help="re-run a recorded run's tool calls and report divergences",
        description="Re-execute the recorded tool calls without any model; exit 0 "
        "when every narration matches, 1 when some step diverges.",
    )
    replay.add_argument("target", type=Path, metavar="RUN_DIR_OR_TRANSCRIPT")
    replay.add_argument("--shop-url", help="replay against this shop instead of a fresh embedded one")
    replay.add_argument("--db", type=Path, help="the embedded shop's database for the replay")
    _display_flags(replay)

    shop = commands.add_parser("shop", help="serve the demo shop", add_help=False)
    shop.add_argument("shop_args", nargs=argparse.REMAINDER)

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
    _model_flags(evaluate)
    evaluate.add_argument("--runs-dir", type=Path, default=Path("runs/eval"), help="where run folders go")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    evaluate.add_argument("--quiet", action="store_true", help="no progress bar")
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
    from webagent.approval import default_policy

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
        screenshots=args.screenshots,
        model=args.model,
        base_url=args.base_url,
        approve=args.approve or default_policy(),
        budget_cents=args.budget,
        answers=args.answer,
        max_steps=args.max_steps,
        max_tokens=args.max_tokens,
        runs_dir=args.runs_dir,
    )


def _finish(result: RunResult, args: argparse.Namespace) -> int:
    from webagent.display import summary_line
    from webagent.narrate import money

    if args.json:
        print(json.dumps(result.model_dump(mode="json")))
    elif not args.quiet or result.outcome != "ordered":
        print(summary_line(result))
    else:
        print(f"Ordered: order #{result.order_id}, total {money(result.total_cents)}")
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
    from webagent.display import LiveView

    return LiveView(quiet=args.quiet or args.json)


def cmd_run(args: argparse.Namespace) -> int:
    from webagent.runner import make_model, start_run, uses_planner
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
    # A spoken goal is known only once transcribed: the planner is then built for it by the run.
    spoken_for_planner = args.voice_in and uses_planner(config)
    model = None if spoken_for_planner else make_model(config, on_text=view.text)
    prompt = voice.prompt(input) if voice is not None else input
    return _finish(run_sync(start_run(config, model=model, listen=view, prompt=prompt, voice=voice)), args)


def cmd_resume(args: argparse.Namespace) -> int:
    from webagent.checkpoint import RunFolder
    from webagent.runner import make_model, resume_run
    from webagent.sync import run_sync

    approve = True if args.approve else (False if args.deny else None)
    state = RunFolder.find(args.runs_dir, args.run_id).load()
    if state.status == "finished" and state.result is not None:
        print(f"webagent: run {args.run_id} already finished; nothing to resume", file=sys.stderr)
        message = f"run already finished: {state.result.message}"
        return _finish(state.result.model_copy(update={"message": message}), args)
    config = state.config.model_copy(
        update={k: v for k, v in (("model", args.model), ("base_url", args.base_url)) if v}
    )
    view = _live(args)
    result = run_sync(
        resume_run(
            args.run_id,
            args.runs_dir,
            approve=approve,
            answer=args.answer,
            listen=view,
            model=make_model(config, on_text=view.text),
            headed=args.headed,
            slow_mo=args.slow_mo,
        )
    )
    return _finish(result, args)


def cmd_replay(args: argparse.Namespace) -> int:
    from webagent.replay import replay
    from webagent.sync import run_sync

    report = run_sync(
        replay(
            args.target,
            shop_url=args.shop_url,
            db_path=args.db,
            headed=bool(args.headed),
            slow_mo=args.slow_mo or 0,
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
    return 0 if report.clean else 1


def cmd_shop(args: argparse.Namespace) -> int:
    from demo_site.__main__ import main as shop_main

    shop_main(args.shop_args)
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    from webagent.graph import render

    print(render(args.format))
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    from webagent.session import converse
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
    run_sync(converse(config, _live(args)))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from webagent.eval import main as eval_main

    return eval_main(args)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": cmd_run,
    "resume": cmd_resume,
    "replay": cmd_replay,
    "shop": cmd_shop,
    "graph": cmd_graph,
    "chat": cmd_chat,
    "eval": cmd_eval,
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
        print(f"webagent: {error}", file=sys.stderr)
        return 2
    except (RunError, WebagentError) as error:
        print(f"webagent: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("webagent: interrupted; the run's transcript is kept in its run folder", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
