"""The goal reader: spot in a goal the names the pages show, and read everything else as details.

Reading a goal, in order:

1. Delivery details with an unmistakable shape — phone, promo code, tip, budget, time — are read and
   their words claimed (details.py).
2. Restaurant names from the restaurant list are spotted: anywhere when written in full (forgiving
   case, accents, plurals, typos and word order), a part of one only after "from"/"at" or, two words or
   more, as the goal's heading ("sweet tooth: …").
3. Address, name and payment are read; a town after an address must not be a restaurant's name.
4. With a menu: dish names and their option choices are spotted the same way; a dish's name may hold
   an "and" ("Mac and Cheese"), which then separates nothing.
5. What is left is cut into parts at commas, semicolons, colons, new lines, bullets and joining words
   ("and", "plus", "with"…); each part is one dish with its quantity and choices. A part with only a
   choice or a quantity belongs to the dish beside it ("a burrito, hot"; "garlic naan - 2").
6. Words in a part that are neither filler nor anything the page shows are *unclear*: the planner asks
   about them, quoting them. Nothing is dropped silently and nothing is guessed. Words after a
   negation ("not the Express one", "no fries") are read as asides and order nothing.

Without a menu (no restaurant opened yet) step 4 is skipped and the dish parts are returned as
``phrases``, the words to search the shop for.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Sequence

from rapidfuzz import fuzz, process

from webagent.planner import words as wording
from webagent.planner.asides import set_aside
from webagent.planner.details import AFTER_NAMES, BEFORE_NAMES, NAMED, ClaimedText, Reader
from webagent.planner.menu import Dish, Menu
from webagent.planner.spec import GoalReading, ItemReading, Spotted, Unclear, Words
from webagent.planner.splits import split_item
from webagent.planner.spots import Mention, Part, Partial
from webagent.planner.words import (
    FILLER,
    JOINERS,
    NEGATIONS,
    NUMBER_WORDS,
    PHRASE_NUMBERS,
    Token,
    closeness,
    keys,
    qualified,
    tokenize,
    word_keys,
)
from webagent.planner.words import beyond_the_menu as beyond

__all__ = ["FILLER", "read_goal"]


CURRENCY = {"$", "€", "£", "¥", "₹"}
"""A number right after one of these is an amount of money ("I only have $20"), never a dish's count."""
HARD = {",", ";", ":", "\n", ".", "!", "?", ")", "(", "|", "•", "*", "—", "–", "/", "+", "=", "[", "]"}
SOFT = {"-", "'", "’", "&", "(", ")"}
"""Inside a name these separate nothing: "medium-rare", "tuna roll (spicy)"."""
OPTIONAL_NAME_WORDS = word_keys("and", "al", "au", "con", "with", "of", "the", "de", "la", "le", "n")
# Choice words people use for a size or a spice level that are not a dish's own words; a phrase with
# only these is searched without them ("a large hawaiian pizza" → "hawaiian pizza").
COMMON_CHOICE_WORDS = word_keys("large", "small", "regular", "medium", "hot", "mild", "big")


HEADING = {":", "—", "–", "-"}
"""Marks that end a goal's opening words as its heading ("sweet tooth: a cookie box")."""


def read_goal(text: str, restaurants: Sequence[str] = (), menu: Menu | None = None) -> GoalReading:
    """Read ``text`` against the restaurant names and (when one is open) its menu.

    A pure function of the three, and the planner asks it again on every turn (~10 ms a reading): each
    reading is kept (a few dozen), and every caller gets its own copy to change.
    """
    return copy.deepcopy(_read(text, tuple(restaurants), menu))


@functools.lru_cache(maxsize=64)
def _read(text: str, restaurants: tuple[str, ...], menu: Menu | None) -> GoalReading:
    return _Reader(text, list(restaurants), menu).read()


class _Reader:
    def __init__(self, text: str, restaurants: list[str], menu: Menu | None) -> None:
        self.text = text
        self.claimed = ClaimedText(text)
        self.tokens = qualified(tokenize(text))
        self.restaurants = restaurants
        self.menu = menu
        self.reading = GoalReading(text=text)
        self.negated: set[int] = set()
        self.mentioned: dict[int, Mention] = {}
        self.quantity_written: dict[int, bool] = {}  # by id() of an ItemReading
        self.chosen: dict[int, list[tuple[str, int, int]]] = {}  # its choices and their tokens, by id()
        self.counts: set[int] = set()  # numbers that count a choice ("2 mild 1 hot"), for a split to take

    # -- the steps ----------------------------------------------------------------------------------

    def read(self) -> GoalReading:
        self._read_details(BEFORE_NAMES)
        self.negated = self._negated()
        self._spot_restaurant()
        self._read_details(AFTER_NAMES)
        if self.menu is None:
            parts = self._parts(split_on_joiners=False)
            self.reading.phrases = [words for part in parts if (words := self._phrase(part))]
        else:
            self._read_items(self.menu)
            set_aside(self.text, self.reading, self.menu)
        return self.reading

    def _read_details(self, readers: Sequence[tuple[str, Reader]]) -> None:
        for name, reader in readers:
            detail = reader(self.claimed)
            if detail is not None:
                self.reading.details[name] = detail

    def _free(self, index: int) -> bool:
        token = self.tokens[index]
        return self.claimed.is_free(token.start, token.end) and index not in self.mentioned

    def _negated(self) -> set[int]:
        """Tokens after a negation word, to the end of its clause: asides that order nothing."""
        negated: set[int] = set()
        inside = False
        for i, token in enumerate(self.tokens):
            if token.text in HARD:
                inside = False
            elif token.key in NEGATIONS and self._free(i):
                inside = True
                negated.add(i)
            elif inside:
                negated.add(i)
        return negated

    def _spot_restaurant(self) -> None:
        found = self._spot(self.restaurants, "restaurant", partial=self._partial_restaurant)
        for mention in found:
            start, end = self.tokens[mention.first].start, self.tokens[mention.last].end
            self.claimed.claim(start, end, NAMED)
            negated = mention.first in self.negated
            if not negated and self.reading.restaurant is None and mention.clear:
                self.reading.restaurant = Spotted(mention.names[0], self.claimed.words(start, end))
            elif not negated and mention.clear and mention.names[0] != self.reading.restaurant.name:  # type: ignore[union-attr]
                self.reading.unclear.append(Unclear(self.claimed.words(start, end)))  # a second shop: asked

    def _partial_restaurant(self, first: int, last: int) -> bool:
        """Part of a restaurant's name counts after "from"/"at", or as the goal's heading: its first two words
        or more, then a colon or a dash ("sweet tooth: a cookie box" — Sweet Tooth Desserts; "pizza: …" names
        a kind of food, not Pizza Planet)."""
        words = [t.key for t in self.tokens[:first] if t.is_word][-2:]
        if words:
            return words[-1] in {"from", "at"} or words == ["from", "the"]
        after = self.tokens[last + 1] if last + 1 < len(self.tokens) else None
        written = sum(1 for t in self.tokens[first : last + 1] if t.is_word)
        return written >= 2 and after is not None and after.text in HEADING

    # -- spotting names -----------------------------------------------------------------------------

    def _spot(self, names: Sequence[str], kind: str, partial: Partial = False) -> list[Mention]:
        """Every name of ``names`` in the free tokens, the longest and closest first, not overlapping."""
        candidates: list[Mention] = []
        for name in dict.fromkeys(names):
            candidates += self._windows(name, kind, partial)
        merged: dict[tuple[int, int, bool], Mention] = {}
        for mention in candidates:
            spot = (mention.first, mention.last, mention.full)
            known = merged.get(spot)
            if known is None or mention.cost < known.cost:
                merged[spot] = mention
            elif mention.cost == known.cost and mention.names[0] not in known.names:
                known.names.append(mention.names[0])
        chosen: list[Mention] = []
        taken: set[int] = set()
        for mention in sorted(merged.values(), key=lambda m: (-m.size, not m.full, m.cost, m.first)):
            span = set(range(mention.first, mention.last + 1))
            if span & taken:
                continue
            taken |= span
            chosen.append(mention)
            for i in span:
                self.mentioned[i] = mention
        return sorted(chosen, key=lambda m: m.first)

    def _windows(self, name: str, kind: str, partial: Partial) -> list[Mention]:
        core_text, _, extra_text = name.partition(" (")
        words = keys(core_text)
        required = [i for i, word in enumerate(words) if word not in OPTIONAL_NAME_WORDS]
        found: list[Mention] = []
        for first, token in enumerate(self.tokens):
            if not (token.is_word or token.text == "&") or not self._free(first):
                continue
            window: list[int] = []
            for i in range(first, len(self.tokens)):
                current = self.tokens[i]
                if current.text in SOFT and current.text != "&":
                    if current.text == ")":
                        break
                    continue
                if (
                    current.text in HARD
                    or not self._free(i)
                    or (i in self.negated and first not in self.negated)
                ):
                    break
                window.append(i)
                if len(window) > len(words):
                    break
                match = self._match([self.tokens[j].key for j in window], words, required)
                if match is None:
                    continue
                full, cost = match
                allowed = partial if isinstance(partial, bool) else partial(first, window[-1])
                if not full and not allowed:
                    continue
                if not full and all(self._is_quantity_word(j) for j in window):
                    continue  # "four penne": a number that begins another name ("Four Cheese Pizza") counts
                last = self._extend_over(window[-1], extra_text) if full else window[-1]
                found.append(Mention(kind, [name], first, last, full, cost, len(window)))
        return found

    def _match(self, written: list[str], words: list[str], required: list[int]) -> tuple[bool, float] | None:
        """(all required words found?, typo cost) when every written word is a word of the name."""
        used: set[int] = set()
        cost = 0.0
        for word in written:
            best: tuple[float, int] | None = None
            for i, shown in enumerate(words):
                if i in used:
                    continue
                fuzzy_ok = word not in FILLER and shown not in OPTIONAL_NAME_WORDS and not word.isdigit()
                distance = 0.0 if word == shown else (closeness(word, shown) if fuzzy_ok else None)
                if distance is not None and (best is None or distance < best[0]):
                    best = (distance, i)
            if best is None:
                return None
            cost += best[0]
            used.add(best[1])
        hits = [i for i in required if i in used]
        if not hits or all(words[i] in FILLER for i in hits):
            return None
        return len(hits) == len(required), cost

    def _extend_over(self, last: int, extra_text: str) -> int:
        """Take "(6)" after "Pork Dumplings" when the goal writes it too."""
        if not extra_text:
            return last
        wanted = keys(extra_text.rstrip(")"))
        i = last + 1
        if i < len(self.tokens) and self.tokens[i].text == "(":
            got = [t.key for t in self.tokens[i + 1 : i + 1 + len(wanted)]]
            close = i + 1 + len(wanted)
            if got == wanted and close < len(self.tokens) and self.tokens[close].text == ")":
                return close
        return last

    # -- parts ----------------------------------------------------------------------------------------

    def _parts(self, split_on_joiners: bool) -> list[Part]:
        """Cut the goal at separators; a dish name's own "and" and a negation's clause stay whole."""
        parts: list[Part] = [Part()]
        line_start = True
        for i, token in enumerate(self.tokens):
            if token.text == "\n":
                parts.append(Part())
                line_start = True
                continue
            bullet = line_start and (
                token.text in {"-", "*", "•"} or (token.is_number and self._next_text(i) in {".", ")"})
            )
            line_start = False
            if bullet:
                parts.append(Part())
                continue
            if i in self.mentioned:
                parts[-1].tokens.append(i)
                continue
            is_dash = token.text in {"-", "—", "–"} and self._spaced(token)
            joiner = split_on_joiners and token.key in JOINERS and self._free(i)
            if token.text in HARD or is_dash or joiner:
                parts.append(Part(aside=token.text == "(" or (parts[-1].aside and token.text != ")")))
                continue
            parts[-1].tokens.append(i)
        return [part for part in parts if part.tokens]

    def _next_text(self, i: int) -> str:
        return self.tokens[i + 1].text if i + 1 < len(self.tokens) else ""

    def _spaced(self, token: Token) -> bool:
        before = self.text[token.start - 1 : token.start]
        after = self.text[token.end : token.end + 1]
        return before in (" ", "\n", "") or after in (" ", "\n", "")

    def _phrase(self, part: Part) -> Words | None:
        """The words of a part that may name a dish (for a search, before any menu is known)."""
        if part.aside:
            return None  # "(large)", "(spicy)": choices, most likely, and no help in a search
        content = [
            i
            for i in part.tokens
            if self._free(i)
            and i not in self.negated
            and self.tokens[i].is_word
            and self.tokens[i].key not in FILLER
            and not self._is_quantity_word(i)
        ]
        if not content:
            return None
        return self.claimed.words(self.tokens[content[0]].start, self.tokens[content[-1]].end)

    def _is_quantity_word(self, i: int) -> bool:
        token = self.tokens[i]
        return (
            token.is_number
            or token.key in NUMBER_WORDS
            or token.key in {"dozen", "couple", "pair", "half"}
            or wording.multiplier(token.key) is not None
        )

    # -- dishes -------------------------------------------------------------------------------------

    def _read_items(self, menu: Menu) -> None:
        """Spot the menu's names, cut the goal into parts, and read each part as a dish or a detail of one."""
        self._spot(menu.names + [c for dish in menu.dishes for c in dish.choices], "name", partial=True)
        for mention in {id(m): m for m in self.mentioned.values()}.values():
            if mention.kind == "name":
                mention.kind = "dish" if mention.names[0] in menu.by_name else "choice"
        parts = self._parts(split_on_joiners=True)
        for part in parts:
            self._sort_part(part)
        last: ItemReading | Unclear | None = None  # what a lone choice or quantity belongs to
        pending: list[Mention] = []  # choices written before their dish ("spice level hot: 2 döner")
        for part in self._split_at_numbers(parts):
            if all(i in self.negated for i in part.tokens):
                continue
            if not part.dishes and len(part.choices) > 1:  # "2 mild 1 hot": a count each, for a split
                counts = {c.first - 1 for c in part.choices if self._is_quantity_word(c.first - 1)}
                self.counts |= counts & set(part.leftover)
                part.leftover = [i for i in part.leftover if i not in counts]
            if len(part.dishes) == 1 and part.dishes[0].clear and not part.leftover:
                last = self._item(part, menu, pending)
                pending = []
            elif part.dishes or part.leftover:
                last = self._unclear_dish(part, menu, last)
            elif part.choices:
                pending = self._lone_choices(part, menu, last, pending)
            elif part.quantity is not None:
                self._lone_quantity(part, last)
        for choice in pending:
            self._unclear([*range(choice.first, choice.last + 1)], [])
        for item in list(self.reading.items):  # "2 pizzas, one large and one regular": two lines
            self._split(item, menu)
        if self.counts:  # counts of choices no split took: "2 pad thai, 1 large 1 hot"
            self._unclear(sorted(self.counts), [])

    def _split(self, item: ItemReading, menu: Menu) -> None:
        dish, chosen = menu.dish(item.dish), self.chosen.get(id(item), [])
        written = self.quantity_written.get(id(item), False)
        done = split_item(item, dish, written, chosen, self.tokens, self.text) if dish else None
        if done is not None:
            lines, unclear, counts = done
            self.counts -= set(counts)
            at = self.reading.items.index(item)
            self.reading.items[at : at + 1] = lines
            self.reading.unclear += [unclear] if unclear else []

    def _item(self, part: Part, menu: Menu, pending: list[Mention]) -> ItemReading | Unclear:
        dish = menu.dish(part.dishes[0].names[0])
        assert dish is not None
        whole = self.text[self.tokens[part.tokens[0]].start : self.tokens[part.tokens[-1]].end]
        if part.quantity and (pieces := wording.pieces_or_portions(dish.name, part.quantity, whole)):
            found = Unclear(self._item_words(part), [dish.name], part.quantity, pieces=pieces)
            self.reading.unclear.append(found)  # "4 samosas" of Samosa (2): 2 portions or 4? asked
            return found
        item = ItemReading(dish.name, part.quantity or 1, [], self._item_words(part))
        self.reading.items.append(item)
        self.quantity_written[id(item)] = part.quantity is not None
        for choice in [*pending, *part.choices]:
            self._choose(item, dish, choice)
        return item

    def _unclear_dish(
        self, part: Part, menu: Menu, last: ItemReading | Unclear | None
    ) -> ItemReading | Unclear:
        lone_word = not part.dishes and part.quantity is None and len(part.leftover) <= 2
        dish = menu.dish(last.dish) if isinstance(last, ItemReading) else None
        if lone_word and dish and dish.choices and isinstance(last, ItemReading):
            # "a kung pao chicken, spicy": most likely meant as a choice of the dish before.
            words = self._words(part.leftover)
            self.reading.unclear.append(Unclear(words, list(dish.choices), last.quantity, [], dish=dish.name))
            return last
        return self._unclear_part(part, menu)

    def _lone_choices(
        self, part: Part, menu: Menu, last: ItemReading | Unclear | None, pending: list[Mention]
    ) -> list[Mention]:
        """Choices in a part of their own belong to the dish before them, if it offers them."""
        if isinstance(last, Unclear) and last.dish is None:
            last.options += [choice.names[0] for choice in part.choices]  # kept for the dish the person names
            return pending
        dish = menu.dish(last.dish) if isinstance(last, ItemReading) else None
        if (
            isinstance(last, ItemReading)
            and dish
            and (_unshown(dish) or all(set(c.names) & set(dish.choices) for c in part.choices))
        ):
            for choice in part.choices:
                self._choose(last, dish, choice)
            return pending
        return pending + part.choices

    def _lone_quantity(self, part: Part, last: ItemReading | Unclear | None) -> None:
        """ "garlic naan - 2", "lychee soda, quantity: 2": a number of its own is the dish before it's."""
        if isinstance(last, ItemReading) and not self.quantity_written.get(id(last)):
            last.quantity = part.quantity or 1
            self.quantity_written[id(last)] = True
        elif isinstance(last, Unclear) and last.quantity == 1:
            last.quantity = part.quantity or 1
        else:
            self._unclear(part.tokens, [])

    def _item_words(self, part: Part) -> Words:
        """The words an item was read from: its quantity, choices and name, without claimed details."""
        menu_words = {i for i, m in self.mentioned.items() if m.kind in ("dish", "choice")}
        kept = [
            i
            for i in part.tokens
            if i in menu_words
            or (self.tokens[i].is_word and self.claimed.is_free(self.tokens[i].start, self.tokens[i].end))
        ]
        while len(kept) > 1 and self.tokens[kept[-1]].key in FILLER and kept[-1] not in menu_words:
            kept.pop()
        while (
            len(kept) > 1
            and self.tokens[kept[0]].key in FILLER - {"a", "an"}
            and kept[0] not in self.mentioned
        ):
            kept.pop(0)
        return self._words(kept)

    def _sort_part(self, part: Part) -> None:
        """Sort a part's tokens into dish and choice mentions, its quantity and leftover words."""
        seen: set[int] = set()
        used = self._quantity(part)
        for i in part.tokens:
            mention = self.mentioned.get(i)
            if mention is not None:
                if mention.first in self.negated:
                    continue
                if id(mention) not in seen and mention.kind in ("dish", "choice"):
                    seen.add(id(mention))
                    (part.dishes if mention.kind == "dish" else part.choices).append(mention)
                continue
            token = self.tokens[i]
            if (
                i in used
                or i in self.negated
                or not self._free(i)
                or not token.is_word
                or token.key in FILLER
                or token.key in NEGATIONS
            ):
                continue
            part.leftover.append(i)

    def _split_at_numbers(self, parts: list[Part]) -> list[Part]:
        """A number after a dish starts the next dish: "2 margherita pizzas 1 tiramisu"."""
        result: list[Part] = []
        for part in parts:
            cut = next(
                (
                    i
                    for i in part.tokens
                    if self.tokens[i].is_number
                    and i not in self.mentioned
                    and part.dishes
                    and i > part.dishes[0].last
                    and self._free(i)
                    and not self._trailing_multiplier(i)
                ),
                None,
            )
            if cut is None or len(part.dishes) < 2:
                result.append(part)
                continue
            first = Part(tokens=[i for i in part.tokens if i < cut])
            second = Part(tokens=[i for i in part.tokens if i >= cut])
            for piece in (first, second):
                self._sort_part(piece)
            result += [first, second]
        return result

    def _trailing_multiplier(self, i: int) -> bool:
        before = self.tokens[i - 1].key if i > 0 else ""
        return before in {"x", "×"}

    def _quantity(self, part: Part) -> set[int]:
        """Read the part's quantity (digits, words, "x2", "2x", "a couple of", "a dozen"…); its tokens."""
        free = [i for i in part.tokens if i not in self.mentioned and self._free(i) and i not in self.negated]
        words = [self.tokens[i].key for i in free]
        for j in range(len(free)):
            for phrase, number in PHRASE_NUMBERS:
                if tuple(words[j : j + len(phrase)]) == phrase:
                    part.quantity = number
                    return set(free[j : j + len(phrase)])
        for j, i in enumerate(free):
            token = self.tokens[i]
            after_currency = i > 0 and self.tokens[i - 1].text in CURRENCY  # "$20" is money, never a count
            if token.is_number and int(token.text) <= 50 and not after_currency:
                taken = {i}
                if j + 1 < len(free) and words[j + 1] in {"x", "×"}:
                    taken.add(free[j + 1])
                if j > 0 and words[j - 1] in {"x", "×"}:
                    taken.add(free[j - 1])
                part.quantity = max(1, int(token.text))
                return taken
            multiplier = wording.multiplier(token.key)
            if multiplier is not None:
                part.quantity = multiplier
                return {i}
            if token.key in NUMBER_WORDS:
                part.quantity = NUMBER_WORDS[token.key]
                return {i}
        return set()

    def _choose(self, item: ItemReading, dish: Dish, choice: Mention) -> None:
        if _unshown(dish):  # kept as another dish shows it, to say which dish is sold out
            item.options.append(choice.names[0])
            return
        offered = [name for name in choice.names if name in dish.choices]
        span = beyond(self.text, self.tokens[choice.first].start, self.tokens[choice.last].end)
        if span is not None:  # "extra hot", "medium well": not the plain choice; asked about
            inside = [i for i, t in enumerate(self.tokens) if t.is_word and span[0] <= t.start < span[1]]
            self.reading.unclear.append(
                Unclear(self._words(inside), dish.choices, item.quantity, [], dish=dish.name)
            )
            return
        if len(offered) == 1:
            if offered[0] not in item.options:
                item.options.append(offered[0])
            self.chosen.setdefault(id(item), []).append((offered[0], choice.first, choice.last))  # each time
            return
        words = self._words([*range(choice.first, choice.last + 1)])
        self.reading.unclear.append(Unclear(words, dish.choices, item.quantity, [], dish=dish.name))

    def _unclear_part(self, part: Part, menu: Menu) -> Unclear:
        mentioned = [i for m in part.dishes for i in range(m.first, m.last + 1)]
        span = sorted({*mentioned, *part.leftover})
        candidates = list(dict.fromkeys(name for m in part.dishes for name in m.names))
        if not candidates:
            words = self._words(span).text
            candidates = [
                name
                for name, score, _ in process.extract(words, menu.names, scorer=fuzz.WRatio, limit=3)
                if score >= 50
            ]
        options = [name for m in part.choices for name in m.names[:1]]
        return self._unclear(span, candidates, part.quantity or 1, options)

    def _unclear(
        self, span: list[int], candidates: list[str], quantity: int = 1, options: list[str] | None = None
    ) -> Unclear:
        unclear = Unclear(self._words(span), candidates, quantity, options or [])
        self.reading.unclear.append(unclear)
        return unclear

    def _words(self, indices: list[int]) -> Words:
        content = [i for i in indices if self.tokens[i].text not in HARD]
        first, last = self.tokens[min(content)], self.tokens[max(content)]
        return Words(first.start, last.end, self.text[first.start : last.end])


def _unshown(dish: Dish) -> bool:
    """A sold-out dish whose choices the page does not show: any choice written for it is kept."""
    return dish.sold_out and not dish.choices
