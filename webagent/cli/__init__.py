"""The ``webagent`` command: one module per command, the parser composed of theirs.

- `main` — the entry point: parse, dispatch, turn errors into exit codes (0/1/2/3, 130) and one line.
- `parser` — the top-level parser, the list of commands, the misspelled-flag suggestion.
- `flags` — the flags several commands share (model, shop, people, display, browser, Ray, voice),
  each defined once, their value types, and the help's examples.
- `config` — parsed flags → `RunConfig` (profile and order files read) and a RUN argument's folder.
- `output` — what a run's end prints (``--json``: exactly one object), the live view.
- one module per command, each adding its subparser and running it: `run`, `batch`, `resume`,
  `replay`, `runs`, `report`, `shop`, `models`, `graph`, `chat`, `evaluate` (``webagent eval``),
  `mcp` (the tools served to MCP clients: webagent/mcp_server).

The people-facing top: the cli may import everything below it (runs, agent, fleet, evals, report, voice, mcp_server,
llm, tools, narration, browser, the demo shop); nothing in webagent imports the cli.
"""

from webagent.cli.main import main

__all__ = ["main"]
