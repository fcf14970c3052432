"""``webagent chat``: a conversation with the agent while it drives a browser you can see (or hear)."""

from __future__ import annotations

import argparse
from typing import Any

from webagent.cli.config import run_config
from webagent.cli.flags import display_flags, model_flags, people_flags, shop_flags, voice_flags
from webagent.cli.output import live_view

__all__ = ["NAME", "add_parser", "execute"]

NAME = "chat"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    chat = commands.add_parser(
        NAME,
        help="talk to the agent while it drives a browser you can see",
        description="A conversation: you type, the agent acts, you can click too.",
    )
    chat.add_argument("--headless", action="store_true", help="no window (chat is headed by default)")
    shop_flags(chat)
    model_flags(chat)
    people_flags(chat)
    voice_flags(chat, chat=True)
    display_flags(chat)


def execute(args: argparse.Namespace) -> int:
    from webagent.report.write import write_report
    from webagent.runs.chat import converse
    from webagent.sync import run_sync

    if args.headless:
        args.headed = False
    config = run_config(args, headed_default=True)
    if args.approve is None:
        config = config.model_copy(update={"approve": "ask"})
    from webagent.voice.run import options_from_args

    options = options_from_args(args)
    if options is not None:
        from webagent.voice.handsfree import VoiceChat

        run_sync(VoiceChat.from_options(options, hands_free=args.voice).converse(config, live_view(args)))
        return 0
    run_sync(converse(config, live_view(args), report=write_report))
    return 0
