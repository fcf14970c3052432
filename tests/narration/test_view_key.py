"""`PageState.view_key`: what `--screenshots views` takes a new picture for.

Properties over generated page states: what changes inside a view (the cart's count and lines, a form's
values, the menu, notices) keeps the key; another view, restaurant, drawer, dialog, error box or order
number changes it.
"""

from __future__ import annotations

from typing import Any, get_args

from hypothesis import given
from hypothesis import strategies as st

from webagent.narration.state import CartLine, CheckoutForm, PageState, View

words = st.text(st.characters(categories=("L", "N", "Zs")), min_size=1, max_size=20)

states = st.builds(
    PageState,
    view=st.sampled_from(get_args(View)),
    restaurant=st.none() | words,
    cart_open=st.booleans(),
    dialogs=st.lists(words, max_size=2),
    errors=st.lists(words, max_size=1),
    order_number=st.none() | st.integers(1, 999),
    cart_count=st.integers(0, 50),
)

# Changes a person sees inside one view: in the narration, not worth another picture.
within = st.fixed_dictionaries(
    {},
    optional={
        "cart_count": st.integers(0, 50),
        "cart_lines": st.lists(
            st.builds(CartLine, name=words, quantity=st.integers(1, 9), total_cents=st.integers(0, 9999)),
            max_size=3,
        ),
        "cart_total_cents": st.none() | st.integers(0, 99999),
        "notices": st.lists(words, max_size=2),
        "focused": st.none() | words,
        "checkout": st.none() | st.builds(CheckoutForm, name=words, address=words),
        "activity_count": st.integers(0, 99),
    },
)


@given(states, within)
def test_what_changes_inside_a_view_keeps_its_key(state: PageState, change: dict[str, Any]) -> None:
    assert state.model_copy(update=change).view_key() == state.view_key()


@given(
    states,
    st.sampled_from(["view", "restaurant", "cart_open", "dialogs", "errors", "order_number"]),
    st.data(),
)
def test_another_view_has_another_key(state: PageState, field: str, data: st.DataObject) -> None:
    current = getattr(state, field)
    other = {
        "view": st.sampled_from(get_args(View)),
        "restaurant": st.none() | words,
        "cart_open": st.just(not state.cart_open),
        "dialogs": st.lists(words, min_size=1, max_size=2),
        "errors": st.lists(words, min_size=0 if state.errors else 1, max_size=0 if state.errors else 1),
        "order_number": st.none() | st.integers(1, 999),
    }[field].filter(lambda value: value != current)
    changed = state.model_copy(update={field: data.draw(other)})
    assert changed.view_key() != state.view_key()
