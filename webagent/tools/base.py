"""What every tool is made of: a pydantic argument model, a function, and a registry entry."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, model_validator

from webagent.narration.said import Outcome

if TYPE_CHECKING:
    from webagent.tools.context import ToolContext

__all__ = ["Args", "Outcome", "Tool", "ToolFunction"]


class Args(BaseModel):
    """Base of every tool's arguments: unknown keys are refused, and an explicit null means the default.

    Strict tool schemas (webagent/llm/schemas.py) make every property required and nullable when it is
    optional, so a model asks for a field's default by sending null: ``{"quantity": null}`` is one.
    """

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _null_means_default(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fields = cls.model_fields
        # Leaving the key out lets pydantic fill the default (or default factory) itself.
        return {
            key: value
            for key, value in data.items()
            if not (value is None and key in fields and not fields[key].is_required())
        }


ToolFunction = Callable[["ToolContext", Any], Awaitable[Outcome]]


@dataclass(frozen=True)
class Tool:
    """A registry entry. ``loop_controlled`` tools are settled by the loop (approval, pause, integrity)."""

    name: str
    args: type[Args]
    run: ToolFunction | None
    consequential: bool = False
    loop_controlled: bool = False
    generic: bool = False
    """A generic action (press, fill a field by label…): narrated by what changed on the page."""
    same_twice: bool = False
    """Called again with the same arguments on a page that has not changed since, it can only say the same
    (a search, opening what is open, a look at the cart or reviews): the toolbox refuses the repeat before
    it is made, naming what the first call found (`Toolbox.run`)."""
    may_spend: bool = False
    """It can pay, order or submit on some page though it is not consequential by definition (a press of
    "Pay $50", Enter in a card form, a box that agrees to a charge): judged on the page before each call
    (webagent/tools/consequence.py), and announced to MCP clients as destructive."""
