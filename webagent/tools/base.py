"""What every tool is made of: a pydantic argument model, a function, and a registry entry."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from webagent.said import Outcome

if TYPE_CHECKING:
    from webagent.toolbox import ToolContext

__all__ = ["Args", "Outcome", "Tool", "ToolFunction"]


class Args(BaseModel):
    """Base of every tool's arguments: unknown keys are an error the model is told about."""

    model_config = ConfigDict(extra="forbid")


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
