"""``webagent shop``: serve the demo shop; its arguments go to the shop's own parser, untouched."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["NAME", "add_parser", "execute"]

NAME = "shop"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    # Only for ``webagent --help``: main hands ``webagent shop ...`` to the shop before parsing.
    shop = commands.add_parser(NAME, help="serve the demo shop", add_help=False)
    shop.add_argument("shop_args", nargs=argparse.REMAINDER)


def execute(args: argparse.Namespace) -> int:
    from demo_site.__main__ import main as shop_main

    shop_main(args.shop_args)
    return 0
