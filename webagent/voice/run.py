"""Voice around one run: where a spoken goal becomes text, and what the run says out loud.

The runner calls two hooks (`webagent.runs.runner.VoiceHooks`): `RunVoice.opened` once the shop's page is
open — it transcribes the recording (offline: with a grammar of the shop's names read through the
browser), shows the transcript, records it and the recording in the run folder, and only then hands
the goal to the agent — and `RunVoice.finished` with the result, which speaks the final message (or
the question a paused run waits on). `RunVoice.prompt` wraps the terminal prompt so a question is
spoken before the person answers it.

A transcript the goal reader cannot use (nothing understood, or no dish in it) is never guessed at:
the agent is given no order and told to ask what the person wants.
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from webagent.agent.checkpoint import RunFolder
from webagent.agent.result import RunResult
from webagent.config import RunConfig
from webagent.voice.audio import Audio, load_audio
from webagent.voice.reading import names_an_order
from webagent.voice.speak import EspeakSpeaker, Speaker, SpeechOut
from webagent.voice.transcribe import Transcriber, Transcript, offline_recognizer, require_pocketsphinx
from webagent.voice.vocabulary import ShopVocabulary, shop_vocabulary

if TYPE_CHECKING:
    from webagent.browser.session import PageSession

__all__ = [
    "RunVoice",
    "VoiceOptions",
    "choose_engine",
    "make_speaker",
    "options_from_args",
    "speakable",
    "unclear_goal",
    "usable",
]

Engine = Literal["openai", "offline"]


class VoiceOptions(BaseModel):
    """Speech in and out, as the command line asked for it."""

    voice_in: list[Path] = Field(default_factory=list)
    """Recordings to transcribe: the goal of a run, or a conversation's turns in order."""
    speak: bool = False
    """Speak the agent's questions and final message."""
    engine: Engine = "offline"
    base_url: str | None = None
    transcribe_model: str | None = None
    speech_model: str | None = None
    play: bool = True


def options_from_args(args: Any) -> VoiceOptions | None:
    """The options ``webagent run``/``chat`` flags ask for (an argparse namespace); None without any."""
    recordings = (
        args.voice_in if isinstance(args.voice_in, list) else [args.voice_in] if args.voice_in else []
    )
    hands_free = bool(getattr(args, "voice", False))
    if not recordings and not args.speak and not hands_free:
        return None
    return VoiceOptions(
        voice_in=recordings,
        speak=args.speak or hands_free,
        engine=choose_engine(args.voice_engine, args.base_url),
        base_url=args.base_url,
        transcribe_model=args.transcribe_model,
        speech_model=args.speech_model,
    )


def choose_engine(requested: str | None, base_url: str | None) -> Engine:
    """``openai`` when asked, or by default when an endpoint is configured; else ``offline``."""
    if requested in ("openai", "offline"):
        return requested  # type: ignore[return-value]
    configured = base_url or os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL")
    return "openai" if configured else "offline"


def usable(transcript: Transcript, vocabulary: ShopVocabulary | None = None) -> bool:
    """Whether the goal reader can take the transcript as an order: understood, naming a dish (one
    of the shop's, when its names were read)."""
    return transcript.understood and names_an_order(transcript.text, vocabulary)


def unclear_goal(transcript: Transcript) -> str:
    """The goal given to the agent when the recording could not be read as an order."""
    heard = f' (speech recognition heard: "{transcript.heard}")' if transcript.heard else ""
    return (
        f"The person spoke their order, but it could not be understood{heard}. Ask them what they "
        "would like to order, and from which restaurant; order nothing before they answer."
    )


def speakable(prompt: str) -> str:
    """A terminal prompt as it is said: no "The agent asks (… urgency):", no "[y/N]", no "> "."""
    text = re.sub(r"^The agent asks \([^)]*\):\s*", "", prompt.strip(), flags=re.M)
    text = text.replace("[y/N]", "Yes or no?").replace(" — ", ". ").replace(" | ", ", ")
    text = re.sub(r"\n>\s*$", "", text).strip().rstrip(">").strip()
    return " ".join(text.split())


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class RunVoice:
    """The voice of one run; pass it to `webagent.runs.runner.start_run` as ``voice``."""

    def __init__(
        self,
        *,
        audio: Audio | None = None,
        transcriber: Transcriber | None = None,
        speaker: Speaker | None = None,
        play: bool = True,
        show: Callable[[str], None] = _stderr,
    ) -> None:
        """``audio``: the spoken goal (None: the goal is typed). ``transcriber`` None: the offline
        recogniser, built from the shop once its page is open. ``speaker`` None: nothing is spoken."""
        self.audio = audio
        self.transcriber = transcriber
        self.speech = SpeechOut(speaker, play_audio=play, note=show) if speaker is not None else None
        self.show = show
        self.transcript: Transcript | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def from_options(cls, options: VoiceOptions) -> RunVoice:
        """Check everything a run will need — the recording, the engines — before anything starts.

        Raises `AudioError` / `EngineMissing` (exit code 2) for bad input or a missing engine.
        """
        audio = None
        transcriber: Transcriber | None = None
        if options.voice_in:
            if options.engine == "offline":
                require_pocketsphinx()
                audio = load_audio(options.voice_in[0], min_rate=16_000, pcm_only=True)
            else:
                from webagent.voice.openai_audio import OpenAITranscriber

                audio = load_audio(options.voice_in[0])
                transcriber = OpenAITranscriber(options.transcribe_model, base_url=options.base_url)
        speaker = make_speaker(options) if options.speak else None
        return cls(audio=audio, transcriber=transcriber, speaker=speaker, play=options.play)

    async def opened(self, config: RunConfig, session: PageSession, folder: RunFolder) -> RunConfig:
        """The run's config with the spoken goal in it (or the same config when the goal was typed)."""
        self._loop = asyncio.get_running_loop()
        if self.speech is not None:
            self.speech.folder = folder
        if self.audio is None:
            return config
        kept = folder.path / ("voice-in" + (Path(self.audio.name).suffix or ".wav"))
        kept.write_bytes(self.audio.data)
        vocabulary = None
        if self.transcriber is None:
            vocabulary = await shop_vocabulary(session)
            self.transcriber = offline_recognizer(vocabulary)
        transcript = self.transcript = await self.transcriber.transcribe(self.audio)
        ok = usable(transcript, vocabulary)
        folder.record(
            "heard", audio=kept.name, engine=transcript.engine, heard=transcript.heard,
            text=transcript.text, understood=transcript.understood, usable=ok,
        )  # fmt: skip
        if ok:
            self.show(f'Heard ({transcript.engine}): "{transcript.text}"')
            return config.model_copy(update={"goal": transcript.text})
        what = f' (it heard "{transcript.heard}")' if transcript.heard else ""
        self.show(f"Heard ({transcript.engine}): no order I could read{what}; the agent will ask.")
        # An empty structured order: the planner asks what to order instead of reading the words.
        return config.model_copy(update={"goal": unclear_goal(transcript), "order": {}})

    def prompt(self, inner: Callable[[str], str]) -> Callable[[str], str]:
        """``inner`` (the terminal prompt), speaking each question before it reads the answer."""

        @functools.wraps(inner)  # still `inner` to whoever asks whether a person is at the terminal
        def ask(question: str) -> str:
            if self.speech is not None and self._loop is not None:
                spoken = self.speech.say(speakable(question), "question")
                asyncio.run_coroutine_threadsafe(spoken, self._loop).result()
            return inner(question)

        return ask

    async def finished(self, result: RunResult) -> None:
        """Speak how the run ended: the question a paused run waits on, else its final message."""
        if self.speech is None:
            return
        if result.outcome == "paused" and result.question:
            await self.speech.say(speakable(result.question), "question")
        else:
            await self.speech.say(result.message, "final")


def make_speaker(options: VoiceOptions) -> Speaker:
    """espeak-ng offline, the SDK's speech endpoint otherwise (`EngineMissing` when neither is there)."""
    if options.engine == "openai":
        from webagent.voice.openai_audio import OpenAISpeaker

        return OpenAISpeaker(options.speech_model, base_url=options.base_url)
    return EspeakSpeaker()
