"""The OpenAI audio path through the real ``openai`` SDK over the fake transport (`FakeOpenAI`).

Request shapes (the multipart upload of the recording, the speech request), the SDK's errors as one
line, and whole runs: a transcribed goal placed as an order in the real shop, its questions and final
message spoken into the run folder as WAV; a transcript that is not an order gets a question.
"""

from __future__ import annotations

import io
import math
import wave
from array import array
from pathlib import Path
from typing import Any

import pytest

from demo_site import Shop
from demo_site.db import ShopDB
from webagent.agent.checkpoint import RunFolder
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.errors import ModelError
from webagent.report.write import write_report
from webagent.runs.runner import resume_run, start_run
from webagent.sync import run_sync
from webagent.testing import FakeOpenAI, speech, status, transcription, unreachable
from webagent.voice.audio import Audio, load_audio, wav_bytes
from webagent.voice.openai_audio import OpenAISpeaker, OpenAITranscriber
from webagent.voice.run import RunVoice

PROFILE = Profile(name="Ada", address="12 Oak Street", phone="555-0101")


def voice_wav(tmp_path: Path, seconds: float = 1.0, rate: int = 16_000) -> Path:
    """A loud enough recording (a tone stands in for a voice: the fake endpoint does the hearing)."""
    samples = array(
        "h", (int(8000 * math.sin(2 * math.pi * 220 * i / rate)) for i in range(int(rate * seconds)))
    )
    path = tmp_path / "goal.wav"
    path.write_bytes(wav_bytes(samples.tobytes(), rate))
    return path


SPOKEN = wav_bytes(array("h", (int(6000 * math.sin(i / 5)) for i in range(8000))).tobytes(), 16_000)
"""What the fake speech endpoint sends back: half a second of WAV."""


def playable(path: Path) -> float:
    """Seconds of sound in a WAV file (fails unless it is one)."""
    with wave.open(str(path)) as reader:
        assert reader.getnframes() > 0
        return reader.getnframes() / reader.getframerate()


# --- request shapes and errors ------------------------------------------------------------------


def test_transcription_uploads_the_recording_as_multipart(tmp_path: Path) -> None:
    fake = FakeOpenAI([transcription("Order a tiramisu from Italian Bistro.")])
    audio = load_audio(voice_wav(tmp_path))
    transcript = run_sync(OpenAITranscriber(client=fake.client()).transcribe(audio))
    fake.assert_complete()
    (sent,) = fake.requests
    assert sent["model"] == "gpt-4o-mini-transcribe"
    assert sent["response_format"] == "json"
    assert sent["language"] == "en"
    assert sent["file"] == {"filename": "goal.wav", "content_type": "audio/wav", "data": audio.data}
    assert transcript.text == transcript.heard == "Order a tiramisu from Italian Bistro."
    assert transcript.understood and transcript.engine.startswith(
        "gpt-4o-mini-transcribe @ http://fake-openai.test"
    )


def test_the_transcription_model_is_configurable_and_compressed_audio_goes_as_is(tmp_path: Path) -> None:
    flac = tmp_path / "turn.flac"
    flac.write_bytes(b"fLaC" + bytes(64))
    fake = FakeOpenAI([transcription("  yes  please ")])
    transcript = run_sync(OpenAITranscriber("whisper-1", client=fake.client()).transcribe(load_audio(flac)))
    assert fake.requests[0]["model"] == "whisper-1"
    assert fake.requests[0]["file"]["content_type"] == "audio/flac"
    assert transcript.text == "yes please"


def test_an_empty_transcription_is_not_understood(tmp_path: Path) -> None:
    fake = FakeOpenAI([transcription("")])
    transcript = run_sync(OpenAITranscriber(client=fake.client()).transcribe(load_audio(voice_wav(tmp_path))))
    assert not transcript.understood


@pytest.mark.parametrize(
    ("responses", "says"),
    [
        ([status(400, "Invalid file format. Supported formats: ['flac', 'mp3', 'wav']")], "HTTP 400"),
        ([status(401, "Incorrect API key provided")], "rejected the API key"),
        ([status(500, "boom")] * 3, "HTTP 500"),
        ([unreachable()] * 3, "could not reach the transcription endpoint"),
    ],
    ids=["bad-file", "bad-key", "server-error-after-retries", "unreachable"],
)
def test_transcription_errors_are_one_line(tmp_path: Path, responses: list[object], says: str) -> None:
    fake = FakeOpenAI(responses)  # type: ignore[arg-type]
    audio = load_audio(voice_wav(tmp_path))
    with pytest.raises(ModelError) as failed:
        run_sync(OpenAITranscriber(client=fake.client(max_retries=2)).transcribe(audio))
    fake.assert_complete()  # the SDK retried 5xx and connection errors, not 4xx
    assert says in str(failed.value) and "\n" not in str(failed.value)


def test_speech_request_and_the_wav_it_writes(tmp_path: Path) -> None:
    fake = FakeOpenAI([speech(SPOKEN)])
    path = run_sync(OpenAISpeaker(client=fake.client()).speak("Placed order #1.", tmp_path / "out.wav"))
    assert fake.requests == [
        {"model": "gpt-4o-mini-tts", "voice": "alloy", "input": "Placed order #1.", "response_format": "wav"}
    ]
    assert path.read_bytes() == SPOKEN and playable(path) == pytest.approx(0.5)


@pytest.mark.parametrize(
    "response",
    [speech(b'{"error": "not audio"}', "application/json"), speech(b""), status(404, "No such model")],
    ids=["json-body", "empty-body", "404"],
)
def test_speech_that_is_not_audio_is_an_error_and_writes_nothing(tmp_path: Path, response: object) -> None:
    fake = FakeOpenAI([response])  # type: ignore[list-item]
    with pytest.raises(ModelError):
        run_sync(OpenAISpeaker("tts-1", client=fake.client()).speak("hello", tmp_path / "out.wav"))
    assert not (tmp_path / "out.wav").exists()


# --- whole runs ----------------------------------------------------------------------------------


def events(run_dir: str) -> list[dict[str, object]]:
    return RunFolder(Path(run_dir).parent, Path(run_dir).name).transcript()


def test_a_spoken_goal_through_the_fake_endpoint_is_ordered_and_spoken_back(
    tmp_path: Path, fresh_shop: Shop, agent_browser: Browser
) -> None:
    """Transcribe, show, record, then order; the approval question and the final message are spoken."""
    fake = FakeOpenAI(
        [
            transcription("Order a Tiramisu and 2 Lemonade from Italian Bistro, pay cash."),
            speech(SPOKEN),
            speech(SPOKEN),
        ]
    )
    shown: list[str] = []
    asked: list[str] = []
    voice = RunVoice(
        audio=load_audio(voice_wav(tmp_path)),
        transcriber=OpenAITranscriber(client=fake.client()),
        speaker=OpenAISpeaker(client=fake.client()),
        play=False,
        show=shown.append,
    )
    config = RunConfig(shop_url=fresh_shop.url, approve="ask", profile=PROFILE, runs_dir=tmp_path / "runs")

    def person(question: str) -> str:
        asked.append(question)
        return "y"

    result = run_sync(start_run(config, browser=agent_browser, voice=voice, prompt=voice.prompt(person)))
    assert result.outcome == "ordered", result.message
    fake.assert_complete()
    (order,) = ShopDB(fresh_shop.db_path).orders()
    assert sorted((i["dish_name"], i["quantity"]) for i in order["items"]) == [
        ("Lemonade", 2),
        ("Tiramisu", 1),
    ]
    assert shown == [
        'Heard (gpt-4o-mini-transcribe @ http://fake-openai.test/v1): "Order a Tiramisu and 2 Lemonade from Italian Bistro, pay cash."'
    ]
    # The transcript is in the run folder before the agent's first turn; so is the recording.
    log = events(result.run_dir)
    kinds = [e["event"] for e in log]
    assert kinds.index("heard") < kinds.index("model")
    assert (Path(result.run_dir) / "voice-in.wav").read_bytes() == load_audio(voice_wav(tmp_path)).data
    # Spoken: the approval question (before the person answered it), then the final message.
    spoke = [e for e in log if e["event"] == "spoke"]
    assert [e["kind"] for e in spoke] == ["question", "final"]
    assert "Place this order?" in str(spoke[0]["text"]) and "[y/N]" not in str(spoke[0]["text"])
    assert fake.requests[1]["input"] == spoke[0]["text"] and fake.requests[2]["input"] == result.message
    assert asked and kinds.index("spoke") < kinds.index("finished")
    for event in spoke:
        assert playable(Path(result.run_dir) / str(event["audio"])) > 0


def test_a_transcript_that_is_not_an_order_gets_a_question_then_the_answer_orders(
    tmp_path: Path, fresh_shop: Shop, agent_browser: Browser
) -> None:
    fake = FakeOpenAI([transcription("Thank you."), speech(SPOKEN)])
    voice = RunVoice(
        audio=load_audio(voice_wav(tmp_path)),
        transcriber=OpenAITranscriber(client=fake.client()),
        speaker=OpenAISpeaker(client=fake.client()),
        play=False,
        show=lambda line: None,
    )
    profile = PROFILE.model_copy(update={"payment_method": "Cash"})
    config = RunConfig(shop_url=fresh_shop.url, approve="auto", profile=profile, runs_dir=tmp_path / "runs")
    paused = run_sync(start_run(config, browser=agent_browser, voice=voice))
    assert paused.outcome == "paused" and paused.waiting_for == "answer"
    assert paused.question == "What would you like to order, and from which restaurant?"
    assert ShopDB(fresh_shop.db_path).orders() == []
    heard = next(e for e in events(paused.run_dir) if e["event"] == "heard")
    assert heard["usable"] is False and heard["heard"] == "Thank you."
    spoke = [e for e in events(paused.run_dir) if e["event"] == "spoke"]
    assert [(e["kind"], e["text"]) for e in spoke] == [("question", paused.question)]
    resumed = run_sync(
        resume_run(paused.run_id, tmp_path / "runs", answer="a Tiramisu and 2 Lemonade from Italian Bistro",
                   browser=agent_browser)
    )  # fmt: skip
    assert resumed.outcome == "ordered", resumed.message
    assert len(ShopDB(fresh_shop.db_path).orders()) == 1


def test_the_transcription_endpoint_failing_ends_the_run_cleanly(
    tmp_path: Path, fresh_shop: Shop, agent_browser: Browser
) -> None:
    fake = FakeOpenAI([status(503, "overloaded")] * 2)
    voice = RunVoice(
        audio=load_audio(voice_wav(tmp_path)),
        transcriber=OpenAITranscriber(client=fake.client(max_retries=1)),
        show=lambda line: None,
    )
    config = RunConfig(shop_url=fresh_shop.url, approve="auto", profile=PROFILE, runs_dir=tmp_path / "runs")
    result = run_sync(start_run(config, browser=agent_browser, voice=voice))
    assert result.outcome == "failed" and "HTTP 503" in result.message
    assert RunFolder(tmp_path / "runs", result.run_id).load().status == "finished"
    assert ShopDB(fresh_shop.db_path).orders() == []


def test_audio_is_an_audio_value(tmp_path: Path) -> None:
    audio = load_audio(voice_wav(tmp_path, seconds=0.5))
    assert isinstance(audio, Audio) and audio.seconds == pytest.approx(0.5)
    with wave.open(io.BytesIO(audio.data)) as reader:
        assert reader.getframerate() == 16_000


def test_speech_failing_after_the_order_does_not_change_the_outcome(
    tmp_path: Path, fresh_shop: Shop, agent_browser: Browser
) -> None:
    fake = FakeOpenAI([status(500, "tts down")] * 2)
    notes: list[str] = []
    voice = RunVoice(speaker=OpenAISpeaker(client=fake.client(max_retries=1)), play=False, show=notes.append)
    config = RunConfig(
        goal="Order a Tiramisu and 2 Lemonade from Italian Bistro, pay cash",
        shop_url=fresh_shop.url,
        approve="auto",
        profile=PROFILE,
        runs_dir=tmp_path / "runs",
    )
    result = run_sync(start_run(config, browser=agent_browser, voice=voice))
    assert result.outcome == "ordered" and len(ShopDB(fresh_shop.db_path).orders()) == 1
    (spoke,) = [e for e in events(result.run_dir) if e["event"] == "spoke"]
    assert spoke["audio"] is None and "HTTP 500" in str(spoke["error"])
    assert notes == [f"Speech: could not speak the final message: {spoke['error']}"]


def test_a_voice_run_killed_before_its_goal_was_transcribed_resumes_to_a_clear_end(tmp_path: Path) -> None:
    # What a kill between "started" and "heard" leaves: a running checkpoint with no goal yet.
    from webagent.agent.checkpoint import Checkpoint, RunFolder
    from webagent.config import RunConfig
    from webagent.runs.runner import resume_run
    from webagent.sync import run_sync

    folder = RunFolder.create(tmp_path)
    folder.save(Checkpoint(run_id=folder.run_id, config=RunConfig(runs_dir=tmp_path), status="running"))
    result = run_sync(resume_run(folder.run_id, tmp_path, report=write_report))
    assert result.outcome == "failed" and "before its spoken goal was transcribed" in result.message
    again = run_sync(resume_run(folder.run_id, tmp_path))  # it stays ended: resume just reports it
    assert again.outcome == "failed" and "already finished" in again.message
    assert (folder.path / "report.html").is_file()


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"model": "m", "voice": "alloy", "input": "x" * 4097}, "maximum length 4096"),
        ({"model": "m", "voice": "", "input": "hello"}, "'voice'"),
        ({"model": "m", "voice": "alloy", "input": "hello", "response_format": "ogg"}, "response_format"),
    ],
)
def test_the_fake_speech_endpoint_refuses_what_openai_refuses(kwargs: dict[str, Any], says: str) -> None:
    import openai

    fake = FakeOpenAI([speech(SPOKEN)])  # scripted, yet never served: the request is refused first

    async def create() -> None:
        await fake.client().audio.speech.create(**kwargs)

    with pytest.raises(openai.BadRequestError, match=says):
        run_sync(create())
    assert fake.remaining == 1
