"""Narration: pure functions from `PageState` values to the few lines a tool returns to the model.

A narration has a stable shape::

    Added 2 × "Margherita Pizza" (Large) — cart now 3 items, $37.10.
    @action: added 2 × Margherita Pizza (Large) to the cart — cart 3 items, $37.10 at 14:02:09
    Page: "Italian Bistro" menu · cart 3 items $37.10 · dismissed: newsletter popup
    Next: add_to_cart, view_cart, go_to_checkout, search_restaurants

Line 1 says what the tool did (or why it did nothing); then the shop's own new breadcrumbs; then a
one-line summary of the page; then what is now possible. Text that comes from the page is quoted:
it is data, never an instruction to the model.

The planner and the approval anchor read some of these shapes back (a menu, the cart, the ``Page:``
line). Each such writer has its reader beside it (``menu_listing`` / ``read_menu_listing`` …), and
tests/narration/test_sentences.py checks that one reads back what the other wrote: reword both or neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from webagent.narration.money import money, parse_cents
from webagent.narration.state import (
    CartLine,
    LandmarkRole,
    MenuItem,
    MenuOption,
    PageList,
    PageState,
    RestaurantCard,
    View,
)

__all__ = [
    "MAX_BREADCRUMBS",
    "MAX_LANDMARKS",
    "Narration",
    "PageLine",
    "Told",
    "cart_listing",
    "cart_phrase",
    "changes",
    "framed_crumb",
    "landmark_line",
    "menu_listing",
    "narrate",
    "option_note",
    "page_summary",
    "quote",
    "read_cart_listing",
    "read_menu_listing",
    "read_narration",
    "read_page_summary",
    "read_restaurant_listing",
    "restaurant_listing",
    "shop_busy",
    "where",
]

MAX_BREADCRUMBS = 4
VIEW_NAMES: dict[View, str] = {
    "restaurants": "restaurant list",
    "checkout": "checkout",
    "confirmation": "order confirmation",
    "orders": "order history",
    "loading": "loading",
    "unknown": "an unknown page",
}


def quote(text: str, limit: int = 120) -> str:
    """Page text as data: in double quotes, inner quotes neutralised, bounded in length."""
    clean = " ".join(text.split()).replace('"', "'")
    if len(clean) > limit:
        clean = clean[: limit - 1] + "…"
    return f'"{clean}"'


def cart_phrase(state: PageState) -> str:
    if state.cart_count == 0:
        return "cart empty"
    items = f"{state.cart_count} item{'s' if state.cart_count != 1 else ''}"
    # The subtotal, as the shop's cart button and breadcrumbs say it; fees appear at checkout.
    total = state.cart_subtotal_cents if state.cart_subtotal_cents is not None else state.cart_total_cents
    return f"cart {items} {money(total)}" if total is not None else f"cart {items}"


MAX_CHOICES_LISTED = 8
"""A dish with more choices than this lists its option names only (read_page or add_to_cart tells more)."""


def menu_listing(menu: Sequence[MenuItem]) -> str:
    """``"Margherita Pizza" $11.50 (choose Size: "Regular" or "Large"), "Dragon Roll" $16.00 (sold out)``

    A dish that asks for choices says so, with the choices when they are few, so a model picks them in
    its first `add_to_cart` instead of learning them from a refusal.
    """
    return ", ".join(
        f"{quote(item.name, 60)} {money(item.price_cents)}{' (sold out)' if item.sold_out else ''}"
        f"{option_note(item)}"
        for item in menu
    )


MENU_ENTRY = re.compile(
    r'"(?P<name>[^"]*)" (?P<price>-?\$\d+\.\d\d)(?P<sold> \(sold out\))?'
    r'(?: \((?P<note>(?:[^()"]|"[^"]*")*)\))?(?:, |\.?$)'
)
QUOTED = re.compile(r'"([^"]*)"')


def read_menu_listing(text: str) -> list[MenuItem]:
    """The dishes `menu_listing` wrote (choices only where it listed them)."""
    return [_menu_item(entry) for entry in MENU_ENTRY.finditer(text)]


def _menu_item(entry: re.Match[str]) -> MenuItem:
    note = entry.group("note") or ""
    options = [_menu_option(part) for part in note.split("; ") if part.startswith(("choose ", "optional "))]
    return MenuItem(
        name=entry.group("name"),
        price_cents=parse_cents(entry.group("price")) or 0,
        sold_out=bool(entry.group("sold")),
        options=options,
        has_options=bool(options) or note == "has options",
    )


def _menu_option(part: str) -> MenuOption:
    """``choose Size: "Regular" or "Large"`` or ``optional Extras: "Extra cheese", "Bacon"``."""
    kind, _, rest = part.partition(" ")
    name, _, listed = rest.partition(": ")
    return MenuOption(name=name, required=kind == "choose", choices=QUOTED.findall(listed))


def option_note(item: MenuItem) -> str:
    """`` (choose Size: "Regular" or "Large"; optional Extras: "Bacon", "Olives")``, or ``""``."""
    if not item.options:
        return " (has options)" if item.has_options and not item.sold_out else ""
    if item.sold_out:
        return ""
    listed = sum(len(option.choices) for option in item.options) <= MAX_CHOICES_LISTED
    parts = []
    for option in item.options:
        kind = "choose" if option.required else "optional"
        name = quote(option.name, 40)[1:-1]
        if not listed or not option.choices:
            parts.append(f"{kind} {name}")
            continue
        choices = [quote(choice, 40) for choice in option.choices]
        joined = " or ".join(choices) if option.required else ", ".join(choices)
        parts.append(f"{kind} {name}: {joined}")
    return " (" + "; ".join(parts) + ")"


def restaurant_listing(cards: Sequence[RestaurantCard], limit: int = 12) -> str:
    shown = [f"{quote(card.name, 60)}{' (sponsored)' if card.sponsored else ''}" for card in cards[:limit]]
    more = len(cards) - limit
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def read_restaurant_listing(text: str) -> list[str]:
    """The restaurant names `restaurant_listing` wrote (the first ``limit`` of them)."""
    return QUOTED.findall(text)


def cart_listing(lines: Sequence[CartLine]) -> str:
    return "; ".join(f"{line.quantity} × {quote(line.name, 80)} {money(line.total_cents)}" for line in lines)


CART_ENTRY = re.compile(r'(?P<quantity>\d+) × "(?P<name>[^"]*)" (?P<total>-?\$\d+\.\d\d|\$\?)')


def read_cart_listing(text: str) -> list[CartLine]:
    """The lines `cart_listing` wrote (a line total it did not know reads back as 0)."""
    return [
        CartLine(name=m["name"], quantity=int(m["quantity"]), total_cents=parse_cents(m["total"]) or 0)
        for m in CART_ENTRY.finditer(text)
    ]


DISMISSED = "dismissed "
"""How the ``Page:`` line's last part starts when popups were dismissed on the model's behalf."""


def page_summary(state: PageState, dismissed: Sequence[str] = ()) -> str:
    """The one-line ``Page:`` summary: where we are, the cart, what stands in the way."""
    here = where(state)
    if state.view == "restaurant" and state.menu_loading:
        here += " (still loading)"
    if state.view == "confirmation" and state.order_number is not None:
        here += f" for order #{state.order_number}"
    parts = [here, cart_phrase(state)]
    if state.view == "unknown":  # a page not the site's own: what any page shows, and no cart it lacks
        parts = [here, *([cart_phrase(state)] if state.cart_count or state.cart_lines else [])]
        if state.heading and state.title and state.heading != state.title:
            parts.append(f"heading {quote(_label(state.heading, 100), 100)}")
        if state.form:
            parts.append("form: " + ", ".join(_field(field) for field in state.form))
        parts.extend(_list_name(entry) + f" ({entry.count})" for entry in state.lists)
    if state.min_order_notice:
        parts.append(quote(state.min_order_notice))
    if state.cart_open:
        parts.append("cart drawer open")
    parts.extend(f"dialog open: {quote(name, 60)}" for name in state.dialogs)
    parts.extend(f"error shown: {quote(error)}" for error in state.errors)
    if dismissed:
        parts.append(DISMISSED + ", ".join(dismissed))
    return "Page: " + " · ".join(parts)


@dataclass(frozen=True)
class PageLine:
    """What the planner reads back from a ``Page:`` line: where the page is, and whether the cart is empty."""

    view: View
    restaurant: str | None = None
    """The restaurant whose menu the page shows (``view == "restaurant"``)."""
    cart_empty: bool = False


PAGE_LINE = re.compile(
    r'^Page: (?:"(?P<restaurant>[^"]*)" menu(?: \(still loading\))?|(?P<where>.+?)(?: for order #\d+)?)'
    r"(?: · (?P<cart>cart empty|cart \d+ items?)|(?= · )|$)"
)
"""A ``Page:`` line; a page not the site's own has a cart part only where it shows a cart."""


def read_page_summary(line: str) -> PageLine | None:
    """The view, restaurant and empty cart a `page_summary` line states; None for another line."""
    match = PAGE_LINE.match(line)
    if match is None:
        return None
    empty = match["cart"] == "cart empty"
    if match["restaurant"] is not None:
        return PageLine("restaurant", match["restaurant"] or None, empty)
    view: View = next((v for v, name in VIEW_NAMES.items() if name == match["where"]), "unknown")
    return PageLine(view, None, empty)


def where(state: PageState) -> str:
    """Where the page is, as the ``Page:`` line starts: ``"Italian Bistro" menu``, ``checkout``."""
    if state.view == "restaurant":
        return f"{quote(state.restaurant or '?', 60)} menu"
    if state.view == "unknown" and (state.title or state.heading):
        return f"{quote(_label(state.title or state.heading, 80), 80)} page"
    return VIEW_NAMES.get(state.view, state.view)


def changes(before: PageState, after: PageState) -> str:
    """What a generic action changed, from two page states: view or URL, dialogs, notices (a status, an
    alert, what a live region announces — each said once), errors, cart, focus. Empty when nothing visible
    changed (the caller then says so)."""
    parts: list[str] = []
    if (before.view, before.restaurant) != (after.view, after.restaurant):
        parts.append(f"Now at {where(after)} (was {where(before)}).")
    elif _path(before.url) != _path(after.url):
        parts.append(f"The address is now {quote(_path(after.url), 80)}.")
    if before.view == after.view == "unknown":
        parts += _page_changes(before, after)
    opened = [name for name in after.dialogs if name not in before.dialogs]
    closed = [name for name in before.dialogs if name not in after.dialogs]
    parts += [f"Dialog {quote(name, 60)} opened." for name in opened]
    parts += [f"Dialog {quote(name, 60)} closed." for name in closed]
    if before.cart_open != after.cart_open:
        parts.append("The cart drawer opened." if after.cart_open else "The cart drawer closed.")
    parts += [
        f"Notice: {quote(text)}." for text in dict.fromkeys(after.notices) if text not in before.notices
    ]
    told = {*before.notices, *after.notices, *before.announced}  # a live region that is a status too: once
    parts += [f"Notice: {quote(text)}." for text in dict.fromkeys(after.announced) if text not in told]
    parts += [f"Error shown: {quote(text)}." for text in after.errors if text not in before.errors]
    if before.errors and not after.errors:
        parts.append("The error message went away.")
    if (before.cart_count, before.cart_subtotal_cents) != (after.cart_count, after.cart_subtotal_cents):
        now, was = (cart_phrase(state).removeprefix("cart ") for state in (after, before))
        parts.append(f"Cart now {now} (was {was}).")
    if not parts and before.view == after.view == "unknown" and before.text_digest != after.text_digest:
        parts.append(
            "The page's text changed (read_page reads it)."
        )  # nothing above names it: still a change
    if after.focused and after.focused != before.focused:
        parts.append(f"Focus is on {quote(after.focused, 60)}.")
    return " ".join(parts)


def _page_changes(before: PageState, after: PageState) -> list[str]:
    """On a page not the site's own: a new heading (a wizard's next step) or title, the form's fields come
    and gone, fields marked invalid, emptied or valid again, lists come, gone or changed, its landmarks
    (another page's, or a part shown or hidden)."""
    parts: list[str] = []
    if after.heading != before.heading and after.heading:
        was = f" (was {quote(before.heading, 100)})" if before.heading else ""
        parts.append(f"The heading is now {quote(after.heading, 100)}{was}.")
    elif after.heading != before.heading:
        parts.append(f"The heading {quote(before.heading, 100)} is gone.")
    if after.title != before.title and after.heading == before.heading:
        parts.append(
            f"The title is now {quote(after.title, 80)}." if after.title else "The page's title went away."
        )
    names_before = [_field_name(field) for field in before.form if not _MORE.match(field)]
    names_after = [_field_name(field) for field in after.form if not _MORE.match(field)]
    shown = [f for f in after.form if not _MORE.match(f) and _field_name(f) not in names_before]
    gone = [name for name in names_before if name not in names_after]
    listed, left = ", ".join(_field(f) for f in shown), ", ".join(_field(f) for f in gone)
    if shown:
        parts.append(f"The form now asks for {listed}" + (f"; gone: {left}" if gone else "") + ".")
    elif gone:
        parts.append(f"Fields gone from the form: {left}.")
    parts += _list_changes(before.lists, after.lists)
    landmarks = landmark_line(after)
    if landmarks != landmark_line(before):
        parts.append(f"{landmarks}." if landmarks else "The landmarks said before are gone.")
    invalid = [
        _field_name(field)
        for field in after.form
        if field.endswith(INVALID) and field not in before.form and _field_name(field) in names_before
    ]
    if invalid:
        parts.append("Marked invalid: " + ", ".join(_field(f) for f in invalid) + ".")
    marks = {_field_name(field): field for field in before.form}
    for change, mark in (("Emptied", FILLED), ("No longer marked invalid", INVALID)):
        named = [
            _field(field)
            for field in after.form
            if mark in marks.get(_field_name(field), "") and mark not in field
        ]
        if named:
            parts.append(f"{change}: " + ", ".join(named) + ".")
    return parts


MAX_LANDMARKS = 6
"""Landmarks named in a `landmark_line`; more are counted ("and 4 more")."""
PLAIN: tuple[LandmarkRole, ...] = ("main", "banner", "contentinfo")
"""Landmarks nearly every page has: unnamed, they tell nothing of the page."""


def landmark_line(state: PageState) -> str:
    """``Landmarks: navigation "Site", search, main "Results", complementary "Filters"``: the page's landmark
    regions by role and name (page text, quoted), the first `MAX_LANDMARKS`, the rest counted. Empty where
    they add nothing: none, or only an unnamed main, banner and footer. Said on the first look at a page
    (`narrate`) and when they change (`changes`), never on every step."""
    if not state.landmarks or (
        not state.landmarks_more and all(not m.name and m.role in PLAIN for m in state.landmarks)
    ):
        return ""
    named = [f"{m.role} {quote(m.name, 30)}" if m.name else m.role for m in state.landmarks[:MAX_LANDMARKS]]
    more = max(0, len(state.landmarks) - MAX_LANDMARKS) + max(0, state.landmarks_more)
    return "Landmarks: " + ", ".join(named) + (f" and {more} more" if more else "")


def _list_name(entry: PageList) -> str:
    return f"list {quote(_label(entry.name, 60), 62)}" if entry.name else "a list"


def _list_changes(before: Sequence[PageList], after: Sequence[PageList]) -> list[str]:
    """Lists and tables come, gone or changed (a search's results, a table of free times): named, counted,
    their first items quoted."""
    parts: list[str] = []
    was = dict(_keyed(before))
    for key, entry in _keyed(after):
        old = was.pop(key, None)
        if old == entry:
            continue
        items = ", ".join(quote(_label(item, 60), 62) for item in entry.items)
        rest = entry.count - len(entry.items)
        shown = f": {items}" + (f" and {rest} more" if rest > 0 else "") if items else ""
        name = _upper(_list_name(entry))
        if old is None:
            parts.append(f"{name} appeared ({entry.count}){shown}.")
        else:
            parts.append(f"{name} now has {entry.count} (was {old.count}){shown}.")
    parts += [f"{_upper(_list_name(entry))} is gone." for entry in was.values()]
    if not parts and list(before) != list(after):  # the same lists, moved about
        parts.append("The lists are now in this order: " + ", ".join(_list_name(e) for e in after) + ".")
    return parts


def _keyed(lists: Sequence[PageList]) -> list[tuple[tuple[str, int], PageList]]:
    """Each list by its name and how many of that name came before it (two unnamed lists stay two)."""
    seen: dict[str, int] = {}
    keyed = []
    for entry in lists:
        seen[entry.name] = seen.get(entry.name, -1) + 1
        keyed.append(((entry.name, seen[entry.name]), entry))
    return keyed


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


INVALID = " (invalid)"
FILLED = " (filled)"
"""How a form field the page marks invalid (``aria-invalid``) ends in `PageState.form`."""


def _label(field: str, limit: int = 60) -> str:
    """Page text as a page's ``Page:`` line holds it (a title, a heading): one line, bounded, with no quote
    or `·` of its own — so it cannot close a quote or add a part to the line."""
    return " ".join(field.split()).replace('"', "'").replace("·", "-")[:limit]


def _field(field: str) -> str:
    """A form field as a narration lists it: its label quoted (page text), its marks after it, and what
    it offers to choose from while nothing is chosen (page text, quoted): ``"How often" * (one of
    "Monthly", "Weekly")``."""
    if _MORE.match(field):
        return field  # "4 more": ours, not the page's
    offered = _CHOICES.search(field)
    bare = field[: offered.start()] if offered else field
    name = _field_name(bare)
    choices = ""
    if offered:
        listed = [quote(_label(choice, 24), 26) for choice in offered.group(1).split("|") if choice != "…"]
        choices = f" (one of {', '.join(listed)}{', …' if offered.group(1).endswith('|…') else ''})"
    return f"{quote(_label(name, 40), 42)}{bare[len(name) :]}{choices}"


_CHOICES = re.compile(r" \(choices: ([^()]*)\)\Z")
"""What a drop-down or a group of radio buttons offers, as the page reader marks it (webagent/sites/generic)."""


_MORE = re.compile(r"^\d+ more\Z")


def required_empty(form: Sequence[str]) -> list[str]:
    """The labels of the fields a form (as `PageState.form` writes them) requires and nothing fills yet."""
    return [_field_name(field) for field in form if _field_name(field) != field and _required(field)]


def _required(field: str) -> bool:
    marks = field[len(_field_name(field)) :]
    return marks.startswith(" *") and FILLED not in marks


def _field_name(field: str) -> str:
    """A form field's label, without its marks: required, filled, invalid."""
    return re.sub(r"(?: \*)?(?: \(filled\))?(?: \(invalid\))?(?: \(choices: [^()]*\))?$", "", field)


def _path(url: str) -> str:
    tail = url.split("://", 1)[-1]
    return "/" + tail.split("/", 1)[1] if "/" in tail else "/"


@dataclass(frozen=True)
class Narration:
    """Everything one tool result is made from; `narrate` turns it into text."""

    said: str
    after: PageState
    before: PageState | None = None
    breadcrumbs: Sequence[str] = ()
    dismissed: Sequence[str] = ()
    blocked: Sequence[str] = ()
    events: Sequence[str] = ()
    """What the page did besides (a dialog, a new tab, a download: webagent/narration/happened.py)."""
    possible: Sequence[str] = field(default_factory=list)
    changes_expected: bool = True


def narrate(n: Narration) -> str:
    """The tool result text: what was done, the shop's breadcrumbs, the page, what is possible next."""
    first, *more = n.said.split("\n")
    unchanged = (
        n.before is not None
        and n.before.fingerprint() == n.after.fingerprint()
        and n.before.focused == n.after.focused  # a focus moved is said (`changes`), so it is not "no change"
        and not n.breadcrumbs
        and not n.events
    )
    if n.changes_expected and unchanged:
        first += " No visible change."
    lines = [first, *more]
    crumbs = [framed_crumb(crumb) for crumb in n.breadcrumbs]
    if len(crumbs) > MAX_BREADCRUMBS:
        lines.append(f"({len(crumbs) - MAX_BREADCRUMBS} earlier actions not shown; see recent_actions)")
        crumbs = crumbs[-MAX_BREADCRUMBS:]
    lines.extend(crumbs)
    lines.extend(
        f"Blocked {'a WebSocket' if url.startswith(('ws:', 'wss:')) else 'navigation'} to {quote(url, 100)} "
        "(outside the shop)."
        for url in n.blocked
    )
    lines.extend(n.events)
    if n.before is None and landmark_line(n.after):  # a first look: how the page is laid out, once
        lines.append(landmark_line(n.after))
    lines.append(page_summary(n.after, n.dismissed))
    if n.possible:
        lines.append("Next: " + ", ".join(n.possible))
    return "\n".join(lines)


CRUMB = "@action: "
"""How every breadcrumb line starts in a narration, whatever the page sent."""
MAX_CRUMB = 240


def framed_crumb(message: str) -> str:
    """A breadcrumb as a narration carries it: the page's words on one line (newlines and other control
    characters folded into spaces), bounded, and starting with ``@action: `` — so no event a page
    dispatches can write a line that reads as the tool's own (``Page: …``, ``Added …``)."""
    text = " ".join("".join(c if c.isprintable() else " " for c in str(message)).split())
    if not text.startswith(CRUMB):
        text = CRUMB + text.removeprefix(CRUMB.strip()).strip()
    return text if len(text) <= MAX_CRUMB else text[: MAX_CRUMB - 1] + "…"


def shop_busy(reason: str, tries: int) -> str:
    """The line a result gets when the shop was busy and the call was tried again (its first line keeps
    its shape: models and the planner read it)."""
    again = "tried again" + (f" {tries} times" if tries > 1 else "")
    return f"The shop was busy ({quote(reason)}); {again}."


BUSY = re.compile(r'^The shop was busy \(".*"\); tried again(?: \d+ times)?\.$')
HIDDEN = re.compile(r"^\(\d+ earlier actions not shown; see recent_actions\)$")
LABEL = re.compile(r'(?:"[^"]*"|[^,"])+')


@dataclass(frozen=True)
class Told:
    """A narration taken apart again (`read_narration`): what the call did, and what came with it."""

    said: tuple[str, ...]
    """What the tool said it did — the result, line 1 and any lines of its own (a listing, a quote)."""
    busy: str | None = None
    """The shop-busy line (`shop_busy`), when the call was tried again."""
    breadcrumbs: tuple[str, ...] = ()
    page: str | None = None
    """The ``Page:`` line without its dismissed part."""
    dismissed: tuple[str, ...] = ()
    """The popups dismissed on the model's behalf during the call, as the ``Page:`` line names them."""
    rest: tuple[str, ...] = ()
    """Blocked requests and the ``Next:`` line."""


def read_narration(text: str) -> Told:
    """Take a `narrate` text apart, from its end (the tool's own lines may be anything). A text without
    a ``Page:`` line in its place (a loop's answer, "Run finished.") is all said."""
    lines = text.split("\n")
    end = len(lines)
    rest: list[str] = []
    if end > 1 and lines[end - 1].startswith("Next: "):
        end -= 1
        rest.append(lines[end])
    if end < 2 or not lines[end - 1].startswith("Page: "):
        return Told(tuple(lines))
    end -= 1
    page, dismissed = lines[end], ()
    head, found, tail = page.rpartition(" · " + DISMISSED)
    if found:
        page, dismissed = head, tuple(label.strip() for label in LABEL.findall(tail) if label.strip())
    while end > 1 and lines[end - 1].startswith("Blocked "):
        end -= 1
        rest.insert(0, lines[end])
    start = end
    while start > 1 and lines[start - 1].startswith("@action: "):
        start -= 1
    breadcrumbs = tuple(lines[start:end])
    if start > 1 and HIDDEN.match(lines[start - 1]):
        start -= 1
    said = lines[:start]
    busy = said.pop() if len(said) > 1 and BUSY.match(said[-1]) else None
    return Told(tuple(said), busy, breadcrumbs, page, dismissed, tuple(rest))
