"""The tools: one pydantic argument model and one function per action, run by the toolbox.

- `webagent.tools.base` — `Args` and `Tool`, what every tool is made of;
- `webagent.tools.context` — `ToolContext`, what a tool function gets, and `SitePage`, what it needs
  from the site;
- `webagent.tools.generic` — generic actions for what a site's typed tools do not cover (press a
  button by its name, fill a field by its label, choose an option, press a key, scroll to a text);
- `webagent.tools.common` — tools every site gets: read the page, ask the person, finish;
- `webagent.tools.toolbox` — validate → precondition → act → narrate, for the tools of a `Site`.

A site's typed tools (the demo shop's search, open, add to cart, checkout…) live with its adapter in
`webagent.sites`; this package never imports an adapter. It may import narration, browser, llm (the
strict schemas) and `webagent.tools.site` (the Protocol).

The argument model's docstring is the tool's description the model reads.
"""

from __future__ import annotations

from webagent.tools.base import Args, Outcome, Tool, ToolFunction
from webagent.tools.common import LOOP_TOOLS, READ_PAGE, AskHuman, Finish, ReadPage
from webagent.tools.generic import (
    GENERIC_TOOLS,
    ChooseOption,
    FillField,
    Press,
    PressKey,
    ScrollTo,
)

__all__ = [
    "GENERIC_TOOLS",
    "LOOP_TOOLS",
    "READ_PAGE",
    "Args",
    "AskHuman",
    "ChooseOption",
    "FillField",
    "Finish",
    "Outcome",
    "Press",
    "PressKey",
    "ReadPage",
    "ScrollTo",
    "Tool",
    "ToolFunction",
]
