"""``webagent models``: the models an OpenAI-compatible endpoint serves (GET /models)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from webagent.cli.flags import parse_seconds

__all__ = ["NAME", "add_parser", "execute"]

NAME = "models"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    models = commands.add_parser(
        NAME,
        help="list the models an OpenAI-compatible endpoint serves",
        description="Ask the endpoint which models it serves (GET /models): --base-url, else "
        "OPENAI_BASE_URL, else OpenAI with OPENAI_API_KEY. One name per line.",
    )
    models.add_argument("--base-url", help="an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
    models.add_argument(
        "--timeout", type=parse_seconds, metavar="SECONDS", help="how long to wait (default 60)"
    )
    models.add_argument("--json", action="store_true", help='print {"base_url": ..., "models": [...]}')


def execute(args: argparse.Namespace) -> int:
    from webagent.errors import ModelError
    from webagent.llm.openai_client import OpenAIModel
    from webagent.sync import run_sync

    endpoint = OpenAIModel(base_url=args.base_url, timeout=args.timeout)
    served = run_sync(endpoint.served_models())
    if served is None:
        raise ModelError(f"{endpoint.base_url} does not list its models (GET {endpoint.base_url}/models)")
    if args.json:
        print(json.dumps({"base_url": endpoint.base_url, "models": served}))
    else:
        print("\n".join(served) if served else f"{endpoint.base_url} serves no models")
    return 0
