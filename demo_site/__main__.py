"""`python -m demo_site`: serve the shop until interrupted."""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from demo_site.config import ShopConfig
from demo_site.server import bind_socket, make_server


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m demo_site",
        description="Serve the demo food-delivery shop that webagent drives.",
    )
    parser.add_argument("--port", type=int, default=8000, help="TCP port; 0 picks a free one (default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--clutter",
        type=int,
        choices=range(5),
        default=0,
        metavar="{0..4}",
        help="default clutter level for new sessions: 0 clean … 3 popups, late menus, slow API, "
        "4 + unpredictable popups (default 0)",
    )
    parser.add_argument(
        "--seed", type=int, default=7, help="default seed for clutter timing and faults (default 7)"
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=Path("shop.db"),
        help="SQLite file; created and seeded if missing, orders kept across restarts (default shop.db)",
    )
    parser.add_argument(
        "--flaky",
        type=float,
        default=0.0,
        metavar="P",
        help="probability 0-1 that an /api/* call answers 503 'The kitchen is busy' (default 0)",
    )
    return parser


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, print the URL, serve until Ctrl-C."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not 0.0 <= args.flaky <= 1.0:
        parser.error("--flaky must be between 0 and 1")
    if args.seed < 0:
        parser.error("--seed must not be negative")
    config = ShopConfig(db_path=args.db, clutter=args.clutter, seed=args.seed, flaky=args.flaky)
    try:
        server = make_server(config, log_level="info")
    except sqlite3.Error as error:
        parser.error(f"cannot open the database {args.db}: {error}")
    try:
        sock = bind_socket(args.host, args.port)
    except OSError as error:
        parser.error(f"cannot listen on {args.host}:{args.port}: {error.strerror}")
    port = sock.getsockname()[1]
    print(f"Shop running at http://{args.host}:{port}", flush=True)
    server.run(sockets=[sock])


if __name__ == "__main__":
    main()
