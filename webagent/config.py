"""One configuration object for a run, shared by the CLI, the eval runner and the pytest plugin."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["ApprovalPolicy", "Profile", "RunConfig", "ScreenshotPolicy", "screenshot_policy"]

ApprovalPolicy = Literal["ask", "auto", "deny", "pause"]
ScreenshotPolicy = Literal["all", "views", "off"]
"""Which tool calls leave a picture for report.html: every one, those after which the page shows another
view (`PageState.view_key`) or that failed, or none."""


class Profile(BaseModel):
    """A customer's standing delivery details; what a goal states wins over these."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    address: str | None = None
    phone: str | None = None
    payment_method: str | None = None

    def merged_under(self, other: Profile) -> Profile:
        """This profile with every field ``other`` sets taken from ``other``."""
        return Profile(**{**self.model_dump(), **other.model_dump(exclude_none=True)})


def screenshot_policy(value: object) -> str:
    """The `ScreenshotPolicy` a config of any time names. Before "views" the field was a bool, and True
    took a picture after every call: a checkpoint or transcript of that time reads as it ran."""
    if isinstance(value, bool):
        return "all" if value else "off"
    return str(value)


class RunConfig(BaseModel):
    """Everything one run needs to know; serialised into the run's checkpoint so resume can rebuild it."""

    model_config = ConfigDict(extra="forbid")

    goal: str | None = None
    """What the person wants, in their words. Either this or ``order`` is given."""
    order: dict[str, object] | None = None
    """A structured order (an `OrderSpec` as JSON) for a scripted ordering run, instead of a goal."""
    profile: Profile = Field(default_factory=Profile)
    """Delivery details that fill what the goal does not state."""

    site: str = "demo-shop"
    """The site adapter the run drives (webagent/sites/): "demo-shop", "any-page" (a page nobody wrote an
    adapter for: its URL is ``shop_url``), or one of your own as "package.module:NAME"."""
    shop_url: str | None = None
    """An already running shop (or, with ``site="any-page"``, the page to open); None starts the embedded
    one for this run."""
    db_path: Path | None = None
    """The embedded shop's database file; None puts a fresh one in the run folder."""
    clutter: int = Field(0, ge=0, le=4)
    """How much clutter the shop shows (0 none … 3 every known popup, 4 + popups nobody wrote down)."""
    seed: int = 7
    """Seed for the shop's clutter, so a run can be repeated."""

    headed: bool = False
    """Show the browser window."""
    slow_mo: float = Field(0, ge=0)
    """Milliseconds Playwright waits after each browser operation, to watch a run."""
    trace: bool = False
    """Record a Playwright trace (trace.zip in the run folder)."""
    screenshots: ScreenshotPolicy = "views"
    """Save a small JPEG of the page into the run folder after each tool call that left another view on
    screen (another page, the drawer or a dialog opened or closed, an error shown) or failed ("views"), after
    every call ("all"), or never ("off"); report.html shows each beside its narration (~25 ms of CPU and
    ~20 KB a picture). ``True``/``False`` (the field before 2026-12-03) read as "all"/"off"."""

    @field_validator("screenshots", mode="before")
    @classmethod
    def _screenshots_from_bool(cls, value: object) -> object:
        return screenshot_policy(value) if isinstance(value, bool) else value

    keep_open: bool = False
    """After the run, keep the browser window open until the person closes it or presses Enter."""
    pause_on_failure: bool = False
    """Open Playwright's inspector (``page.pause()``) when a tool call fails or the run ends failed."""
    overlay_shortcuts: bool = True
    """Also dismiss the shop's six known popups by their test ids (a speed-up). Unknown popups are always
    handled by what they look like (webagent/browser/obstruction.py); False handles the known ones that way too."""
    init_scripts: list[Path] = Field(default_factory=list)
    """JavaScript files run in every page before the shop's own scripts (as Playwright MCP's
    ``--init-script``): helpers, fixtures, or a popup to test the agent against."""

    model: str | None = None
    """'planner', 'local' or 'local:KEY' (a small model run here by llama.cpp, webagent/llm/local.py), a
    model name for the OpenAI-compatible endpoint, or None to choose automatically."""
    gguf: Path | None = None
    """A GGUF model file to run here with llama.cpp, as ``model='local'`` runs a known one."""
    consult: str | None = None
    """'local' or 'local:KEY': a small local model that reads the person's words beside the planner's rules
    (webagent/llm/reader.py, webagent/planner/reading.py) where the rules leave words in doubt, and that the
    planner may ask which button declines a popup (webagent/planner/consult.py). None (the default): the
    rules alone, and the person is asked about what they cannot place."""
    base_url: str | None = None
    """An OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp server); defaults to OPENAI_BASE_URL."""
    strict: bool = True
    """Send tools with ``strict: true``; False for an endpoint that refuses it (``--no-strict``)."""
    timeout: float | None = Field(None, gt=0)
    """Seconds one model call may take, retries included; None: WEBAGENT_TIMEOUT, else 60."""

    approve: ApprovalPolicy = "pause"
    """How `place_order` is approved: ask at the terminal, auto (within budget), deny, or pause."""
    budget_cents: int | None = Field(None, ge=0)
    """An order whose total exceeds this is refused whatever the model says."""
    answers: list[str] = Field(default_factory=list)
    """Scripted replies to `ask_human`, used in order; when none is left the run pauses."""

    max_steps: int = Field(30, ge=1)
    """Model turns before the run gives up."""
    max_failures: int = Field(3, ge=1)
    """Consecutive failed tool calls before the run gives up."""
    max_tokens: int | None = Field(None, ge=1)
    """Total prompt + completion tokens before the run gives up; None for no limit."""
    runs_dir: Path = Path("runs")
    """Where run folders (transcript, checkpoint, trace) are written."""
