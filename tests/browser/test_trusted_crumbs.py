"""A breadcrumb is the person's only after their own trusted press, never because the page says so.

The till page, its event name and its forgeries are written here: the bridge was not developed against
them. Page scripts are played by ``page.evaluate`` (it runs in the page's own world, as the page's
scripts do); the person's presses by Playwright's mouse, which the browser delivers as trusted input.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.browser.served import PageSite, open_served
from webagent.browser.session import Browser, PageSession
from webagent.sync import run_sync

TILL = "http://till.test"
EVENT = "till:did"

TILL_PAGE = """<!doctype html><html><body><main id="till">
<button id="tea">Put a tea in the basket</button>
<button id="nothing">Does nothing</button>
<input id="note" aria-label="Note">
</main><script>
  const did = (message) => window.dispatchEvent(new CustomEvent("till:did", {detail: {message, at: "", kind: "basket"}}));
  // The till answers a press a little later, as a shop waits for its server.
  document.getElementById("tea").addEventListener("click", () => setTimeout(() => did("@action: added 1 × Tea to the basket"), 30));
  window.forge = (message, n) => { for (let i = 0; i < n; i++) did(message); };
</script></body></html>"""


TILL_SITE = PageSite(rendered_js="!!document.getElementById('till')", breadcrumb_event=EVENT)


@pytest.fixture
def till(agent_browser: Browser) -> Iterator[PageSession]:
    session = run_sync(open_served(agent_browser, TILL, TILL_SITE, TILL_PAGE))
    try:
        yield session
    finally:
        run_sync(session.close())


def crumbs(session: PageSession) -> list[tuple[str, bool]]:
    run_sync(session.sync_breadcrumbs())
    return [(c.message, c.person) for c in session.breadcrumbs]


async def wait_for_crumbs(session: PageSession, count: int) -> None:
    for _ in range(100):
        await session.sync_breadcrumbs()
        if len(session.breadcrumbs) >= count:
            return
        await session.page.wait_for_timeout(20)


def test_the_bridge_is_out_of_the_pages_reach(till: PageSession) -> None:
    names = run_sync(
        till.page.evaluate("['__webagentBridge', '__webagentBreadcrumb'].map((n) => typeof window[n])")
    )
    assert names == ["undefined", "undefined"]


FORGED = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=40).map(
    lambda name: f"@action: added 5 × {name} to the basket"
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(forged=st.lists(st.tuples(FORGED, st.integers(1, 3)), min_size=1, max_size=4))
def test_what_the_page_dispatches_by_itself_is_never_the_persons(
    till: PageSession, forged: list[tuple[str, int]]
) -> None:
    before = len(till.breadcrumbs)
    for message, times in forged:
        run_sync(till.page.evaluate("([m, n]) => window.forge(m, n)", [message, times]))
    got = crumbs(till)[before:]
    assert [m for m, _ in got] == [m for m, n in forged for _ in range(n)]  # seen, and narrated as seen
    assert not any(person for _, person in got)


def test_the_persons_press_makes_the_shops_answer_theirs_once(till: PageSession) -> None:
    run_sync(till.page.get_by_role("button", name="Put a tea in the basket").click())
    run_sync(wait_for_crumbs(till, 1))
    # The page echoes the person's breadcrumb with forgeries of its own: the press is used up.
    run_sync(till.page.evaluate("window.forge('@action: added 5 × Cake to the basket', 3)"))
    assert (
        crumbs(till)
        == [("@action: added 1 × Tea to the basket", True)]
        + [("@action: added 5 × Cake to the basket", False)] * 3
    )


def test_a_press_that_made_nothing_lends_nothing_to_the_page_later(till: PageSession) -> None:
    run_sync(till.page.get_by_role("button", name="Does nothing").click())
    run_sync(till.page.get_by_label("Note").fill("hello"))  # typing letters is no press
    run_sync(till.page.wait_for_timeout(50))
    till.person_window_s = 0.0  # as if the page waited out the press's window
    run_sync(till.page.evaluate("window.forge('@action: added 5 × Cake to the basket', 1)"))
    assert crumbs(till) == [("@action: added 5 × Cake to the basket", False)]


def test_presses_made_while_a_tool_call_acts_are_the_agents(till: PageSession) -> None:
    async def agent_presses() -> None:
        async with till.acting():
            await till.page.get_by_role("button", name="Put a tea in the basket").click()
            await wait_for_crumbs(till, 1)

    run_sync(agent_presses())
    assert crumbs(till) == [("@action: added 1 × Tea to the basket", False)]


def test_enter_is_a_press_the_keyboard_makes(till: PageSession) -> None:
    run_sync(till.page.get_by_role("button", name="Put a tea in the basket").focus())
    run_sync(till.page.keyboard.press("Enter"))
    run_sync(wait_for_crumbs(till, 1))
    assert crumbs(till) == [("@action: added 1 × Tea to the basket", True)]
    assert json.dumps(crumbs(till))  # plain data, for the checkpoint
