"""Payment card fields on a page: found by what they ask for, filled with what the person typed on a page of
their own, never typed by the model, and never read back into a narration.

A field is a card field when its ``autocomplete`` says so (``cc-number``, ``cc-exp``, ``cc-csc``,
``cc-name``…), or when its label, name, id, title or placeholder asks for a card number, an expiry date, a
security code or the name on the card (in a few languages; "gift card" and "loyalty card" numbers are not
payment cards). Fields are read through Playwright's own query, open shadow roots included, and each value
goes into the very element read as that field: the element is checked again just before it is filled, and
the value read back after. A card form inside a payment provider's frame (Stripe Elements and the like) is
not reached here.

`Secrets` keeps what the person entered, in memory only, so that anything the run would say or keep — a
narration, `read_page`'s snapshot (which prints input values), a URL a GET form wrote them into — says
"(hidden)" instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import quote, quote_plus

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from webagent.browser.labels import LABEL_OF_JS

__all__ = [
    "CARD_KIND_JS",
    "CardField",
    "Secrets",
    "card_fields",
    "card_kind",
    "card_on_screen",
    "card_words",
    "clear_card",
    "enter_card",
]

_NOT_PAYMENT = r"gift|loyalty|member(?:ship)?|library|reward|store|club|voucher|bonus|id.?card|identity"
_NUMBER = (
    r"card.?(?:number|no\b|num|nr\b)|cardnumber|\bcc.?(?:num|number|no)\b|\bpan\b|credit.?card|debit.?card"
    r"|kartennummer|n[uú]mero.?de.?(?:la.?)?tarjeta|num[eé]ro.?de.?(?:la.?)?carte|numero.?(?:di|della).?carta"
    r"|\d{4}[ -]\d{4}[ -]\d{4}|[•*x]{4}[ -][•*x]{4}"
)
_CODE = (
    r"\b(?:cvc|cvv2?|csc|cid|cvn)\b|security.?(?:code|number)|verification.?(?:code|value|number)|card.?code"
    r"|pr[uü]fnummer|sicherheitscode|c[oó]digo.?de.?seguridad|cryptogramme"
)
_EXPIRY = (
    r"expir|\bexp\b|\bexp.?(?:date|month|year|mm|yy)|\bmm\s*\/\s*yy|valid.?(?:thru|through|until|to)"
    r"|ablaufdatum|g[uü]ltig.?bis|vencimiento|caducidad|date.?d.?expiration"
)
_HOLDER = r"name.?on.?(?:the.?)?card|card.?holder|karteninhaber|titular.?de.?la.?tarjeta|titulaire"
_WORDS_JS = f"""
(words) => {{
  const w = (words || "").replace(/[_-]+/g, " ");
  if (/{_NOT_PAYMENT}/i.test(w)) return "";
  if (/{_NUMBER}/i.test(w)) return "card number";
  if (/{_CODE}/i.test(w)) return "security code";
  if (/{_EXPIRY}/i.test(w)) return "expiry date";
  if (/{_HOLDER}/i.test(w)) return "name on card";
  return "";
}}
"""


def card_words(words: str) -> str:
    """The card detail ``words`` name ("card number", "expiry date", "security code", "name on card"), or ""
    — the same reading as the page's (`CARD_KIND_JS`), for a label the model wrote or an argument's name."""
    text = re.sub(r"[_-]+", " ", words or "")
    if re.search(_NOT_PAYMENT, text, re.I):
        return ""
    for kind, pattern in (
        ("card number", _NUMBER),
        ("security code", _CODE),
        ("expiry date", _EXPIRY),
        ("name on card", _HOLDER),
    ):
        if re.search(pattern, text, re.I):
            return kind
    return ""


CARD_KIND_JS = f"""
(el) => {{
  const ac = (el.getAttribute("autocomplete") || "").toLowerCase();
  if (/\\bcc-number\\b/.test(ac)) return "card number";
  if (/\\bcc-csc\\b/.test(ac)) return "security code";
  if (/\\bcc-exp/.test(ac)) return "expiry date";
  if (/\\bcc-(?:name|given-name|family-name)\\b/.test(ac)) return "name on card";
  if (/\\bcc-/.test(ac)) return "card detail";
  const label = ({LABEL_OF_JS.strip()})(el);
  const words = [label, el.getAttribute("name"), el.id, el.getAttribute("placeholder"),
                 el.getAttribute("aria-label"), el.getAttribute("title")].filter(Boolean).join(" ");
  return ({_WORDS_JS.strip()})(words);
}}
"""
"""A form control's card kind ("card number", "expiry date", "security code", "name on card", "card
detail"), or "" for a field that asks for no card detail."""

_FIELDS_JS = f"""
(els) => {{
  const kind = {CARD_KIND_JS.strip()};
  return els.map((el, index) => {{
    if (["hidden", "submit", "button", "image", "reset", "checkbox", "radio"].includes(el.type)) return null;
    const k = kind(el);
    if (!k) return null;
    const select = el.tagName === "SELECT";
    return {{index, kind: k, label: ({LABEL_OF_JS.strip()})(el).slice(0, 80), filled: Boolean(el.value),
             select, shown: el.getClientRects().length > 0, disabled: el.disabled,
             value: select ? el.value : null,
             options: select ? Array.from(el.options).map((o) => o.value).slice(0, 40) : []}};
  }}).filter(Boolean);
}}
"""

_CONTROLS = "input, select"
"""Every input and drop-down of the page's frame, open shadow roots included, in Playwright's order."""

_HOLDS_JS = f"""
(el, [kind, label]) => {{
  const k = ({CARD_KIND_JS.strip()})(el);
  return k === kind && ({LABEL_OF_JS.strip()})(el).slice(0, 80) === label;
}}
"""


@dataclass(frozen=True)
class CardField:
    """One card field on the page: where it stands among the page's controls now, what it asks for, its
    label (page text, untrusted), whether it holds anything, and a drop-down's option values."""

    index: int
    kind: str
    label: str
    filled: bool
    select: bool = False
    options: tuple[str, ...] = ()


@dataclass
class Secrets:
    """What the person entered for card fields, kept in memory only, and hidden wherever the run speaks."""

    values: set[str] = field(default_factory=set)

    def add(self, value: str) -> None:
        value = value.strip()
        if len(value) >= 3:  # "12" (a month) is no secret, and hiding it would garble every price
            self.values |= {value, quote(value, safe=""), quote_plus(value), value.replace(" ", "")}

    def hide(self, text: str) -> str:
        for value in sorted(self.values, key=len, reverse=True):
            if value and value in text:
                text = text.replace(value, "(hidden)")
        return text


async def _read(page: Page) -> list[dict[str, object]]:
    found = await page.locator(_CONTROLS).evaluate_all(_FIELDS_JS)
    return [f for f in found if isinstance(f, dict)]


async def card_fields(page: Page, entered: Secrets | None = None) -> list[CardField]:
    """The card fields a person can fill now (shown, enabled), in the page's order. A drop-down counts as
    filled only with a value the person entered (its first option is always chosen)."""
    chosen = entered.values if entered is not None else set()
    return [
        CardField(
            int(str(f["index"])),
            str(f["kind"]),
            str(f["label"]),
            bool(f["filled"]) and (not f["select"] or str(f["value"]) in chosen),
            bool(f["select"]),
            tuple(str(o) for o in f.get("options") or ()),  # type: ignore[attr-defined]
        )
        for f in await _read(page)
        if f["shown"] and not f["disabled"]
    ]


async def card_on_screen(page: Page) -> bool:
    """Whether any card field holds something (disabled ones too: "Processing…" still shows them)."""
    return any(f["filled"] and not f["select"] for f in await _read(page))


async def card_kind(field: Locator, words: str = "") -> str:
    """What card detail a control asks for — by the control itself, or by ``words`` the model named it
    with ("Card number" for a field the page labels nowhere the reader looks); "" for none."""
    return str(await field.evaluate(CARD_KIND_JS)) or card_words(words)


async def enter_card(
    page: Page, fields: Sequence[CardField], values: dict[int, str], secrets: Secrets
) -> list[str]:
    """Fill each of ``fields`` with the person's value for it (by its index when asked); the labels of those
    that did not take it. A field the person left empty is left as it is. Each value goes into the element
    found, just before, to be that very field (its kind and label), so a field the page adds meanwhile
    shifts nothing; an error is never repeated (Playwright's would quote the value)."""
    missing: list[str] = []
    for asked in fields:
        value = values.get(asked.index, "").strip()
        if not value:
            continue
        secrets.add(value)
        same = [f for f in fields if (f.kind, f.label) == (asked.kind, asked.label)]
        nth = same.index(asked)
        if not await _fill(page, asked, nth, value):
            missing.append(asked.label or asked.kind)
    return missing


async def _fill(page: Page, asked: CardField, nth: int, value: str) -> bool:
    controls = page.locator(_CONTROLS)
    now = [f for f in await card_fields(page) if (f.kind, f.label) == (asked.kind, asked.label)]
    if nth >= len(now):
        return False
    handles = await controls.element_handles()
    try:
        if now[nth].index >= len(handles):
            return False
        handle = handles[now[nth].index]
        if not await handle.evaluate(_HOLDS_JS, [asked.kind, asked.label]):
            return False  # the page moved under us: nothing typed
        if asked.select:
            await handle.select_option(value, timeout=2_000)
        else:
            await handle.fill(value, timeout=2_000)
        return bool(await handle.evaluate("(el) => Boolean(el.value)")) and bool(
            await handle.evaluate(_HOLDS_JS, [asked.kind, asked.label])
        )
    except PlaywrightError:
        return False
    finally:
        for handle in handles:
            await handle.dispose()


async def clear_card(page: Page) -> None:
    """Empty the card fields that hold what the person entered (a payment that did not go through: what
    they entered was for that one payment)."""
    handles = await page.locator(_CONTROLS).element_handles()
    try:
        for handle in handles:
            try:
                kind = await handle.evaluate(CARD_KIND_JS)
                if kind and await handle.evaluate("(el) => el.tagName !== 'SELECT' && Boolean(el.value)"):
                    await handle.fill("", timeout=1_000)
            except PlaywrightError:
                continue
    finally:
        for handle in handles:
            await handle.dispose()
