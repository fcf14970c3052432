"""Reading a recording and refusing what cannot be transcribed, with one line that says why.

Speech-to-text engines fail in unhelpful ways on bad input (an empty transcript, a C-level error, a
hallucinated "Thank you."), so a recording is checked before any engine sees it: the file exists
and holds audio, it is not empty or silent, and its sample rate is one the engine can use. WAV is
read with the standard library; other formats (FLAC, MP3, Ogg, WebM, M4A) are recognised by their
first bytes and only the OpenAI engine takes them.
"""

from __future__ import annotations

import io
import math
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path

from webagent.voice.errors import AudioError

__all__ = ["Audio", "load_audio", "loudest_dbfs", "wav_bytes"]

MAX_BYTES = 25 * 1024 * 1024  # what OpenAI's transcription endpoint accepts
MAX_SECONDS = 120.0  # a spoken order, not a podcast: longer is almost surely the wrong file
SILENCE_DBFS = -45.0
"""Audio whose loudest 30 ms stay below this level is silence (a quiet room is about -60 dBFS)."""

# First bytes of the compressed formats OpenAI's endpoint takes, for a clear "not audio" otherwise.
_SIGNATURES = (
    (b"fLaC", "flac", "audio/flac"),
    (b"OggS", "ogg", "audio/ogg"),
    (b"ID3", "mp3", "audio/mpeg"),
    (b"\xff\xfb", "mp3", "audio/mpeg"),
    (b"\xff\xf3", "mp3", "audio/mpeg"),
    (b"\xff\xf2", "mp3", "audio/mpeg"),
    (b"\x1a\x45\xdf\xa3", "webm", "audio/webm"),
)


@dataclass(frozen=True)
class Audio:
    """A recording: the file's bytes, and for WAV the samples as 16-bit mono PCM."""

    name: str
    data: bytes
    mime: str
    pcm: bytes | None = None
    """16-bit little-endian mono samples (WAV only); None for compressed formats."""
    rate: int | None = None
    seconds: float | None = None


def load_audio(path: Path, *, min_rate: int = 8000, max_rate: int = 48000, pcm_only: bool = False) -> Audio:
    """Read and check a recording; `AudioError` (one line, exit code 2) when it cannot be used.

    ``pcm_only``: the engine needs samples (the offline recogniser), so only WAV will do.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise AudioError(f"cannot read audio file {path}: {error.strerror or error}") from error
    if not data:
        raise AudioError(f"audio file {path} is empty")
    if len(data) > MAX_BYTES:
        raise AudioError(f"audio file {path} is {len(data) / 2**20:.0f} MB; the limit is 25 MB")
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return _wav(path, data, min_rate, max_rate)
    kind = next((k for signature, k, _ in _SIGNATURES if data.startswith(signature)), None)
    mime = next((m for signature, _, m in _SIGNATURES if data.startswith(signature)), None)
    if kind is None and data[4:8] == b"ftyp":
        kind, mime = "m4a", "audio/mp4"
    if kind is None or mime is None:
        raise AudioError(f"{path} is not audio (expected a WAV file, or FLAC/MP3/Ogg/WebM/M4A)")
    if pcm_only:
        raise AudioError(
            f"{path} is {kind.upper()}; the offline recogniser reads WAV "
            f"(convert it: sox {path} -r 16000 -c 1 {Path(path).with_suffix('.wav')})"
        )
    return Audio(name=Path(path).name, data=data, mime=mime)


def _wav(path: Path, data: bytes, min_rate: int, max_rate: int) -> Audio:
    try:
        with wave.open(io.BytesIO(data)) as reader:
            channels, width, rate = reader.getnchannels(), reader.getsampwidth(), reader.getframerate()
            frames = reader.readframes(reader.getnframes())
    except (wave.Error, EOFError) as error:
        raise AudioError(
            f"{path} is not a WAV file that can be read (16-bit PCM expected): {error}"
        ) from error
    if not frames:
        raise AudioError(f"audio file {path} holds no samples")
    if not min_rate <= rate <= max_rate:
        raise AudioError(
            f"{path} is sampled at {rate} Hz; use {min_rate // 1000}–{max_rate // 1000} kHz audio "
            f"(16 kHz mono is best: sox {path} -r 16000 -c 1 out.wav)"
        )
    pcm = _mono16(frames, channels, width)
    seconds = len(pcm) / 2 / rate
    if seconds > MAX_SECONDS:
        raise AudioError(
            f"{path} is {seconds:.0f} s long; say one order at a time (at most {MAX_SECONDS:.0f} s)"
        )
    if loudest_dbfs(pcm, rate) < SILENCE_DBFS:
        raise AudioError(f"{path} is silent ({seconds:.1f} s with no sound above {SILENCE_DBFS:.0f} dBFS)")
    return Audio(name=Path(path).name, data=data, mime="audio/wav", pcm=pcm, rate=rate, seconds=seconds)


def _mono16(frames: bytes, channels: int, width: int) -> bytes:
    """Any PCM width and channel count → 16-bit mono (the upper bytes of wider samples)."""
    if width == 1:  # 8-bit WAV is unsigned
        samples = array("h", ((b - 128) << 8 for b in frames))
    elif width == 2:
        samples = array("h", frames)
    elif width in (3, 4):
        wide = bytearray(len(frames) // width * 2)
        wide[0::2] = frames[width - 2 :: width]
        wide[1::2] = frames[width - 1 :: width]
        samples = array("h", bytes(wide))
    else:
        raise AudioError(f"{width * 8}-bit samples are not supported; use 16-bit PCM")
    if channels > 1:
        samples = array(
            "h", (sum(samples[i : i + channels]) // channels for i in range(0, len(samples), channels))
        )
    return samples.tobytes()


def loudest_dbfs(pcm: bytes, rate: int, window_s: float = 0.03) -> float:
    """The level of the loudest ``window_s`` stretch, in dB below full scale (-inf for digital zero)."""
    samples = array("h", pcm)
    size = max(1, int(rate * window_s))
    loudest = 0.0
    for start in range(0, len(samples), size):
        window = samples[start : start + size]
        loudest = max(loudest, sum(s * s for s in window) / len(window))
    return 20 * math.log10(math.sqrt(loudest) / 32768) if loudest else -math.inf


def wav_bytes(pcm: bytes, rate: int) -> bytes:
    """16-bit mono PCM as a WAV file."""
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(rate)
        writer.writeframes(pcm)
    return out.getvalue()
