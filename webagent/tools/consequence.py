"""Which actions are consequential — they pay, buy, order, book or subscribe — on any page.

A generic action (pressing a button by its name, pressing Enter in a form) may commit a purchase on a
page nobody wrote an adapter for. It is consequential, and passes the approval gate and the budget like
the demo shop's `place_order`, when

- the control's name says so, in the words real shops use: "Pay $43.42", "Order now", "Confirm and
  pay", "Complete purchase", "Buy", "Checkout", "Subscribe", "Donate", "Book now", "Submit payment"
  (any casing, amounts in most currencies, extra words; a few other languages: "Jetzt kaufen"), or names
  a price for anything it does not plainly just add, show, filter or remove ("Select plan $9.99");
- or it is a choice (a drop-down or box) in a form that shows a total: a listener may submit it;
- or it submits a form that holds payment or order details — a card number, a security code, an
  expiry date, a bank account, a billing address, an amount or a total shown with a currency — whatever
  its name ("Continue"); inside such a form any other button counts too unless its name plainly does
  something harmless ("Apply coupon", "Back");
- or it sends off a form that holds the person's own details — a name, an email address, a phone number, an
  address, a date of birth, a message — by a button whose name sends ("Send request", "Register", "Apply
  now", "Sign up"; not "Next", "Continue", "Apply coupon"): it submits for the person (form_details.py);
- or it is (or submits the form of) the site adapter's own order control (`SitePage.order_control`).

What is plainly everyday is not: "Add to cart $12.00", "Search", "Next page", "Close", "Order history".

The page is read once per action (`read_facts` with `CONTROL_FACTS_JS`, on the control or the focused
element) into `ControlFacts`; the rest is pure words. A case that cannot be decided (the control vanished,
the evaluation failed) is `unclear`, which counts as consequential. Page text is matched, never obeyed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from webagent.narration.money import ANY_AMOUNT, amount_cents, money, plain_cents, total_shown
from webagent.narration.narrate import quote
from webagent.tools.form_details import Field, payment_details, personal_details, sends, strongly_personal

__all__ = [
    "CONTROL_FACTS_JS",
    "NOT_CONSEQUENTIAL",
    "Consequence",
    "ControlFacts",
    "Evaluates",
    "Field",
    "agrees_to_charge",
    "amount_cents",
    "harmless",
    "judge_choice",
    "judge_control",
    "judge_key",
    "payment_details",
    "read_facts",
    "says_consequential",
    "total_shown",
    "unclear",
]


@dataclass(frozen=True)
class Consequence:
    """Whether an action would commit something, why, and what it would cost when the page says."""

    consequential: bool
    reason: str = ""
    """Why, for the person asked to approve: 'its name says "Pay $43.42"'."""
    control: str = ""
    """The control as the page names it ("Pay $43.42"); empty when there is none."""
    action: str = ""
    """What would be done, in words: 'pressing "Pay $43.42"', 'pressing Enter in the form of "Pay"'."""
    total_cents: int | None = None
    """The amount it would commit: from the control's name, else the total its form (or page) shows."""
    site_marked: bool = False
    """The site adapter's own order control: the site's waits know what follows (a confirmation)."""
    typed: bool = False
    """A site tool that is consequential by definition (`place_order`), not a generic action."""
    unclear: bool = False
    """It could not be decided (so it counts as consequential)."""


NOT_CONSEQUENTIAL = Consequence(False)


def unclear(action: str, why: str) -> Consequence:
    """An action whose effect could not be checked: consequential, saying why."""
    return Consequence(True, f"it could not be checked ({why})", action=action, unclear=True)


# -- names ------------------------------------------------------------------------------------------

_STRONG = frozenset(
    {
        "pay", "buy", "purchase", "checkout", "subscribe", "donate", "paypal", "charge", "topup", "recharge",
        # a few other languages' shop buttons
        "kaufen", "bezahlen", "bestellen", "zahlungspflichtig", "payer", "acheter", "commander", "pagar",
        "comprar", "acquista", "acquistare",
    }
)  # fmt: skip
_NOT_AFTER_STRONG = frozenset({"history", "histories"})
"""'Purchase history' is a list of what was bought, not a purchase."""
_NOT_BEFORE_STRONG = frozenset({"no", "of", "without"})
"""'No charge', 'free of charge': what is not paid."""
_MONEY_NOUNS = frozenset({"money", "funds", "fund", "cash", "credit", "credits", "balance", "tip"})
_SENDS = frozenset({"send", "add", "transfer", "give", "leave", "wire"})
"""'Send money', 'Add funds', 'Leave a tip': a verb that moves money when its object is money."""
_COMMIT = frozenset(
    {"place", "submit", "confirm", "complete", "finish", "finalise", "finalize", "send", "make", "authorize",
     "authorise", "process"}
)  # fmt: skip
_COMMERCE = frozenset(
    {"order", "purchase", "payment", "booking", "reservation", "subscription", "donation", "transaction",
     "transfer", "bid", "checkout", "pay", "buy"}
)  # fmt: skip
_FILLERS = frozenset({"your", "my", "the", "this", "an", "a", "and", "now", "secure", "securely"})
_ORDER_NOUN_NEXT = frozenset(
    {"history", "details", "detail", "status", "summary", "tracking", "number", "confirmation", "info",
     "information", "list", "by", "overview", "again", "notes", "note"}
)  # fmt: skip
_FIRST_VERBS = frozenset({"book", "reserve", "rent", "bid", "tip", "transfer", "wire", "renew"})
"""Consequential as the first word, the imperative ("Book now", "Reserve a table"), not as a noun."""
_CONFIRMING = frozenset({"confirm", "complete"})
_HARMLESS_OBJECTS = frozenset(
    {"email", "e", "mail", "password", "address", "details", "detail", "selection", "choice", "choices",
     "age", "location", "identity", "account", "settings", "preferences", "cookies", "cookie", "profile",
     "setup", "survey", "you", "that", "i", "im", "human", "code", "phone", "number", "changes", "edit",
     "edits", "delete", "deletion", "removal", "cancellation", "sign", "login", "registration"}
)  # fmt: skip
_STARTS = frozenset({"subscription", "membership", "trial"})
_UPGRADES = frozenset({"upgrade", "join", "unlock", "go", "get", "try", "activate", "enroll", "enrol"})
"""Consequential before a paid tier ('Upgrade to Pro', 'Go premium', 'Join Plus') or with a price."""
_PAID_TIERS = frozenset({"pro", "premium", "plus", "gold", "vip", "membership", "subscription", "plan"})
_LEADS = frozenset({"yes", "ok", "okay", "sure", "please", "i", "agree", "accept"})
"""Words a control may start with before its verb ('Yes, charge my card', 'OK, pay')."""
_HARMLESS = re.compile(
    r"^(?:apply|cancel|back|go back|close|dismiss|edit|change|remove|delete|show|hide|view|help|learn|"
    r"terms|privacy|details|more|less|expand|collapse|select|choose|use|scan|upload|copy|clear|reset|"
    r"search|find|look ?up|sign in|log ?in|not now|no thanks|skip|add|previous|prev|menu|home|"
    r"filter|sort|toggle|open|save for later|continue shopping)\b"
    r"|\b(?:coupon|promo|voucher|discount code|gift card|password)\b",
    re.I,
)
_CLOSE_ICONS = frozenset({"x", "×", "✕", "✖", "✗"})
_EVERYDAY = re.compile(
    r"^(?:add(?!.*\b(?:wallet|balance|account|funds?|credits?|money|tip)\b)|show|view|see|hide|more|less|"
    r"details|learn|help|filter|sort|search|find|look ?up|compare|remove|delete|clear|back|go back|close|"
    r"dismiss|cancel|expand|collapse|previous|prev|menu|home|not now|no thanks|skip|save for later|"
    r"continue shopping|edit (?:address|details|cart|order)|"
    r"(?:apply|remove|enter|use|redeem) (?:\w+ )*?(?:coupon|promo|voucher|discount))\b",
    re.I,
)
"""What a control with a price in its name plainly does without spending it: it adds to a cart, shows,
filters, removes, goes back ("Add to cart $12.00", "View $50 plan", "Remove $2.00", "Apply coupon −$5").
Not "Select plan $9.99", "Choose Pro $9.99/mo", "Use $5 credit", "Add $20 to wallet": an unclear case is
consequential."""


def _words(name: str) -> list[str]:
    text = unicodedata.normalize("NFKC", name or "").lower().replace("&", " and ").replace("’", "'")
    text = ANY_AMOUNT.sub(" ", text)
    text = re.sub(r"\bcheck[\s-]+out\b", "checkout", text)
    text = re.sub(r"\b(top|load)[\s-]+up\b", "topup", text)
    text = re.sub(r"[^\w\s]|[\d_]", " ", text)
    return text.split()


def _next_word(words: Sequence[str], at: int) -> str | None:
    return next((w for w in words[at + 1 :] if w not in _FILLERS), None)


def says_consequential(name: str) -> bool:
    """Whether a control of this name pays, buys, orders, books, subscribes, sends money, tops up, tips
    or upgrades (by its words alone), or names a price for something that is not plainly everyday
    ("Join now for $4.99", "Upgrade to Pro – $9.99/mo"; "Add to cart $12.00" is everyday)."""
    if ANY_AMOUNT.search(unicodedata.normalize("NFKC", name or "")) and not _everyday(name):
        return True
    return _says_by_words(name)


def _says_by_words(name: str) -> bool:
    words = _words(name)
    if not words:
        return False
    for at, word in enumerate(words):
        if (
            word in _STRONG
            and (at + 1 == len(words) or words[at + 1] not in _NOT_AFTER_STRONG)
            and (at == 0 or words[at - 1] not in _NOT_BEFORE_STRONG)
        ):
            return True
        after = _next_word(words, at)
        if word in _COMMIT and after in _COMMERCE:
            return True
        if word == "start" and after in _STARTS | {"free"}:
            return True
        if word in _SENDS and after in _MONEY_NOUNS:
            return True
        if word in _UPGRADES and (
            (after == "to" and _next_word(words, at + 1) in _PAID_TIERS) or after in _PAID_TIERS
        ):
            return True
    while len(words) > 1 and words[0] in _LEADS:
        words = words[1:]
    first = words[0]
    if first == "order":
        return len(words) == 1 or words[1] not in _ORDER_NOUN_NEXT
    if first in _FIRST_VERBS:
        return True
    if first in _CONFIRMING:
        after = _next_word(words, 0)
        return after is None or after not in _HARMLESS_OBJECTS
    return "book" in words and _next_word(words, words.index("book")) == "now"


def _everyday(name: str) -> bool:
    """A name with a price that plainly does not spend it (`_EVERYDAY`), or an order history."""
    text = " ".join(_words(name))
    return bool(_EVERYDAY.search(text)) or bool(
        re.match(r"(?:(?:order|purchase|payment)s? history|track|orders?\b(?! now))", text)
    )


def harmless(name: str) -> bool:
    """Whether a control of this name plainly does something harmless inside a form (apply a coupon,
    go back, show the password) — so it is not taken for the form's pay button."""
    text = " ".join(unicodedata.normalize("NFKC", name or "").split()).strip()
    if text.lower() in _CLOSE_ICONS:
        return True
    return bool(_HARMLESS.search(text)) and not says_consequential(text)


# -- the page, read once ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ControlFacts:
    """What one evaluation reads about a control (or the focused element) and its form."""

    found: bool
    name: str = ""
    """Its accessible name; for a text field, the name of the button its form submits with."""
    kind: str = "other"
    """"button", "link", "field" (a text field or drop-down), "box" (a checkbox, radio or switch), "frame"
    (focus inside an iframe), "other"."""
    description: str = ""
    """Its accessible description (aria-describedby, aria-description, a title that is not its name)."""
    submits: bool = False
    """Activating it (or Enter in it, for a field) submits its form."""
    change_submits: bool = False
    """Its own (or its form's) inline change handler submits the form, or it is marked to auto-submit."""
    buttons: int = 0
    """How many buttons its form (or region) holds: a payment form without one submits some other way."""
    select: bool = False
    """It is a drop-down (a ``select``): choosing in it is a change its page may act on, like a box's."""
    marked: bool = False
    """It is the site's order control, or submits the form holding it."""
    enter_submits: bool = False
    """Enter in it (a field, radio, box) sends its form, by `submitter`; `enter_marked`: the site's order form."""
    submitter: str = ""
    enter_marked: bool = False
    fields: list[Field] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)
    region_text: str = ""
    """The visible text of its form (or of the nearest element around it that holds fields)."""
    page_text: str = ""
    """The page's visible text, bounded: where a total outside the form is read."""

    @classmethod
    def from_raw(cls, raw: Any) -> ControlFacts:
        if not isinstance(raw, dict) or not raw.get("found"):
            return cls(found=False)
        return cls(
            found=True,
            name=str(raw.get("name") or ""),
            kind=str(raw.get("kind") or "other"),
            description=str(raw.get("description") or ""),
            submits=bool(raw.get("submits")),
            change_submits=bool(raw.get("change_submits")),
            buttons=int(raw.get("buttons") or 0) if str(raw.get("buttons") or "0").isdigit() else 0,
            select=bool(raw.get("select")),
            marked=bool(raw.get("marked")),
            enter_submits=bool(raw.get("enter_submits")),
            submitter=str(raw.get("submitter") or ""),
            enter_marked=bool(raw.get("enter_marked")),
            fields=[_field(f) for f in raw.get("fields") or [] if isinstance(f, dict)],
            frames=[str(frame) for frame in raw.get("frames") or []],
            region_text=str(raw.get("region_text") or ""),
            page_text=str(raw.get("page_text") or ""),
        )


def _field(raw: dict[str, Any]) -> Field:
    return Field(**{key: str(value or "") for key, value in raw.items() if key in Field.__dataclass_fields__})


class Evaluates(Protocol):
    """A page or an element handle: what `read_facts` evaluates its script on."""

    async def evaluate(self, expression: str, arg: Any = None) -> Any: ...


# The facts about one element: its kind and name, whether it submits its form, the fields and frames of
# that form (or of the nearest element around it holding fields, for checkouts built of divs), and the
# visible text of both — bounded, so a hostile page cannot flood anything.
_FACTS = r"""
(el, marker) => {
  const clip = (s, n = 160) => (s || "").replace(/\s+/g, " ").trim().slice(0, n);
  if (!el || el === document.body || el === document.documentElement) return { found: false };
  const byIds = (ids) => (ids || "").split(/\s+/).map((id) => id && document.getElementById(id))
    .filter(Boolean).map((n) => n.textContent).join(" ");
  const BUTTONS = ["submit", "button", "image", "reset"];
  const NOT_TEXT = [...BUTTONS, "checkbox", "radio", "file", "range", "color", "hidden"];
  const nameOf = (n) => clip(n.getAttribute("aria-label") || byIds(n.getAttribute("aria-labelledby"))
    || (n.labels && n.labels.length && !BUTTONS.includes(n.type) ? Array.from(n.labels).map((l) => l.textContent).join(" ") : "")
    || (n.tagName === "INPUT" && BUTTONS.includes(n.type) ? (n.value || n.alt || (n.type === "submit" ? "Submit" : "")) : "")
    || n.innerText || n.textContent || n.getAttribute("title")
    || ((n.querySelector && n.querySelector("img[alt]")) || {}).alt || "", 120);
  const tag = el.tagName;
  const type = (el.getAttribute("type") || "").toLowerCase();
  const role = (el.getAttribute("role") || "").toLowerCase();
  const textual = (tag === "INPUT" && !NOT_TEXT.includes(el.type)) || tag === "SELECT";
  let kind = "other";
  if (tag === "IFRAME") kind = "frame";
  else if (tag === "BUTTON" || (tag === "INPUT" && ["submit", "button", "image"].includes(el.type))
           || role === "button" || role === "menuitem") kind = "button";
  else if ((tag === "A" && el.hasAttribute("href")) || role === "link") kind = "link";
  else if (textual) kind = "field";
  else if ((tag === "INPUT" && (el.type === "checkbox" || el.type === "radio"))
           || ["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"].includes(role)) kind = "box";
  const form = el.form || el.closest("form");
  let name = nameOf(el);
  const title = clip(el.getAttribute("title"), 160);
  const description = clip(byIds(el.getAttribute("aria-describedby")) || el.getAttribute("aria-description")
    || (title && title !== name ? title : ""), 160);
  const handlers = (n) => n ? ["onchange", "oninput", "onclick"].map((a) => n.getAttribute(a) || "").join(" ") : "";
  const change_submits = /submit\s*\(|requestSubmit|\.submit\b/i.test(`${handlers(el)} ${handlers(form)}`)
    || el.hasAttribute("data-autosubmit") || !!(form && form.hasAttribute("data-autosubmit"));
  // Enter in an input of a form (a text field, a radio, a box, a slider) sends it, by the first enabled
  // submit button of the form's own controls (`form.elements`: one outside it by `form=`, `type=""` too).
  const sends = (b) => (b.tagName === "BUTTON" && b.type === "submit") || (b.tagName === "INPUT" && ["submit", "image"].includes(b.type));
  let submits = false, enter_submits = false, submitter = "", enter_marked = false;
  if (form && tag === "INPUT" && !["submit", "image", "button", "reset", "hidden"].includes(el.type)) {
    const members = Array.from(form.elements), buttons = members.filter(sends);
    const button = buttons.find((b) => !b.disabled) || buttons[0];
    enter_submits = !!button || members.filter((f) => f.tagName === "INPUT" && !NOT_TEXT.includes(f.type)).length === 1;
    submitter = button ? nameOf(button) : "";
    enter_marked = enter_submits && !!marker && !!form.querySelector(marker);
  }
  if (form) {
    if (tag === "BUTTON") submits = el.type === "submit";
    else if (tag === "INPUT" && (el.type === "submit" || el.type === "image")) submits = true;
    else if (textual && tag === "INPUT") {
      submits = enter_submits;  // implicit submission: Enter in a field
      if (submitter) name = submitter;
    }
  }
  let region = form;
  for (let n = el.parentElement; !region && n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    if (n.querySelector("input:not([type=hidden]), select, textarea, iframe")) region = n;
  }
  const fields = region ? Array.from(region.querySelectorAll("input, select, textarea")).slice(0, 60).map((f) => ({
    autocomplete: clip(f.getAttribute("autocomplete"), 60), name: clip(f.getAttribute("name"), 60),
    id: clip(f.id, 60), type: clip(f.getAttribute("type"), 20),
    label: clip(Array.from(f.labels || []).map((l) => l.textContent).join(" "), 80),
    placeholder: clip(f.getAttribute("placeholder"), 60),
    aria: clip(f.getAttribute("aria-label") || byIds(f.getAttribute("aria-labelledby")), 80),
    value: /amount|total|price|sum/i.test(`${f.getAttribute("name")} ${f.id}`) ? clip(f.value, 20) : "",
  })) : [];
  const frames = region ? Array.from(region.querySelectorAll("iframe")).slice(0, 10)
    .map((f) => clip(`${f.title || ""} ${f.name || ""} ${f.src || ""}`, 160)) : [];
  let marked = false;
  if (marker) marked = !!el.closest(marker) || !!(form && form.querySelector(marker) && (submits || textual));
  const text = (n) => clip(n.innerText || n.textContent, 3000);
  const buttons = region ? region.querySelectorAll('button, input[type="submit" i], input[type="image" i], [role="button"]').length : 0;
  return { found: true, name, kind, description, submits, change_submits, buttons, marked, fields, frames, select: tag === "SELECT",
           enter_submits, submitter, enter_marked,
           region_text: region ? text(region) : "", page_text: document.body ? text(document.body) : "" };
}
"""
CONTROL_FACTS_JS = _FACTS
"""Evaluated on a control's element handle (or the focused element's, where a key lands) with the site's
order-control selector."""


async def read_facts(target: Evaluates, script: str, marker: str) -> ControlFacts:
    """The facts about a control or the focused element (``CONTROL_FACTS_JS`` on its handle), in one
    evaluation. Errors are the caller's: they make the case unclear."""
    return ControlFacts.from_raw(await target.evaluate(script, marker))


# -- deciding (pure) --------------------------------------------------------------------------------


def judge_control(facts: ControlFacts, asked: str, action: str | None = None) -> Consequence:
    """Whether pressing this control (asked for as ``asked``) is consequential, and why."""
    label = facts.name or asked
    action = action or f"pressing {quote(label, 60)}"
    total = amount_cents(label)
    if total is None and not _everyday(label):
        total = amount_cents(facts.description)
    if total is None:
        total = _shown_total(facts)

    def consequential(reason: str) -> Consequence:
        return Consequence(True, reason, label, action, total, site_marked=facts.marked)

    if facts.marked:
        return consequential("it is the site's own order control")
    for name in dict.fromkeys((facts.name, asked)):
        if name and says_consequential(name):
            return consequential(f"its name says {quote(name, 60)}")
    if facts.description and not _everyday(label) and says_consequential(facts.description):
        return consequential(f"its description says {quote(facts.description, 80)}")
    details = payment_details(facts.fields, facts.frames, facts.region_text)
    if details:
        listed = _listed(details)
        if facts.submits:
            return consequential(f"it submits a form that holds {listed}")
        if facts.kind == "button" and not harmless(label):
            return consequential(f"it is a button of a form that holds {listed}")
    # it sends the person's details off: a submit button, or a button a page's script may send them by
    personal = (
        personal_details(facts.fields) if (facts.submits or facts.kind == "button") and sends(label) else []
    )
    if personal:
        return consequential(f"it sends a form that holds {_listed(personal)}")
    return Consequence(False, control=label, action=action, total_cents=total)


def judge_key(key: str, facts: ControlFacts) -> Consequence:
    """Whether pressing ``key`` where the focus is (``facts``) is consequential, and why."""
    if key not in ("Enter", "Space") or not facts.found:
        return NOT_CONSEQUENTIAL
    if facts.kind == "frame":
        if key == "Enter":
            return Consequence(
                True, "the focus is inside a frame the agent cannot see into", action="pressing Enter"
            )
        return NOT_CONSEQUENTIAL
    if facts.kind == "button" or (facts.kind == "link" and key == "Enter"):
        return judge_control(facts, facts.name, f"pressing {key} on {quote(facts.name, 60)}")
    if facts.kind == "box" and key == "Space":
        return judge_choice(facts, facts.name, f"pressing Space on {quote(facts.name, 60)}")
    if (
        facts.kind in ("box", "other") and facts.enter_submits
    ):  # Enter on a radio, box or slider sends its form
        as_field = replace(facts, kind="field", name=facts.submitter, submits=True, marked=facts.enter_marked)
        return judge_key(key, as_field)
    if facts.kind != "field" or key != "Enter":
        return NOT_CONSEQUENTIAL  # a space typed, a box ticked
    action = (
        f"pressing Enter in the form of {quote(facts.name, 60)}" if facts.name else "pressing Enter in a form"
    )
    total = amount_cents(facts.name)
    total = total if total is not None else _shown_total(facts)
    if facts.marked:
        return Consequence(True, "it submits the site's own order form", facts.name, action, total, True)
    details = payment_details(facts.fields, facts.frames, facts.region_text)
    if details:
        return Consequence(
            True, f"it would submit a form that holds {_listed(details)}", facts.name, action, total
        )
    if facts.submits and says_consequential(facts.name):
        return Consequence(
            True, f"it submits a form whose button says {quote(facts.name, 60)}", facts.name, action, total
        )
    personal = personal_details(facts.fields) if facts.submits else []
    if personal and (sends(facts.name) or (not facts.name and strongly_personal(personal))):
        # by its button's name, or with no button to read, by who the form says the person is
        why = f"it would send a form that holds {_listed(personal)}"
        return Consequence(True, why, facts.name, action, total)
    return Consequence(False, control=facts.name, action=action, total_cents=total)


_CHARGE_WORDS = re.compile(
    r"\b(?:charg\w*|bill(?:ed|ing)?|debit\w*|pay(?:s|ing|ment|ments)?|subscri\w*|renew\w*|recurring"
    r"|purchase\w*|fees?|cost|costs|price)\b",
    re.I,
)
_AGREEING = re.compile(
    r"\b(?:agree\w*|accept\w*|authori[sz]\w*|consent\w*|understand|allow\w*|confirm\w*)\b", re.I
)


def agrees_to_charge(text: str) -> bool:
    """Whether ticking a box (or choosing an option) labelled ``text`` agrees to a charge: "I agree to be
    charged $9.99 a month", "Authorize recurring payments", "Subscribe & save"; not "I agree to the terms"
    or "Save my payment details"."""
    if _says_by_words(text) and not _everyday(text):
        return True
    if not _CHARGE_WORDS.search(text or ""):
        return False
    return bool(_AGREEING.search(text) or amount_cents(text) is not None)


def judge_choice(facts: ControlFacts, choice: str, action: str) -> Consequence:
    """Whether choosing ``choice`` in this drop-down, box or field (``facts``) is consequential: the change
    submits its form (an inline handler, an auto-submit mark, a payment form with no button to submit it
    with), or the box (or option) agrees to a charge — or it is a drop-down or box in a form that shows a
    total with a currency, where a listener the page added (``addEventListener``, which no script can
    read) may submit it on the change: that cannot be told, so it counts. Typing a name into the site's
    own order form is not: its order control is judged when it is pressed."""
    label = facts.name or choice
    total = amount_cents(choice) if amount_cents(choice) is not None else amount_cents(label)

    def consequential(reason: str) -> Consequence:
        return Consequence(
            True, reason, label, action, total if total is not None else _shown_total(facts), facts.marked
        )

    details = payment_details(facts.fields, facts.frames, facts.region_text)
    if facts.change_submits:
        held = f" that holds {_listed(details)}" if details else ""
        return consequential(f"changing it submits its form{held}")
    if details and facts.buttons == 0 and facts.kind in ("field", "box"):
        return consequential(f"its form holds {_listed(details)} and has no button: a change may submit it")
    shown = total_shown(facts.region_text)
    if shown is not None and (facts.select or facts.kind == "box") and not facts.marked:
        return consequential(
            f"its form shows a total of {money(shown)}, and the page may submit it when this changes "
            "(that cannot be told)"
        )
    for text in dict.fromkeys((choice, label) if facts.kind == "box" else (choice,)):
        if text and agrees_to_charge(text):
            return consequential(f"it says {quote(text, 80)}")
    return Consequence(False, control=label, action=action, total_cents=total)


def _shown_total(facts: ControlFacts) -> int | None:
    """The total the form shows, else one of its amount fields, else the total the page shows."""
    total = total_shown(facts.region_text)
    if total is not None:
        return total
    for item in facts.fields:
        if item.value and re.search(r"\b(?:amount|total)\b", item.words):
            value = amount_cents(item.value) or plain_cents(item.value)
            if value is not None:
                return value
    return total_shown(facts.page_text)


def _listed(details: list[str]) -> str:
    shown = details[:3]
    return ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1]
