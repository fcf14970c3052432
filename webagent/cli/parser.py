"""The ``webagent`` parser, composed of the commands' own subparsers, and its misspelled-flag hints.

`COMMANDS` lists the command modules in the order ``webagent --help`` shows them; each adds its
subparser (`add_parser`) and runs the parsed arguments (`execute`).
"""

from __future__ import annotations

import argparse
import difflib
from typing import Any, Protocol

from webagent.cli import batch, chat, evaluate, graph, mcp, models, replay, report, resume, run, runs, shop
from webagent.cli.flags import EXAMPLES

__all__ = ["COMMANDS", "Command", "SuggestingParser", "build_parser"]


class Command(Protocol):
    """A command module: its name, its subparser, what it does."""

    NAME: str

    def add_parser(self, commands: argparse._SubParsersAction[Any]) -> None: ...

    def execute(self, args: argparse.Namespace) -> int: ...


COMMANDS: tuple[Command, ...] = (
    run,
    batch,
    resume,
    replay,
    runs,
    report,
    shop,
    models,
    graph,
    chat,
    evaluate,
    mcp,
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
    for command in COMMANDS:
        command.add_parser(commands)
    return parser
