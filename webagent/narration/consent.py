"""Which control of an overlay declines it, and which would accept, subscribe, consent or send data.

Pure words, no browser: the obstruction handler (webagent/browser/obstruction.py) uses them to dismiss a popup
it has never seen, and the planner uses them to choose a button when a dialog offers no way to decline.
The rule is conservative: a control is pressed on the person's behalf only when its accessible name
clearly closes or declines; anything that reads as agreeing to something is never pressed.

A label is read by what it means, not matched against a list of whole labels (`meaning`): the phrases that
say no — close or dismiss something, reject or refuse, "not now" / "another time", "only the necessary
ones", "stay on the site", "continue on the web" (not in the app), "without accepting" / "do not accept" — are taken out, and what is left must
not agree to anything ("Continue without accepting" declines; "Accept and continue", "Close and subscribe" and
"Accept only necessary cookies" do not). A movement word left over ("continue", "proceed", "carry on")
only says where the person goes once the layer is declined; on its own, "Continue" may well mean agreeing,
so it counts as accepting. What is neither is ``"unknown"`` and is never pressed as a way out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Literal

__all__ = ["Meaning", "accepts", "decline_control", "declines", "meaning", "neutral_control", "ways_out"]

Meaning = Literal["decline", "accept", "unknown"]
"""What pressing a control would do: get out without agreeing, agree to something, or nobody can tell."""

# Close icons and their names: "×", "✕", "Close", "Close dialog", "Dismiss banner", "Minimize chat".
_CLOSE_ICONS = {"x", "×", "✕", "✖", "✗", "╳", "⨯", "🗙"}
_ICON_WORDS = {"icon", "ic", "btn", "button", "svg", "img"}
"""What an icon's name says of itself ("ic_close", "btn-x"): left aside when the rest is a close icon."""

# What a person is asked to agree to, as it follows "without" or a negation ("without accepting").
_AGREED = (
    r"(?:accept|agree|consent|allow|subscrib|sign(?:ing)?\s*(?:me\s*)?up|register|join|opt(?:ing)?\s*in"
    r"|log(?:ging)?\s*in|sign(?:ing)?\s*in|cookie|track|personali[sz]|notification|shar|sav|an?\s+account"
    r"|the\s+app|download|install)\w*"
)
# A verb that declines whatever follows it ("Close cookie notice", "Reject all").
_CLOSE_WORDS = r"schlie(?:ß|ss)en|fermer|cerrar|chiudi|sluiten|fechar|zamknij"
""""Close" in the languages a European shop's popups use (they are read as "close" is)."""
_DECLINE_VERB = re.compile(
    r"^(?:close|dismiss|hide|minimi[sz]e|collapse|exit|reject|decline|refuse|deny|disagree|opt\s*out"
    r"|skip|cancel|block|" + _CLOSE_WORDS + r")\b"
)
# The phrases that say no. Each is taken out of the label before the rest is read for agreement.
_WAY_OUT = re.compile(
    r"\bwithout\s+(?:\w+\s+){0,2}?"
    + _AGREED
    + r"|\b(?:do\s+not|don'?t|won'?t|never|not|(?:i'?d\s+)?rather\s+not)\s+(?:\w+\s+)?"
    + _AGREED
    + r"|\bdon'?t\s+(?:show|ask)\s+(?:\w+\s+)?again\b"
    r"|\b(?:close|dismiss|hide|minimi[sz]e|collapse|exit)\b"
    r"|\b(?:reject|decline|refuse|deny|disagree|opt\s*out|block)\w*"
    r"|\b(?:no|nope|nah)\b(?:\s*,?\s*thank(?:s|\s+you))?"
    r"|\bnot\s+(?:(?:right|just)\s+)?(?:now|today|yet|at\s+the\s+moment|this\s+time|for\s+now"
    r"|interested|for\s+me)\b"
    r"|\b(?:(?:maybe|perhaps)\s+)?later\b|\b(?:remind|ask)\s+me\s+(?:later|next\s+time|another\s+time|tomorrow)\b"
    r"|\b(?:some\s*other|another)\s+time\b|\bmaybe\s+not\b|\bnever\s*mind\b"
    r"|\b(?:i'?ll\s+)?pass\b|\bskip\b|\bcancel\b|\b(?:i'?d\s+)?rather\s+not\b"
    r"|\b(?:only|just)\s+(?:the\s+)?(?:strictly\s+)?(?:necessary|essential|required|needed|functional|basic)\b"
    r"|\b(?:strictly\s+)?(?:necessary|essential|required|needed|functional)\s+(?:\w+\s+)?only\b"
    r"|\bstay\s+(?:here\b|(?:here\s+)?on\s+(?:the\s+|this\s+|our\s+)?(?:web\s*site|site|page|shop|store)\b)"
    r"|\b(?:continue|stay|keep\s+using|use|go\s+on)\s+(?:(?:on|in|with|using)\s+)?(?:the\s+|your\s+|this\s+)?(?:mobile\s+)?"
    r"(?:web(?:\s*site)?|browser)(?:\s+(?:version|instead))?$"
    r"|\b(?:go|get)\s+back\b|\b(?:back|return)\s+to\b"
    r"|\b(?:" + _CLOSE_WORDS + r")\b"
    r"|\b(?:nein|non|no)\s*,?\s*(?:danke|merci|gracias|grazie|obrigad[oa]|bedankt)\b"
    r"|\b(?:jetzt|gerade)\s+nicht\b|\bnicht\s+jetzt\b|\bsp(?:ä|ae)ter\b|\bplus\s+tard\b"
    r"|\bpas\s+maintenant\b|\bahora\s+no\b|\bm(?:á|a)s\s+tarde\b|\bnon\s+ora\b"
)
# Where the person goes once the layer is declined: no agreement in itself next to a way out.
_MOVEMENT = re.compile(
    r"\b(?:continue|continuing|proceed|carry\s+on|go\s+on|keep\s+(?:browsing|shopping|reading|ordering))\b"
)
# Words that join two actions: "Close and accept", "Skip, then join", "Dismiss to subscribe".
_JOINED = re.compile(r"\b(?:and|then|to|but|und|dann|et|puis|y|e|en|i|oraz)\b|,|;")
_ACCEPT = re.compile(
    r"\b(?:accept|agree|allow|enable|consent|subscribe|sign ?up|sign me up|join|register|log ?in|sign ?in"
    r"|opt ?in|yes|ok(?:ay)?|got it|confirm|submit|send|share|install|download|open (?:in )?(?:the )?app"
    r"|get (?:the )?(?:app|deal|offer|discount|coupon)|claim|redeem|buy|order|pay|upgrade|start"
    r"|try (?:it|now|for free)|take (?:the )?survey|answer|rate|continue|proceed|turn on|notify me"
    r"|keep me|count me in|i'?m in|let'?s go|save|apply|donate|tip|follow|like|add|happy|fine with"
    r"|book|check ?out|purchase|reserve|rent|bid"
    r"|akzeptier\w*|zustimm\w*|einverstanden|abonnier\w*|annehmen|accepte\w*|acept\w*|accett\w*|aceit\w*"
    r"|s'abonner|suscrib\w*|iscriv\w*|inscri\w*"
    # paying, buying, ordering, booking, allowing and registering in the languages of the close words
    r"|bezahl\w*|zahl\w*|kauf\w*|bestell\w*|buch\w*|erlaub\w*|registr\w*|anmeld\w*|payer|acheter|achat"
    r"|commander|r[ée]serv\w*|autoris\w*|pagar|pago|comprar|pedir|permit\w*|pagare|acquist\w*|ordina\w*"
    r"|prenot\w*|consent\w*|betal\w*|kopen|akkoord|toestaan|concord\w*|akcept\w*|zap[łl]a\w*|kup\w*"
    r"|zam[óo]w\w*|zgod\w*|zezw\w*|rejestr\w*)\b",
    re.I,
)


def _plain(name: str) -> str:
    decomposed = unicodedata.normalize("NFKC", name)
    return " ".join(decomposed.replace("’", "'").split()).strip(" .!")


def _words(name: str) -> str:
    """Lower case, "&" and "+" as "and", no quotes or arrows around: the text the phrases are read in."""
    text = _plain(name).lower().replace("&", " and ").replace("+", " and ")
    text = re.sub(r"[\"“”«»‹›→>…]", " ", text).replace("-", " ").replace("_", " ")
    return " ".join(text.split()).strip(" .!?")


def meaning(label: str) -> Meaning:
    """What pressing a control of this accessible name would do: ``"decline"`` (close, reject, postpone,
    leave without agreeing), ``"accept"`` (agree to, subscribe to, or send something), or ``"unknown"``.

    A label that says both ("No, subscribe me", "Close and accept all") is ``"accept"``: never a way out.
    """
    text = _words(label)
    if not text:
        return "unknown"
    if text in _CLOSE_ICONS or " ".join(w for w in text.split() if w not in _ICON_WORDS) in _CLOSE_ICONS:
        return "decline"  # "×", or an icon named by its file or class: "icon-x", "btn x"
    rest = _WAY_OUT.sub(" ", text)
    if rest == text:
        return "accept" if _ACCEPT.search(text) else "unknown"
    # "Close cookie notice", "Reject all cookies": what follows a declining verb is what it declines,
    # unless another action is joined on ("Close and accept", "Skip, then join").
    if _DECLINE_VERB.match(text) and not _JOINED.search(rest):
        return "decline"
    return "accept" if _ACCEPT.search(_MOVEMENT.sub(" ", rest)) else "decline"


def accepts(name: str) -> bool:
    """Whether pressing a control of this name would agree to, subscribe to, or send something."""
    return meaning(name) == "accept"


def declines(name: str) -> bool:
    """Whether a control of this name only closes, declines or postpones (never agrees to anything)."""
    return meaning(name) == "decline"


def ways_out(labels: Sequence[str]) -> list[str]:
    """The labels that get out of an overlay without agreeing to anything, the one to try first first.

    A close control first (it declines without a word of consent: "×", "Close"), then the worded ways out
    ("Not now", "Continue without accepting") in page order. Labels whose `meaning` is ``"unknown"`` are
    left out: they are for the person (or a later, narrower question to a model), never pressed here.
    """
    found = [label for label in dict.fromkeys(labels) if declines(label)]
    closing = [label for label in found if _words(label) in _CLOSE_ICONS or _words(label).startswith("close")]
    return [*closing, *(label for label in found if label not in closing)]


def decline_control(names: Sequence[str]) -> str | None:
    """The control to press to get rid of an overlay, or None when none unambiguously declines."""
    found = ways_out(names)
    return found[0] if found else None


def neutral_control(names: Sequence[str]) -> str | None:
    """A control that neither declines nor accepts ("I'm still here"), when it is the only such one.

    For a dialog that offers no way to decline: pressing an acknowledgement is safe; pressing anything
    that agrees to something is not, so this returns None whenever the choice is not clear-cut.
    """
    neutral = [name for name in names if not accepts(name) and not declines(name) and _plain(name)]
    return neutral[0] if len(neutral) == 1 else None
