"""What a form holds, in words: payment or order details ("a card number", "a total of $43.42"), and the
person's own details ("a name", "an email address") — and whether a button's name sends such a form off
("Send request", "Register", "Apply now") rather than taking a step of it ("Next", "Apply coupon"). Pure:
the fields come from `consequence.CONTROL_FACTS_JS`, read once per action; page text is matched, never
obeyed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from webagent.narration.money import money, total_shown

__all__ = ["Field", "payment_details", "personal_details", "sends"]


@dataclass(frozen=True)
class Field:
    """One form field as the page describes it (its value only when it holds an amount)."""

    autocomplete: str = ""
    name: str = ""
    id: str = ""
    type: str = ""
    label: str = ""
    placeholder: str = ""
    aria: str = ""
    value: str = ""

    @property
    def words(self) -> str:
        return " ".join((self.name, self.id, self.label, self.placeholder, self.aria)).lower()


_DETAILS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (what, re.compile(pattern, re.I))
    for what, pattern in (
        ("a card number", r"card.?(?:number|no\b|num)|cardnumber|\bcc.?num|credit.?card|debit.?card|\d{4} \d{4} \d{4}"),
        ("a security code", r"\b(?:cvc|cvv2?|csc)\b|security.?code|card.?code|\bcvc|\bcvv"),
        ("an expiry date", r"expir|\bexp\b|exp.?(?:date|month|year|mm|yy)|mm\s*/\s*yy|valid.?(?:thru|until)"),
        ("a name on the card", r"name.?on.?card|card.?holder"),
        ("a bank account", r"\biban\b|\bbic\b|\bswift\b|sort.?code|routing.?(?:number|no)|account.?number"),
        ("a billing address", r"billing"),
        ("an amount", r"\b(?:amount|total)\b"),  # not "price": a search form's price filter is none
        ("a payment method", r"payment|pay.?with|paypal"),
    )
)  # fmt: skip
_CARD_AUTOCOMPLETE = {
    "cc-number": "a card number",
    "cc-csc": "a security code",
    "cc-exp": "an expiry date",
    "cc-exp-month": "an expiry date",
    "cc-exp-year": "an expiry date",
    "cc-name": "a name on the card",
    "cc-given-name": "a name on the card",
    "cc-family-name": "a name on the card",
    "cc-type": "a card type",
    "transaction-amount": "an amount",
}
_PAYMENT_FRAME = re.compile(r"card|payment|\bpay\b|checkout|stripe|braintree|adyen|paypal|klarna", re.I)


def payment_details(fields: Sequence[Field], frames: Sequence[str], region_text: str) -> list[str]:
    """What payment or order details a form holds ("a card number", "a total of $43.42"), in words."""
    found: list[str] = []
    for item in fields:
        tokens = item.autocomplete.lower().split()
        for token in tokens:
            if token in _CARD_AUTOCOMPLETE:
                found.append(_CARD_AUTOCOMPLETE[token])
            elif token.startswith("cc-"):
                found.append("card details")
        if "billing" in tokens:
            found.append("a billing address")
        words = item.words
        found.extend(what for what, pattern in _DETAILS if pattern.search(words))
    if any(_PAYMENT_FRAME.search(frame) for frame in frames):
        found.append("a payment frame")
    total = total_shown(region_text)
    if total is not None:
        found.append(f"a total of {money(total)}")
    return list(dict.fromkeys(found))


_PERSONAL: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (what, re.compile(pattern, re.I))
    for what, pattern in (
        ("a name", r"^name\b|\b(?:full|first|last|given|family|your|sur|fore)[\s_-]?name\b|\bsurname\b"),
        ("an email address", r"e-?mail"),
        ("a phone number", r"phone|\btel\b|mobile"),
        ("an address", r"address|\bstreet\b|post[\s_-]?code|\bzip\b|\bcity\b"),
        ("a date of birth", r"birth|\bdob\b|\bbday\b"),
        ("a message", r"message|comment|enquiry|inquiry"),
    )
)  # fmt: skip
_PERSONAL_AUTOCOMPLETE = {
    "name": "a name",
    "given-name": "a name",
    "family-name": "a name",
    "email": "an email address",
    "tel": "a phone number",
    "street-address": "an address",
    "address-line1": "an address",
    "postal-code": "an address",
    "bday": "a date of birth",
}


def personal_details(fields: Sequence[Field]) -> list[str]:
    """The person's own details a form holds ("a name", "an email address"), in words."""
    found: list[str] = []
    for item in fields:
        found.extend(
            _PERSONAL_AUTOCOMPLETE[t]
            for t in item.autocomplete.lower().split()
            if t in _PERSONAL_AUTOCOMPLETE
        )
        for part in (item.name, item.id, item.label, item.placeholder, item.aria):
            found.extend(what for what, pattern in _PERSONAL if part and pattern.search(part.strip()))
    return list(dict.fromkeys(found))


_SENDS = re.compile(
    r"^(?:yes,? )?(?:send|submit|register|enrol|enroll|rsvp|publish|post|join|request|"
    r"sign (?:me )?up|signup|create (?:my |an |your )?account|get in touch|contact us|"
    r"apply (?:now|for|to|online)|(?:complete|finish) (?:my |the |your )?(?:registration|application|sign ?up|request)|"
    r"save and (?:send|submit)|absenden|senden|abschicken|registrieren|envoyer|s'inscrire|enviar|invia|"
    r"inviare|verzenden|versturen|wyślij)\b"
)
"""A name that sends its form off for the person (first words): not a step of it, nor a coupon applied."""
_CODES = re.compile(r"coupon|promo|voucher|discount|gift ?card|\bcode\b")


def sends(name: str) -> bool:
    """Whether a button of this name sends its form off ("Send request", "Register", "Apply now")."""
    text = " ".join(unicodedata.normalize("NFKC", name or "").lower().replace("’", "'").split())
    if _CODES.search(text):
        return False  # "Submit coupon", "Send gift card code": a code applied to the form, not the form sent
    return bool(_SENDS.match(re.sub(r"[^\w\s']", " ", text).strip().replace("  ", " ")))
