"""Which control of an overlay declines it, and which would accept, subscribe, consent or send data.

Pure words, no browser: the obstruction handler (webagent/browser/obstruction.py) uses them to dismiss a popup
it has never seen, and the planner uses them to choose a button when a dialog offers no way to decline.
The rule is conservative: a control is pressed on the person's behalf only when its accessible name
clearly closes or declines; anything that reads as agreeing to something is never pressed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

__all__ = ["accepts", "decline_control", "declines", "neutral_control"]

# Close icons and their names: "×", "✕", "Close", "Close dialog", "Dismiss banner", "Minimize chat".
_CLOSE_ICONS = {"x", "×", "✕", "✖", "✗", "╳", "⨯", "🗙"}
_DECLINE = re.compile(
    r"^(?:close|dismiss|hide|minimi[sz]e|collapse)\b"
    r"|^(?:no|nope|nah)\b(?!w)"
    r"|^(?:not now|not today|not interested|maybe later|later|remind me later|ask me later|skip|cancel)\b"
    r"|^(?:i'?ll pass|pass|decline|reject|refuse|deny|don'?t allow|do not allow|block)\b"
    r"|^continue without\b|^(?:go back|back to (?:the )?(?:shop|site|menu))\b"
    r"|^(?:only|use only) (?:necessary|essential|required)\b"
    r"|\bwithout (?:subscribing|signing up|an account|cookies|notifications)\b"
    r"|^(?:never mind|nevermind|stay (?:here|on (?:this|the) (?:page|site)))\b",
    re.I,
)
_ACCEPT = re.compile(
    r"\b(?:accept|agree|allow|enable|consent|subscribe|sign ?up|sign me up|join|register|log ?in|sign ?in"
    r"|opt ?in|yes|ok(?:ay)?|got it|confirm|submit|send|share|install|download|open (?:in )?(?:the )?app"
    r"|get (?:the )?(?:app|deal|offer|discount|coupon)|claim|redeem|buy|order|pay|upgrade|start"
    r"|try (?:it|now|for free)|take (?:the )?survey|answer|rate|continue|proceed|turn on|notify me"
    r"|keep me|count me in|i'?m in|let'?s go|save|apply|donate|tip|follow|like|add)\b",
    re.I,
)


def _plain(name: str) -> str:
    decomposed = unicodedata.normalize("NFKC", name)
    return " ".join(decomposed.replace("’", "'").split()).strip(" .!")


def accepts(name: str) -> bool:
    """Whether pressing a control of this name would agree to, subscribe to, or send something."""
    text = _plain(name)
    return bool(_ACCEPT.search(text)) and not declines(text)


def declines(name: str) -> bool:
    """Whether a control of this name only closes, declines or postpones (never agrees to anything)."""
    text = _plain(name)
    if text.lower() in _CLOSE_ICONS:
        return True
    if not _DECLINE.search(text):
        return False
    # "No, subscribe me" or "Close and accept" say both: not unambiguous, so not a decline.
    rest = _DECLINE.sub(" ", text, count=1)
    return not _ACCEPT.search(rest)


def decline_control(names: Sequence[str]) -> str | None:
    """The control to press to get rid of an overlay, or None when none unambiguously declines.

    A close icon first (it declines without a word of consent), then a worded decline ("Not now").
    """
    closing = [
        name
        for name in names
        if _plain(name).lower() in _CLOSE_ICONS or _plain(name).lower().startswith("close")
    ]
    for name in [*closing, *names]:
        if declines(name):
            return name
    return None


def neutral_control(names: Sequence[str]) -> str | None:
    """A control that neither declines nor accepts ("I'm still here"), when it is the only such one.

    For a dialog that offers no way to decline: pressing an acknowledgement is safe; pressing anything
    that agrees to something is not, so this returns None whenever the choice is not clear-cut.
    """
    neutral = [name for name in names if not accepts(name) and not declines(name) and _plain(name)]
    return neutral[0] if len(neutral) == 1 else None
