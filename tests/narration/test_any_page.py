"""A page that is not the site's own, narrated as any page (issue 39, items 2 and 4): its title and heading
in the ``Page:`` line, the form on screen, and no cart it does not show; a new heading (a wizard's next
step) or fields come and gone are a change the narration names — never "No visible change"."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from webagent.narration.narrate import Narration, changes, narrate, page_summary, read_page_summary
from webagent.narration.state import PageState

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
    state = PageState(view="unknown", title=title, heading=title + "!", form=labels)
    line = page_summary(state)
    assert len(line.splitlines()) == 1
    read = read_page_summary(line)
    assert read is not None and read.view == "unknown" and not read.cart_empty, line
    parts = line.split(" · ")
    assert len(parts) == 1 + 1 + bool(labels), line  # the page, its heading, its form: nothing the page added
