"""A conversation with the agent across user turns — ``webagent chat``.

The person types, the agent acts on the page until it answers in words (or finishes), and the person
may click in the headed window too: those clicks are breadcrumbs, and they reach the agent with the
next message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from webagent.approval import ApprovalGate, HumanChannel, ask_person
from webagent.checkpoint import Checkpoint, RunFolder
from webagent.config import RunConfig
from webagent.loop import Agent, Listener, system_prompt
from webagent.model import Model
from webagent.narrate import Narration, narrate
from webagent.result import RunResult
from webagent.toolbox import Toolbox

__all__ = ["ChatSession", "converse"]

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


async def converse(
    config: RunConfig,
    listen: Listener | None = None,
    prompt: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
) -> None:
    """``webagent chat``: read the person's messages until ``exit`` (or end of input); the agent acts on each.

    With the offline planner each message is a goal of its own on the same page; with a language model
    the conversation carries over from message to message.
    """
    from webagent.runner import make_model, run_page, uses_planner

    folder = RunFolder.create(config.runs_dir)
    db_path = Path(config.db_path) if config.db_path else folder.path / "shop.db"
    folder.record("started", config=config.model_dump(mode="json"))
    async with run_page(config, folder, db_path) as page:
        await page.open("/", clutter=config.clutter, seed=config.seed)
        say(
            f"Shop at {page.shop_url} — type what you want; 'exit' to leave. You can click in the window too."
        )
        planner = uses_planner(config)
        conversation = ChatSession(
            Toolbox(page, screenshots=folder.path if config.screenshots else None),
            make_model(config),
            folder,
            Checkpoint(run_id=folder.run_id, config=config, shop_url=page.shop_url),
            ApprovalGate(config.approve, config.budget_cents, prompt),
            HumanChannel(list(config.answers), interactive=True, prompt=prompt),
            listen,
            fresh_each_turn=planner,
        )
        while True:
            text = await ask_person(prompt, "you> ")
            if text is None or text.strip().lower() in ("exit", "quit"):
                return
            if not text.strip():
                continue
            if planner:
                conversation.model = make_model(config.model_copy(update={"goal": text.strip()}))
            result = await conversation.send(text.strip())
            say(f"agent> {result.message}")
