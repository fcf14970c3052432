"""How each grammar word sounds, for pocketsphinx: its dictionary, else espeak-ng's phonemes.

pocketsphinx's English dictionary (CMUdict, 134 000 words) lacks about a quarter of the shop's dish
words ("tiramisu" is there, "bulgogi", "nigiri" and "döner" are not). A word the recogniser has no
pronunciation for cannot be in its grammar, so for those words espeak-ng's own phonemes (IPA) are
mapped to the model's ARPAbet phones; without espeak-ng a rough letter-by-letter spelling is used.
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path

__all__ = ["dictionary_words", "ipa_to_arpabet", "pronounce", "spelled_out"]

# Longest symbols first: "tʃ" before "t", "oʊ" before "o". Stress and length marks are dropped before
# lookup ("ˈuː" → "u"), except where the length tells two vowels apart ("ɑː" vs "ɐ" both fold fine).
IPA_TO_ARPABET: dict[str, str] = {
    "tʃ": "CH", "dʒ": "JH", "aɪ": "AY", "aʊ": "AW", "ɔɪ": "OY", "eɪ": "EY", "oʊ": "OW", "əʊ": "OW",
    "iə": "IY AH", "ɪə": "IH R", "ɪɹ": "IH R", "ɛɹ": "EH R", "ʊɹ": "UH R", "ɔɹ": "AO R", "oɹ": "AO R",
    "ɑɹ": "AA R", "aɪə": "AY ER", "ɜ": "ER", "ɚ": "ER", "ɝ": "ER",
    "p": "P", "b": "B", "t": "T", "d": "D", "k": "K", "ɡ": "G", "g": "G", "f": "F", "v": "V",
    "θ": "TH", "ð": "DH", "s": "S", "z": "Z", "ʃ": "SH", "ʒ": "ZH", "h": "HH", "m": "M", "n": "N",
    "ŋ": "NG", "l": "L", "ɹ": "R", "r": "R", "j": "Y", "w": "W", "ɾ": "T", "ʔ": "T", "x": "K",
    "ç": "HH", "ɬ": "L", "i": "IY", "ɪ": "IH", "ᵻ": "IH", "e": "EY", "ɛ": "EH", "æ": "AE", "a": "AA",
    "ɐ": "AH", "ə": "AH", "ʌ": "AH", "ɑ": "AA", "ɒ": "AA", "ɔ": "AO", "o": "OW", "ʊ": "UH", "u": "UW",
    "y": "UW", "ø": "ER", "œ": "ER",
}  # fmt: skip
_MARKS = "ˈˌː.‿ "

# A last resort without espeak-ng: one phone per letter (digraphs first). Crude, but it keeps a dish
# in the grammar; the README says to install espeak-ng for better recognition of such names.
LETTERS: dict[str, str] = {
    "ch": "CH", "sh": "SH", "th": "TH", "ph": "F", "ng": "NG", "ee": "IY", "oo": "UW", "ou": "AW",
    "ai": "AY", "ay": "EY", "ea": "IY", "qu": "K W", "ck": "K",
    "a": "AA", "b": "B", "c": "K", "d": "D", "e": "EH", "f": "F", "g": "G", "h": "HH", "i": "IY",
    "j": "JH", "k": "K", "l": "L", "m": "M", "n": "N", "o": "OW", "p": "P", "q": "K", "r": "R", "s": "S",
    "t": "T", "u": "UW", "v": "V", "w": "W", "x": "K S", "y": "Y", "z": "Z",
}  # fmt: skip


def _model_dictionary() -> Path:
    from pocketsphinx import get_model_path  # type: ignore[import-untyped]

    return Path(get_model_path("en-us")) / "cmudict-en-us.dict"


@cache
def dictionary_words() -> frozenset[str]:
    """Words pocketsphinx's English dictionary can pronounce (alternates such as ``read(2)`` folded)."""
    with _model_dictionary().open(encoding="utf-8") as lines:
        return frozenset(line.split(" ", 1)[0].split("(", 1)[0] for line in lines if line.strip())


def ipa_to_arpabet(phonemes: Iterable[str]) -> str:
    """espeak-ng's phonemes (``--sep``-split IPA) as ARPAbet phones: ``["t", "ˈuː"]`` → ``"T UW"``."""
    phones: list[str] = []
    for raw in phonemes:
        symbol = "".join(ch for ch in raw if ch not in _MARKS)
        while symbol:
            for size in (3, 2, 1):
                part = symbol[:size]
                if part in IPA_TO_ARPABET:
                    phones.append(IPA_TO_ARPABET[part])
                    symbol = symbol[size:]
                    break
            else:
                symbol = symbol[1:]  # a symbol English phones have no counterpart for: skip it
    return " ".join(phones)


def spelled_out(word: str) -> str:
    """A letter-by-letter pronunciation, for when espeak-ng is not installed."""
    letters = "".join(ch for ch in unicodedata.normalize("NFKD", word.lower()) if "a" <= ch <= "z")
    phones: list[str] = []
    while letters:
        if letters[:2] in LETTERS:
            phones.append(LETTERS[letters[:2]])
            letters = letters[2:]
        else:
            phones.append(LETTERS[letters[0]])
            letters = letters[1:]
    return " ".join(phones)


def _espeak_phonemes(words: list[str]) -> list[str] | None:
    espeak = shutil.which("espeak-ng")
    if espeak is None or not words:
        return None
    # One clause per line, so each word comes back on its own line, phonemes separated by "_".
    text = "".join(f"{word}.\n" for word in words)
    try:
        done = subprocess.run(
            [espeak, "-v", "en-us", "-q", "--ipa", "--sep=_"],
            input=text,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if len(lines) != len(words):
        return None  # espeak-ng split or merged something: better spelled out than misaligned
    return [ipa_to_arpabet(part for chunk in line.split() for part in chunk.split("_")) for line in lines]


def pronounce(words: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Phones for grammar words the dictionary lacks: ``(word, as written)`` pairs → ``{word: phones}``.

    "As written" is the name's own spelling ("döner" for the grammar word "doner"), which espeak-ng
    pronounces better than the folded one.
    """
    known = dictionary_words()
    missing = sorted({(word, written) for word, written in words if word not in known})
    if not missing:
        return {}
    sounds = _espeak_phonemes([written for _, written in missing])
    result: dict[str, str] = {}
    for index, (word, written) in enumerate(missing):
        phones = sounds[index] if sounds is not None else ""
        result[word] = phones or spelled_out(written) or spelled_out(word)
    return result
