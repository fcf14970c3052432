"""The OpenAI audio endpoints through the ``openai`` SDK: transcription (speech in), speech (out).

Any OpenAI-compatible server works through ``base_url`` (a local whisper server, for example). The
SDK does the retries (429, 5xx, connection errors) and timeouts; once it gives up, the error is one
line naming the endpoint, as `ModelError` (a run error, exit code 1).
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx2
import openai
from openai import AsyncOpenAI

from webagent.errors import ModelError
from webagent.voice.audio import Audio
from webagent.voice.transcribe import Transcript

__all__ = [
    "DEFAULT_SPEECH_MODEL",
    "DEFAULT_TRANSCRIBE_MODEL",
    "DEFAULT_VOICE",
    "OpenAISpeaker",
    "OpenAITranscriber",
    "audio_client",
]

DEFAULT_TRANSCRIBE_MODEL = "gpt-4o-mini-transcribe"
"""Unless ``--transcribe-model`` or ``WEBAGENT_TRANSCRIBE_MODEL`` names another (``whisper-1`` for
most local whisper servers)."""
DEFAULT_SPEECH_MODEL = "gpt-4o-mini-tts"
"""Unless ``--speech-model`` or ``WEBAGENT_SPEECH_MODEL`` names another."""
DEFAULT_VOICE = "alloy"
"""Unless ``WEBAGENT_VOICE`` names another."""

_PLACEHOLDER_KEY = "not-needed"  # local servers ignore the key; the SDK refuses to start without one


def audio_client(base_url: str | None = None, *, max_retries: int = 3, timeout: float = 60.0) -> AsyncOpenAI:
    """An ``AsyncOpenAI`` for ``base_url`` (else ``OPENAI_BASE_URL``, else OpenAI's API)."""
    api_key = None
    if not os.environ.get("OPENAI_API_KEY") and (base_url or os.environ.get("OPENAI_BASE_URL")):
        api_key = _PLACEHOLDER_KEY
    try:
        return AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=timeout)
    except openai.OpenAIError as error:
        raise ModelError(
            "no API key for the audio endpoint: set OPENAI_API_KEY (or --base-url for a local server)"
        ) from error


def _failure(what: str, client: AsyncOpenAI, model: str, error: Exception) -> ModelError:
    where = f"the {what} endpoint at {str(client.base_url).rstrip('/')}"
    if isinstance(error, openai.AuthenticationError):
        message = f"{where} rejected the API key (HTTP 401); check OPENAI_API_KEY"
    elif isinstance(error, openai.APIStatusError):
        body = error.body
        reason = body.get("message") if isinstance(body, dict) else None
        message = f"{where} answered HTTP {error.status_code} for model {model}: {reason or error.message}"
    elif isinstance(error, openai.APITimeoutError):
        message = f"{where} did not answer in time"
    else:
        message = f"could not reach {where}: {error}"
    return ModelError(" ".join(str(message).split()))


class OpenAITranscriber:
    """Speech to text through ``client.audio.transcriptions.create`` (a multipart file upload)."""

    def __init__(
        self,
        model: str | None = None,
        *,
        client: AsyncOpenAI | None = None,
        base_url: str | None = None,
        language: str | None = "en",
    ) -> None:
        self.model = model or os.environ.get("WEBAGENT_TRANSCRIBE_MODEL") or DEFAULT_TRANSCRIBE_MODEL
        self.client = client if client is not None else audio_client(base_url)
        self.language = language

    def describe(self) -> str:
        return f"{self.model} @ {str(self.client.base_url).rstrip('/')}"

    async def transcribe(self, audio: Audio) -> Transcript:
        """Upload the recording; its text, as the endpoint wrote it."""
        try:
            result = await self.client.audio.transcriptions.create(
                model=self.model,
                file=(audio.name, audio.data, audio.mime),
                response_format="json",
                language=self.language or openai.omit,
            )
        except (openai.APIError, httpx2.TransportError) as error:
            raise _failure("transcription", self.client, self.model, error) from error
        text = " ".join((result.text or "").split())
        return Transcript(
            text=text, heard=text, engine=self.describe(), understood=bool(text), seconds=audio.seconds
        )


class OpenAISpeaker:
    """Text to speech through ``client.audio.speech.create``; writes WAV, so any player can play it."""

    suffix = ".wav"

    def __init__(
        self,
        model: str | None = None,
        *,
        voice: str | None = None,
        client: AsyncOpenAI | None = None,
        base_url: str | None = None,
    ) -> None:
        self.model = model or os.environ.get("WEBAGENT_SPEECH_MODEL") or DEFAULT_SPEECH_MODEL
        self.voice = voice or os.environ.get("WEBAGENT_VOICE") or DEFAULT_VOICE
        self.client = client if client is not None else audio_client(base_url)

    def describe(self) -> str:
        return f"{self.model} ({self.voice}) @ {str(self.client.base_url).rstrip('/')}"

    async def speak(self, text: str, path: Path) -> Path:
        """Write ``text`` spoken into ``path`` (WAV)."""
        try:
            response = await self.client.audio.speech.create(
                model=self.model, voice=self.voice, input=text, response_format="wav"
            )
        except (openai.APIError, httpx2.TransportError) as error:
            raise _failure("speech", self.client, self.model, error) from error
        audio = response.content
        if not (audio[:4] == b"RIFF" and audio[8:12] == b"WAVE"):
            raise ModelError(
                f"the speech endpoint at {str(self.client.base_url).rstrip('/')} sent back "
                f"{len(audio)} bytes that are not WAV audio"
            )
        path.write_bytes(audio)
        return path
