"""The agent loop: call the model, run the tools it asked for, feed back the narrations, repeat.

Guardrails live in code, not in the prompt: `place_order` passes the approval gate and budget,
`ask_human` reaches a person or pauses the run, `finish` claims are checked against what the shop
showed (webagent/agent/controls.py), and limits stop runaway runs: steps, consecutive failed calls, the same
call repeated with no page change, tokens.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from webagent.agent.approval import ApprovalGate, HumanChannel
from webagent.agent.checkpoint import Checkpoint, RunFolder
from webagent.agent.controls import Controls, Paused, RunEnded, refused
from webagent.agent.result import Outcome, RunResult
from webagent.errors import RunError
from webagent.llm.protocol import Model, ToolCall, fixed_step
from webagent.narration.seen import tool_message
from webagent.planner.reading import ModelReader
from webagent.tools.toolbox import ToolResult, ToolRunner

__all__ = ["Agent", "Listener"]

Listener = Callable[[str, dict[str, Any]], None]
REPEATS_ALLOWED = 3


@dataclass
class Agent:
    """One run's loop over a model and a toolbox, checkpointed into its run folder."""

    model: Model
    toolbox: ToolRunner
    gate: ApprovalGate
    human: HumanChannel
    folder: RunFolder
    state: Checkpoint
    listen: Listener | None = None
    reader: ModelReader | None = None  # for words the rules leave in doubt (webagent/agent/understand.py)
    chat: bool = False
    """In a conversation, a reply in words ends the turn instead of being nudged back to the tools."""
    controls: Controls = field(init=False)
    _not_placed: str | None = field(init=False, default=None)  # the gate's last "Not placed: …"
    _failures: list[str] = field(init=False, default_factory=list)  # the streak: "tool" or "words"

    def __post_init__(self) -> None:
        reader = self.reader or getattr(self.model, "reader", None)  # a planner brings its own
        self.controls = Controls(
            self.toolbox, self.gate, self.human, self.state, self.folder, self._emit, reader
        )

    async def run(self) -> RunResult:
        """Run until `finish`, a pause or a limit.

        1. If the run was paused, settle the pending call, then the rest of its turn's calls.
        2. Ask the model for its next turn, given the conversation and the tool schemas.
        3. Append the assistant message; run its tool calls in order, each result with its call id.
        4. Checkpoint; stop on finish, a pause or a limit — otherwise go to 2.
        """
        started = time.monotonic()
        try:
            if self.state.pending is not None:
                pending, remaining = self.state.pending, list(self.state.remaining_calls)
                self.state.pending, self.state.status = None, "running"
                self._append(pending.call, await self.controls.settle(pending), 0.0)
                await self._run_calls(remaining)
            while True:
                await self.step()
        except RunEnded as end:
            return self._end(end.outcome, end.message, started, end.order_id, end.total_cents)
        except RunError as error:  # the model endpoint, the browser or the shop gave out: end cleanly
            return self._end("failed", str(error), started)
        except Paused:
            self.state.status = "paused"
            self.state.wall_s += time.monotonic() - started
            self.folder.save(self.state)
            return self._result("paused", self.state.pending.question if self.state.pending else "paused")

    def _end(
        self,
        outcome: Outcome,
        message: str,
        started: float,
        order_id: int | None = None,
        total: int | None = None,
    ) -> RunResult:
        answered = {m.get("tool_call_id") for m in self.state.messages if m.get("role") == "tool"}
        asked = next((m for m in reversed(self.state.messages) if m["role"] == "assistant"), None) or {}
        for call in asked.get("tool_calls") or []:  # every call id needs an answer, even unrun ones
            if call["id"] not in answered:
                self.state.messages.append(tool_message(call["id"], "Not run.", refusal="not_run"))
        self.state.remaining_calls, self.state.status = [], "finished"
        self.state.wall_s += time.monotonic() - started
        result = self.state.result = self._result(outcome, message, order_id, total)
        self.folder.save(self.state)
        self._emit("finished", **result.model_dump(exclude={"run_dir"}))
        return result

    async def step(self) -> None:
        """One model turn and its tool calls."""
        config = self.state.config
        if self.state.steps >= config.max_steps:
            raise RunEnded("failed", f"stopped after {config.max_steps} steps without finishing")
        self.state.steps += 1
        tools = await self.controls.tools_for(self.model)
        reply = fixed_step(tools, len(self.state.messages)) or await self.model.complete(
            self.state.messages, tools
        )
        if self.chat and not reply.tool_calls:  # words to the person end a request: a finish's checks hold
            reply = reply.model_copy(update={"tool_calls": [self.controls.words(reply.content or "")]})
        for downgrade in reply.downgrades:  # a request feature the endpoint refused, now off
            self._emit("downgrade", **downgrade.model_dump())
        self.state.model_calls += 0 if reply.without_model else 1
        self.state.usage += reply.usage
        self.state.messages.append(reply.to_message())
        self._emit("model", **reply.event())
        used = self.state.usage.prompt_tokens + self.state.usage.completion_tokens
        if config.max_tokens is not None and used > config.max_tokens:
            raise RunEnded("failed", f"stopped: {used} tokens used, over the limit of {config.max_tokens}")
        if not reply.tool_calls:
            self._count_failure(ok=False, what="words")
            nudge = "Call a tool to go on, or finish to end."
            if reply.finish_reason == "length":  # it ran into the cap on one reply's tokens
                nudge = f"Your reply was cut off at the length limit. {nudge} Keep the call short."
            self.state.messages.append({"role": "user", "content": nudge})
        await self._run_calls(reply.tool_calls)

    async def _run_calls(self, calls: list[ToolCall]) -> None:
        failed_before = False  # in this turn
        for index, call in enumerate(calls):
            self.state.remaining_calls = calls[index + 1 :]
            started = time.monotonic()
            # place_order, or a generic press of the shop's place-order control: gated alike.
            ordering = call.name not in ("ask_human", "finish") and await self.toolbox.is_consequential(
                call.name, call.arguments
            )
            if (outside := await self.controls.outside(call, index == 0)) is not None:  # runs nothing
                result = outside
            elif call.name == "ask_human":
                result = await self.controls.ask_human(call)
            elif ordering and failed_before:  # never on top of a call that just failed (a form not filled)
                why = f"Not run: an earlier call failed; check the page, then call {call.name}."
                result = refused(call.name, why, "earlier_failed")
            elif ordering:
                result = await self.controls.place_order(call)
                if result.refused and result.text.startswith("Not placed"):
                    self._not_placed = result.text.splitlines()[0]
            elif call.name == "finish":
                try:
                    result = await self.controls.finish(call)
                except RunEnded:
                    self._append(call, ToolResult("finish", "Run finished.", ok=True, changed=False), 0.0)
                    raise
            else:
                result = await self.toolbox.call(call.name, call.arguments)
            # A refusal that follows a failure in the same turn is its echo, not a new mistake.
            self._append(
                call, result, time.monotonic() - started, counts=not (failed_before and result.refused)
            )
            failed_before = failed_before or not result.ok
        self.state.remaining_calls = []
        self.folder.save(self.state)

    def _append(self, call: ToolCall, result: ToolResult, seconds: float, counts: bool = True) -> None:
        self.state.tool_calls += 1
        self.state.messages.append(result.as_message(call.id))
        self._emit(
            "tool",
            id=call.id,
            name=call.name,
            arguments=call.arguments,
            narration=result.text,
            ok=result.ok,
            ms=round(seconds * 1000),
            **({"detail": result.detail} if result.detail else {}),
            **result.recorded(),  # typed facts beside the narration (replay compares them; the eval reads seen)
        )
        if counts:
            self._count_failure(result.ok)
        self._detect_repeat(call, result)

    def _count_failure(self, ok: bool, what: str = "tool") -> None:
        self.state.consecutive_failures = 0 if ok else self.state.consecutive_failures + 1
        self._failures = [] if ok else [*self._failures, what]
        count = self.state.consecutive_failures
        if count >= self.state.config.max_failures:
            reason = f"stopped after {count} failed tool calls in a row"  # words are no tool calls, below
            if self._failures[-count:] == ["words"] * count:
                reason = f"stopped: {count} replies in a row called no tool"
            raise RunEnded("failed", f"{self._not_placed} ({reason})" if self._not_placed else reason)

    def _detect_repeat(self, call: ToolCall, result: ToolResult) -> None:
        """The same call with the same arguments, again and again, and the page never changes: a loop."""
        if result.changed or call.name in ("ask_human", "finish"):
            return
        turns = [m for m in self.state.messages if m.get("role") == "assistant" and m.get("tool_calls")]
        recent = [
            (c["function"]["name"], c["function"]["arguments"])
            for m in turns[-REPEATS_ALLOWED:]
            for c in m["tool_calls"]
        ]
        if recent.count((call.name, call.arguments)) >= REPEATS_ALLOWED:
            raise RunEnded(
                "failed", f"stopped: {call.name} repeated with the same arguments and no page change"
            )

    def _emit(self, event: str, /, **fields: Any) -> None:
        self.folder.record(event, **fields)  # people-only: never appended to the model's messages
        if self.listen is not None:
            self.listen(event, fields)

    def _result(
        self, outcome: Outcome, message: str, order_id: int | None = None, total: int | None = None
    ) -> RunResult:
        return self.state.result_of(outcome, message, str(self.folder.path), order_id, total)
