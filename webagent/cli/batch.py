"""``webagent batch``: one run per line of a JSONL file, results appended to a JSONL file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from webagent.cli.config import run_config
from webagent.cli.flags import (
    display_flags,
    model_flags,
    people_flags,
    ray_flags,
    remote_browser_flags,
    shop_flags,
)

__all__ = ["NAME", "add_parser", "execute"]

NAME = "batch"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    batch = commands.add_parser(
        NAME,
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
    shop_flags(batch)
    model_flags(batch)
    people_flags(batch)
    display_flags(batch)
    remote_browser_flags(batch)
    ray_flags(batch)


def execute(args: argparse.Namespace) -> int:
    from webagent.fleet.batch import main as batch_main

    if args.approve is None:
        args.approve = "pause"  # no terminal per run: unapproved orders wait for `webagent resume`
    # A line is never ordered twice because its site keeps each session's orders (fleet/settle.py): a site
    # without such a history (`Site.order_sessions`) is refused there, by what it can do, not by its name.
    return batch_main(args, run_config(args))
