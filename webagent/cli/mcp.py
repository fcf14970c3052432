"""``webagent mcp``: serve the narrated tools to MCP clients, over stdio (default) or streamable HTTP."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from webagent.cli.config import profile_from, site_checked
from webagent.cli.flags import people_flags, runs_dir_flag, screenshot_flags, shop_flags, window_flags
from webagent.errors import UsageError

__all__ = ["NAME", "add_parser", "execute", "parse_http"]

NAME = "mcp"

EXAMPLES = """examples:
  webagent mcp                                   # stdio, for Claude Desktop, Cursor, VS Code (docs/mcp.md)
  webagent mcp --http 127.0.0.1:8765             # streamable HTTP at http://127.0.0.1:8765/mcp
  webagent mcp --shop-url http://127.0.0.1:8000 --budget 60 --headed
"""


def parse_http(text: str) -> tuple[str, int]:
    """``"8765"`` or ``"HOST:8765"`` → (host, port); the host defaults to 127.0.0.1 (this machine only)."""
    match = re.fullmatch(r"(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})", text.strip())
    if not match or not 0 < int(match.group(2)) < 65536:
        raise argparse.ArgumentTypeError(f"not [HOST:]PORT: {text!r} (write e.g. 8765 or 127.0.0.1:8765)")
    return (match.group(1) or "127.0.0.1").strip("[]"), int(match.group(2))


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    mcp = commands.add_parser(
        NAME,
        help="serve the tools to MCP clients (Claude Desktop, Cursor, VS Code, OpenAI Agents SDK)",
        description="Serve webagent's narrated tools over MCP: each client session gets its own browser "
        "context, shop session and run folder; placing an order asks the person through the client "
        "(elicitation) or pauses the run for `webagent resume`.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mcp.add_argument(
        "--http",
        type=parse_http,
        metavar="[HOST:]PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (HOST defaults to 127.0.0.1)",
    )
    shop_flags(mcp)
    people_flags(mcp)
    mcp.set_defaults(max_steps=500)  # one step is one client call; a session may make many
    display = mcp.add_argument_group("display and debugging")
    window_flags(display)
    display.add_argument("--trace", action="store_true", help="record trace.zip in each session's run folder")
    screenshot_flags(display)
    runs_dir_flag(display, written=True)


def execute(args: argparse.Namespace) -> int:
    from webagent.config import RunConfig
    from webagent.mcp_server import McpSettings, serve
    from webagent.mcp_server.server import describe
    from webagent.report.write import write_report
    from webagent.sync import run_sync

    if args.answer:
        raise UsageError("--answer has no use here: the MCP client talks to its person itself")
    config = RunConfig(
        profile=profile_from(args),
        site=site_checked(args.site, args.shop_url),
        shop_url=args.shop_url,
        db_path=args.db,
        clutter=args.clutter,
        seed=args.seed,
        headed=bool(args.headed),
        slow_mo=args.slow_mo or 0,
        trace=args.trace,
        screenshots="views" if args.screenshots is None else args.screenshots,
        approve=args.approve or "ask",
        budget_cents=args.budget,
        max_steps=args.max_steps,
        max_tokens=args.max_tokens,
        runs_dir=args.runs_dir,
    )
    settings = McpSettings(
        config, approve_given=args.approve is not None, report=write_report, http=args.http
    )
    print(f"webagent mcp: {describe(settings)}", file=sys.stderr)  # stdout is the protocol's, on stdio
    run_sync(serve(settings))
    return 0
