"""``webagent mcp``'s own flag: where streamable HTTP listens."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webagent.cli.mcp import parse_http
from webagent.cli.parser import build_parser


def test_a_port_alone_listens_on_this_machine_only() -> None:
    assert parse_http("8765") == ("127.0.0.1", 8765)
    assert parse_http("0.0.0.0:9000") == ("0.0.0.0", 9000)
    assert parse_http("[::1]:8765") == ("::1", 8765)


@given(st.text(max_size=20))
def test_anything_else_is_a_usage_error_naming_the_form(text: str) -> None:
    try:
        host, port = parse_http(text)
    except argparse.ArgumentTypeError as error:
        assert "[HOST:]PORT" in str(error)
    else:
        assert host and 0 < port < 65536


def test_the_command_takes_the_shop_people_and_window_flags() -> None:
    args = build_parser().parse_args(
        ["mcp", "--http", "8765", "--approve", "auto", "--budget", "60", "--headed"]
    )
    assert (args.http, args.approve, args.budget, args.headed) == (("127.0.0.1", 8765), "auto", 6000, True)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["mcp", "--http", "localhost"])
