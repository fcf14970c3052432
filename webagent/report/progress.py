"""The one progress bar of many runs (``webagent batch``, ``webagent eval``, either on Ray).

On stderr, so stdout keeps only the results; transient, so it leaves nothing behind when it stops.
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

__all__ = ["ProgressBar"]


class ProgressBar:
    """``label``, a bar of ``total`` (``done`` of them finished before), the time, the last one to end."""

    def __init__(self, label: str, total: int, done: int = 0) -> None:
        self.progress = Progress(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
            console=Console(stderr=True),
            transient=True,
        )
        self.task = self.progress.add_task("", total=total, completed=done)
        self.failed = 0
        self.progress.start()

    def advance(self, name: str, *, failed: bool, status: str = "") -> None:
        """One more ended: ``name`` (a line or task id) and its ``status`` (say, the outcome) shown."""
        self.failed += failed
        last = f"last {name} {status}" if status else f"last {name}"
        self.progress.update(self.task, advance=1, description=f"{last} · {self.failed} failed")

    def stop(self) -> None:
        self.progress.stop()
