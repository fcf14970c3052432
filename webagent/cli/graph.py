"""``webagent graph``: the tools' precondition graph as Mermaid or Graphviz dot.

The cli's one import of the graph module is in `execute`.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["NAME", "add_parser", "execute"]

NAME = "graph"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    graph = commands.add_parser(NAME, help="print the tools' precondition graph")
    graph.add_argument("--format", choices=("mermaid", "dot"), default="mermaid")


def execute(args: argparse.Namespace) -> int:
    from webagent.sites.demo_shop.graph import render

    print(render(args.format))
    return 0
