"""A warm start: the prompt every run begins with, evaluated once per model file and kept beside it.

llama.cpp's server keeps the prompt it last evaluated in its slot and reuses the longest common prefix of
the next one (its prompt cache). The system prompt's fixed part (webagent/agent/prompt.py, `FIXED`) is the
same in every run; evaluated once, the slot is saved to a file beside the cached weights (llama.cpp's slot
save, ``<cache>/slots/``), and a later process that starts the server restores it — a file read instead of
seconds of prompt evaluation on a CPU. `warm` does this on a thread of its own, while the browser starts
and the shop loads; a request that comes first waits for it on the server and then reuses what it
evaluated. A server without the slots endpoint, or a file that does not restore, costs one evaluation.
"""

from __future__ import annotations

import hashlib
import json
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

__all__ = ["Warmed", "slot_file", "warm"]

Outcome = Literal["restored", "evaluated", "evaluated, not saved", "failed"]


@dataclass
class Warmed:
    """How a server was warmed: its slot restored from ``file``, or the prefix evaluated (and saved)."""

    file: str
    outcome: Outcome | None = None
    """None while the thread works."""
    done: threading.Event = field(default_factory=threading.Event)
    detail: str = ""
    prompt_tokens: int | None = None
    """The prefix's tokens, as the server counted them when it evaluated it (not on a restore)."""

    def wait(self, timeout: float | None = None) -> Outcome | None:
        self.done.wait(timeout)
        return self.outcome


def slot_file(model_path: Path, system: str) -> str:
    """The saved slot's name: the model file and the prefix it holds (llama.cpp takes a bare file name)."""
    kept = model_path.stat() if model_path.exists() else None  # another file of the same name: another slot
    stamp = f"{kept.st_size}:{kept.st_mtime_ns}" if kept else ""
    digest = hashlib.sha256(f"{model_path.name}\n{stamp}\n{system}".encode()).hexdigest()[:16]
    return f"{model_path.stem}-{digest}.bin"


def warm(
    base_url: str, model: str, model_path: Path, system: str, *, slots: int = 1, timeout: float = 300.0
) -> Warmed:
    """Warm each of the ``slots`` of the server at ``base_url`` (``…/v1``) with ``system`` as a system
    message, on a daemon thread."""
    warmed = Warmed(slot_file(model_path, system))
    root = base_url.rstrip("/").removesuffix("/v1")

    def work() -> None:
        try:
            if _restore(root, warmed.file, slots, timeout):
                warmed.outcome = "restored"
                return
            request = {
                "model": model,
                "messages": [{"role": "system", "content": system}],
                "max_tokens": 1,
                "temperature": 0.0,
                "id_slot": 0,
            }
            answer = _post(f"{base_url.rstrip('/')}/chat/completions", request, timeout)
            if answer is None:
                warmed.outcome = "failed"
                return
            usage = answer.get("usage")
            if isinstance(usage, dict) and isinstance(usage.get("prompt_tokens"), int):
                warmed.prompt_tokens = usage["prompt_tokens"]
            saved = _post(f"{root}/slots/0?action=save", {"filename": warmed.file}, timeout)
            warmed.outcome = "evaluated" if saved is not None else "evaluated, not saved"
            if saved is not None and slots > 1:  # the other slots from the file just written
                _restore(root, warmed.file, slots, timeout, first=1)
        except Exception as error:  # never the run's concern: it goes on, evaluating the prefix itself
            warmed.outcome, warmed.detail = "failed", repr(error)
        finally:
            warmed.done.set()

    threading.Thread(target=work, name="webagent-warm", daemon=True).start()
    return warmed


def _restore(root: str, file: str, slots: int, timeout: float, first: int = 0) -> bool:
    """Whether ``file`` restored into every slot from ``first`` on."""
    return all(
        _post(f"{root}/slots/{slot}?action=restore", {"filename": file}, timeout) is not None
        for slot in range(first, slots)
    )


def _post(url: str, body: dict[str, object], timeout: float) -> dict[str, object] | None:
    """The JSON answer to a POST, or None for an error status (no such file, no slots endpoint)."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            found = json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError:
        return None
    return found if isinstance(found, dict) else {}
