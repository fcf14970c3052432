"""Ordering by voice: speech in, speech out, hands-free chat — through the OpenAI audio API or offline.

| concern | module |
|---|---|
| reading and checking a recording (empty, silent, not audio, sample rate) | `audio` |
| the shop's names, read through the browser and cached per shop | `vocabulary` |
| the JSGF ordering grammar over those names, and back to the names as shown | `grammar` |
| pronouncing names the recogniser's dictionary lacks (espeak-ng phonemes) | `pronounce` |
| speech to text: the `Transcriber` seam, pocketsphinx offline | `transcribe` |
| the OpenAI transcription and speech endpoints (any compatible server) | `openai_audio` |
| text to speech into the run folder, espeak-ng offline; playing it | `speak` |
| listening on the microphone | `microphone` |
| a spoken run: the runner's voice hooks | `run` |
| a conversation by voice | `handsfree` |
"""

from webagent.voice.errors import AudioError, EngineMissing, MicrophoneUnavailable
from webagent.voice.run import RunVoice, VoiceOptions

__all__ = ["AudioError", "EngineMissing", "MicrophoneUnavailable", "RunVoice", "VoiceOptions"]
