"""The shop server's one configuration object."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field


class ShopConfig(BaseModel):
    """Server-wide settings; each browser session may override `clutter` and `seed` on its first page."""

    db_path: Path
    """SQLite file; created and seeded from `catalog.json` when it does not exist yet."""
    clutter: int = Field(default=0, ge=0, le=4)
    """Default clutter level (0 = clean page, 3 = popups, late menus, slow responses, 4 = + unknown popups)."""
    seed: int = Field(default=7, ge=0)
    """Default seed for everything random a session sees (clutter timing, slow responses)."""
    flaky: float = Field(default=0.0, ge=0.0, le=1.0)
    """Probability that an `/api/*` call (except `/api/session`) answers 503."""
