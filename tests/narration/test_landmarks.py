"""How a page nobody wrote an adapter for is laid out, and what it announces (issue 39, item 2): its
landmarks in one bounded line, said on the first look and when they change, never on every step; what its
live regions announce, said like its status messages — and a message given as a status or an alert is
never said again because a live region holds it too."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from webagent.narration.narrate import MAX_LANDMARKS, Narration, changes, landmark_line, narrate, quote
from webagent.narration.state import Landmark, LandmarkRole, PageState, state_from_raw

ROLES: tuple[LandmarkRole, ...] = (
    "banner",
    "navigation",
    "search",
    "main",
    "complementary",
    "form",
    "region",
    "contentinfo",
)
LONGEST = (
    11 + MAX_LANDMARKS * (len("complementary") + 1 + 32) + (MAX_LANDMARKS - 1) * 2 + len(" and 999999 more")
)
"""``Landmarks: `` and as many of the longest role with the longest quoted name as are named, then the count."""

landmarks = st.lists(
    st.builds(Landmark, role=st.sampled_from(ROLES), name=st.text(max_size=300)), max_size=40
)
messages = st.lists(st.sampled_from(["Saved", "3 results found", "Error", "Copied link"]), max_size=3)
shows = st.builds(
    PageState, view=st.just("unknown"), title=st.just("Settings"), notices=messages, announced=messages
)


@given(landmarks, st.integers(0, 999_999))
def test_the_landmark_line_is_bounded_whatever_the_page_names(marks: list[Landmark], more: int) -> None:
    line = landmark_line(PageState(view="unknown", landmarks=marks, landmarks_more=more))
    assert len(line) <= LONGEST, line
    assert "\n" not in line, line
    if line:
        assert line.startswith("Landmarks: "), line
        assert line.count('"') % 2 == 0, line  # a name cannot close its quote early


@given(shows, shows)
def test_a_message_is_said_once_and_never_again_as_a_live_region(before: PageState, after: PageState) -> None:
    said = changes(before, after)
    for text in {*after.notices, *after.announced}:
        assert said.count(quote(text)) <= 1, said
    for text in before.notices:  # already given as a status or an alert
        assert quote(text) not in said, (before, after, said)
    for text in after.announced:
        if text in after.notices and text not in before.notices:
            assert said.count(quote(text)) == 1, said  # said as the status, once
    fresh = [t for t in after.announced if t not in {*before.notices, *after.notices, *before.announced}]
    assert all(f"Notice: {quote(text)}." in said for text in fresh), said


def test_a_live_region_that_is_a_status_too_is_said_once() -> None:
    before = PageState(view="unknown", title="Settings")
    after = before.model_copy(update={"notices": ["Saved"], "announced": ["Saved", "Saved"]})
    assert changes(before, after) == 'Notice: "Saved".'


NEWS = [
    Landmark(role="banner"),
    Landmark(role="navigation", name="Site"),
    Landmark(role="search"),
    Landmark(role="main", name="Results"),
    Landmark(role="complementary", name="Filters"),
]


def test_landmarks_are_said_on_the_first_look_and_when_they_change_only() -> None:
    page = PageState(view="unknown", title="Shop", landmarks=NEWS)
    line = 'Landmarks: banner, navigation "Site", search, main "Results", complementary "Filters"'
    assert narrate(Narration(said="Here.", after=page)).splitlines() == ["Here.", line, 'Page: "Shop" page']
    assert "Landmarks" not in narrate(Narration(said="Pressed.", before=page, after=page))
    narrow = page.model_copy(update={"landmarks": NEWS[:4]})
    assert changes(page, narrow) == 'Landmarks: banner, navigation "Site", search, main "Results".'
    assert changes(narrow, page) == line + "."
    bare = page.model_copy(update={"landmarks": [Landmark(role="main")]})
    assert changes(page, bare) == "The landmarks said before are gone."


def test_a_bare_main_banner_and_footer_add_nothing() -> None:
    plain = [Landmark(role="banner"), Landmark(role="main"), Landmark(role="contentinfo")]
    assert landmark_line(PageState(view="unknown", landmarks=plain)) == ""
    assert landmark_line(PageState(view="unknown", landmarks=[Landmark(role="main", name="Inbox")]))


def test_the_shop_s_own_pages_say_neither() -> None:
    """The demo shop's reader reads no landmarks and no live regions: its narration is as it was."""
    shop = PageState(view="restaurants")
    assert landmark_line(shop) == ""
    assert narrate(Narration(said="Here.", after=shop)) == "Here.\nPage: restaurant list · cart empty"


def test_what_the_reader_gives_is_taken_only_in_its_shape() -> None:
    state = state_from_raw(
        {
            "title": "T",
            "landmarks": [{"role": "main", "name": 7}, {"role": "script"}, "nav", {"name": "x"}],
            "landmarks_more": True,
            "announced": ["Saved", "", 3, "a", "b"],
        }
    )
    assert state.landmarks == [Landmark(role="main", name="7")]
    assert state.landmarks_more == 0
    assert state.announced == ["Saved", "3", "a"]
    assert state_from_raw({"landmarks": "main", "announced": {"x": 1}}).landmarks == []
