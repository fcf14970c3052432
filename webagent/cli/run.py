"""``webagent run``: one goal, order file or spoken goal, in a fresh browser context on the shop."""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

from webagent.agent.result import RunResult
from webagent.cli.config import run_config
from webagent.cli.flags import (
    EXAMPLES,
    display_flags,
    model_flags,
    people_flags,
    remote_browser_flags,
    shop_flags,
    voice_flags,
    watch_flags,
)
from webagent.cli.output import finish, live_view
from webagent.errors import UsageError

__all__ = ["NAME", "add_parser", "execute"]

NAME = "run"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    run = commands.add_parser(
        NAME,
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
    shop_flags(run)
    model_flags(run)
    people_flags(run)
    voice_flags(run)
    watch_flags(display_flags(run))
    remote_browser_flags(run)


def execute(args: argparse.Namespace) -> int:
    from webagent.agent.checkpoint import new_run_id
    from webagent.report.write import write_report
    from webagent.runs.runner import start_run
    from webagent.sync import run_sync

    given = sum(map(bool, (args.goal, args.order, args.voice_in)))
    if not given:
        raise UsageError('give a goal ("2 tiramisu from Italian Bistro"), --order FILE or --voice-in FILE')
    if given > 1:
        raise UsageError("give either a goal, --order FILE or --voice-in FILE, not both")
    from webagent.voice.run import RunVoice, options_from_args

    config = run_config(args)
    options = options_from_args(args)
    # A bad recording or a missing speech engine stops here, before the shop or a browser starts.
    voice = RunVoice.from_options(options) if options is not None else None
    view = live_view(args)
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
        return finish(run_sync(_in_remote_browser(args, start)), args)
    return finish(run_sync(start()), args)


async def _in_remote_browser(
    args: argparse.Namespace, start: Callable[[Any], Awaitable[RunResult]]
) -> RunResult:
    """A run started by ``start(browser)`` in the browser ``--browser-ws`` or ``--cdp`` names."""
    from webagent.browser.session import Browser

    async with await Browser.open(
        ws_url=args.browser_ws, cdp_url=args.cdp, slow_mo=args.slow_mo or 0
    ) as browser:
        return await start(browser)
