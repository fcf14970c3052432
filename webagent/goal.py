"""What a person wants ordered: `OrderSpec`, loadable from JSON/YAML or parsed from one sentence.

`parse_goal` knows nothing about the shop's menu. It pulls out the clauses it can recognise by their
shape (times, money, codes, "deliver to …", "my name is …", "from <restaurant>") and splits what is
left into item phrases. A phrase may still carry option words ("large margherita pizzas"): only the
planner, once it has read the menu, can tell dish words from option words, so that split happens there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

__all__ = ["OrderItem", "OrderSpec", "parse_goal", "parse_quantity", "slot_for"]


class OrderItem(BaseModel):
    """One dish to order, as the person named it."""

    model_config = ConfigDict(extra="forbid")

    dish: str
    quantity: int = Field(1, ge=1, le=50)
    options: list[str] = Field(default_factory=list)
    """Plain option choices ("large", "hot", "extra cheese"); add_to_cart maps them to option groups."""


class OrderSpec(BaseModel):
    """A structured order: what to buy, where, and how it is delivered and paid."""

    model_config = ConfigDict(extra="forbid")

    restaurant: str | None = None
    items: list[OrderItem] = Field(default_factory=list)
    name: str | None = None
    address: str | None = None
    phone: str | None = None
    delivery_slot: str | None = None
    """A slot label as the shop shows it ("19:00-19:30", "ASAP"), or the raw time phrase."""
    payment_method: str | None = None
    promo_code: str | None = None
    tip_cents: int | None = Field(None, ge=0)
    budget_cents: int | None = Field(None, ge=0)

    @classmethod
    def load(cls, path: str | Path) -> OrderSpec:
        """Read an order from a ``.json``, ``.yaml`` or ``.yml`` file."""
        path = Path(path)
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
        return cls.model_validate(data or {})


NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "some": 1, "another": 1,
}  # fmt: skip
# Longest first, so "half a dozen" wins over "a".
MULTI_WORD_NUMBERS = (
    ("half a dozen", 6), ("a dozen", 12), ("dozen", 12), ("a couple of", 2), ("a couple", 2),
    ("couple of", 2), ("a pair of", 2), ("pair of", 2),
)  # fmt: skip

# Words that say nothing about what to order; stripped from the ends of item phrases.
FILLER = {
    "please", "order", "get", "me", "i", "want", "would", "like", "id", "i'd", "ill", "i'll", "have", "can",
    "could", "you", "buy", "for", "us", "to", "the", "of", "and", "with", "also", "plus", "then", "just",
    "some", "delivery", "delivered", "tonight", "dinner", "lunch", "food", "it", "them", "my", "place",
    "an", "a", "x", "pay", "by", "at", "from", "on", "in", "be", "should", "that", "is", "thanks", "thank",
    "hi", "hello", "hey", "need", "lets", "let's", "let", "we", "something", "anything", "hungry",
    "feed", "am", "im", "i'm", "eat", "deliver", "send", "bring", "ship", "pls",
}  # fmt: skip

_MONEY = r"\$\s*(\d+(?:\.\d{1,2})?)|(\d+(?:\.\d{1,2})?)\s*(?:dollars?|bucks|usd)\b"
_STOP = r"(?=\s*(?:[,;]|\.(?:\s|$)|$|\s(?:and|phone|pay|paying|tip|use|using|promo|code|my|name|deliver|at|by|for|under|asap|from|budget)\b))"


def _cents(match: re.Match[str], first_group: int = 1) -> int:
    value = match.group(first_group) or match.group(first_group + 1)
    return round(float(value) * 100)


def slot_for(hour: int, minute: int) -> str:
    """The half-hour slot label starting at (or containing) a time: 19:10 → ``"19:00-19:30"``."""
    start = hour * 60 + (minute // 30) * 30
    end = start + 30
    return f"{start // 60:02d}:{start % 60:02d}-{end // 60 % 24:02d}:{end % 60:02d}"


def parse_quantity(phrase: str) -> tuple[int, str]:
    """``"a couple of tacos"`` → ``(2, "tacos")``; ``"pizza x2"`` → ``(2, "pizza")``; default 1."""
    text = phrase.strip()
    low = text.lower()
    for words, number in MULTI_WORD_NUMBERS:
        if low == words or low.startswith(words + " "):
            return number, text[len(words) :].strip()
    match = re.match(r"(\d+)\s*(?:x|×)?\s+(.*)$", text, re.I | re.S)
    if match:
        return int(match.group(1)), match.group(2).strip()
    first, _, rest = text.partition(" ")
    if first.lower() in NUMBER_WORDS and rest:
        return NUMBER_WORDS[first.lower()], rest.strip()
    match = re.match(r"(.*?)\s*(?:x|×)\s*(\d+)$", text, re.I)
    if match and match.group(1):
        return int(match.group(2)), match.group(1).strip()
    return 1, text


def _take(pattern: str, text: str, flags: int = re.I) -> tuple[re.Match[str] | None, str]:
    """The first match of `pattern` and the text with that match blanked out (replaced by a comma)."""
    match = re.search(pattern, text, flags)
    if match is None:
        return None, text
    return match, text[: match.start()] + " , " + text[match.end() :]


# Words that lead into a budget ("and keep the total under $25", "make sure it stays below $25"); only
# trailing runs of them right before the money phrase are dropped, so they never become a dish.
BUDGET_LEAD = {
    "and", "but", "please", "try", "to", "make", "sure", "that", "ensure", "keep", "keeping", "kept", "stay",
    "stays", "staying", "remain", "remains", "it", "the", "total", "order", "bill", "cost", "price", "whole",
    "thing", "everything", "all", "should", "must", "be", "is", "comes", "come", "in", "let's", "lets",
    "let", "us", "with", "a", "an", "of", "spend", "spending", "go", "going", "i", "we", "want", "would",
    "like", "can", "you", "if", "possible",
}  # fmt: skip


def _take_budget(pattern: str, text: str) -> tuple[re.Match[str] | None, str]:
    """`_take` for a budget phrase, also dropping the lead-in words right before it ("keep it under")."""
    match = re.search(pattern, text, re.I)
    if match is None:
        return None, text
    before = text[: match.start()].split()
    while before and before[-1].lower() in BUDGET_LEAD:
        before.pop()
    return match, " " + " ".join(before) + " , " + text[match.end() :]


def _clean(value: str) -> str:
    return " ".join(value.strip(" ,;.").split())


def parse_goal(goal: str) -> OrderSpec:
    """Turn an order-shaped sentence into an `OrderSpec`; what it cannot recognise it leaves out."""
    text = " " + " ".join(goal.replace("’", "'").split()) + " "
    spec: dict[str, object] = {}

    match, text = _take(
        r"\b(?:promo(?:tion)?|discount|coupon|voucher)?\s*code\s*:?\s*([A-Za-z0-9]{3,20})\b", text
    )
    if match is None:
        match, text = _take(r"\bpromo\s*:?\s*([A-Za-z0-9]{3,20})\b", text)
    if match:
        spec["promo_code"] = match.group(1).upper()
        text = re.sub(r"\b(?:use|apply|with)\s*,", ",", text, flags=re.I)

    match, text = _take(
        r"\b(?:phone(?:\s+number)?|tel(?:ephone)?|mobile|cell|call me at|number)\s*(?:is|:)?\s*(\+?[\d(][\d\s()+-]{3,28}\d)",
        text,
    )
    if match is None:
        match, text = _take(r"(?<![\d$.])(\+?\(?\d{3}\)?[\s.-]\d{3,4}(?:[\s.-]\d{4})?)(?![\d.])", text)
    if match:
        spec["phone"] = match.group(1).strip()

    if re.search(r"\bno tip\b|\bwithout (?:a )?tip\b", text, re.I):
        spec["tip_cents"] = 0
        _, text = _take(r"\bno tip\b|\bwithout (?:a )?tip\b", text)
    else:
        match, text = _take(
            r"\b(?:tip(?:ping)?|gratuity)\s*(?:of|:)?\s*(?:" + _MONEY + r"|(\d+(?:\.\d{1,2})?))", text
        )
        if match:
            value = match.group(1) or match.group(2) or match.group(3)
            spec["tip_cents"] = round(float(value) * 100)
        else:
            match, text = _take(r"(?:" + _MONEY + r")\s*tip\b", text)
            if match:
                spec["tip_cents"] = _cents(match)

    match, text = _take_budget(
        r"\b(?:under|below|less than|at most|no more than|not more than|max(?:imum)?|up to|within|spend(?:ing)?"
        r"(?: at most| no more than| up to| under| less than)?|budget(?: of| is)?:?|cap(?: of)?"
        r"|(?:don'?t|doesn'?t|do not|does not|not|never)\s+(?:[a-z]+\s+){0,2}?(?:more than|over|above|exceed))"
        r"\s*(?:" + _MONEY + r")(?:\s*(?:budget|max(?:imum)?|total|in total|or less|tops))?",
        text,
    )
    if match is None:
        match, text = _take_budget(r"\bbudget(?: of| is)?:?\s*(\d+(?:\.\d{1,2})?)()\b", text)
    if match is None:
        match, text = _take_budget(
            r"(?:" + _MONEY + r")\s*(?:budget|max(?:imum)?|or less|tops|at most)\b", text
        )
    if match:
        spec["budget_cents"] = _cents(match)

    match, text = _take(r"\b(\d{1,2}:\d{2})\s*[-–]\s*(\d{1,2}:\d{2})\b", text)
    if match:
        start_h, start_m = (int(part) for part in match.group(1).split(":"))
        spec["delivery_slot"] = slot_for(start_h, start_m)
    else:
        match, text = _take(r"\b(?:asap|a\.s\.a\.p\.?|as soon as possible|right away|right now)", text)
        if match:
            spec["delivery_slot"] = "ASAP"
    if "delivery_slot" not in spec:
        match, text = _take(
            r"(?:\b(?:at|for|by|around|about)\s+)?\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|o'?clock)(?![a-z])",
            text,
        )
        if match is None:
            match, text = _take(r"(?:\b(?:at|for|by|around|about)\s+)?\b([01]?\d|2[0-3]):([0-5]\d)\b()", text)
        if match is None:
            # A bare "at 7" only when no word follows (so "at 7 Elm Street" stays an address).
            match, text = _take(
                r"\b(?:at|for|by|around)\s+(\d{1,2})()()(?=\s*(?:[,;.]|$|\s(?:and|tonight|please)\b))", text
            )
        if match:
            hour, minute = int(match.group(1)), int(match.group(2) or 0)
            suffix = (match.group(3) or "").lower().replace(".", "")
            if suffix == "am" and hour == 12:
                hour = 0
            elif suffix != "am" and hour < 12 and (suffix == "pm" or not match.group(2) or hour < 8):
                # Dinner-time shop: a bare "at 7" or "7 o'clock" means the evening.
                hour += 12
            spec["delivery_slot"] = slot_for(hour, minute)

    for pattern, method in (
        (r"\b(?:pay(?:ing)?\s+(?:by|with|in|using)?\s*)?cash(?: on delivery)?\b", "Cash"),
        (
            r"\b(?:pay(?:ing)?\s+(?:by|with|using)?\s*)?(?:a\s+)?(?:credit |debit )?card(?: on delivery)?\b",
            "Card on delivery",
        ),
        (r"\b(?:pay(?:ing)?\s+(?:by|with|using)?\s*)?(?:a\s+)?voucher\b", "Voucher"),
    ):
        match, text = _take(pattern, text)
        if match:
            spec["payment_method"] = method
            break

    match, text = _take(
        r"\b(?:my name is|name is|name:|call me|under the name|name it to)\s+(.+?)" + _STOP, text
    )
    if match:
        spec["name"] = _clean(match.group(1))

    match, text = _take(
        r"\b(?:deliver(?:ed|y)?(?:\s+it)?\s+to|address(?:\s+is)?:?|send(?:\s+it)?\s+to|ship(?:\s+it)?\s+to|bring(?:\s+it)?\s+to)"
        r"\s+(.+?)(?=\s*(?:;|\.(?:\s|$)|$|,\s*(?:and\b|my\b|phone|pay|tip|use|promo|code|name|at\b|by\b|for\b|budget|under|asap)"
        r"|\s(?:phone|pay|paying|tip|by|under|asap|and my|my name)\b|\s(?:at|for)\s+\d))",
        text,
    )
    if match:
        spec["address"] = _clean(match.group(1))

    match, text = _take(r"\bfrom\s+(?:the\s+)?(.+?)" + _STOP, text)
    if match is None:
        # "at X" is a restaurant only when X starts with a letter (times and addresses are gone by now).
        match, text = _take(r"\bat\s+(?:the\s+)?([A-Za-z][^,;]*?)" + _STOP, text)
    if match:
        spec["restaurant"] = _clean(match.group(1))

    spec["items"] = _items(text)
    return OrderSpec.model_validate(spec)


_AFTER_CHOICES = "\x00"


def _items(text: str) -> list[OrderItem]:
    # "and"/"with"/"plus" start a new item only before a quantity, so "Mac and Cheese" stays whole.
    quantity = r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|some|another|half|couple|pair)\b"
    text = re.sub(rf"\s(?:and|with|plus|also|&)\s+(?:a side of\s+)?(?={quantity})", " , ", text, flags=re.I)
    # "(…)" closes a dish phrase: "kung pao chicken (mild) and egg fried rice" is two items, the
    # choices belonging to the first. What follows is written as a dish ("and extra injera"), so it is
    # not taken for a lone choice; the planner, knowing the menu, may still find it is one.
    text = re.sub(r"\)\s+(?:and|plus|also|&)\s+", f") , {_AFTER_CHOICES}", text, flags=re.I)
    # Commas inside "(Large, Extra cheese)" separate choices, not items.
    text = re.sub(r"\([^)]*\)", lambda m: m.group(0).replace(",", "/"), text)
    items: list[OrderItem] = []
    for raw in re.split(r"[,;]|\.(?:\s|$)|\bthen\b", text):
        after_choices = _AFTER_CHOICES in raw
        phrase = _strip_filler(raw.replace(_AFTER_CHOICES, " "))
        if not phrase:
            continue
        if items and not after_choices and _is_option_only(phrase):
            # "a burrito, hot, and nachos": a lone choice word belongs to the item before it.
            items[-1].options.append(phrase)
            continue
        count, rest = parse_quantity(phrase)
        dish, options = _options(rest)
        dish = _strip_filler(dish)
        if dish and any(word.lower() not in FILLER for word in re.findall(r"[\w']+", dish)):
            items.append(OrderItem(dish=dish, quantity=max(1, min(count, 50)), options=options))
    return items


OPTION_WORDS = {
    "large",
    "small",
    "regular",
    "medium",
    "hot",
    "mild",
    "spicy",
    "medium rare",
    "well done",
    "rare",
}


def _is_option_only(phrase: str) -> bool:
    low = " ".join(phrase.lower().split())
    return low in OPTION_WORDS or low.startswith("extra ")


def _strip_filler(phrase: str) -> str:
    words = phrase.strip(" .!?:").split()
    while words and words[0].lower().strip(",:!?") in FILLER and not _is_number_start(words):
        words.pop(0)
    while words and words[-1].lower().strip(",:!?") in FILLER:
        words.pop()
    return " ".join(words).strip(" ,:")


def _is_number_start(words: list[str]) -> bool:
    """Keep "a"/"an"/"some" when they are the quantity of what follows, not filler before a verb."""
    first = words[0].lower()
    if first not in NUMBER_WORDS or len(words) < 2:
        return False
    return words[1].lower() not in FILLER or words[1].lower() in {"couple", "pair", "dozen"}


def _options(phrase: str) -> tuple[str, list[str]]:
    """Split the marked option parts off a dish phrase: "(Large)", "with extra cheese", "on brown rice"."""
    options: list[str] = []
    for inside in re.findall(r"\(([^)]*)\)", phrase):
        options += [part.strip() for part in re.split(r",|/|\band\b", inside) if part.strip()]
    dish = re.sub(r"\([^)]*\)", " ", phrase)
    match = re.search(r"\s(?:with|w/)\s+(.+)$", dish, re.I)
    if match:
        options += [part.strip() for part in re.split(r",|\band\b|&", match.group(1)) if part.strip()]
        dish = dish[: match.start()]
    match = re.search(r"\son\s+(?:a\s+|the\s+)?(.+?(?:rice|greens|base|salad|side))$", dish, re.I)
    if match:
        options.append(match.group(1).strip())
        dish = dish[: match.start()]
    for pattern in (r"\b(?:size|spice(?: level)?)\s*:?\s*(\w+)$", r"\b(\w+)\s+(?:size|spice(?: level)?)$"):
        match = re.search(pattern, dish, re.I)
        if match:
            options.append(match.group(1))
            dish = dish[: match.start()]
    return " ".join(dish.split()), options
