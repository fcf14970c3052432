"""Listening on the microphone for one utterance (``sounddevice``), for hands-free chat.

An utterance starts when the level rises well above the room's own noise (measured in the first
fraction of a second) and ends after a second of quiet, or at a time limit. Without the library, the
PortAudio library under it, or any input device, `microphone` says which one is missing.
"""

from __future__ import annotations

import math
from array import array
from typing import Any

from webagent.voice.audio import Audio, loudest_dbfs, wav_bytes
from webagent.voice.errors import EngineMissing, MicrophoneUnavailable

__all__ = ["Microphone", "microphone"]

RATE = 16_000
BLOCK_S = 0.03
CALIBRATE_S = 0.3
START_ABOVE_NOISE_DB = 12.0
MIN_START_DBFS = -45.0


def microphone() -> Microphone:
    """The default input device, or `MicrophoneUnavailable` / `EngineMissing` saying what is missing."""
    try:
        import sounddevice  # type: ignore[import-untyped]
    except ImportError as error:
        raise EngineMissing("listening needs sounddevice: pip install 'webagent[voice]'") from error
    except OSError as error:  # sounddevice raises this when the PortAudio library is absent
        raise MicrophoneUnavailable(
            "no microphone: the PortAudio library is not installed (apt-get install libportaudio2); "
            "use --voice-in FILE… instead"
        ) from error
    try:
        device = sounddevice.query_devices(kind="input")
    except sounddevice.PortAudioError as error:
        raise MicrophoneUnavailable(
            "no microphone found (no audio input device); use --voice-in FILE… instead"
        ) from error
    return Microphone(sounddevice, str(device.get("name", "microphone")))


class Microphone:
    """One input device; `listen` records one utterance."""

    def __init__(self, sounddevice: Any, name: str) -> None:
        self.sounddevice = sounddevice
        self.name = name

    def listen(self, *, wait_s: float = 10.0, max_s: float = 20.0, quiet_s: float = 1.0) -> Audio | None:
        """Record until a second of quiet after speech; None when nobody spoke within ``wait_s``."""
        block = int(RATE * BLOCK_S)
        kept = bytearray()
        noise: list[float] = []
        started = False
        quiet = 0.0
        elapsed = 0.0
        with self.sounddevice.RawInputStream(
            samplerate=RATE, channels=1, dtype="int16", blocksize=block
        ) as stream:
            while elapsed < (max_s if started else wait_s):
                data, _overflowed = stream.read(block)
                chunk = bytes(data)
                elapsed += BLOCK_S
                level = loudest_dbfs(chunk, RATE, BLOCK_S)
                if elapsed <= CALIBRATE_S:
                    noise.append(level)
                    continue
                floor = max((n for n in noise if math.isfinite(n)), default=-90.0)
                speaking = level > max(MIN_START_DBFS, floor + START_ABOVE_NOISE_DB)
                if not started and speaking:
                    started = True
                if started:
                    kept += chunk
                    quiet = 0.0 if speaking else quiet + BLOCK_S
                    if quiet >= quiet_s:
                        break
        if not started:
            return None
        pcm = bytes(array("h", kept).tobytes())
        return Audio(
            name="microphone.wav",
            data=wav_bytes(pcm, RATE),
            mime="audio/wav",
            pcm=pcm,
            rate=RATE,
            seconds=len(pcm) / 2 / RATE,
        )
