"""Every sentence the planner or the approval anchor reads back: its reader gives back what its writer
was given (``read(write(values)) == values``), so a sentence reworded without its reader fails here."""

from hypothesis import given
from hypothesis import strategies as st

from webagent.browser.obstruction import Blocker, Obstructed
from webagent.narration import said
from webagent.narration.lines import LineName, counted, line_name, read_counted, read_line_name
from webagent.narration.money import money, parse_cents
from webagent.narration.names import Match
from webagent.narration.narrate import PageLine, page_summary, read_page_summary
from webagent.narration.state import CartLine, MenuItem, MenuOption, PageState, RestaurantCard

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '-&!?,.éü×"


def words(max_size: int) -> st.SearchStrategy[str]:
    """Page text as `quote` leaves it: no double quotes, single spaces, within its length limit."""
    return (
        st.text(ALPHABET, min_size=1, max_size=max_size).map(lambda text: " ".join(text.split())).filter(bool)
    )


def plain(max_size: int) -> st.SearchStrategy[str]:
    """Names the menu's own punctuation cannot be confused with: no ``;``, ``:``, parentheses or commas."""
    return words(max_size).map(lambda text: text.replace(",", "").strip()).filter(bool)


amounts = st.integers(min_value=-100_000, max_value=10_000_000)
known_or_not = st.none() | amounts
KINDS = ["restaurant", "dish", "cart line", "cuisine", "delivery time", "payment method"]
FIELDS = ["name", "address", "phone", "delivery time", "payment method", "tip", "promo code"]
MISSING = ["name", "address", "phone", "delivery slot", "payment method"]


@given(amounts)
def test_money_reads_back(cents: int) -> None:
    assert parse_cents(money(cents)) == cents
    assert parse_cents(money(None)) is None


@given(plain(40), st.lists(plain(20), max_size=4), st.integers(1, 99))
def test_line_names_read_back(dish: str, choices: list[str], quantity: int) -> None:
    name = line_name(dish, choices)
    assert read_line_name(name, ["x", dish]) == LineName(dish, tuple(choices))
    assert read_counted(counted(quantity, name)) == (quantity, name)
    if "(" not in dish:
        assert read_line_name(name) == LineName(dish, tuple(choices))


@given(
    st.just("") | words(59),
    words(60).map(lambda text: text.replace(";", "")),
    st.lists(words(39), max_size=10),
)
def test_a_blocking_popup_reads_back(title: str, reason: str, buttons: list[str]) -> None:
    text = f"open_restaurant could not act: {said.blocked(title, reason, buttons)}"
    assert said.read_blocked(text) == said.Blocked(title, reason, tuple(buttons[: said.MAX_BUTTONS_SAID]))
    raised = Obstructed(Blocker(title, [("button", name) for name in buttons], modal=True), reason)
    assert said.read_blocked(f"press could not act: {raised}") == said.read_blocked(text)


@given(st.integers(1, 10**9), known_or_not, st.lists(words(119), max_size=5))
def test_a_placed_order_reads_back(order_id: int, total: int | None, lines: list[str]) -> None:
    assert said.read_placed(said.placed(order_id, total, lines).said) == said.Placed(
        order_id, total, tuple(lines)
    )


@given(
    st.sampled_from(["", "Italian"]) | words(50).map(lambda text: f'"{text}"'),
    st.lists(words(59), max_size=15),
    st.booleans(),
)
def test_a_search_reads_back(what: str, names: list[str], sponsored: bool) -> None:
    cards = [RestaurantCard(name=name, sponsored=sponsored) for name in names]
    assert said.read_searched(said.searched(what, cards).said) == names[:12]
    assert said.read_back_at_list(said.back_at_list(cards).said) == names[:12]
    assert said.read_searched(said.back_at_list(cards).said) is None


@given(
    st.sampled_from(KINDS),
    words(59),
    st.lists(words(59), max_size=4),
    st.sampled_from(["in the shop", "offered", "in the cart"]) | words(40).map(lambda r: f'on "{r}"\'s menu'),
)
def test_a_name_not_found_reads_back(kind: str, wanted: str, candidates: list[str], where: str) -> None:
    match = Match(None, candidates)
    read = said.read_not_found(said.not_found(kind, wanted, match, where).said)
    assert read == said.NotFound(kind, wanted, tuple(candidates), match.ambiguous)


options = st.builds(
    MenuOption, name=plain(39), required=st.booleans(), choices=st.lists(plain(39), max_size=3)
)


@st.composite
def menu_items(draw: st.DrawFn) -> MenuItem:
    """A dish as `menu_listing` can say it: a sold-out dish's choices are not shown, nor more than eight."""
    sold_out = draw(st.booleans())
    listed = [] if sold_out else draw(st.lists(options, max_size=3))
    if sum(len(option.choices) for option in listed) > 8:
        listed = [option.model_copy(update={"choices": []}) for option in listed]
    has_options = bool(listed) or (not sold_out and draw(st.booleans()))
    price = draw(st.integers(0, 100_000))
    return MenuItem(
        name=draw(words(59)), price_cents=price, sold_out=sold_out, has_options=has_options, options=listed
    )


@given(words(59), st.none() | st.integers(1, 100_000), st.lists(menu_items(), max_size=6))
def test_an_opened_menu_reads_back(name: str, minimum: int | None, menu: list[MenuItem]) -> None:
    assert said.read_opened(said.opened(name, minimum, menu).said) == said.Opened(name, minimum, menu)
    assert said.read_opened(said.already_open(name, menu).said) == said.Opened(name, None, menu)


cart_lines = st.builds(CartLine, name=words(79), quantity=st.integers(1, 99), total_cents=amounts)


@given(st.lists(cart_lines, max_size=6), known_or_not, known_or_not)
def test_the_cart_reads_back(lines: list[CartLine], subtotal: int | None, total: int | None) -> None:
    shown = said.read_cart_contents(said.cart_contents(lines, subtotal, total).said)
    expected = said.CartShown(lines, subtotal, total) if lines else said.CartShown([], 0, 0)
    assert shown == expected


@given(st.integers(0, 100_000), st.lists(plain(30), max_size=5))
def test_a_tip_not_offered_reads_back(tip: int, offered: list[str]) -> None:
    assert said.read_no_tip(said.no_tip(tip, offered).said) == (tip, tuple(offered))


@given(
    st.lists(st.sampled_from(FIELDS), unique=True),
    st.none() | st.tuples(words(39), words(99)),
    st.lists(st.sampled_from(MISSING), unique=True),
    known_or_not,
)
def test_a_fill_reads_back(
    done: list[str], promo: tuple[str, str] | None, missing: list[str], total: int | None
) -> None:
    outcome = said.filled(done, promo, missing, total, promo_applied=False)
    assert said.read_filled(outcome.said) == said.Filled(tuple(done), promo, tuple(missing), total)


@given(
    st.sampled_from(
        ["restaurants", "restaurant", "checkout", "confirmation", "orders", "loading", "unknown"]
    ),
    words(59),
    st.integers(0, 30),
    known_or_not,
    st.booleans(),
    st.lists(words(59), max_size=2),
    st.none() | st.integers(1, 10**6),
)
def test_the_page_line_reads_back(
    view: str,
    restaurant: str,
    count: int,
    subtotal: int | None,
    loading: bool,
    dialogs: list[str],
    order_number: int | None,
) -> None:
    state = PageState.model_validate(
        {
            "view": view,
            "restaurant": restaurant,
            "cart_count": count,
            "cart_subtotal_cents": subtotal,
            "menu_loading": loading,
            "dialogs": dialogs,
            "order_number": order_number,
        }
    )
    line = page_summary(state, ["a dialog \"Sign up\" with 'No thanks'"])
    shown = restaurant if view == "restaurant" else None
    # A page not the shop's own shows a cart only when it has one: "cart empty" is never said of it.
    assert read_page_summary(line) == PageLine(state.view, shown, count == 0 and view != "unknown")
