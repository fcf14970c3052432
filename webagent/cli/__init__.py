"""The `webagent` command: one module per command, the parser apart."""

from webagent.cli.main import main

__all__ = ["main"]
