"""A conversation with the agent across user turns — ``webagent chat``.

The person types, the agent acts on the page until it answers in words (or finishes), and the person
may click in the headed window too: those clicks are breadcrumbs, and they reach the agent with the
next message.
"""

from __future__ import annotations

from dataclasses import dataclass

from webagent.approval import ApprovalGate, HumanChannel
from webagent.checkpoint import Checkpoint, RunFolder
from webagent.loop import Agent, Listener, system_prompt
from webagent.model import Model
from webagent.narrate import Narration, narrate
from webagent.result import RunResult
from webagent.toolbox import Toolbox

__all__ = ["ChatSession"]

CHAT_GOAL = "Help the person with whatever they ask on this food-delivery site; answer in words when done."


@dataclass
class ChatSession:
    """Keeps one conversation (and one page) across the person's messages."""

    toolbox: Toolbox
    model: Model
    folder: RunFolder
    state: Checkpoint
    gate: ApprovalGate
    human: HumanChannel
    listen: Listener | None = None
    fresh_each_turn: bool = False
    """Start each turn from a fresh conversation (for the planner, which plans one goal at a time)."""

    async def send(self, text: str) -> RunResult:
        """One user turn: the message (plus what the person did on the page meanwhile) → the agent acts."""
        await self.toolbox.session.sync_breadcrumbs()
        page = await self.toolbox.state()
        seen = narrate(Narration(said="Page now:", after=page, breadcrumbs=self.toolbox.new_breadcrumbs()))
        if self.fresh_each_turn or not self.state.messages:
            self.state.messages = [{"role": "system", "content": system_prompt(CHAT_GOAL)}]
        self.state.messages.append({"role": "user", "content": f"{text}\n\n{seen}"})
        self.state.steps = 0  # the step limit counts per turn in a conversation
        self.state.status = "running"
        agent = Agent(
            self.model, self.toolbox, self.gate, self.human, self.folder, self.state, self.listen, chat=True
        )
        return await agent.run()
