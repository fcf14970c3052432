"""``webagent mcp``: the narrated tools served to any MCP client (Claude Desktop, Cursor, VS Code, an
OpenAI Agents SDK app) through the official Python SDK (``mcp`` 2.x), over stdio or streamable HTTP.

- `webagent.mcp_server.bridge` — `ClientTurns`: the loop's model slot filled by an MCP client, each
  turn one of its tool calls, each answer the narration the loop appended;
- `webagent.mcp_server.session` — `McpSession`: one MCP connection's run (its own browser context,
  shop session, run folder, approval through elicitation);
- `webagent.mcp_server.server` — `McpSettings`, `build_server`, `serve`: the tools registered from the
  site's argument models, the sessions keyed by connection, the transports.

Each MCP connection is one run of `webagent.runs.runner.start_run`: the same toolbox, preconditions,
popup handling, approval gate, budget, journal and run folder as ``webagent run``; the MCP client takes
the model's place. This package may import the runs, agent, tools, narration, browser and site layers,
``webagent.config`` and ``webagent.errors``, and the ``mcp`` SDK; only the CLI imports it. It is not
named ``mcp``, so that no import of the SDK can find it instead.
"""

from __future__ import annotations

from webagent.mcp_server.server import McpSettings, PageView, build_server, serve

__all__ = ["McpSettings", "PageView", "build_server", "serve"]
