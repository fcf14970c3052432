"""Speech to text: the `Transcriber` seam, and the offline recogniser (pocketsphinx + the shop grammar).

The OpenAI engine lives in `webagent.voice.openai_audio`; both return a `Transcript`.
"""

from __future__ import annotations

import random
import threading
from array import array
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from webagent.sync import in_daemon_thread
from webagent.voice.audio import Audio
from webagent.voice.errors import EngineMissing
from webagent.voice.grammar import OTHER_MARK, OrderGrammar, order_grammar
from webagent.voice.pronounce import pronounce
from webagent.voice.vocabulary import ShopVocabulary, cache_dir

__all__ = [
    "SphinxRecognizer",
    "Transcriber",
    "Transcript",
    "common_words",
    "offline_recognizer",
    "require_pocketsphinx",
]

INSTALL_POCKETSPHINX = (
    "offline speech recognition needs pocketsphinx: pip install 'webagent[voice]' "
    "(or set OPENAI_API_KEY to use the OpenAI transcription endpoint)"
)
PADDING_S = 0.3
"""Silence added before and after the speech: the recogniser starts and ends better on it."""
NOISE = 8
"""Peak of the faint noise (±8 of 32 768: -72 dBFS) added under every recording. Digital silence —
exact zeros, as synthesised or trimmed audio has between words — throws pocketsphinx's energy
features off: on espeak-ng speech, "from Italian Bistro" came out as "one beef pho" until a
microphone's own faint hiss was put back."""

# Only silence between words: the model's noise fillers ("[SPEECH]", "[NOISE]") soak up whole spoken
# words ("from Italian Bistro" went missing inside them).
SILENCE_ONLY = "<s> SIL\n</s> SIL\n<sil> SIL\n"
# Tuned on espeak-ng speech of 30 random orders: silprob 0.1 lets the pauses at commas be silence
# ("…Poke Paradise, pay cash" lost its "pay cash" at the default 0.005); wider beams keep the right
# path alive through long orders; bestpath (a second pass over the lattice) cost 20× the time for
# no gain on a grammar.
DECODER_OPTIONS: dict[str, Any] = {
    "lm": None,
    "silprob": 0.1,
    "beam": 1e-80,
    "wbeam": 1e-60,
    "bestpath": False,
    "loglevel": "FATAL",
}


class Transcript(BaseModel):
    """What an engine heard, and what the agent is given."""

    text: str
    """As the agent reads it: the shop's names as shown, digits, times ("" when nothing was understood)."""
    heard: str
    """The engine's own output, word for word."""
    engine: str
    understood: bool
    seconds: float | None = None


class Transcriber(Protocol):
    """Speech to text; `SphinxRecognizer` and `OpenAITranscriber` implement it."""

    def describe(self) -> str: ...

    async def transcribe(self, audio: Audio) -> Transcript: ...


def require_pocketsphinx() -> None:
    """`EngineMissing` (saying how to install it) unless pocketsphinx can be imported."""
    try:
        import pocketsphinx  # type: ignore[import-untyped]  # noqa: F401
    except ImportError as error:
        raise EngineMissing(INSTALL_POCKETSPHINX) from error


@cache
def common_words(count: int = 300) -> tuple[str, ...]:
    """The most frequent words of pocketsphinx's English language model, most frequent first."""
    from pocketsphinx import NGramModel, get_model_path

    model = NGramModel.readfile(get_model_path("en-us/en-us.lm.bin"))
    with Path(get_model_path("en-us/cmudict-en-us.dict")).open(encoding="utf-8") as lines:
        words = {line.split(" ", 1)[0] for line in lines}
    plain = [word for word in words if word.isalpha()]
    return tuple(sorted(plain, key=lambda word: (-model.prob([word]), word))[:count])


class SphinxRecognizer:
    """pocketsphinx held to the shop's ordering grammar; works offline, on 16–48 kHz WAV."""

    def __init__(self, grammar: OrderGrammar) -> None:
        self.grammar = grammar
        self.extra_words = pronounce(grammar.written.items())
        self._decoders: dict[int, Any] = {}
        self._lock = threading.Lock()  # one decoder decodes one utterance at a time

    def describe(self) -> str:
        return f"pocketsphinx with the shop's grammar ({len(self.grammar.names)} names)"

    def _decoder(self, rate: int) -> Any:
        if rate not in self._decoders:
            from pocketsphinx import Config, Decoder

            fillers = cache_dir() / "pocketsphinx" / "silence.dict"
            fillers.parent.mkdir(parents=True, exist_ok=True)
            fillers.write_text(SILENCE_ONLY, encoding="utf-8")
            decoder = Decoder(Config(**DECODER_OPTIONS, samprate=float(rate), fdict=str(fillers)))
            for word, phones in self.extra_words.items():
                decoder.add_word(word, phones, False)
            for marked in self.grammar.other:  # "want~" sounds like "want"
                decoder.add_word(marked, decoder.lookup_word(marked.removesuffix(OTHER_MARK)), False)
            decoder.add_jsgf_string("order", self.grammar.jsgf)
            decoder.activate_search("order")
            self._decoders[rate] = decoder
        return self._decoders[rate]

    def recognize(self, audio: Audio) -> Transcript:
        """Decode a WAV recording (blocking: seconds of CPU)."""
        assert audio.pcm is not None and audio.rate is not None, "the offline recogniser needs WAV"
        silence = bytes(2 * int(audio.rate * PADDING_S))
        samples = _with_hiss(silence + audio.pcm + silence)
        with self._lock:
            decoder = self._decoder(audio.rate)
            decoder.start_utt()
            decoder.process_raw(samples, full_utt=True)
            decoder.end_utt()
            hypothesis = decoder.hyp()
        heard = hypothesis.hypstr if hypothesis is not None else ""
        understood = self.grammar.understood(heard)
        return Transcript(
            text=self.grammar.shown(heard) if understood else "",
            heard=heard,
            engine="pocketsphinx",
            understood=understood,
            seconds=audio.seconds,
        )

    async def transcribe(self, audio: Audio) -> Transcript:
        return await in_daemon_thread(self.recognize, audio)


def _with_hiss(pcm: bytes) -> bytes:
    """``pcm`` with `NOISE` added: the same pseudo-random hiss every time, so decoding is repeatable."""
    hiss = _hiss()
    samples = array("h", pcm)
    period = len(hiss)
    return array(
        "h", (min(32767, max(-32768, s + hiss[i % period])) for i, s in enumerate(samples))
    ).tobytes()


@cache
def _hiss() -> array[int]:
    noise = random.Random(16_000)
    return array("h", (noise.randint(-NOISE, NOISE) for _ in range(16_001)))


def offline_recognizer(vocabulary: ShopVocabulary) -> SphinxRecognizer:
    """The offline recogniser for a shop: its names, plus common words for "not an order"."""
    require_pocketsphinx()
    return SphinxRecognizer(order_grammar(vocabulary, common_words()))
