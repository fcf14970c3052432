"""A conversation by voice — ``webagent chat --voice`` (microphone) or ``--voice-in FILE…`` (recordings).

(``chat --speak`` alone keeps typed turns and speaks the agent's side.)

The person's turns are heard instead of typed: each is transcribed (offline, with the shop's grammar),
shown as ``you (heard)> …`` and recorded in the run folder before the agent acts on it. Questions the
agent asks (which restaurant? place this order?) are spoken, then answered by voice too; each reply
is spoken. A turn that was not understood is not guessed at: the person is told, and asked again.
The conversation itself is `webagent.runs.chat.ChatSession`, exactly as in a typed chat.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from webagent.agent.approval import ask_person
from webagent.agent.checkpoint import RunFolder
from webagent.agent.loop import Listener
from webagent.config import RunConfig
from webagent.llm.protocol import close_model
from webagent.voice.audio import Audio, load_audio
from webagent.voice.microphone import Microphone, microphone
from webagent.voice.run import VoiceOptions, make_speaker, speakable
from webagent.voice.speak import Speaker, SpeechOut
from webagent.voice.transcribe import Transcriber, Transcript, offline_recognizer, require_pocketsphinx
from webagent.voice.vocabulary import shop_vocabulary

__all__ = ["VoiceChat"]

T = TypeVar("T")
RETRIES = 3
"""How many times a turn is asked for again when it was not understood (microphone only)."""


class VoiceChat:
    """The person's side of a conversation, by voice: recordings in order, or the microphone."""

    def __init__(
        self,
        *,
        recordings: list[Audio] | None = None,
        mic: Microphone | None = None,
        typed: Callable[[str], str] | None = None,
        transcriber: Transcriber | None = None,
        speaker: Speaker | None = None,
        play: bool = True,
        say: Callable[[str], None] = print,
    ) -> None:
        """Turns come from ``recordings`` in order, else the ``mic``, else ``typed`` (a prompt such as
        ``input``). ``transcriber`` None: the offline recogniser, built from the shop once it is open."""
        self.recordings = list(recordings or [])
        self.mic = mic
        self.typed = typed
        self.transcriber = transcriber
        self.speech = SpeechOut(speaker, play_audio=play, note=say) if speaker is not None else None
        self.say = say
        self.heard: list[Transcript] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._folder: RunFolder | None = None

    @classmethod
    def from_options(cls, options: VoiceOptions, *, hands_free: bool) -> VoiceChat:
        """Check the recordings, the engines and the microphone before anything starts (exit code 2)."""
        offline = options.engine == "offline"
        if offline and (options.voice_in or hands_free):
            require_pocketsphinx()
        recordings = [
            load_audio(path, min_rate=16_000 if offline else 8_000, pcm_only=offline)
            for path in options.voice_in
        ]
        mic = microphone() if hands_free and not recordings else None
        typed = input if not recordings and mic is None else None
        transcriber: Transcriber | None = None
        if typed is None and not offline:
            from webagent.voice.openai_audio import OpenAITranscriber

            transcriber = OpenAITranscriber(options.transcribe_model, base_url=options.base_url)
        speaker = make_speaker(options) if options.speak else None
        return cls(
            recordings=recordings,
            mic=mic,
            typed=typed,
            transcriber=transcriber,
            speaker=speaker,
            play=options.play,
        )

    # -- hearing a turn (runs on the prompt thread: see approval.ask_person) -------------------------

    def prompt(self, question: str) -> str:
        """Speak ``question`` (unless it is the bare "you> "), then hear the answer; EOFError at the end."""
        spoken = speakable(question)
        if self.speech is not None and spoken and spoken != "you":
            self._wait(self.speech.say(spoken, "question"))
        if self.typed is not None:
            return self.typed(question)
        for _ in range(RETRIES if self.mic is not None else 1):
            audio = self._next_audio()
            transcript = self._transcribe(audio)
            if transcript.understood:
                self.say(f"you (heard)> {transcript.text}")
                return transcript.text
            what = f' (heard "{transcript.heard}")' if transcript.heard else ""
            self.say(f"(not understood{what}; say it again)")
        return ""

    def _next_audio(self) -> Audio:
        if self.recordings:
            return self.recordings.pop(0)
        if self.mic is None:
            raise EOFError  # no more recordings: the conversation ends like typed input at its end
        self.say("(listening…)")
        audio = self.mic.listen()
        if audio is None:
            raise EOFError
        return audio

    def _transcribe(self, audio: Audio) -> Transcript:
        assert self.transcriber is not None
        transcript = self._wait(self.transcriber.transcribe(audio))
        self.heard.append(transcript)
        if self._folder is not None:
            kept = self._folder.path / f"voice-in-{len(self.heard):02d}{Path(audio.name).suffix or '.wav'}"
            kept.write_bytes(audio.data)
            self._folder.record(
                "heard", audio=kept.name, engine=transcript.engine, heard=transcript.heard,
                text=transcript.text, understood=transcript.understood,
            )  # fmt: skip
        return transcript

    def _wait(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on the conversation's event loop and wait for it (from the prompt thread)."""
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    # -- the conversation ----------------------------------------------------------------------------

    async def converse(self, config: RunConfig, listen: Listener | None = None) -> None:
        """Like ``webagent chat``, by voice: until "exit", the last recording, or silence."""
        from webagent.report.write import write_report
        from webagent.runs.chat import chat_page, chat_session, is_exit  # the typed chat's, unchanged

        self._loop = asyncio.get_running_loop()
        async with chat_page(config, voice=True, report=write_report) as (folder, page):
            self._folder = folder
            if self.speech is not None:
                self.speech.folder = folder
            if self.transcriber is None and self.typed is None:
                self.say("Reading the shop's names for the recogniser…")
                self.transcriber = offline_recognizer(await shop_vocabulary(page))
            if self.typed is not None:
                where = "type what you want (the replies are spoken)"
            elif self.mic is not None:
                where = f"listening on the microphone ({self.mic.name})"
            else:
                where = f"listening to {len(self.recordings)} recording(s)"
            self.say(f"Shop at {page.shop_url} — {where}; 'exit' to leave.")
            conversation = chat_session(config, folder, page, self.prompt, listen)
            try:
                while True:
                    text = await ask_person(self.prompt, "you> ")
                    if text is None or is_exit(text):
                        return
                    if not text.strip():
                        continue
                    result = await conversation.send(text.strip())
                    self.say(f"agent> {result.message}")
                    if self.speech is not None:
                        await self.speech.say(result.message, "reply")
            finally:
                await close_model(conversation.model)
