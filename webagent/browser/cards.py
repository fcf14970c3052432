"""Payment card fields on a page: found by what they ask for, filled with what the person typed on a page of
their own, never typed by the model and never read back as text.

A field is a card field when its ``autocomplete`` says so (``cc-number``, ``cc-exp``, ``cc-csc``,
``cc-name``…), or when its label, name, id or placeholder asks for a card number, an expiry date, a security
code or the name on the card. Fields are found in the page's own frame, in document order; a card form the
page puts in a frame of a payment provider's (Stripe Elements and the like) is not reached here.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import Locator, Page

from webagent.browser.labels import LABEL_OF_JS

__all__ = ["CARD_KIND_JS", "CardField", "card_fields", "card_kind", "enter_card"]

CARD_KIND_JS = r"""
(el) => {
  const ac = (el.getAttribute("autocomplete") || "").toLowerCase();
  if (/\bcc-number\b/.test(ac)) return "card number";
  if (/\bcc-csc\b/.test(ac)) return "security code";
  if (/\bcc-exp/.test(ac)) return "expiry date";
  if (/\bcc-(?:name|given-name|family-name)\b/.test(ac)) return "name on card";
  if (/\bcc-/.test(ac)) return "card detail";
  const label = (LABEL_OF)(el);
  const words = [label, el.getAttribute("name"), el.id, el.getAttribute("placeholder"),
                 el.getAttribute("aria-label")].filter(Boolean).join(" ");
  if (/card.?(?:number|no\b|num)|cardnumber|\bcc.?num|credit.?card|debit.?card/i.test(words)) return "card number";
  if (/\b(?:cvc|cvv2?|csc|cid)\b|security.?code|card.?code/i.test(words)) return "security code";
  if (/expir|\bexp.?(?:date|month|year)|\bmm\s*\/\s*yy|valid.?(?:thru|until)/i.test(words)) return "expiry date";
  if (/name.?on.?(?:the.?)?card|card.?holder/i.test(words)) return "name on card";
  return "";
}
""".replace("LABEL_OF", LABEL_OF_JS.strip())
"""A form control's card kind ("card number", "expiry date", "security code", "name on card", "card
detail"), or "" for a field that asks for no card detail."""

_FIELDS_JS = f"""
() => {{
  const kind = {CARD_KIND_JS.strip()};
  const out = [];
  document.querySelectorAll("input, select").forEach((el, index) => {{
    if (["hidden", "submit", "button", "image", "reset", "checkbox", "radio"].includes(el.type)) return;
    if (!el.getClientRects().length || el.disabled) return;
    const k = kind(el);
    if (k) out.push({{index, kind: k, label: ({LABEL_OF_JS.strip()})(el).slice(0, 80),
                      filled: Boolean(el.value), select: el.tagName === "SELECT",
                      options: el.tagName === "SELECT" ? Array.from(el.options).map((o) => o.value).slice(0, 40) : []}});
  }});
  return out;
}}
"""

_CONTROLS = "input, select"
"""The query the indices count in: every input and drop-down of the page's frame, in document order."""


@dataclass(frozen=True)
class CardField:
    """One card field on the page: where it stands among the page's controls, what it asks for, its label
    (page text, untrusted), whether it holds anything, and a drop-down's option values."""

    index: int
    kind: str
    label: str
    filled: bool
    select: bool = False
    options: tuple[str, ...] = ()


async def card_fields(page: Page) -> list[CardField]:
    """The visible card fields of the page, in document order."""
    found = await page.evaluate(_FIELDS_JS)
    return [
        CardField(
            int(f["index"]),
            str(f["kind"]),
            str(f["label"]),
            bool(f["filled"]),
            bool(f["select"]),
            tuple(str(o) for o in f.get("options") or ()),
        )
        for f in found
        if isinstance(f, dict)
    ]


async def card_kind(field: Locator) -> str:
    """What card detail ``field`` asks for; "" for none."""
    return str(await field.evaluate(CARD_KIND_JS))


async def enter_card(page: Page, fields: list[CardField], values: dict[int, str]) -> list[str]:
    """Fill each field of ``fields`` with the person's value for it (by index); the labels of those that do
    not hold a value after (gone, or the page put it back). The values are never returned or logged."""
    now = {field.index: field for field in await card_fields(page)}
    missing = []
    for field in fields:
        value = values.get(field.index, "")
        here = now.get(field.index)
        if not value or here is None or here.kind != field.kind:  # the page changed under the form
            missing.append(field.label or field.kind)
            continue
        control = page.locator(_CONTROLS).nth(field.index)
        if field.select:
            await control.select_option(value)
        else:
            await control.fill(value)
        if not await control.input_value():
            missing.append(field.label or field.kind)
    return missing
