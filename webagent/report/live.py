"""The live view a person watches: each model turn, each tool call with its narration and timing.

It is a listener on the loop's events and writes to stderr, so ``--json`` keeps stdout to exactly one
JSON object (and turns the live view off). On a terminal long lines wrap to its width, indented under
their call; anywhere else (a pipe, a CI log) a line is never broken. Nothing here is ever sent to the model.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text

from webagent.agent.result import RunResult
from webagent.narration.money import money

__all__ = ["LiveView", "summary_line"]


class LiveView:
    """Prints loop events as they happen; silent when ``quiet``."""

    def __init__(self, console: Console | None = None, *, quiet: bool = False) -> None:
        self.console = console or Console(stderr=True, highlight=False)
        self.quiet = quiet
        self.turn = 0
        self._streaming = False

    def __call__(self, kind: str, fields: dict[str, Any]) -> None:
        if self.quiet:
            return
        if self._streaming and kind != "text":
            self.console.print()
            self._streaming = False
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(fields)

    def text(self, delta: str) -> None:
        """Assistant text as it streams in."""
        if not self.quiet:
            self._streaming = True
            self.console.print(escape(delta), end="", style="italic", soft_wrap=True)

    def _on_model(self, fields: dict[str, Any]) -> None:
        self.turn += 1
        usage = fields.get("usage") or {}
        calls = fields.get("calls") or []
        prompt, completion = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
        tokens = (
            f"{prompt} in / {completion} out tokens"
            if prompt or completion
            else "no tokens (offline planner)"
        )
        self._line(f"[bold cyan]▸ turn {self.turn}[/] · {len(calls)} tool call(s) · [dim]{tokens}[/]")
        if fields.get("content") and not calls:
            self._line(f"[italic]{escape(str(fields['content']))}[/]", 2)

    def _on_tool(self, fields: dict[str, Any]) -> None:
        try:
            arguments = json.dumps(json.loads(fields.get("arguments") or "{}"), ensure_ascii=False)
        except json.JSONDecodeError:
            arguments = str(fields.get("arguments"))
        mark = "[green]✓[/]" if fields.get("ok") else "[red]✗[/]"
        self._line(
            f"{mark} [bold]{fields.get('name')}[/] {escape(arguments)} [dim]{fields.get('ms')} ms[/]", 2
        )
        for line in str(fields.get("narration", "")).splitlines():
            self._line(f"[dim]{escape(line)}[/]", 6)

    def _on_approval(self, fields: dict[str, Any]) -> None:
        self._line(f"[yellow]approval:[/] {fields.get('decision')} — {escape(str(fields.get('reason')))}", 2)

    def _on_paused(self, fields: dict[str, Any]) -> None:
        self._line(f"[yellow]paused:[/] {escape(str(fields.get('question')))}", 2)
        if fields.get("choices"):
            self._line(f"[yellow]choices:[/] {escape(' | '.join(fields['choices']))}", 2)

    def _line(self, markup: str, indent: int = 0) -> None:
        """One line of the view: wrapped to a terminal's width and indented, or never broken elsewhere."""
        text = Text.from_markup(markup)
        if self.console.is_terminal:
            self.console.print(Padding(text, (0, 0, 0, indent), expand=False))
        else:
            self.console.print(Text(" " * indent) + text, soft_wrap=True)


def summary_line(result: RunResult) -> str:
    """The closing lines of a run, for people."""
    if result.outcome == "ordered":
        head = f"Ordered: order #{result.order_id}, total {money(result.total_cents)}."
    elif result.outcome == "paused":
        choices = f"\nChoices: {' | '.join(result.choices)}" if result.choices else ""
        answer = f'--answer "{result.choices[0]}"' if result.choices else '--answer "…"'
        head = (
            f"Paused: {result.question or result.message}{choices}\nResume with: webagent resume {result.run_id} "
            + ("--approve (or --deny)" if result.waiting_for == "approval" else answer)
        )
    else:
        head = f"{result.outcome.capitalize()}: {result.message}"
    facts = (
        f"{result.steps} steps · {result.model_calls} model calls · {result.tool_calls} tool calls · "
        f"{result.tokens.prompt}+{result.tokens.completion} tokens · {result.wall_s:.1f} s · {result.run_dir}"
    )
    return f"{head}\n{facts}"
