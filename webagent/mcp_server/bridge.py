"""The loop's model slot, filled by an MCP client: its turns are the client's tool calls.

The agent loop (webagent/agent/loop.py) asks its model for the next turn and runs the calls it names
through the toolbox, the approval gate and the journal. Here the "model" is a queue: each MCP tool call
is put in as a one-call turn, and its answer — the narration the loop appended, or the pause or the end
that stopped the run — is handed back once the loop asks for the next turn, so that nothing acts on the
page while the answer is read.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, Literal

from webagent.llm.protocol import Reply, ToolCall

__all__ = ["Answer", "ClientTurns"]

Status = Literal["running", "paused", "finished"]


@dataclass(frozen=True)
class Answer:
    """What one tool call came to: the narration (or why the run stopped) and the run's status."""

    text: str
    ok: bool
    status: Status = "running"
    needs_approval: str | None = None
    """The question a person must answer before the order goes ahead (a paused run)."""


class ClientTurns:
    """A `Model` whose every turn is the next tool call an MCP client sent (one call a turn)."""

    def __init__(self, client: str = "an MCP client") -> None:
        self.client = client
        self._calls: asyncio.Queue[ToolCall] = asyncio.Queue()
        self._waiting: dict[str, asyncio.Future[Answer]] = {}
        self._answers: dict[str, Answer] = {}
        self._count = 0

    def describe(self) -> str:
        """For the transcript's ``endpoint`` line."""
        return f"MCP client ({self.client})"

    def submit(self, name: str, arguments: dict[str, Any]) -> asyncio.Future[Answer]:
        """Queue one call as the loop's next turn; the future settles with its answer."""
        self._count += 1
        call = ToolCall(id=f"mcp_{self._count}", name=name, arguments=json.dumps(arguments))
        done: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._waiting[call.id] = done
        self._calls.put_nowait(call)
        return done

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """Hand out the answers of the turn just run (the loop is idle now), then wait for the next call."""
        self._settle()
        return Reply(tool_calls=[await self._calls.get()])

    def listen(self, event: str, fields: dict[str, Any]) -> None:
        """The loop's events: a call's narration, a pause for a person, the run's end."""
        if event == "tool" and fields.get("id") in self._waiting:
            self._answers[fields["id"]] = Answer(str(fields.get("narration", "")), bool(fields.get("ok")))
        elif event == "paused":
            question = str(fields.get("question") or "")
            self._answer_all(Answer("", ok=False, status="paused", needs_approval=question))
        elif event == "finished":
            self._finish(f"{fields.get('outcome', 'failed')}: {fields.get('message', '')}")

    def ended(self, answer: Answer | BaseException) -> None:
        """The run has stopped (paused, finished or failed): every call still waiting gets ``answer``."""
        for key, done in list(self._waiting.items()):
            if not done.done():
                if isinstance(answer, BaseException):
                    done.set_exception(answer)
                else:
                    done.set_result(self._answers.pop(key, answer))
        self._waiting.clear()

    def _answer_all(self, answer: Answer) -> None:
        for key in self._waiting:
            if key not in self._answers:
                self._answers[key] = answer

    def _finish(self, why: str) -> None:
        """The run ended: a call that was narrated keeps its narration, with the end said after it."""
        for key in self._waiting:
            kept = self._answers.get(key)
            if kept is None:
                self._answers[key] = Answer(f"The run has ended ({why}).", ok=False, status="finished")
            elif kept.text == "Run finished.":  # finish's own answer
                self._answers[key] = Answer(f"Run finished ({why}).", ok=True, status="finished")
            else:
                self._answers[key] = Answer(f"{kept.text}\nThe run has ended ({why}).", kept.ok, "finished")

    def _settle(self) -> None:
        for key in list(self._answers):
            done = self._waiting.pop(key, None)
            answer = self._answers.pop(key)
            if done is not None and not done.done():
                done.set_result(answer)
