"""The entry point: parse, dispatch to the command's module, and turn what stops it into an exit code.

Exit codes: 0 ordered or done · 1 failed · 2 usage error · 3 paused (awaiting approval or an answer) ·
130 interrupted (Ctrl-C; ``webagent resume`` continues the run). Errors are one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from webagent.cli import shop
from webagent.cli.output import JSON_COMMANDS, failure_json
from webagent.cli.parser import COMMANDS, build_parser
from webagent.errors import RunError, UsageError, WebagentError

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``webagent`` command; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == [shop.NAME]:
        # argparse's REMAINDER does not take arguments that start with "-" after a subcommand
        # ("webagent shop --port 0" would be an error), so the shop's own parser gets them directly.
        return shop.execute(argparse.Namespace(shop_args=argv[1:]))
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    execute = {command.NAME: command.execute for command in COMMANDS}[args.command]
    try:
        return execute(args)
    except UsageError as error:
        return _fail(args, str(error), 2)
    except (RunError, WebagentError) as error:
        return _fail(args, str(error), 1)
    except KeyboardInterrupt:
        run_id = getattr(args, "run_id", None)
        again = f"; continue it with: webagent resume {run_id}" if run_id else ""
        return _fail(args, f"interrupted; the run's transcript and checkpoint are kept{again}", 130)
    except Exception as error:
        if getattr(args, "json", False) and args.command in JSON_COMMANDS:
            print(json.dumps(failure_json(args, f"internal error: {error!r}")))  # stdout's one object
        raise


def _fail(args: argparse.Namespace, message: str, code: int) -> int:
    """One line for people on stderr; with --json, also exactly one JSON object on stdout."""
    print(f"webagent: {message}", file=sys.stderr)
    if getattr(args, "json", False) and args.command in JSON_COMMANDS:
        print(json.dumps(failure_json(args, message)))
    return code


if __name__ == "__main__":
    sys.exit(main())
