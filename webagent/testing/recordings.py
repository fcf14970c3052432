"""Recordings for tests of speech input, spoken by espeak-ng (needs the ``espeak-ng`` and ``sox`` programs)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["spoken_wav"]


def spoken_wav(text: str, path: Any, *, rate: int = 16_000, pad_s: float = 0.3) -> Any:
    """``text`` spoken by espeak-ng into ``path`` as 16-bit mono WAV at ``rate`` (sox resamples).

    A recording for tests of speech input; needs the ``espeak-ng`` and ``sox`` programs.
    """
    for program in ("espeak-ng", "sox"):
        if shutil.which(program) is None:
            raise RuntimeError(f"spoken_wav needs {program}: apt-get install espeak-ng sox (make setup does)")
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(raw), "--", text], check=True)
        # -D: no dither, so the same text always gives the same samples.
        subprocess.run(
            [
                "sox",
                "-D",
                str(raw),
                "-r",
                str(rate),
                "-c",
                "1",
                "-b",
                "16",
                str(path),
                "pad",
                str(pad_s),
                str(pad_s),
            ],
            check=True,
        )
    return path
