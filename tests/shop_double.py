"""A stand-in for the demo shop's pages, for driving the planner through the real loop without a browser.

It is passed in at the loop's `ToolRunner` seam (nothing is patched) and is as strict as the shop where
the planner could notice: arguments are validated by the tools' own pydantic models, preconditions by
the real graph, option choices by `tools.pick_choices`, money by the shop's own pricing functions, and
every result is narrated by webagent's real narration functions (said.py, narrate.py) from a
`PageState`. What it does not model (clutter, latency, a busy shop) the end-to-end tests and the eval
suite cover against the real shop.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from demo_site import pricing
from demo_site.catalog import fold
from webagent.agent.approval import ApprovalGate, HumanChannel
from webagent.agent.checkpoint import Checkpoint, RunFolder
from webagent.agent.loop import Agent
from webagent.agent.prompt import system_prompt
from webagent.agent.result import RunResult
from webagent.browser.cards import CardField
from webagent.browser.crumbs import Breadcrumb
from webagent.browser.obstruction import Blocker, Obstructed
from webagent.config import ApprovalPolicy, Profile, RunConfig
from webagent.llm.protocol import Model
from webagent.narration import said
from webagent.narration.money import money
from webagent.narration.names import resolve
from webagent.narration.narrate import Narration, narrate, quote
from webagent.narration.said import Outcome, timed_out
from webagent.narration.seen import person_message, seen
from webagent.narration.state import CartLine, CheckoutForm, MenuItem, MenuOption, PageState, RestaurantCard
from webagent.planner import Planner
from webagent.runs.runner import goal_text, opening_said
from webagent.sites.demo_shop import DEMO_SHOP, TOOLS
from webagent.sites.demo_shop.browsing import AddToCart, OpenRestaurant, OptionGroup, pick_choices
from webagent.sites.demo_shop.graph import possible, refusal
from webagent.sites.demo_shop.ordering import CART_TOOLS
from webagent.tools import Args
from webagent.tools.consequence import Consequence
from webagent.tools.toolbox import ToolResult, parse_call, tool_schemas

ROOT = Path(__file__).resolve().parent.parent
CATALOG: dict[str, Any] = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}


@dataclass
class Line:
    dish: dict[str, Any]
    options: dict[str, Any]
    quantity: int

    @property
    def name(self) -> str:
        choices = [
            c for value in self.options.values() for c in ([value] if isinstance(value, str) else value)
        ]
        return f"{self.dish['name']} ({', '.join(choices)})" if choices else self.dish["name"]

    @property
    def total(self) -> int:
        return pricing.unit_price(self.dish, self.options) * self.quantity


@dataclass
class ShopDouble:
    """The shop as the tools see it: one session's restaurant list, menu, cart, checkout and orders."""

    view: str = "restaurants"
    restaurant: dict[str, Any] | None = None
    listed: list[dict[str, Any]] = field(default_factory=lambda: list(CATALOG["restaurants"]))
    cart: list[Line] = field(default_factory=list)
    cart_open: bool = False
    form: CheckoutForm = field(default_factory=CheckoutForm)
    promo: pricing.PromoResult | None = None
    orders: list[dict[str, Any]] = field(default_factory=list)
    crumbs: list[str] = field(default_factory=list)
    person_crumbs: set[str] = field(default_factory=set)
    """Which of ``crumbs`` a person's own click made (`Breadcrumb.person`)."""
    by_person: bool = False
    schemas: list[dict[str, Any]] = field(default_factory=lambda: tool_schemas(TOOLS))
    shown_as: dict[str, str] = field(default_factory=dict)
    """Dish names the page shows differently (as an init script could rewrite them): {dish: shown}."""
    stalls: dict[str, int] = field(default_factory=dict)
    """Tools whose next calls the page does not answer in time, and how many: {tool: count}."""
    popup: Blocker | None = None
    """An overlay no tool gets past (narrated as webagent/browser/obstruction.py does) until one of its buttons
    is pressed; ``pressed`` records which."""
    pressed: list[str] = field(default_factory=list)

    # -- the ToolRunner protocol --------------------------------------------------------------------

    async def offered(self, *, unions: bool = False, state: PageState | None = None) -> list[dict[str, Any]]:
        return DEMO_SHOP.offered(state or self.page(), self.schemas, unions=unions)

    async def page_schemas(self) -> list[dict[str, Any]]:
        return []  # the double's page registers no tools of its own

    async def card_fields(self) -> list[CardField]:
        return []  # the double's checkout takes cash, a card on delivery or a voucher: no card fields

    async def enter_card(self, fields: list[CardField], values: dict[int, str]) -> list[str]:
        return [field.label for field in fields]

    async def clear_card(self) -> None:
        pass

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str:
        return parse_call(TOOLS, name, arguments)

    async def state(self) -> PageState:
        return self.page()

    def forget_looks(self) -> None:
        """The toolbox's refusal of a repeated look is not modelled here (the e2e tests hold it)."""

    async def is_consequential(self, name: str, arguments: str | dict[str, Any]) -> bool:
        """Whether the call would place an order (the double has no generic place-order control)."""
        return name == "place_order"

    async def judged(self, name: str, arguments: str | dict[str, Any]) -> Consequence:
        return Consequence(name == "place_order", typed=name == "place_order")

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        args = parse_call(TOOLS, name, arguments)
        before = self.page()
        if isinstance(args, str):
            return self._result(name, Outcome(args, ok=False, changes_expected=False), before, refused=True)
        if name in ("ask_human", "finish"):
            reason = f"Refused: {name} is handled by the agent loop, not on the page."
            return self._result(name, Outcome(reason, ok=False, changes_expected=False), before, refused=True)
        reason = refusal(name, before)
        if reason is not None:
            return self._result(
                name, Outcome(f"Refused: {reason}", ok=False, changes_expected=False), before, True
            )
        if self.popup is not None and name not in ("press", "press_key"):
            blocked = Obstructed(self.popup, "did not close with Escape in time")
            return self._result(
                name, Outcome(f"{name} could not act: {blocked}", ok=False, changes_expected=False), before
            )
        if self.stalls.get(name):
            self.stalls[name] -= 1
            return self._result(name, Outcome(timed_out(name), ok=False), before)
        if before.cart_open and name not in CART_TOOLS:
            self.cart_open = False
        outcome = getattr(self, name)(args)
        return self._result(name, outcome, before)

    def _result(self, name: str, outcome: Outcome, before: PageState, refused: bool = False) -> ToolResult:
        after = self.page()
        text = narrate(
            Narration(
                said=outcome.said,
                before=before,
                after=after,
                breadcrumbs=self.take_crumbs(),
                possible=possible(after),
                changes_expected=outcome.changes_expected,
            )
        )
        changed = before.fingerprint() != after.fingerprint()
        return ToolResult(
            name,
            text,
            outcome.ok and not refused,
            changed,
            refused,
            outcome.order_id,
            outcome.total_cents,
            seen=seen(after).record(),
        )

    # -- what the page shows ------------------------------------------------------------------------

    def subtotal(self) -> int:
        return sum(line.total for line in self.cart)

    def totals(self) -> pricing.Totals:
        restaurant = self.cart_restaurant()
        fee = restaurant["delivery_fee_cents"] if restaurant else 0
        tip = pricing_tip(self.form.tip)
        return pricing.totals(self.subtotal(), fee, CATALOG["service_fee_percent"], self.promo, tip)

    def cart_restaurant(self) -> dict[str, Any] | None:
        return next((r for r in CATALOG["restaurants"] if self.cart and self.cart[0].dish in r["menu"]), None)

    def page(self) -> PageState:
        count = sum(line.quantity for line in self.cart)
        restaurant = self.cart_restaurant()
        short = restaurant["min_order_cents"] - self.subtotal() if restaurant else 0
        notice = (
            f"Add {money(short)} more to reach the {money(restaurant['min_order_cents'])} minimum"
            if restaurant and short > 0
            else None
        )
        state = PageState(
            view=self.view,  # type: ignore[arg-type]
            cart_count=count,
            cart_open=self.cart_open,
            # The shop renders the drawer's lines even while it is closed, and the page reader reads them.
            cart_lines=[
                CartLine(name=ln.name, quantity=ln.quantity, total_cents=ln.total) for ln in self.cart
            ],
            cart_subtotal_cents=self.subtotal() if self.cart else None,
            cart_total_cents=self.totals().total_cents if self.cart_open and self.cart else None,
            min_order_notice=notice if self.cart else None,
        )
        if self.view == "restaurants":
            state.restaurants = [
                RestaurantCard(name=r["name"], cuisine=r["cuisine"], sponsored=r["sponsored"])
                for r in self.listed
            ]
        elif self.view == "restaurant" and self.restaurant:
            state.restaurant = self.restaurant["name"]
            state.min_order_cents = self.restaurant["min_order_cents"]
            state.menu = [
                menu_item(dish).model_copy(update={"name": self.shown_as.get(dish["name"], dish["name"])})
                for dish in self.restaurant["menu"]
            ]
        elif self.view == "checkout":
            state.checkout = self.form
            state.summary_total_cents = self.totals().total_cents
        elif self.view == "confirmation":
            order = self.orders[-1]
            state.order_number, state.order_total_cents = order["id"], order["total_cents"]
            state.order_lines = [f"{line.quantity} × {line.name}" for line in order["lines"]]
        return state

    def crumb(self, text: str) -> None:
        self.crumbs.append(message := f"@action: {text} at {time.strftime('%H:%M:%S')}")
        if self.by_person:
            self.person_crumbs.add(message)

    def take_crumbs(self) -> list[str]:
        taken, self.crumbs = self.crumbs, []
        return taken

    def cart_summary(self) -> str:
        return f"cart {sum(line.quantity for line in self.cart)} items, {money(self.subtotal())}"

    # -- the tools ----------------------------------------------------------------------------------

    def search_restaurants(self, args: Any) -> Outcome:
        words = fold(args.query or "").split()
        self.listed = [r for r in CATALOG["restaurants"] if all(word in haystack(r) for word in words)]
        self.view = "restaurants"
        self.crumb(f'searched "{args.query or ""}" in all cuisines — {len(self.listed)} restaurants')
        cards = self.page().restaurants
        what = f'"{args.query}"' if args.query else ""
        return said.searched(what, cards)

    def open_restaurant(self, args: Any) -> Outcome:
        if (
            self.view == "restaurant"
            and self.restaurant
            and resolve(args.name, [self.restaurant["name"]]).found
        ):
            return said.already_open(self.restaurant["name"], self.page().menu)
        match = resolve(args.name, list(RESTAURANTS))
        if not match.found:
            return said.not_found("restaurant", args.name, match, "in the shop")
        self.restaurant, self.view, self.listed = (
            RESTAURANTS[match.found],
            "restaurant",
            list(CATALOG["restaurants"]),
        )
        self.crumb(f"opened {match.found} — {len(self.restaurant['menu'])} dishes")
        page = self.page()
        return said.opened(match.found, page.min_order_cents, page.menu)

    def back_to_restaurants(self, args: Any) -> Outcome:
        self.view, self.listed = "restaurants", list(CATALOG["restaurants"])
        return said.back_at_list(self.page().restaurants)

    def add_to_cart(self, args: Any) -> Outcome:
        assert self.restaurant is not None
        shown = {self.shown_as.get(d["name"], d["name"]): d for d in self.restaurant["menu"]}
        match = resolve(args.dish, list(shown))
        if not match.found:
            return said.not_found("dish", args.dish, match, f'on "{self.restaurant["name"]}"\'s menu')
        dish = shown[match.found]
        if dish["sold_out"]:
            return said.sold_out(dish["name"])
        if args.options and not dish["options"]:
            return said.has_no_options(dish["name"])
        groups = [
            OptionGroup(o["name"], o["required"], not o["required"], [c["name"] for c in o["choices"]])
            for o in dish["options"]
        ]
        picked = pick_choices(groups, args.options or []) if groups else {}
        if isinstance(picked, str):
            return said.options_problem(dish["name"], picked)
        options = {
            g.name: (picked[g.name][0] if g.required else picked[g.name]) for g in groups if g.name in picked
        }
        for line in self.cart:
            if line.dish is dish and line.options == options:
                line.quantity += args.quantity
                break
        else:
            if self.cart and self.cart[0].dish not in self.restaurant["menu"]:
                self.cart = []  # the shop's cart holds one restaurant's dishes
            self.cart.append(Line(dish, options, args.quantity))
        chosen = [c for g in groups for c in picked.get(g.name, [])]
        name = Line(dish, options, 1).name
        self.crumb(f"added {args.quantity} × {name} to the cart — {self.cart_summary()}")
        count = sum(line.quantity for line in self.cart)
        return said.added(args.quantity, dish["name"], chosen, count, self.subtotal())

    def view_cart(self, args: Any) -> Outcome:
        self.cart_open = True
        state = self.page()
        return said.cart_contents(state.cart_lines, state.cart_subtotal_cents, state.cart_total_cents)

    def _line(self, wanted: str) -> Line | Outcome:
        self.cart_open = True
        match = resolve(wanted, [line.name for line in self.cart])
        if not match.found:
            return said.not_found("cart line", wanted, match, "in the cart")
        return next(line for line in self.cart if line.name == match.found)

    def change_quantity(self, args: Any) -> Outcome:
        line = self._line(args.item)
        if isinstance(line, Outcome):
            return line
        if line.quantity == args.quantity:
            return said.already_at(line.name, line.quantity)
        line.quantity = args.quantity
        self.crumb(f"changed {line.name} to {args.quantity} — {self.cart_summary()}")
        return said.quantity_set(
            line.name, args.quantity, sum(each.quantity for each in self.cart), self.subtotal()
        )

    def remove_from_cart(self, args: Any) -> Outcome:
        line = self._line(args.item)
        if isinstance(line, Outcome):
            return line
        self.cart.remove(line)
        self.crumb(f"removed {line.name} from the cart — {self.cart_summary()}")
        return said.removed(
            line.name, sum(each.quantity for each in self.cart), self.subtotal() if self.cart else None
        )

    def go_to_checkout(self, args: Any) -> Outcome:
        self.view, self.cart_open = "checkout", False
        self.form = CheckoutForm(
            delivery_slot="ASAP", payment_method="Card on delivery", tip="No tip", checkout_token="t"
        )
        self.promo = None
        total = self.totals().total_cents
        self.crumb(f"opened checkout — total {money(total)}")
        return said.at_checkout(total, self.form.missing())

    def fill_delivery_details(self, args: Any) -> Outcome:
        form = self.form
        slots, methods = CATALOG["delivery_slots"], CATALOG["payment_methods"]
        for kind, wanted, offered in (
            ("delivery time", args.delivery_slot, slots),
            ("payment method", args.payment_method, methods),
        ):
            if wanted is not None and not resolve(wanted, offered).found:
                return said.not_found(kind, wanted, resolve(wanted, offered), "offered")
        tips = ["No tip", *(money(c) for c in (100, 200, 300, 500))]
        if (
            args.tip_cents is not None
            and ("No tip" if args.tip_cents == 0 else money(args.tip_cents)) not in tips
        ):
            return said.no_tip(args.tip_cents, tips)
        done = []
        for label, value in (("name", args.name), ("address", args.address), ("phone", args.phone)):
            if value is not None:
                setattr(form, label, value)
                done.append(label)
        if args.delivery_slot is not None:
            form.delivery_slot = str(resolve(args.delivery_slot, slots).found)
            done.append(f"delivery time {form.delivery_slot}")
        if args.payment_method is not None:
            form.payment_method = str(resolve(args.payment_method, methods).found)
            done.append(f"payment {form.payment_method}")
        if args.tip_cents is not None:
            form.tip = "No tip" if args.tip_cents == 0 else money(args.tip_cents)
            done.append(f"tip {form.tip}")
        promo = None
        if args.promo_code:
            form.promo_code = args.promo_code
            known = next((p for p in CATALOG["promo_codes"] if p["code"] == args.promo_code.upper()), None)
            self.promo = pricing.apply_promo(known, args.promo_code.upper(), self.subtotal())
            form.promo_result = self.promo.reason
            if not self.promo.valid:
                self.promo = None
            promo = (args.promo_code, form.promo_result)
        elif args.promo_code == "":
            form.promo_code, form.promo_result, self.promo = "", "", None
            done.append("promo code cleared")
        applied = self.promo is not None
        return said.filled(done, promo, form.missing(), self.totals().total_cents, applied)

    def place_order(self, args: Any) -> Outcome:
        if self.form.promo_code and self.promo is None:
            return said.not_placed(self.totals().total_cents)  # the shop refuses a rejected code
        total = self.totals().total_cents
        restaurant = self.cart_restaurant()
        order = {
            "id": len(self.orders) + 1,
            "restaurant": restaurant["name"] if restaurant else None,
            "lines": list(self.cart),
            "total_cents": total,
            "form": self.form.model_copy(),
            "promo": self.promo.code if self.promo else None,
        }
        self.orders.append(order)
        self.cart, self.view = [], "confirmation"
        self.crumb(f"placed order #{order['id']} — {money(total)}")
        state = self.page()
        return said.placed(order["id"], total, state.order_lines)

    def view_order_history(self, args: Any) -> Outcome:
        self.view = "orders"
        return said.order_history([o["id"] for o in reversed(self.orders)])

    def recent_actions(self, args: Any) -> Outcome:
        return said.recent([])

    def read_page(self, args: Any) -> Outcome:
        lines = ["- main:"]
        if self.view == "restaurant" and self.restaurant:
            lines.append(f'  - heading "{self.restaurant["name"]}" [level=1]')
            for dish in self.restaurant["menu"]:
                lines.append(f'  - heading "{self.shown_as.get(dish["name"], dish["name"])}" [level=3]')
                lines.append(f"  - paragraph: {dish['description']}")
                lines.append(f'  - button "Add {dish["name"]} to cart"')
            lines += [f"  - paragraph: {review['text']}" for review in self.restaurant["reviews"]]
        return said.page_content("\n".join(lines), args.max_chars)

    def read_reviews(self, args: Any) -> Outcome:
        assert self.restaurant is not None
        found = [(r["author"], r["stars"], r["text"]) for r in self.restaurant["reviews"]]
        return said.reviews(self.restaurant["name"], found[: args.count], max(0, len(found) - args.count))

    def read_dish(self, args: Any) -> Outcome:
        assert self.restaurant is not None
        shown = {self.shown_as.get(d["name"], d["name"]): d for d in self.restaurant["menu"]}
        match = resolve(args.dish, list(shown))
        if not match.found:
            return said.not_found("dish", args.dish, match, f'on "{self.restaurant["name"]}"\'s menu')
        dish = shown[match.found]
        return said.dish_description(match.found, dish["price_cents"], dish["description"])

    # -- generic actions: the double has no free-form controls, so each finds nothing, as on a bare page --

    def press(self, args: Any) -> Outcome:
        if self.popup is not None and args.name in self.popup.names:
            self.pressed.append(args.name)
            self.popup = None
            return Outcome(f"Pressed {quote(args.name, 60)}.")
        return said.not_found("button or link", args.name, resolve(args.name, []), "on the page")

    def fill_field(self, args: Any) -> Outcome:
        return said.declined(
            f"No single field labelled {quote(args.label, 60)} is on the page; nothing was typed."
        )

    def choose_option(self, args: Any) -> Outcome:
        return said.declined(f"No drop-down or group labelled {quote(args.label, 60)} is on the page.")

    def press_key(self, args: Any) -> Outcome:
        return Outcome(f"Pressed {args.key}.")

    def scroll_to_text(self, args: Any) -> Outcome:
        return said.declined(f"No text {quote(args.text, 60)} is on the page.")

    # -- what `webagent chat` asks of its page (the shop narrates itself; nothing to collect) ----------

    @property
    def session(self) -> ShopDouble:
        return self

    async def sync_breadcrumbs(self) -> None:
        return None

    def new_breadcrumbs(self) -> list[str]:
        return self.take_crumbs()

    def new_crumbs(self) -> list[Breadcrumb]:
        return [Breadcrumb(c, "", "", person=c in self.person_crumbs) for c in self.take_crumbs()]

    # -- a person in the window ---------------------------------------------------------------------

    def person_adds(self, restaurant: str, dish: str, quantity: int = 1) -> None:
        """A person opens ``restaurant`` and clicks "Add" on ``dish`` (a dish without options)."""
        self.by_person = True
        try:
            self.open_restaurant(OpenRestaurant(name=restaurant))
            self.add_to_cart(AddToCart(dish=dish, quantity=quantity))
        finally:
            self.by_person = False


def haystack(restaurant: dict[str, Any]) -> str:
    """What the shop's search matches words in: name, cuisine, tags and dish names."""
    dishes = (dish["name"] for dish in restaurant["menu"])
    return fold(" ".join([restaurant["name"], restaurant["cuisine"], *restaurant["tags"], *dishes]))


def pricing_tip(label: str) -> int:
    return 0 if not label or label == "No tip" else round(float(label.lstrip("$")) * 100)


def menu_item(dish: dict[str, Any]) -> MenuItem:
    return MenuItem(
        name=dish["name"],
        price_cents=dish["price_cents"],
        sold_out=dish["sold_out"],
        has_options=bool(dish["options"]),
        options=[
            MenuOption(name=o["name"], required=o["required"], choices=[c["name"] for c in o["choices"]])
            for o in dish["options"]
        ],
    )


def ordered_lines(order: dict[str, Any]) -> list[tuple[str, int, frozenset[str]]]:
    """An order's lines as (dish, quantity, choices), for comparing with a goal."""
    return sorted(
        (
            line.dish["name"],
            line.quantity,
            frozenset(c for v in line.options.values() for c in ([v] if isinstance(v, str) else v)),
        )
        for line in order["lines"]
    )


def chat_with_planner(tmp_path: Path, shop: ShopDouble, answers: list[str] | None = None) -> Any:
    """`webagent chat`'s `ChatSession` with the planner, on ``shop``; ``answers`` reply to its questions."""
    from webagent.runs.chat import ChatSession

    config = RunConfig(approve="auto", runs_dir=tmp_path)
    folder = RunFolder.create(tmp_path)
    return ChatSession(
        shop,  # type: ignore[arg-type]
        Planner(),
        folder,
        Checkpoint(run_id=folder.run_id, config=config),
        ApprovalGate("auto"),
        HumanChannel(list(answers or [])),
        profile=Profile(name="Ada", address="12 Oak Street", phone="555-0101", payment_method="Cash"),
    )


def run_planner(
    goal: str,
    tmp_path: Path,
    *,
    shop: ShopDouble | None = None,
    profile: Profile | None = None,
    answers: list[str] | None = None,
    approve: ApprovalPolicy = "auto",
    budget_cents: int | None = None,
    model: Model | None = None,
) -> tuple[RunResult, ShopDouble, list[dict[str, Any]]]:
    """Run ``goal`` with the planner (or ``model``) through the real loop against a `ShopDouble`, as
    `start_run` would."""
    from webagent.sync import run_sync

    shop = shop or ShopDouble()
    config = RunConfig(
        goal=goal,
        profile=profile or Profile(name="Ada", address="12 Oak Street", phone="555-0101"),
        approve=approve,
        budget_cents=budget_cents,
        answers=answers or [],
        runs_dir=tmp_path,
    )
    folder = RunFolder.create(tmp_path)
    state = Checkpoint(run_id=folder.run_id, config=config, answers_left=list(config.answers))
    page = shop.page()
    opening = narrate(
        Narration(said=opening_said(page), after=page, breadcrumbs=shop.take_crumbs(), possible=[])
    )
    text = goal_text(config)
    state.messages = [
        {"role": "system", "content": system_prompt(text)},
        person_message(f"{text}\n\n{opening}", page),
    ]
    agent = Agent(
        model or Planner(),
        shop,
        ApprovalGate(approve, budget_cents),
        HumanChannel(list(config.answers)),
        folder,
        state,
    )
    result = run_sync(agent.run())
    return result, shop, state.messages
