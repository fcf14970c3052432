"""Speech out: the agent's questions and final message, spoken into the run folder and played.

Two engines behind one `Speaker` seam: espeak-ng (offline; Debian's ``espeak-ng`` package, which
``make setup`` installs when run as root) and the OpenAI speech endpoint
(`webagent.voice.openai_audio.OpenAISpeaker`). Every utterance is a WAV file in the run folder
(``speech-01-question.wav``, …), recorded in the transcript as a ``spoke`` event, and played when a
player is found (``WEBAGENT_PLAYER`` names one; ``none`` turns playing off).
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from webagent.agent.checkpoint import RunFolder
from webagent.errors import RunError
from webagent.sync import in_daemon_thread
from webagent.voice.errors import EngineMissing

__all__ = ["EspeakSpeaker", "Speaker", "SpeechOut", "find_player", "play", "playing_off", "require_espeak"]

INSTALL_ESPEAK = (
    "offline speech needs espeak-ng: `apt-get install espeak-ng` (Debian/Ubuntu; `make setup` does it "
    "as root), `brew install espeak-ng` (macOS), or set OPENAI_API_KEY to use the OpenAI speech endpoint"
)
PLAYERS = (
    ("pw-play",),
    ("paplay",),
    ("aplay", "-q"),
    ("afplay",),
    ("play", "-q"),
    ("ffplay", "-nodisp", "-autoexit", "-loglevel", "error"),
)
"""Tried in order; the first on the PATH plays."""


class Speaker(Protocol):
    """Text to speech into a WAV file."""

    def describe(self) -> str: ...

    async def speak(self, text: str, path: Path) -> Path: ...


def require_espeak() -> str:
    """The espeak-ng executable, or `EngineMissing` saying how to install it."""
    found = shutil.which("espeak-ng")
    if found is None:
        raise EngineMissing(INSTALL_ESPEAK)
    return found


class EspeakSpeaker:
    """espeak-ng, offline. ``words_per_minute`` below its default 175 is easier to follow."""

    def __init__(self, voice: str = "en-us", words_per_minute: int = 160) -> None:
        self.executable = require_espeak()
        self.voice = voice
        self.words_per_minute = words_per_minute

    def describe(self) -> str:
        return f"espeak-ng ({self.voice})"

    async def speak(self, text: str, path: Path) -> Path:
        """Write ``text`` spoken into ``path`` (22 kHz mono WAV)."""
        process = await asyncio.create_subprocess_exec(
            self.executable,
            "-v",
            self.voice,
            "-s",
            str(self.words_per_minute),
            "-w",
            str(path),
            "--",
            text,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        _, error = await process.communicate()
        if process.returncode != 0 or not path.is_file():
            raise EngineMissing(
                f"espeak-ng failed: {error.decode(errors='replace').strip() or process.returncode}"
            )
        return path


def playing_off() -> bool:
    """``WEBAGENT_PLAYER=none`` (or ``off``): write the audio, never play it."""
    return os.environ.get("WEBAGENT_PLAYER", "x").strip().lower() in ("", "none", "off")


def find_player() -> list[str] | None:
    """The command that plays a WAV file here (``WEBAGENT_PLAYER``, else the first of `PLAYERS`)."""
    chosen = os.environ.get("WEBAGENT_PLAYER")
    if chosen is not None and not playing_off():
        return shlex.split(chosen)
    for command in PLAYERS:
        if shutil.which(command[0]):
            return list(command)
    return None


def play(path: Path, player: list[str] | None = None) -> str | None:
    """Play a WAV file to the end; None when it played, else why not (one short line)."""
    command = player if player is not None else find_player()
    if command is None:
        return "no audio player found"
    try:
        done = subprocess.run([*command, str(path)], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as error:
        return f"{command[0]} failed: {error}"
    if done.returncode != 0:
        lines = [line for line in (done.stderr or "").splitlines() if line.strip()]
        return f"{command[0]} could not play it" + (f" ({lines[-1].strip()})" if lines else "")
    return None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:24] or "speech"


class SpeechOut:
    """Speaks into a run folder: one numbered WAV per utterance, a ``spoke`` event, then playback."""

    def __init__(
        self,
        speaker: Speaker,
        *,
        play_audio: bool = True,
        note: Callable[[str], None] | None = None,
    ) -> None:
        self.speaker = speaker
        self.play_audio = play_audio
        self.note = note or (lambda line: print(line, file=sys.stderr))
        self.folder: RunFolder | None = None
        self.files: list[Path] = []
        self._warned = False

    async def say(self, text: str, kind: str) -> Path | None:
        """Speak ``text`` (a ``question`` or the ``final`` message); the WAV file written.

        Speech is a courtesy: when the engine fails (the speech endpoint is down), the run goes on
        and ends as it would have; the failure is one line on stderr and a ``spoke`` event with its error.
        """
        if self.folder is None or not text.strip():
            return None
        path = self.folder.path / f"speech-{len(self.files) + 1:02d}-{kind}.wav"
        try:
            await self.speaker.speak(text, path)
        except (RunError, EngineMissing, OSError) as error:
            self.folder.record("spoke", kind=kind, text=text, audio=None, error=str(error))
            what = {"final": "final message"}.get(kind, kind)
            self.note(f"Speech: could not speak the {what}: {error}")
            return None
        self.files.append(path)
        self.folder.record("spoke", kind=kind, text=text, audio=path.name, engine=self.speaker.describe())
        if self.play_audio and not playing_off():
            problem = await in_daemon_thread(play, path)
            if problem and not self._warned:
                self._warned = True  # once per run: the files are there either way
                self.note(f"Speech: {problem}; the audio is in {path.parent}")
        return path
