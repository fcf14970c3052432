"""Recordings that cannot be transcribed are refused with one line (exit code 2) before anything starts.

`load_audio` is checked on WAV files built here (every PCM width, stereo, rates, silence, noise) and
on random bytes (hypothesis); the command line is run as a person runs it, in a subprocess, and must
print one ``webagent: …`` line, exit 2, and leave no run folder (so nothing can have been ordered).
"""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys
import wave
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.voice.audio import load_audio, loudest_dbfs, wav_bytes
from webagent.voice.errors import AudioError


def tone(seconds: float = 0.5, rate: int = 16_000, level_db: float = -12.0, hz: float = 440.0) -> bytes:
    """16-bit mono samples of a sine at ``level_db`` dBFS."""
    amplitude = 32767 * 10 ** (level_db / 20)
    n = int(seconds * rate)
    return array("h", (int(amplitude * math.sin(2 * math.pi * hz * i / rate)) for i in range(n))).tobytes()


def wav_file(path: Path, frames: bytes, *, rate: int = 16_000, channels: int = 1, width: int = 2) -> Path:
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(channels)
        writer.setsampwidth(width)
        writer.setframerate(rate)
        writer.writeframes(frames)
    path.write_bytes(out.getvalue())
    return path


def test_a_clean_16k_mono_recording_loads_with_its_samples(tmp_path: Path) -> None:
    samples = tone(0.5)
    audio = load_audio(wav_file(tmp_path / "a.wav", samples), pcm_only=True)
    assert audio.pcm == samples
    assert audio.rate == 16_000
    assert audio.seconds == pytest.approx(0.5)
    assert audio.mime == "audio/wav"


@pytest.mark.parametrize("width", [1, 2, 3, 4])
@pytest.mark.parametrize("channels", [1, 2])
def test_every_pcm_width_and_stereo_become_16_bit_mono_at_the_same_level(
    tmp_path: Path, width: int, channels: int
) -> None:
    mono = array("h", tone(0.2, level_db=-6.0))
    frames = bytearray()
    for sample in mono:
        value = sample >> 8 if width == 1 else sample << (8 * (width - 2))
        one = (
            (value + 128).to_bytes(1, "little")
            if width == 1
            else value.to_bytes(width, "little", signed=True)
        )
        frames += one * channels
    audio = load_audio(wav_file(tmp_path / "w.wav", bytes(frames), channels=channels, width=width))
    assert audio.pcm is not None and len(audio.pcm) == len(mono) * 2
    assert loudest_dbfs(audio.pcm, 16_000) == pytest.approx(loudest_dbfs(mono.tobytes(), 16_000), abs=0.5)


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda p: p.write_bytes(b""), "is empty"),
        (lambda p: p.write_text("2 tiramisu from Italian Bistro\n"), "is not audio"),
        (lambda p: p.write_bytes(b"RIFF\x00\x00\x00\x00WAVEjunk"), "is not a WAV file that can be read"),
        (lambda p: wav_file(p, b""), "holds no samples"),
        (lambda p: wav_file(p, bytes(32_000)), "is silent"),
        (lambda p: wav_file(p, tone(1.0, level_db=-60.0)), "is silent"),
        (lambda p: wav_file(p, tone(1.0, rate=8_000), rate=8_000), "8000 Hz"),
        (lambda p: wav_file(p, tone(0.1, rate=96_000), rate=96_000), "96000 Hz"),
        (lambda p: p.write_bytes(b"ID3\x04" + bytes(200)), "is MP3; the offline recogniser reads WAV"),
    ],
    ids=["empty", "text", "broken-wav", "no-samples", "digital-silence", "quiet-hum", "8k", "96k", "mp3"],
)
def test_unusable_recordings_are_refused_in_one_line(tmp_path: Path, make: object, says: str) -> None:
    path = tmp_path / "in.wav"
    make(path)  # type: ignore[operator]
    with pytest.raises(AudioError) as refused:
        load_audio(path, min_rate=16_000, pcm_only=True)
    assert says in str(refused.value)
    assert "\n" not in str(refused.value)


def test_the_openai_engine_takes_compressed_formats_and_telephone_rates(tmp_path: Path) -> None:
    flac = tmp_path / "goal.flac"
    flac.write_bytes(b"fLaC" + bytes(100))
    assert load_audio(flac).mime == "audio/flac"
    assert load_audio(wav_file(tmp_path / "t.wav", tone(0.5, rate=8_000), rate=8_000)).rate == 8_000


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(AudioError, match=r"cannot read audio file .*nope\.wav"):
        load_audio(tmp_path / "nope.wav")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_are_refused_cleanly_or_read_as_audio(data: bytes) -> None:
    """Whatever the bytes, the result is a recording or an `AudioError` — never another exception."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x"
        path.write_bytes(data)
        try:
            audio = load_audio(path)
        except AudioError as error:
            assert "\n" not in str(error)
        else:
            assert audio.data == data


@settings(max_examples=60, deadline=None)
@given(
    rate=st.sampled_from([8_000, 11_025, 16_000, 22_050, 44_100, 48_000]),
    channels=st.integers(1, 2),
    seconds=st.floats(0.05, 0.4),
    level=st.floats(-80.0, 0.0),
)
def test_loudness_decides_silence_whatever_the_format(
    rate: int, channels: int, seconds: float, level: float
) -> None:
    mono = array("h", tone(seconds, rate=rate, level_db=level))
    frames = array("h", (s for s in mono for _ in range(channels))).tobytes()
    data = io.BytesIO()
    with wave.open(data, "wb") as writer:
        writer.setnchannels(channels)
        writer.setsampwidth(2)
        writer.setframerate(rate)
        writer.writeframes(frames)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.wav"
        path.write_bytes(data.getvalue())
        try:
            audio = load_audio(path)
        except AudioError as error:
            assert "silent" in str(error)
            # Only quiet recordings are called silent: a sine's RMS is 3 dB under its peak, so a peak
            # under -42 dBFS is under the -45 dBFS line (half a dB either side for rounded samples).
            assert level < -41.5
        else:
            assert level > -42.5
            assert audio.rate == rate


def test_wav_bytes_round_trip() -> None:
    samples = tone(0.1)
    with wave.open(io.BytesIO(wav_bytes(samples, 16_000))) as reader:
        assert (reader.getnchannels(), reader.getsampwidth(), reader.getframerate()) == (1, 2, 16_000)
        assert reader.readframes(reader.getnframes()) == samples


# --- the command line: one line, exit code 2, no run folder ------------------------------------------


REPO = Path(__file__).resolve().parents[2]


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This checkout's webagent (whatever is installed), no model endpoint, plus ``extra``."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBAGENT_MODEL"))}
    return {**base, "PYTHONPATH": str(REPO), **(extra or {})}


def webagent(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "webagent", *args],
        cwd=cwd,
        env=child_env(env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def refused_in_one_line(done: subprocess.CompletedProcess[str], cwd: Path) -> str:
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("webagent: "), done.stderr
    assert not (cwd / "runs").exists(), "nothing may start (so nothing is ordered)"
    return lines[0]


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda p: p.write_bytes(b""), "is empty"),
        (lambda p: wav_file(p, bytes(48_000)), "is silent"),
        (lambda p: p.write_text("not a recording"), "is not audio"),
        (lambda p: wav_file(p, tone(1.0, rate=8_000), rate=8_000), "sampled at 8000 Hz"),
    ],
    ids=["empty", "silent", "not-audio", "8k"],
)
def test_run_voice_in_bad_recordings_exit_2(tmp_path: Path, make: object, says: str) -> None:
    path = tmp_path / "goal.wav"
    make(path)  # type: ignore[operator]
    done = webagent("run", "--voice-in", str(path), "--approve", "auto", cwd=tmp_path)
    assert says in refused_in_one_line(done, tmp_path)


def test_chat_voice_in_checks_every_recording_first(tmp_path: Path) -> None:
    good = wav_file(tmp_path / "one.wav", tone(1.0))
    empty = tmp_path / "two.wav"
    empty.write_bytes(b"")
    done = webagent("chat", "--headless", "--voice-in", str(good), str(empty), cwd=tmp_path)
    assert "two.wav is empty" in refused_in_one_line(done, tmp_path)


def test_a_missing_recogniser_says_how_to_install_it(tmp_path: Path) -> None:
    """pocketsphinx made unimportable in the child (as on a machine without the voice extra)."""
    good = wav_file(tmp_path / "goal.wav", tone(1.0))
    code = (
        "import sys; sys.modules['pocketsphinx'] = None; from webagent.cli.main import main; sys.exit(main())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "run", "--voice-in", str(good)],
        cwd=tmp_path, env=child_env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    line = refused_in_one_line(done, tmp_path)
    assert "pip install 'webagent[voice]'" in line and "OPENAI_API_KEY" in line


def test_a_missing_espeak_says_how_to_install_it(tmp_path: Path) -> None:
    # A PATH without espeak-ng: the environment of a machine where it is not installed.
    done = webagent(
        "run", "a tiramisu from Italian Bistro", "--speak", cwd=tmp_path, env={"PATH": str(tmp_path)}
    )
    assert "apt-get install espeak-ng" in refused_in_one_line(done, tmp_path)


def test_chat_voice_without_a_microphone_says_so(tmp_path: Path) -> None:
    done = webagent("chat", "--headless", "--voice", cwd=tmp_path)
    line = refused_in_one_line(done, tmp_path)
    assert "no microphone" in line and "--voice-in" in line


def test_voice_in_and_a_typed_goal_together_is_a_usage_error(tmp_path: Path) -> None:
    good = wav_file(tmp_path / "goal.wav", tone(1.0))
    done = webagent("run", "a tiramisu from Italian Bistro", "--voice-in", str(good), cwd=tmp_path)
    assert "not both" in refused_in_one_line(done, tmp_path)
