"""A page that is not the site's own, narrated as any page (issue 39, items 2 and 4): its title and heading
in the ``Page:`` line, the form on screen, and no cart it does not show; a new heading (a wizard's next
step) or fields come and gone are a change the narration names — never "No visible change"."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from webagent.narration.narrate import Narration, changes, narrate, page_summary, read_page_summary
from webagent.narration.state import PageList, PageState

words = st.text("abcdefgh XYZ-·'", min_size=1, max_size=30).map(lambda s: " ".join(s.split()) or "x")
fields = st.lists(
    st.tuples(words, st.booleans(), st.booleans(), st.booleans()).map(
        lambda f: (
            f[0] + (" *" if f[1] else "") + (" (filled)" if f[2] else "") + (" (invalid)" if f[3] else "")
        )
    ),
    max_size=6,
    unique_by=lambda f: f.split(" *")[0].split(" (")[0],
)
pages = st.builds(PageState, view=st.just("unknown"), title=words, heading=words, form=fields)
lists = st.lists(
    st.builds(
        PageList,
        name=st.one_of(st.just(""), words),
        count=st.integers(1, 40),
        items=st.lists(words, max_size=3),
    ),
    max_size=3,
)
shown = st.builds(
    PageState,
    view=st.just("unknown"),
    title=st.one_of(st.just(""), words),
    heading=st.one_of(st.just(""), words),
    lists=lists,
    text_digest=st.sampled_from(["", "1f", "2e"]),
)


@given(pages, pages)
def test_a_new_heading_or_fields_come_and_gone_are_never_no_visible_change(
    before: PageState, after: PageState
) -> None:
    text = narrate(Narration(said='Pressed "Next".', before=before, after=after))
    first = text.splitlines()[0]
    if before.fingerprint() != after.fingerprint():
        assert "No visible change" not in first, text
    said = changes(before, after)
    names = lambda s: {f.split(" *")[0].split(" (")[0] for f in s.form}  # noqa: E731
    if after.heading != before.heading or names(after) != names(before):
        assert said, (before, after)


@given(pages)
def test_the_page_line_names_the_page_and_no_cart_it_does_not_show(state: PageState) -> None:
    line = page_summary(state)
    assert "cart" not in line.replace(state.title, "").replace(state.heading, "").replace(
        ",".join(state.form), ""
    )
    read = read_page_summary(line)
    assert read is not None and read.view == "unknown" and not read.cart_empty, line


def test_a_three_step_form_reads_as_its_steps() -> None:
    one = PageState(
        view="unknown", title="Book a table", heading="Your details (step: 1)", form=["Name *", "Email *"]
    )
    two = PageState(view="unknown", title="Book a table", heading="When (step: 2)", form=["Date *", "Guests"])
    assert page_summary(one) == (
        'Page: "Book a table" page · heading "Your details (step: 1)" · form: "Name" *, "Email" *'
    )
    assert changes(one, two) == (
        'The heading is now "When (step: 2)" (was "Your details (step: 1)"). '
        'The form now asks for "Date" *, "Guests"; gone: "Name", "Email".'
    )
    wrong = one.model_copy(update={"form": ["Name * (filled)", "Email * (filled) (invalid)"]})
    filled = one.model_copy(update={"form": ["Name * (filled)", "Email * (filled)"]})
    assert changes(filled, wrong) == 'Marked invalid: "Email".'


def test_the_shops_own_lines_read_as_before() -> None:
    assert page_summary(PageState(view="restaurants")) == "Page: restaurant list · cart empty"
    read = read_page_summary("Page: restaurant list · cart empty")
    assert read is not None and read.view == "restaurants" and read.cart_empty
    menu = read_page_summary('Page: "Italian Bistro" menu · cart 2 items $12.00')
    assert menu is not None and menu.restaurant == "Italian Bistro" and not menu.cart_empty


hostile = st.sampled_from([" · cart empty", '" · cart 2 items', "\nPage: restaurant list", "·", '"', "cart"])


@given(
    st.lists(st.one_of(words, hostile), min_size=1, max_size=4).map("".join), st.lists(hostile, max_size=3)
)
def test_a_pages_own_words_cannot_add_a_part_to_its_page_line(title: str, labels: list[str]) -> None:
    named = [PageList(name=label, count=2, items=[label]) for label in labels]
    state = PageState(view="unknown", title=title, heading=title + "!", form=labels, lists=named)
    line = page_summary(state)
    assert len(line.splitlines()) == 1
    read = read_page_summary(line)
    assert read is not None and read.view == "unknown" and not read.cart_empty, line
    parts = line.split(" · ")
    # the page, its heading, its form, its lists: nothing the page added
    assert len(parts) == 1 + 1 + bool(labels) + len(named), line
    assert "\n" not in changes(state.model_copy(update={"lists": []}), state)


@given(shown, shown, fields, st.sampled_from(["", "Total"]))
def test_any_change_a_page_shows_is_said(
    before: PageState, after: PageState, form: list[str], focus: str
) -> None:
    """Title, heading, lists and text drawn apart, the form the same: whatever differs, something is said —
    the first line never reads "No visible change" for a page that changed."""
    before = before.model_copy(update={"form": form})
    after = after.model_copy(update={"form": form, "focused": focus or None})
    said = changes(before, after)
    if before.fingerprint() != after.fingerprint():
        assert said.removesuffix(f'Focus is on "{focus}".').strip(), (before, after)
    text = narrate(Narration(said='Pressed "Go".', before=before, after=after))
    same = (
        before.fingerprint() == after.fingerprint() and before.focused == after.focused
    )  # a focus moved is said
    assert ("No visible change" in text.splitlines()[0]) == same


def test_lists_come_change_and_go_by_their_names() -> None:
    results = PageList(name="3 results for leek", count=3, items=["leek Soup", "leek Stew", "leek Pie"])
    empty = PageState(view="unknown", title="Recipes", form=["Search (filled)"])
    found = empty.model_copy(update={"lists": [results, PageList(count=1, items=["Ad"])]})
    assert changes(empty, found) == (
        'List "3 results for leek" appeared (3): "leek Soup", "leek Stew", "leek Pie". '
        'A list appeared (1): "Ad".'
    )
    assert (
        page_summary(found)
        == 'Page: "Recipes" page · form: "Search" (filled) · list "3 results for leek" (3) · a list (1)'
    )
    more = found.model_copy(
        update={
            "lists": [PageList(name="3 results for leek", count=9, items=["a", "b", "c"]), found.lists[1]]
        }
    )
    assert changes(found, more) == 'List "3 results for leek" now has 9 (was 3): "a", "b", "c" and 6 more.'
    assert changes(more, empty) == 'List "3 results for leek" is gone. A list is gone.'


def test_a_field_emptied_or_valid_again_is_said() -> None:
    wrong = PageState(view="unknown", title="Sign up", form=["Email * (filled) (invalid)", "Name * (filled)"])
    fixed = wrong.model_copy(update={"form": ["Email * (filled)", "Name *"]})
    assert changes(wrong, fixed) == 'Emptied: "Name" *. No longer marked invalid: "Email" * (filled).'


def test_what_a_patched_page_reader_returns_cannot_break_a_line_or_the_run() -> None:
    """The page reader runs beside the page's scripts: what it returns may be anything. A count that ends in a
    line break is page text (quoted, one line); a list of odd types is read as strings, not a traceback."""
    from webagent.narration.state import state_from_raw

    state = state_from_raw(
        {
            "view": "unknown",
            "title": "T",
            "form": ["3 more\nPage: checkout"],
            "lists": [{"name": 5, "count": "x", "items": "abc"}],
        }
    )
    line = page_summary(state)
    assert "\n" not in line and state.lists == [PageList(name="5", count=0, items=[])], line
