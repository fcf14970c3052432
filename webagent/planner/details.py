"""Delivery details in a goal: phone, promo code, tip, budget, time, address, name and payment.

Each reader finds its detail by its shape, wherever it stands in the sentence, and *claims* the words it
used (label words included: "phone 555-0101", "tip $2", "deliver at 7pm"), so that nothing else reads
them again — an address's number is not a quantity, a name after "for" is not a dish. The goal reader
(goal.py) calls them in the order of `READERS`, the restaurant names being spotted between the time
and the address (an address's town must not swallow a restaurant).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import phonenumbers

from webagent.planner.spec import Detail, Words

__all__ = ["ClaimedText", "read_address", "read_name", "read_note", "read_payment", "read_phone", "slot_for"]

BLANK = "\x00"
"""What a claimed stretch becomes in `ClaimedText.masked`; restaurant and dish names use `NAMED`."""
NAMED = "\x01"
MONEY = r"\$\s*(\d+(?:\.\d{1,2})?)|(\d+(?:\.\d{1,2})?)\s*(?:dollars?|bucks|usd)\b"
STREET = (
    r"street|st|road|rd|avenue|ave|lane|ln|drive|dr|way|boulevard|blvd|court|ct|place|pl|path|square|sq"
    r"|terrace|close|crescent|parkway|pkwy|highway|hwy|row|alley|circle|walk|hill|gardens|mews|plaza|view|quay|wharf"
)
UNIT = (
    r"(?:(?:apt|apartment|unit|suite|ste|flat|floor|fl|level|room|rm|office|building|bldg|#)\.?\s*#?\d\w*"
    r"|(?:apt|apartment|unit|suite|flat|#)\.?\s*[a-z]\b|\d{1,3}(?:st|nd|rd|th)\s+(?:floor|fl)\b\.?"
    r"|(?:zip|zip\s*code|post\s*code|postal\s*code)\s*:?\s*\d{4,5}(?:-\d{4})?\b)"
    r"(?=\s*(?:$|[,;.!?\n)(]|[-–—]|(?:and|please|pls|plz|by|at|before|after|around|for|tonight|thanks|thank|thx"
    r"|call|text|ring|buzz|leave|cash|card|pay|paying|asap|i|we|my|zip|floor|apt|unit|suite|room|office)\b))"
)
"""What may follow a street, one after another: "Apt 3", "#4F", "5th floor, unit 5C", "floor 3, office 305",
"zip 94110" — where a clause or a detail ends with it: "…, apt 2 horchata" may be 2 horchatas (asked)."""
NOT_NAMES = {
    "I", "I'd", "I'm", "I'll", "Please", "Thanks", "Thank", "Order", "Hi", "Hey", "Hello", "Just", "Large",
    "Small", "Regular", "Medium", "Hot", "Mild", "Go", "The", "A", "An", "My", "Our", "Cheers", "Best",
    "Morning", "Evening", "Afternoon", "Good", "Hiya", "Howdy", "Yo", "Dear", "Greetings", "Ta", "Thx",
    "Regards", "Love", "Yours", "Sincerely", "Also", "And", "Then", "Sorry", "Ok", "Okay", "Yes", "Sure",
}  # fmt: skip


class ClaimedText:
    """The goal, with the stretches already read blanked out so that no reader takes them twice."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.masked = text

    def search(self, pattern: str, flags: int = re.I) -> re.Match[str] | None:
        return re.search(pattern, self.masked, flags)

    def finditer(self, pattern: str, flags: int = re.I) -> list[re.Match[str]]:
        return list(re.finditer(pattern, self.masked, flags))

    def claim(self, start: int, end: int, mark: str = BLANK) -> None:
        self.masked = self.masked[:start] + mark * (end - start) + self.masked[end:]

    def is_free(self, start: int, end: int) -> bool:
        return BLANK not in self.masked[start:end] and NAMED not in self.masked[start:end]

    def words(self, start: int, end: int) -> Words:
        """The stretch ``[start, end)``, trimmed of spaces and trailing punctuation."""
        while start < end and self.text[start] in " \t\n,;:(":
            start += 1
        while end > start and self.text[end - 1] in " \t\n,;:.!?)":
            end -= 1
        return Words(start, end, self.text[start:end])

    def take(self, match: re.Match[str], value: str | int, group: int = 1) -> Detail:
        """Claim the whole match; the detail's words are ``group``'s (the value as written)."""
        self.claim(match.start(), match.end())
        start, end = match.span(group) if match.group(group) is not None else match.span()
        return Detail(value, self.words(start, end))


def slot_for(hour: int, minute: int) -> str:
    """The half-hour slot label starting at (or containing) a time: 19:10 → ``"19:00-19:30"``."""
    start = hour * 60 + (minute // 30) * 30
    end = start + 30
    return f"{start // 60 % 24:02d}:{start % 60:02d}-{end // 60 % 24:02d}:{end % 60:02d}"


def _evening(hour: int, suffix: str) -> int:
    """A time without "am" in a dinner shop: "at 7" is 19:00; "12am" is midnight."""
    suffix = suffix.lower().replace(".", "")
    if suffix == "am":
        return 0 if hour == 12 else hour
    return hour + 12 if hour < 12 else hour


def read_phone(text: ClaimedText) -> Detail | None:
    """A phone number in any common shape, with its label ("phone", "tel", "call me on") if any."""
    for found in phonenumbers.PhoneNumberMatcher(text.masked, "US", leniency=phonenumbers.Leniency.POSSIBLE):
        if sum(ch.isdigit() for ch in found.raw_string) < 7:
            continue
        label = re.search(
            r"(?:\b(?:phone(?:\s+number)?|tel(?:ephone)?|mobile|cell|(?:my\s+)?number(?:\s+is)?|call\s+me\s+(?:on|at)"
            r"|reach\s+me\s+(?:on|at))\s*[:\-]?\s*)$",
            text.masked[: found.start],
            re.I,
        )
        start = label.start() if label else found.start
        text.claim(start, found.end)
        return Detail(found.raw_string, Words(found.start, found.end, found.raw_string))
    return None


def read_promo(text: ClaimedText) -> Detail | None:
    for pattern in (
        r"\b(?:(?:promo(?:tion)?|discount|coupon|voucher)\s*)?code\s*[:\-]?\s*([A-Za-z0-9]{3,20})\b",
        r"\b(?:promo|coupon)\s*[:\-]?\s*([A-Za-z0-9]{3,20})\b",
    ):
        match = text.search(pattern)
        if match:
            return _with_verb(text, match, match.group(1).upper())
    match = text.search(r"\b(?:use|apply)\s+([A-Z][A-Z0-9]{3,19})\b", 0)
    return text.take(match, match.group(1)) if match else None


def _with_verb(text: ClaimedText, match: re.Match[str], value: str) -> Detail:
    verb = re.search(r"\b(?:use|apply|with)\s+(?:the\s+)?$", text.masked[: match.start()], re.I)
    if verb:
        text.claim(verb.start(), match.start())
    return text.take(match, value)


def read_tip(text: ClaimedText) -> Detail | None:
    match = text.search(r"\b(?:no|without(?:\s+a)?|zero)\s+tip\b|\btip\s*:?\s*(?:none|nothing|0)\b")
    if match:
        return text.take(match, 0, 0)
    match = text.search(
        r"\b(?:tip(?:ping)?|gratuity)(?:\s+(?:the\s+)?(?:driver|courier|rider))?\s*(?:of|:)?\s*(?:"
        + MONEY
        + r"|(\d+(?:\.\d{1,2})?)\b)"
    )
    if match is None:
        match = text.search(
            r"\b(?:(?:leave|add|give)\s+)?(?:an?\s+)?(?:" + MONEY + r"|(\d+)\s*dollar)\s*tip\b"
        )
    if match is None:
        return None
    amount = next(group for group in match.groups() if group)
    return text.take(match, round(float(amount) * 100), 0)


def read_budget(text: ClaimedText) -> Detail | None:
    lead = (
        r"(?:(?:and\s+|but\s+|please\s+)?(?:try\s+to\s+|make\s+sure\s+(?:it\s+)?|ensure\s+(?:it\s+)?)?"
        r"(?:keep(?:ing)?|stay(?:s|ing)?|remain(?:s)?)\s+(?:it\s+|the\s+(?:whole\s+)?(?:total|order|bill)\s+|everything\s+)?)?"
    )
    limit = (
        r"(?:under|below|less\s+than|at\s+most|no\s+more\s+than|not\s+more\s+than|max(?:imum)?|up\s+to|within"
        r"|budget(?:\s+of|\s+is)?(?:\s+(?:around|about|roughly))?\s*:?|cap(?:\s+of)?|spend(?:ing)?\s+(?:at\s+most|no\s+more\s+than|up\s+to|under|less\s+than)"
        r"|(?:don'?t|doesn'?t|do\s+not|does\s+not|not|never)\s+(?:\w+\s+){0,2}?(?:more\s+than|over|above|exceed)"
        r"|(?:only|just)\s+(?:have|got)(?:\s+about)?|(?:have|['’]ve\s+got|got)\s+(?:only|just))"
    )
    match = text.search(
        r"\b"
        + lead
        + limit
        + r"\s*(?:"
        + MONEY
        + r")(?:\s*(?:budget|max(?:imum)?|total|in\s+total|or\s+less|tops))?"
    )
    if match is None:
        match = text.search(
            r"\bbudget(?:\s+of|\s+is)?(?:\s+(?:around|about|roughly))?\s*:?\s*\$?\s*(\d+(?:\.\d{1,2})?)()\b"
        )
    if match is None:
        match = text.search(r"(?:" + MONEY + r")\s*(?:budget|max(?:imum)?|or\s+less|tops|at\s+most)\b")
    if match is None:
        return None
    amount = next(group for group in match.groups() if group)
    return text.take(match, round(float(amount) * 100), 0)


def read_slot(text: ClaimedText) -> Detail | None:
    """A delivery time as the shop's slot label: "at 7pm" → 19:00-19:30, "asap" → ASAP; with "at the latest"
    after it."""
    found = _slot(text)
    if found is not None:
        after = text.words(found.words.end, len(text.text)).start
        latest = re.match(r"(?:at\s+the\s+)?latest\b|at\s+the\s+earliest\b", text.masked[after:], re.I)
        if latest:
            text.claim(after, after + latest.end())
    return found


def _slot(text: ClaimedText) -> Detail | None:
    lead = r"(?:\b(?:deliver(?:y|ed)?(?:\s+time)?|when)\s*:?\s*)?(?:\b(?:at|for|by|around|about|@)\s+)?"
    match = text.search(lead + r"\b(\d{1,2}):(\d{2})\s*[-–]\s*\d{1,2}:\d{2}\b")
    if match:
        return text.take(match, slot_for(int(match.group(1)), int(match.group(2))), 0)
    match = text.search(
        r"\bbetween\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\s+and\s+\d{1,2}(?::\d{2})?\s*(am|pm)?(?![a-z])"
    )
    if match:
        hour = _evening(int(match.group(1)), match.group(3) or match.group(4) or "")
        return text.take(match, slot_for(hour, int(match.group(2) or 0)), 0)
    match = text.search(
        r"\b(?:asap|a\.s\.a\.p\.?|as\s+soon\s+as\s+possible|right\s+away|right\s+now|immediately)"
    )
    if match:
        return text.take(match, "ASAP", 0)
    match = text.search(lead + r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|o'?clock)(?![a-z])")
    if match is None:
        match = text.search(lead + r"\b([01]?\d|2[0-3]):([0-5]\d)()\b")
    if match is None:  # a bare "at 7" only when no word follows, so "at 7 Elm Street" stays an address
        match = text.search(
            r"\b(?:at|for|by|around|about)\s+(\d{1,2})()()(?=\s*(?:[,;.!)\n]|$|\s+(?:and|tonight|please|pm)\b))"
        )
    if match is None:
        match = text.search(r"(?:\b(?:at|for|by|around)\s+)?\b(noon|midday)()()\b")
        if match:
            return text.take(match, slot_for(12, 0), 0)
        return None
    hour = int(match.group(1))
    if not match.group(2) or match.group(3):  # "7pm", "at 7": a dinner-time shop means the evening
        hour = _evening(hour, match.group(3) or "")
    return text.take(match, slot_for(hour, int(match.group(2) or 0)), 0)


NOTE_LEADS = (
    r"(?:please\s+|pls\s+|kindly\s+|and\s+)?(?:"
    r"leave\s+(?:it|them|the\s+(?:food|order|bag|bags)|everything)?\s*(?:at|on|with|by|outside|in|inside|behind"
    r"|next\s+to|in\s+front\s+of|downstairs|upstairs)\b"
    r"|(?:ring|knock|buzz|press)\b|(?:don['’]?t|do\s+not|no\s+need\s+to)\s+(?:ring|knock|buzz|call)\b"
    r"|(?:call|text|phone|message)\s+(?:me\s+)?(?:(?:on|at)\s+)?(?:\x00+\s*)?(?:when|once|if|on\s+arrival"
    r"|upon\s+arrival|before)\b"
    r"|(?:gate|door|entry|access|building|buzzer|entrance)\s+code\b|(?:buzzer|intercom)\s*(?:is|:|#)?\s*#?\d"
    r"|hand\s+(?:it|them)\s+to\b"
    r"|drop\s+(?:it|them)\s+(?:off\s+)?(?:at|with|by|outside)\b|meet\s+me\b|use\s+the\s+(?:back|side|front)\b"
    r"|(?:the\s+)?(?:back|side|front)\s+(?:door|gate|entrance)\b|(?:we|i)['’]?(?:re|m|\s+am|\s+are)\s+on\s+the\b"
    r")"
)
"""How a note for the courier begins ("leave it with the neighbour", "ring the bell twice", "gate code 4411")."""
THANKS = re.compile(r"\s*(?:many\s+|and\s+)?(?:thanks|thank\s+you|thx|ta|cheers|best|regards|love)\b", re.I)
NEXT_DETAIL = re.compile(
    r"\s*(?:(?:i['’]ll\s+|we['’]ll\s+)?pay\w*|cash|(?:credit\s+|debit\s+)?card|voucher|tip|asap|deliver\w*|promo|coupon"
    r"|budget|under\s+\$|max|(?:at|around|by|for)\s+\d|\d{1,2}\s*(?:am|pm)|phone|tel|my\s+name|name)\b",
    re.I,
)
"""A clause after a note that is another detail ("…, leave it with the neighbour, cash"): it ends the note."""
NEXT_ORDER = re.compile(r"\s*(?:\d|(?:a|an|one|two|three|four|five|and\s+(?:a|an|one|two|\d))\b)", re.I)


def read_note(text: ClaimedText) -> Detail | None:
    """The notes for the courier, each to the end of its sentence: "leave at the door, the baby is asleep",
    "gate code 4471, text 415 555 9921 when you're here" (its words are the first note's).

    Claimed so that none of their words is read as a dish or a name; a clause after one that starts a new
    item ("…, 2 churros") ends it.
    """
    found: list[Detail] = []
    while (note := _note(text)) is not None:
        found.append(note)
    if not found:
        return None
    return (
        Detail("; ".join(str(note.value) for note in found), found[0].words) if len(found) > 1 else found[0]
    )


def _note(text: ClaimedText) -> Detail | None:
    match = text.search(r"(?:(?<=^)|(?<=[,;.!?:\n(\-–—]))\s*(" + NOTE_LEADS + r")")
    if match is None:
        return None
    start = match.start(1)
    end = start
    polite = re.match(r"(?:please|pls|kindly|and)\s+", text.masked[start:], re.I)
    if polite:
        text.claim(start, start + polite.end())
        start += polite.end()
        end = start
    for clause in re.finditer(r"[^,;.!?:\n]+|[,;]", text.masked[start:]):
        piece = clause.group(0)
        if piece in ",;":
            continue
        if end > start and (
            NEXT_ORDER.match(piece)
            or THANKS.match(piece)
            or NEXT_DETAIL.match(piece)
            or "\x00" in piece
            or "\x01" in piece
        ):
            break
        end = start + clause.end()
        after = text.masked[end : end + 1]
        if after in (".", "!", "?", "\n", ""):
            break
    # Inside it, what starts another item or detail ends it: "leave it at the door and a Lemonade too",
    # "ring me at 7pm", "… - Greek Salad".
    cut = re.search(
        r"\s+(?:and|&|plus)\s+(?:a|an|one|two|three|\d)\b|\s+(?:at|around|by|before)\s+\d|\s[-–—]\s|\(|\)"
        r"|\s+(?:and\s+)?(?:tip|pay|paying|cash|card)\b",
        text.masked[start:end],
        re.I,
    )
    if cut:
        end = start + cut.start()
    end = max(end, match.end(1))  # never nothing: the next search must not find the same lead
    words = text.words(start, end)
    text.claim(start, end)
    return Detail(words.text, words)


def read_address(text: ClaimedText) -> Detail | None:
    """A street address: a number, street words and a street type, then an apartment or a town."""
    match = text.search(
        r"(?<![\w$.:])(\d{1,6}[A-Za-z]?)\s+(?:(?:[^\W\d_][\w'’.-]*|\d{1,3}(?:st|nd|rd|th))\s+){0,3}?(?:"
        + STREET
        + r")\b\.?(?:\s+(?:"
        + STREET
        + r")\b\.?)?(?:\s*,?\s*"
        + UNIT
        + r")*",
    )
    if match is None:
        return None
    end = match.end()
    town = re.match(
        r",\s*((?:[A-Z][a-z]+)(?:\s+[A-Z][a-z]+){0,2})(?:,?\s+[A-Z]{2})?(?:,?\s+\d{5}(?:-\d{4})?)?(?=\s*(?:[.;\n!]|$))",
        text.masked[end:],
    )
    if town and town.group(1) not in NOT_NAMES:
        end += town.end()
    label = re.search(
        r"\b(?:deliver(?:ed|y)?(?:\s+it)?\s+(?:to|at)|address(?:\s+is)?\s*[:\-]?|send(?:\s+it)?\s+to|ship(?:\s+it)?\s+to"
        r"|bring(?:\s+it)?\s+to|to|at)\s*$",
        text.masked[: match.start()],
        re.I,
    )
    words = text.words(match.start(), end)
    # A full stop after the street ends the sentence too: left unclaimed, a sign-off after it still stands
    # after one ("… to 1 Oak Street. Thanks, Maren").
    text.claim(label.start() if label else match.start(), end - 1 if text.text[end - 1] == "." else end)
    return Detail(words.text, words)


NAME_WORD = r"(?:[A-Z]\.|[^\W\d_](?:[\w'’-]*[^\W_])?)"
NAME_RUN = NAME_WORD + r"(?:\s+" + NAME_WORD + r"){0,4}"
"""Up to five words that may make a name ("Maren van der Berg"); `_name_after` checks them."""
PARTICLES = {"van", "von", "der", "den", "de", "da", "di", "du", "del", "della", "dos", "la", "le", "bin", "ibn"}  # fmt: skip
RELATIONS = (
    r"colleague|co-?worker|mum|mom|mother|dad|father|parents?|friend|wife|husband|partner|boss|sister|brother"
    r"|neighbou?r|son|daughter|girlfriend|boyfriend|room-?mate|flatmate|grand(?:ma|mother|pa|father)|aunt|uncle"
    r"|cousin|kids?|team(?:mate)?|client|guest|fianc[eé]e?|teacher|nan|gran"
)
NAME_TRIGGERS = (
    r"\b(?:over\s+)?(?:for|to)\s+(?:my|our)\s+(?:new\s+|best\s+|dear\s+|old\s+)?(?:"
    + RELATIONS
    + r")\s*,?\s*",
    r"\bmy\s+name(?:\s+is|['’]s)\s+",
    r"\bname\s*(?:is\s+|[:\-–]\s*)",
    r"\bcustomer\s*[:\-]\s*",
    r"\b(?:i['’]?m|i\s+am|this\s+is|call\s+me|under\s+the\s+name)\s+",
    r"\b(?:order\s+)?for\s+",
    r"\bdeliver(?:ed)?\s+(?:it\s+)?to\s+(?=" + NAME_RUN + r"\s*\x00)",
    # A recipient: "… from Bangkok Street to Jonas Becker, 5 Mill Lane"; the name ends its clause.
    r"(?:(?<=\x01)\s+|\b(?:send|bring|deliver|take|ship)\w*\s+(?:it\s+|them\s+|this\s+|everything\s+)?(?:over\s+)?)to\s+(?="
    + NAME_RUN
    + r"\s*(?:[,.;!?\n\x00]|$|please\b|at\b))",
)
SIGN_OFF = (
    r"(?:^|(?<=[.!?,;\n—–]))\s*(?:(?:many|big|huge|and|so)\s+)?(?:thanks|thank\s+(?:you|u)|thx|ta|cheers|gracias|merci"
    r"|danke|xo(?:xo)?|tysm|ty|best(?:\s+wishes)?"
    r"|(?:kind|warm|best)?\s*regards|all\s+the\s+best|sincerely)\b(?:\s+(?:so|very)\s+much|\s+a\s+lot"
    r"|\s+again|\s+in\s+advance)?\s*[,!.]*\s*[-–—~]?\s*"
    r"|(?:^|(?<=[.!?\n]))\s*[-–—~]\s*"
)
"""What stands before a name that signs a message off: "Thanks, Priya", "Cheers, Tom", "… - Lena"."""


def _name_after(text: ClaimedText, start: int) -> tuple[int, int] | None:
    """The capitalised words starting at ``start`` ("Sam and Alex Roe", "Sean O'Brien"), if any."""
    end = start
    last = None
    for match in re.finditer(r"[ \t]*(" + NAME_WORD + r"|and|&)", text.masked[start:]):
        if match.start() != end - start:
            break
        word = match.group(1)
        if word in ("and", "&"):
            end = start + match.end()
            continue
        if word.lower() in PARTICLES and last is not None:
            end = start + match.end()
            continue  # "Van der Berg", "da Silva": kept only when a capitalised word follows
        if not word[0].isupper() or word.rstrip(".") in NOT_NAMES or len(word) > 30:
            break
        end = start + match.end()
        last = end
        if sum(1 for _ in re.finditer(NAME_WORD, text.masked[start:end])) >= 5:
            break
    if last is None:
        return None
    # A trailing "and" belongs to the sentence, not the name.
    return start + (len(text.masked[start:last]) - len(text.masked[start:last].lstrip())), last


def read_name(text: ClaimedText) -> Detail | None:
    """A name after "for", "name:", "my name is", "I'm"…, one that signs the message off, or one right
    before a phone or address."""
    for match in text.finditer(r"(?:" + SIGN_OFF + r")(" + NAME_RUN + r")\s*[.!]*\s*$"):
        found = _name_after(text, match.start(1))
        if found and found[1] == match.end(1):
            text.claim(match.start(), match.end())
            words = text.words(*found)
            return Detail(words.text, words)
    for trigger in NAME_TRIGGERS:
        for match in text.finditer(trigger):
            found = _name_after(text, match.end())
            if found:
                text.claim(match.start(), found[1])
                words = text.words(*found)
                return Detail(words.text, words)
    for match in text.finditer(
        r"(?=(?:\bit['’]?s|\bit\s+is|^|[.!;:\n(,])\s*(" + NAME_RUN + r")\s+(here)\b)",
        0,
    ):  # a lookahead, so that "hey it's Marco here" is tried from "it's" as well as from "hey"
        found = _name_after(text, match.start(1))
        if found and found[1] == match.end(1):
            text.claim(found[0], match.end(2))
            words = text.words(*found)
            return Detail(words.text, words)
    # "Kim Lee, 3 Oak Road, …" / "Ana 555-0101 wants …": capitalised words right before a claimed detail.
    for match in text.finditer(
        r"(?:^|[.!;:\n(|])\s*((?:" + NAME_WORD + r")(?:\s+" + NAME_WORD + r"){0,2}),?\s*(?=\x00)", 0
    ):
        found = _name_after(text, match.start(1))
        if found and found[1] == match.end(1):
            text.claim(*found)
            words = text.words(*found)
            return Detail(words.text, words)
    return None


def read_payment(text: ClaimedText) -> Detail | None:
    pay = r"\b(?:(?:i['’]ll\s+|he['’]ll\s+|she['’]ll\s+|we['’]ll\s+)?pay(?:ing|ment)?\s*(?:method\s*)?(?:by|with|in|using|:)?\s*)?"
    for pattern, method in (
        (pay + r"cash(?:\s+on\s+delivery)?\b", "Cash"),
        (pay + r"(?:a\s+)?(?:credit\s+|debit\s+)?card(?:\s+on\s+delivery)?\b", "Card on delivery"),
        (pay + r"(?:a\s+)?voucher\b", "Voucher"),
    ):
        match = text.search(pattern)
        if match:
            return text.take(match, method, 0)
    return None


Reader = Callable[[ClaimedText], Detail | None]
BEFORE_NAMES: tuple[tuple[str, Reader], ...] = (
    ("phone", read_phone),
    ("delivery_note", read_note),
    ("promo_code", read_promo),
    ("tip_cents", read_tip),
    ("budget_cents", read_budget),
    ("delivery_slot", read_slot),
)
"""Read before the restaurant names are spotted: their shapes (digits, money, codes) are unmistakable."""
AFTER_NAMES: tuple[tuple[str, Reader], ...] = (
    ("address", read_address),
    ("name", read_name),
    ("payment_method", read_payment),
)
