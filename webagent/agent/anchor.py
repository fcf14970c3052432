"""What the person asked for, against the cart about to be ordered: the anchor of automatic approval.

Automatic approval (``--approve auto``) trusts the person's own words, never the model's: an LLM that
obeys a review saying "add 5 extra pizzas" has put them in the cart, and nothing it says about them is
evidence. So before an order is approved automatically, the cart the checkout page holds is compared
with the goal — read with the goal reader (webagent/planner/goal.py), the same reading the offline
planner orders from — and with the person's answers to ``ask_human``:

- a cart line whose dish the person never named, or more of a dish than they asked for, is *beyond the
  goal*: the approval gate asks the person instead (webagent/agent/approval.py);
- a goal that names no dish ("something vegetarian under $20") anchors nothing but its budget;
- a name, address or phone on the checkout form that none of the person's words hold (the goal, the
  profile, a structured order, their answers) was invented: "John Doe, 123 Elm St" is no one's address,
  and an order sent there is not approved automatically; nor one whose delivery time or payment method
  is not the one the person stated ("pay cash", the form says "Card on delivery").

Only the person's words and the page count: the goal (``RunConfig.goal`` or a structured order), the
person's messages in a conversation, their answers, what their own trusted clicks added (never the
breadcrumbs a narration shows: a page can dispatch those); the restaurant names and menus the page showed,
typed, as the tools recorded them beside their narrations (to know which words are dishes; never read back
from a sentence); the cart lines the checkout page shows. Pure: no browser code.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import phonenumbers

from webagent.agent.stated import InCart, stated_by, wanted, wanted_choices
from webagent.agent.stated import stated as person_stated
from webagent.config import Profile
from webagent.narration.lines import counted, read_line_name, split_line_name
from webagent.narration.money import amount_cents, money
from webagent.narration.names import normalize, resolve
from webagent.narration.narrate import quote
from webagent.narration.state import CartLine, CheckoutForm
from webagent.planner import read_goal
from webagent.planner.checkout import details_from
from webagent.planner.dishes import each_in
from webagent.planner.doubts import amendments, unplaced
from webagent.planner.menu import Dish, Menu, Option
from webagent.planner.questions import each_asked, is_yes, portions_asked, portions_in
from webagent.planner.reading import PROPOSE, Agreement, settled, unborne
from webagent.planner.spec import GoalReading
from webagent.planner.transcript import Transcript

__all__ = [
    "GoalCheck",
    "Understand",
    "asked_on_menu",
    "check_cart",
    "in_cart",
    "requests_and_menu",
    "stated_details",
    "wanted_items",
]

Understand = Callable[[str, GoalReading, Menu], Agreement]
"""The run's reading of a request against a menu, the rules' and a model's together
(webagent/agent/understand.py); without one, the rules' reading alone."""

RESUME_NOTE = "The run was interrupted"
"""A user message the run writes itself on resume (webagent/runs/recovery.py): not the person's words."""


@dataclass(frozen=True)
class GoalCheck:
    """The cart against the person's words."""

    names_dishes: bool
    """The goal (or an answer) names at least one dish; otherwise only a budget can anchor approval."""
    beyond: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    """Each dish a run's goal (or order file) asks for that the cart lacks, when the person was asked
    nothing: ``1 × "Tiramisu" asked for, the cart has none``. An order that leaves out part of what was
    asked is not what the person asked for either."""
    """Each cart line the person did not ask for, in words: ``5 × "Meat Lovers Pizza (Regular)", not asked for``."""
    budget_cents: int | None = None
    """The lowest budget the person's own words state ("under $25"), if any."""
    invented: tuple[str, ...] = ()
    """Each delivery detail on the form the person never gave: ``the name "John Doe"``, ``the payment method …``."""
    guessed: tuple[str, ...] = ()
    """Each choice a dish requires that the cart holds and the person never made — not in their words as
    read, an answer or their order file: ``the Spice level "Hot" of "Butter Chicken (Hot)"``. The planner
    asks for such a choice; a model that picks one has guessed, and a guess is not approved for them."""
    unplaced: tuple[str, ...] = ()
    """Words of the person's request the goal reader could not place ("make that three", "if the lasagna is
    sold out…") or with which it amends itself ("…but not the california roll after all"), that no answered
    question quoted: a cart that matches the rest is a guess at the order."""
    unseen: bool = False
    """No menu the page showed, on record beside the narrations, holds the cart's dishes (a conversation
    kept by an older webagent, which recorded none): which words are dishes cannot be known, so nothing is
    approved without the person."""

    def concern(self, total_cents: int | None, budget_cents: int | None = None) -> str | None:
        """Why this order should not be approved without asking the person — or None.

        ``budget_cents`` is the run's own budget (``--budget``), which also anchors a goal naming no dish.
        """
        if self.budget_cents is not None and (total_cents is None or total_cents > self.budget_cents):
            return f"the total {money(total_cents)} is over the budget the goal states, {money(self.budget_cents)}"
        if self.unseen:
            return "no menu the page showed is on record for the cart's dishes, so the cart cannot be checked against the person's words"
        if self.names_dishes and self.beyond:
            return "the cart holds what the goal does not ask for: " + "; ".join(self.beyond)
        if self.missing:
            return "the cart lacks what the goal asks for: " + "; ".join(self.missing)
        if self.invented:
            return "the person never gave " + " nor ".join(self.invented)
        if self.guessed:
            return "the person never chose " + " nor ".join(self.guessed)
        if self.unplaced:
            words = ", ".join(quote(w, 80) for w in self.unplaced[:3])
            return (
                f"the reader is unsure of the goal's words ({words}), so the cart may not be what was meant"
            )
        if not self.names_dishes and self.budget_cents is None and budget_cents is None:
            return "the goal names no dish and states no budget, so nothing anchors an automatic approval"
        return None


@dataclass(frozen=True)
class _CartDish:
    line: str
    dish: str
    choices: tuple[str, ...]
    quantity: int


def check_cart(
    goal: str | None,
    order: dict[str, Any] | None,
    messages: list[dict[str, Any]],
    cart: Sequence[CartLine],
    form: CheckoutForm | None = None,
    profile: Profile | None = None,
    person_added: Sequence[CartLine] = (),
    understand: Understand | None = None,
) -> GoalCheck:
    """Compare the checkout's ``cart`` with the person's words: ``goal`` (or a structured ``order``), and in
    a conversation (no goal) the person's messages; plus their answers to questions, read from ``messages``,
    and what their own clicks added (``person_added``: `Checkpoint.person_added`, the cart's difference
    across their trusted presses, never the words of an event).
    With the checkout ``form``, its name, address and phone are looked for in those words and ``profile``.
    With ``understand``, a request the rules leave in doubt counts as the reading agreed on it (the rules'
    and a model's, or the person's answer): its lines, with a fallback in place of a dish the menu shows
    sold out, and no words left unplaced."""
    transcript = Transcript(messages)
    menus = transcript.menus_seen()
    dishes = [_cart_dish(line, menus) for line in cart]
    menu = _menu_for(dishes, menus)
    restaurants = transcript.restaurants_seen()
    allowed: Counter[str] = Counter()
    budgets: list[int] = []
    names_dishes = False
    readings: list[GoalReading] = []
    if order is not None:
        for item in order.get("items") or []:
            if isinstance(item, dict) and item.get("dish"):
                found = resolve(str(item["dish"]), menu.names).found or str(item["dish"])
                allowed[found] += int(item.get("quantity") or 1)
                names_dishes = True
        if isinstance(order.get("budget_cents"), int):
            budgets.append(order["budget_cents"])
    requests = [goal] if goal else [] if order is not None else _requests(transcript)
    for added in person_added:  # in a conversation, the person may click "Add" too
        allowed[_cart_dish(added, menus).dish] += added.quantity
    agreed: set[str] = set()  # requests whose doubts an agreed reading settled
    for words in requests:
        reading = read_goal(words, restaurants, menu)
        agreement = understand(words, reading, menu) if understand is not None and menu.restaurant else None
        if agreement is not None and agreement.verdict == "agreed":
            reading = settled(reading, agreement, menu)
            agreed.add(words)
        readings.append(reading)
        for item in reading.items:
            allowed[item.dish] += item.quantity
        names_dishes = names_dishes or bool(reading.items) or any(u.candidates for u in reading.unclear)
        budget = reading.details.get("budget_cents")
        if budget is not None and isinstance(budget.value, int):
            budgets.append(budget.value)
    in_cart = {dish.dish for dish in dishes}
    # A dish named in an answer may stand in for one the cart could not hold (sold out, not on the
    # menu): it may come in the quantity the goal asked for that one.
    replaced = max(
        [item.quantity for r in readings for item in r.items if item.dish not in in_cart]
        + [u.quantity for r in readings for u in r.unclear],
        default=1,
    )
    for answer in _answers(transcript):
        for item in read_goal(answer, restaurants, menu).items:
            names_dishes = True
            quantity = item.quantity if item.dish in allowed else max(item.quantity, replaced)
            allowed[item.dish] = max(allowed[item.dish], quantity)
    # "4 samosas": how many portions? — an answer counts only to the planner's very question about the goal's
    # own words (rebuilt here), never to one a model wrote in that shape.
    pieces = {q[0]: q[1:] for r in readings for u in r.unclear if (q := portions_asked(u)) is not None}
    for asked_portions in transcript.asked_after(-1):
        dish_offered = pieces.get(asked_portions.question)
        count = portions_in(asked_portions.answer or "", dish_offered[1]) if dish_offered else None
        if dish_offered is not None and count is not None:
            names_dishes = True
            allowed[dish_offered[0]] = max(allowed[dish_offered[0]], count)
    # "3 pad thai, 1 mild 1 hot": how many of which? — the same, and line by line (below, `asked`).
    each = {asks: u for r in readings for u in r.unclear if (asks := each_asked(u)) is not None}
    split_lines = [
        line for a in transcript.asked_after(-1) if a.question in each
        for line in each_in(a.answer or "", each[a.question], menu) or []
    ]  # fmt: skip
    for line in split_lines:
        names_dishes = True
        allowed[line.dish] = max(
            allowed[line.dish], sum(s.quantity for s in split_lines if s.dish == line.dish)
        )
    held: Counter[str] = Counter()
    for dish in dishes:
        held[dish.dish] += dish.quantity
    beyond = []
    for name, quantity in held.items():
        lines = ", ".join(quote(d.line, 80) for d in dishes if d.dish == name)
        if name not in allowed:
            beyond.append(f"{counted(quantity, lines)}, not asked for")
        elif quantity > allowed[name]:
            beyond.append(f"{counted(quantity, lines)}, but the goal asks for {allowed[name]}")
    guessed = _guessed(dishes, menu, readings, order, _answers(transcript), person_added)
    said = [*requests, *_answers(transcript), *(str(v) for v in (order or {}).values() if isinstance(v, str))]
    said += [str(v) for v in (profile.model_dump().values() if profile else ()) if v]
    invented: tuple[str, ...] = ()
    if form is not None:
        # The time and payment the person's words state, else the order file's, else the profile's.
        stated = {key: v for key, v in person_stated(readings, order, profile).items() if key in STATED}
        # An answer that names the form's choice ("18:00-18:30", asked when noon was not offered) stands.
        answered = " ".join(normalize(answer) for answer in _answers(transcript))
        for key in list(stated):
            if (shown := normalize(str(getattr(form, key)))) and f" {shown} " in f" {answered} ":
                del stated[key]
        given = stated_details(goal, order, messages, profile)
        invented = (
            _invented(form, given, profile, order, [*requests, *_answers(transcript)])
            + _changed(form, stated)
            + _extras(form, readings, order, _answers(transcript))
        )
    # What a run's goal asks for and the cart lacks (not in a conversation, where each message is its
    # own request; not once the person answered a question, which may have changed the order).
    missing = []
    # (An answer to the proposal of a reading does not change the order: it settles which reading it is.)
    settles = (PROPOSE, *(each if split_lines else ()))  # an answer to how many of which changes nothing
    changing = [a for a in transcript.asked_after(-1) if a.answer and not a.question.startswith(settles)]
    if (goal or order is not None) and not changing:
        # Each line asked for, with the choices the person named for it ("regular, extra cheese"): one dish
        # may be asked for in several lines ("one large and one regular").
        asked: Counter[tuple[str, tuple[str, ...]]] = Counter()
        for reading in readings:
            for item in reading.items:
                asked[(item.dish, tuple(item.options))] += item.quantity
        for line in split_lines:  # "2 mild, 1 hot", the answer to how many of which
            asked[(line.dish, tuple(line.options))] += line.quantity
        for item in (order or {}).get("items") or []:
            if isinstance(item, dict) and item.get("dish"):
                ordered = resolve(str(item["dish"]), menu.names).found or str(item["dish"])
                asked[(ordered, tuple(_order_choices(item.get("options"))))] += int(item.get("quantity") or 1)
        for (name, named_choices), quantity in asked.items():
            named = {normalize(choice) for choice in named_choices}
            has = sum(
                d.quantity for d in dishes if d.dish == name and named <= {normalize(c) for c in d.choices}
            )
            if has < quantity:
                what = quote(name, 80) + (f" ({', '.join(named_choices)})" if named else "")
                if held[name] > has:  # there, but not as the person asked for it
                    lines = ", ".join(quote(d.line, 80) for d in dishes if d.dish == name)
                    missing.append(f"{counted(quantity, what)} asked for, the cart has {lines}")
                else:
                    cart_has = f"the cart has {held[name]}" if held[name] else "the cart has none"
                    missing.append(f"{counted(quantity, what)} asked for, {cart_has}")
    on_record = {dish for m in menus for dish in m.names}
    return GoalCheck(
        names_dishes,
        tuple(beyond),
        unseen=bool(dishes) and not any(dish.dish in on_record for dish in dishes),
        budget_cents=min(budgets) if budgets else None,
        invented=invented,
        guessed=guessed,
        missing=tuple(missing),
        unplaced=(
            _unplaced(readings, transcript, [w if w not in agreed else "" for w in requests], menu)
            + _amendments([words for words in requests if words not in agreed], menu, transcript)
        )
        if order is None
        else (),
    )


def _amendments(requests: Sequence[str], menu: Menu, transcript: Transcript) -> tuple[str, ...]:
    """The amending words of each request (`AMENDS`, or "not the"/"no" before a dish on ``menu``), less those
    a question quoted and the person answered."""
    asked = " ".join(normalize(a.question) for a in transcript.asked_after(-1) if a.answer)
    found = [w for words in requests for w in amendments(words, menu)]
    return tuple(w for w in dict.fromkeys(found) if normalize(w) not in asked)


def _unplaced(
    readings: Sequence[GoalReading], transcript: Transcript, said: Sequence[str], menu: Menu
) -> tuple[str, ...]:
    """`unplaced` (webagent/planner/doubts.py) of the readings, of the requests ``said`` no reading settled,
    else why one is `unborne`; less those a question quoted and the person answered."""
    asked = " ".join(normalize(a.question) for a in transcript.asked_after(-1) if a.answer)
    found = [w for r, request in zip(readings, said, strict=False) for w in unplaced(r, request)]
    if not asked:  # an answer may settle what the rules could not ("a chocolate souffle?": a lasagna)
        found = found or [w for r, q in zip(readings, said, strict=False) if (w := unborne(q, r, menu))]
    return tuple(dict.fromkeys(w for w in found if normalize(w) not in asked))


STATED = {"delivery_slot": "delivery time", "payment_method": "payment method"}
DETAILS_ASKED = re.compile(r"\b(name|address|phone|contact|details|who|where)\b", re.I)
"""A question that asks for delivery details: its answer is read for them, as the planner reads one."""
NAME_ASKED = re.compile(r"\b(name|who|details|contact)\b", re.I)
DETAIL_KEYS = ("name", "address", "phone", "payment_method")


def stated_details(
    goal: str | None, order: dict[str, Any] | None, messages: list[dict[str, Any]], profile: Profile | None
) -> dict[str, str]:
    """The delivery details the person stated (webagent/agent/stated.py): the goal's, or in a conversation
    their messages', then the order file's and the profile's."""
    transcript = Transcript(messages)
    requests = [goal] if goal else [] if order is not None else _requests(transcript)
    found = stated_by(requests, order, profile, transcript.restaurants_seen())
    for asked in transcript.asked_after(-1):  # "Ada Lee, 12 Oak St, 555-0101", asked for delivery details
        if asked.answer and DETAILS_ASKED.search(asked.question) and not is_yes(asked.answer):
            read = details_from(asked.answer, found)
            if not NAME_ASKED.search(asked.question):
                read.pop("name", None)  # a leftover word is a name only where a name was asked for
            found.update({k: v for k, v in read.items() if k in DETAIL_KEYS})
    return found


def wanted_items(
    goal: str | None, order: dict[str, Any] | None, messages: list[dict[str, Any]]
) -> dict[str, int]:
    """The dishes (and how many) the person asked for on the menu the run last saw (webagent/agent/stated.py)."""
    return {dish: quantity for dish, (quantity, _) in asked_on_menu(goal, order, messages).items()}


def requests_and_menu(
    goal: str | None, order: dict[str, Any] | None, messages: list[dict[str, Any]]
) -> tuple[list[str], list[str], Menu | None]:
    """The person's requests in words (the goal, or a conversation's messages; none for an order file), the
    restaurants the run has seen, and the menu it saw last: what `Understanding.prepare` reads."""
    transcript = Transcript(messages)
    menus = transcript.menus_seen()
    requests = [] if order is not None else [goal] if goal else _requests(transcript)
    return requests, transcript.restaurants_seen(), menus[0] if menus else None


def asked_on_menu(
    goal: str | None,
    order: dict[str, Any] | None,
    messages: list[dict[str, Any]],
    understand: Understand | None = None,
) -> dict[str, tuple[int, list[str]]]:
    """The dishes the person asked for on the menu the run last saw, each with how many and the choices
    they named (``{"Margherita Pizza": (1, ["Regular", "Extra cheese"])}``); none once they answered a
    question (the order may have changed, as `check_cart` counts it), none sold out. With ``understand``,
    a request the rules leave in doubt counts as the reading agreed on it."""
    transcript = Transcript(messages)
    menus = transcript.menus_seen()
    if not menus or _answers(transcript):
        return {}
    sold_out = {dish.name for dish in menus[0].dishes if dish.sold_out}
    if order is not None:
        found: dict[str, tuple[int, list[str]]] = {}
        for item in order.get("items") or []:
            if not isinstance(item, dict) or not item.get("dish"):
                continue
            if dish := resolve(str(item["dish"]), menus[0].names).found:
                n, named = found.get(dish, (0, []))
                found[dish] = (
                    n + int(item.get("quantity") or 1),
                    named + _order_choices(item.get("options")),
                )
    else:
        requests = [goal] if goal else _requests(transcript)
        readings = []
        for words in requests:
            reading = read_goal(words, transcript.restaurants_seen(), menus[0])
            agreement = understand(words, reading, menus[0]) if understand is not None else None
            readings.append(settled(reading, agreement, menus[0]))
        named_by = wanted_choices(readings)
        found = {dish: (n, named_by.get(dish, [])) for dish, n in wanted(readings).items()}
    return {dish: asked for dish, asked in found.items() if dish not in sold_out}


def in_cart(cart: Sequence[CartLine], messages: list[dict[str, Any]]) -> list[InCart]:
    """The cart's lines as their dishes, by the menus the run has seen (webagent/agent/stated.py)."""
    menus = Transcript(messages).menus_seen()
    return [InCart(d.line, d.dish, d.quantity) for d in (_cart_dish(line, menus) for line in cart)]


def _changed(form: CheckoutForm, stated: dict[str, str]) -> tuple[str, ...]:
    """The form's delivery time and payment method where they differ from what the person stated."""
    found = []
    for key, label in STATED.items():
        shown = str(getattr(form, key))
        if key in stated and shown and normalize(shown) != normalize(stated[key]):
            found.append(f"the {label} {quote(shown, 40)} (they asked for {quote(stated[key], 40)})")
    return tuple(found)


def _invented(
    form: CheckoutForm,
    given: dict[str, str],
    profile: Profile | None,
    order: dict[str, Any] | None,
    answers: Sequence[str],
) -> tuple[str, ...]:
    """The form's name, address and phone that do not equal, normalized, what the person gave: the
    details read from their words (``given``), their profile, their order file, or a whole part of an
    answer ("Ada Lee, 12 Oak St"). A phone by its digits (a leading country code aside)."""
    found = []
    for label in ("name", "address", "phone"):
        value = str(getattr(form, label))
        if not normalize(value):
            continue  # an empty field: the page says it is missing
        offered = [
            given.get(label, ""),
            str(getattr(profile, label, "") or ""),
            str((order or {}).get(label) or ""),
        ]
        offered += [
            _CLAUSE_LEAD.sub("", part)
            for answer in answers
            for part in (answer, *re.split(r"[,;\n]", answer))
        ]
        if not any(_equal(label, value, candidate) for candidate in offered if candidate.strip()):
            found.append(f"the {label} {quote(value, 60)}")
    return tuple(found)


_CLAUSE_LEAD = re.compile(
    r"^\s*(?:(?:please\s+)?(?:deliver(?:y)?|send\s+it|bring\s+it)\s+to|(?:my\s+)?(?:name|address|phone(?:\s+number)?)"
    r"(?:\s+is)?|call(?:\s+me\s+at)?|ring|at|for|to)\b\s*:?\s*",
    re.I,
)
"""The words that lead a detail in a clause ("deliver to Ada Lee", "phone 555-0101"), left out before
comparing the rest of the clause with the form's field."""


def _equal(label: str, shown: str, given: str) -> bool:
    if label == "phone":
        return _same_phone(shown, given)
    return normalize(shown) == normalize(given)


def _same_phone(shown: str, given: str) -> bool:
    """Whether two phones are one number: the same digits, or the same national number once the one with a
    country code ("+1 555 010 1234", "0044 20 7946 0958") is read with it and the other in that country
    ("555-010-1234", "020 7946 0958"). Not "010-1234" (its area code dropped) nor "999-555-010-1234"."""
    one, other = re.sub(r"\D", "", shown), re.sub(r"\D", "", given)
    if not one or not other:
        return False
    if one == other:
        return True
    for international, local in ((shown, given), (given, shown)):
        number = _with_country_code(international)
        if number is None or number.country_code is None:
            continue
        region = phonenumbers.region_code_for_country_code(number.country_code)
        try:
            read = phonenumbers.parse(local, region)
        except phonenumbers.NumberParseException:
            continue
        if (read.country_code, phonenumbers.national_significant_number(read)) == (
            number.country_code,
            phonenumbers.national_significant_number(number),
        ):
            return True
    return False


def _with_country_code(text: str) -> phonenumbers.PhoneNumber | None:
    """``text`` read as a number written with its country code — after a "+" or "00" ("+44 …", "0044 …"),
    or North America's "1" before ten digits ("1-555-010-1234") — or None. Bare digits are not read for
    one: "212-555-0123" is an area code and a number, not Morocco's +212."""
    digits = re.sub(r"\D", "", text)
    if text.strip().startswith("+"):
        candidate = text
    elif digits.startswith("00"):
        candidate = "+" + digits[2:]
    elif len(digits) == 11 and digits.startswith("1"):
        candidate = "+" + digits
    else:
        return None
    try:
        return phonenumbers.parse(candidate, None)
    except phonenumbers.NumberParseException:
        return None


def _extras(
    form: CheckoutForm, readings: Sequence[GoalReading], order: dict[str, Any] | None, answers: Sequence[str]
) -> tuple[str, ...]:
    """A tip or a promo code on the form that the person did not state (as they stated it, else none)."""
    found = []
    tip = 0 if not form.tip or normalize(form.tip) in ("no tip", "none", "0") else amount_cents(form.tip)
    tips = [r.details["tip_cents"].value for r in readings if "tip_cents" in r.details]
    if order is not None and isinstance(order.get("tip_cents"), int):
        tips.append(order["tip_cents"])
    answered = " ".join(answers)
    if tip and tip not in tips and money(tip) not in answered:
        asked = (
            f" (they asked for {money(int(tips[-1]))})"
            if tips and isinstance(tips[-1], int) and tips[-1]
            else ""
        )
        found.append(f"a tip of {money(tip)}{asked or ' they never asked for'}")
    code = normalize(form.promo_code)
    if code:
        codes = [str(r.details["promo_code"].value) for r in readings if "promo_code" in r.details]
        codes += [str(order["promo_code"])] if order is not None and order.get("promo_code") else []
        if code not in {normalize(c) for c in codes} and code not in normalize(answered).split():
            found.append(f"the promo code {quote(form.promo_code, 40)}")
    return tuple(found)


def _order_choices(options: object) -> list[str]:
    """An order file item's options as choices: ``{"Size": "Large"}``, ``["Size: Large", "Bacon"]``."""
    values = (
        list(options.values()) if isinstance(options, dict) else options if isinstance(options, list) else []
    )
    found = []
    for value in values:
        for choice in value if isinstance(value, list) else [value]:
            found.append(str(choice).rsplit(":", 1)[-1].strip())
    return [choice for choice in found if choice]


def _guessed(
    dishes: Sequence[_CartDish],
    menu: Menu,
    readings: Sequence[GoalReading],
    order: dict[str, Any] | None,
    answers: Sequence[str],
    person_added: Sequence[CartLine],
) -> tuple[str, ...]:
    """Each choice a dish requires that the cart holds and the person never made (`GoalCheck.guessed`)."""
    chosen = {normalize(o) for reading in readings for item in reading.items for o in item.options}
    for item in (order or {}).get("items") or []:
        if isinstance(item, dict):
            chosen |= {normalize(o) for o in _order_choices(item.get("options"))}
    answered = " " + " ".join(normalize(answer) for answer in answers) + " "
    theirs = {line.name for line in person_added}  # what the person's own clicks put in the cart
    guessed = []
    for line in dishes:
        dish = menu.dish(line.dish)
        for option in dish.options if dish is not None and line.line not in theirs else ():
            for choice in (c for c in line.choices if option.required and c in option.choices):
                if normalize(choice) not in chosen and f" {normalize(choice)} " not in answered:
                    guessed.append(f'the {option.name} "{choice}" of {quote(line.line, 80)}')
    return tuple(dict.fromkeys(guessed))


def _cart_dish(line: CartLine, menus: list[Menu]) -> _CartDish:
    """A cart line ("Margherita Pizza (Large, Bacon)") as its dish and choices, by the menus seen."""
    found = next((f for menu in menus if (f := split_line_name(line.name, menu.names))), None)
    name = found or read_line_name(line.name)  # no menu seen says: by the shop's shape alone
    return _CartDish(line.name, name.dish, name.choices, line.quantity)


def _menu_for(dishes: list[_CartDish], menus: list[Menu]) -> Menu:
    """The menu the cart's dishes come from, holding every one of them (added when a menu lacks one)."""
    names = {dish.dish for dish in dishes}
    menu = next((m for m in menus if names & set(m.names)), None) or Menu("")
    extra = [
        Dish(dish.dish, 0, options=(Option("Choices", False, dish.choices),) if dish.choices else ())
        for dish in dishes
        if dish.dish not in menu.names
    ]
    return Menu(menu.restaurant, (*menu.dishes, *extra), menu.minimum_cents)


def _requests(transcript: Transcript) -> list[str]:
    """The person's messages in a conversation (without the notes the run adds to them)."""
    found = []
    for message in transcript.people:
        if message.words.startswith(RESUME_NOTE):
            continue
        words, _, _ = transcript.goal_of(message.words)
        found.append(words)
    return found


def _answers(transcript: Transcript) -> list[str]:
    """The person's answers to the agent's questions, in order."""
    return [asked.answer for asked in transcript.asked_after(-1) if asked.answer]
