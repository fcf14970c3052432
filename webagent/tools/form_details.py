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

__all__ = ["Field", "payment_details", "personal_details", "sends", "strongly_personal"]


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
    (what, re.compile(pattern))
    for what, pattern in (
        ("a name", r"^(?:your |billing |shipping |customer |guest |contact |full |first |last |given |family |"
                   r"sur|fore|f|l)*name$|^surname$|^(?:vor|nach|familien)name$|^nombre|^apellido|^pr[ée]nom$|^nom$"),
        ("an email address", r"\be ?mail\b|^email|correo|courriel"),
        ("a phone number", r"phone|\btel\b|telefon|t[ée]l[ée]phone|mobile|\bcell\b"),
        ("an address", r"(?<!ip )(?<!web )(?<!website )(?<!email )(?<!e mail )address|\bstreet\b|post ?code|"
                       r"postal code|\bzip\b|adresse|direcci[oó]n|indirizzo"),
        ("a date of birth", r"birth|\bdob\b|\bbday\b|geburt|nacimiento"),
        ("a message", r"message|comment|enquiry|inquiry|nachricht|mensaje"),
    )
)  # fmt: skip
_PERSONAL_AUTOCOMPLETE = {
    "name": "a name",
    "given-name": "a name",
    "family-name": "a name",
    "additional-name": "a name",
    "email": "an email address",
    "tel": "a phone number",
    "tel-national": "a phone number",
    "tel-local": "a phone number",
    "street-address": "an address",
    "address-line1": "an address",
    "address-line2": "an address",
    "address-line3": "an address",
    "postal-code": "an address",
    "bday": "a date of birth",
    "bday-day": "a date of birth",
    "bday-month": "a date of birth",
    "bday-year": "a date of birth",
}
_PERSONAL_TYPES = {"email": "an email address", "tel": "a phone number"}
_STRONG_DETAILS = ("a name", "an email address", "a phone number")
"""What makes a form the person's even with no button to read: Enter in it sends who they are."""


def _plain(text: str) -> str:
    """Words of a field's name or label: camelCase, ``_``, ``-`` and ``[]`` split, lower case, no marks."""
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", unicodedata.normalize("NFKC", text or ""))
    text = re.sub(r"[\W_]+", " ", text.replace("\u2011", "-").lower())
    return " ".join(text.split())


def personal_details(fields: Sequence[Field]) -> list[str]:
    """The person's own details a form holds ("a name", "an email address"), in words (hidden fields are
    the page's, not the person's)."""
    found: list[str] = []
    for item in fields:
        if item.type.lower() == "hidden":
            continue
        tokens = item.autocomplete.lower().split()
        found.extend(_PERSONAL_AUTOCOMPLETE[token] for token in tokens if token in _PERSONAL_AUTOCOMPLETE)
        if item.type.lower() in _PERSONAL_TYPES:
            found.append(_PERSONAL_TYPES[item.type.lower()])
        for part in (item.name, item.id, item.label, item.placeholder, item.aria):
            plain = _plain(part)
            found.extend(what for what, pattern in _PERSONAL if plain and pattern.search(plain))
    return list(dict.fromkeys(found))


def strongly_personal(details: Sequence[str]) -> bool:
    """Whether ``details`` say who the person is (a name, an email address, a phone number)."""
    return any(detail in _STRONG_DETAILS for detail in details)


_LEADING = re.compile(r"^(?:(?:yes|ok|okay|sure|please|jetzt|now|oui|s[ií]|ja)\s+)+")
_SENDS = re.compile(
    r"\b(?:send|submit|register|registration|enrol|enroll|enrolment|enrollment|rsvp|publish|post|join|"
    r"request|enquire|inquire|enquiry|inquiry|quote|notify|reply|leave a review|application|apply (?:now|for|to|online)|"
    r"sign (?:me )?up|signup|count me in|create (?:my |an |your )?account|get in touch|contact us|"
    r"absenden|senden|abschicken|registrieren|anfrage|envoyer|inscri[rs]e?|inscris|enviar|registrarse|"
    r"invia|inviare|iscriviti|registrati|verzenden|versturen|inschrijven|wyślij|отправить|送信)\b"
)
"""A word in a name that sends its form off for the person, anywhere in it ("Nachricht senden")."""
_EVERYDAY = re.compile(
    r"\b(?:search|find|look ?up|log ?in|sign ?in|password|reset|magic link|otp|verification|verify)\b|"
    r"\b(?:send|request|resend|get)\s+(?:a\s+|the\s+|my\s+|new\s+)?(?:code|link|pin)\b|"
    r"\b(?:apply|redeem|submit|enter|use|check|verify)\s+(?:a\s+|the\s+|your\s+|my\s+)?"
    r"(?:promo|coupon|voucher|discount|gift ?card|code)\b"
)
"""A name that searches, logs in, asks for a code or applies one: a step of the form, not the form sent."""


def sends(name: str) -> bool:
    """Whether a button of this name sends its form off ("Send request", "Register", "Nachricht senden")."""
    text = _LEADING.sub(
        "",
        " ".join(
            re.sub(
                r"[^\w\s']", " ", unicodedata.normalize("NFKC", name or "").lower().replace("’", "'")
            ).split()
        ),
    )
    return bool(text) and not _EVERYDAY.search(text) and bool(_SENDS.search(text))
