"""The batch file: one JSON object per line, each a run (``webagent batch FILE.jsonl``, see fleet/batch.py).

A bad line raises `UsageError` naming the line and the field, with a "did you mean" for a misspelt key.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from webagent.config import Profile, RunConfig
from webagent.errors import UsageError

__all__ = ["BatchLine", "load_batch", "parse_batch"]


class BatchLine(BaseModel):
    """One line of a batch file: a goal or an order, and the settings this run changes."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field("", max_length=200)
    """Names the line in the output; rerunning skips ids already there. Default ``line-N``."""
    goal: str | None = None
    order: dict[str, Any] | str | None = None
    """An order spec as ``--order`` takes it: an object, or a JSON/YAML file."""
    clutter: int | None = Field(None, ge=0, le=3)
    seed: int | None = None
    profile: Profile | None = None
    """Filled in over the command line's profile."""
    approve: Literal["auto", "deny", "pause"] | None = None
    budget_cents: int | None = Field(None, ge=0)
    answers: list[str] | None = None
    max_steps: int | None = Field(None, ge=1)
    max_tokens: int | None = Field(None, ge=1)

    @model_validator(mode="after")
    def _goal_or_order(self) -> BatchLine:
        if (self.goal is None) == (self.order is None):
            raise ValueError("give either goal or order")
        return self

    def config(self, base: RunConfig) -> RunConfig:
        """This line's run: ``base`` (the command line's) with what the line sets."""
        changes: dict[str, Any] = {"goal": self.goal, "order": self.order}
        for name in ("clutter", "seed", "approve", "budget_cents", "answers", "max_steps", "max_tokens"):
            if getattr(self, name) is not None:
                changes[name] = getattr(self, name)
        if self.profile is not None:
            changes["profile"] = base.profile.merged_under(self.profile)
        return base.model_copy(update=changes)


def _line_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "line"
    if first["type"] == "extra_forbidden":
        known = BatchLine.model_fields if len(first["loc"]) == 1 else Profile.model_fields
        close = difflib.get_close_matches(str(first["loc"][-1]), list(known), n=1)
        return f"unknown field {where!r}" + (f" (did you mean {close[0]!r}?)" if close else "")
    if first["type"] == "missing":
        return f"missing field {where!r}"
    message = str(first["msg"]).removeprefix("Value error, ")
    return message if where == "line" else f"field {where!r}: {message}"


def _order_spec(order: dict[str, Any] | str, base_dir: Path) -> dict[str, Any]:
    from webagent.planner import OrderSpec

    if isinstance(order, str):
        path = base_dir / order
        try:
            spec = OrderSpec.load(path)
        except OSError as error:
            raise ValueError(f"cannot read order file {path}: {error.strerror}") from error
        except ValueError as error:  # JSON or YAML that does not parse
            raise ValueError(f"order file {path} is not valid JSON or YAML") from error
    else:
        spec = OrderSpec.model_validate(order)
    return spec.model_dump(mode="json", exclude_none=True)


def parse_batch(text: str, source: str = "batch", base_dir: Path = Path(".")) -> list[BatchLine]:
    """Parse a batch file's text; a bad line raises `UsageError` naming the line and the field."""
    lines: list[BatchLine] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as error:
            raise UsageError(
                f"{source} line {number}: not valid JSON ({error.msg} at column {error.colno})"
            ) from None
        if not isinstance(data, dict):
            raise UsageError(f"{source} line {number}: a line must be a JSON object")
        try:
            line = BatchLine.model_validate(data)
        except ValidationError as error:
            raise UsageError(f"{source} line {number}: {_line_error(error)}") from None
        try:
            if line.order is not None:
                line.order = _order_spec(line.order, base_dir)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in ("order", *first["loc"]))
            raise UsageError(f"{source} line {number}: field {where!r}: {first['msg']}") from None
        except ValueError as error:
            raise UsageError(f"{source} line {number}: {error}") from None
        line.id = line.id or f"line-{number}"
        if line.id in seen:
            raise UsageError(f"{source} line {number}: id {line.id!r} already used on line {seen[line.id]}")
        seen[line.id] = number
        lines.append(line)
    if not lines:
        raise UsageError(f"{source}: no lines")
    return lines


def load_batch(path: Path) -> list[BatchLine]:
    """Read and parse a batch file (see the module docstring for the format)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read batch file {path}: {error.strerror}") from error
    return parse_batch(text, str(path), path.parent)
