"""Waiting on a site's breadcrumbs as they reach Python (`PageSession.crumb_mark`, `next_crumb`).

The counter page, its event and its schedules of breadcrumbs are written here; the schedules are drawn by
hypothesis. What must hold: a wait answers with the first breadcrumb of a wanted kind dispatched after its
mark, never one dispatched before it, and None once its time is up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.async_api import Error as PlaywrightError

from tests.browser.served import PageSite, open_served
from webagent.browser.session import Browser, PageSession
from webagent.sync import run_sync

COUNTER = "http://counter.test"
EVENT = "counter:did"

COUNTER_PAGE = """<!doctype html><html><body><main id="counter"></main><script>
  const did = (kind, message) =>
    window.dispatchEvent(new CustomEvent("counter:did", {detail: {message, at: "", kind}}));
  window.did = did;
  // [[kind, message, delay ms], ...]: each dispatched that long after the call (0: in the same task).
  window.play = (schedule) => {
    for (const [kind, message, delay] of schedule) {
      if (delay === 0) did(kind, message); else setTimeout(() => did(kind, message), delay);
    }
  };
</script></body></html>"""

KINDS = ("cart", "order", "error", "navigate")


COUNTER_SITE = PageSite(rendered_js="!!document.getElementById('counter')", breadcrumb_event=EVENT)


@pytest.fixture
def counter(agent_browser: Browser) -> Iterator[PageSession]:
    session = run_sync(open_served(agent_browser, COUNTER, COUNTER_SITE, COUNTER_PAGE))
    try:
        yield session
    finally:
        run_sync(session.close())


SCHEDULE = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 60)), max_size=6)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(earlier=SCHEDULE, later=SCHEDULE, wanted=st.lists(st.sampled_from(KINDS), min_size=1, max_size=2))
def test_a_wait_answers_with_the_first_wanted_crumb_after_its_mark(
    counter: PageSession, earlier: list[tuple[str, int]], later: list[tuple[str, int]], wanted: list[str]
) -> None:
    async def scenario() -> tuple[str | None, list[str]]:
        # Breadcrumbs dispatched before the mark — at once (still on their way to Python) or already
        # timed to come — and, after the mark, the ones the wait may answer with.
        before = [(kind, f"before {i}", 0) for i, (kind, _) in enumerate(earlier)]
        await counter.page.evaluate("(s) => window.play(s)", before)
        mark = await counter.crumb_mark()
        after = [(kind, f"after {i}", delay) for i, (kind, delay) in enumerate(later)]
        await counter.page.evaluate("(s) => window.play(s)", after)
        crumb = await counter.next_crumb(mark, tuple(wanted), timeout_ms=400)
        await counter.page.wait_for_timeout(80)  # the rest of this schedule, before the next example's
        await counter.sync_breadcrumbs()
        return crumb.message if crumb else None

    # Timers fire by their delay, ties in the order they were set; those at 0 at once.
    due = sorted((delay, i) for i, (kind, delay) in enumerate(later) if kind in wanted)
    assert run_sync(scenario()) == (f"after {due[0][1]}" if due else None)


def test_a_crumb_dispatched_just_before_the_mark_does_not_end_the_wait(counter: PageSession) -> None:
    async def scenario() -> list[str | None]:
        answers = []
        for _ in range(5):
            await counter.page.evaluate("window.did('cart', 'late')")
            mark = await counter.crumb_mark()
            crumb = await counter.next_crumb(mark, ("cart",), timeout_ms=150)
            answers.append(crumb.message if crumb else None)
        return answers

    assert run_sync(scenario()) == [None] * 5


def test_a_wait_for_any_crumb_ends_at_the_first(counter: PageSession) -> None:
    async def scenario() -> str | None:
        mark = await counter.crumb_mark()
        await counter.page.evaluate("window.play([['navigate', 'second', 40], ['cart', 'first', 10]])")
        crumb = await counter.next_crumb(mark, None, timeout_ms=2_000)
        return crumb.message if crumb else None

    assert run_sync(scenario()) == "first"


def test_a_wait_ends_when_the_page_closes(agent_browser: Browser) -> None:
    async def scenario() -> None:
        session = await open_served(agent_browser, COUNTER, COUNTER_SITE, COUNTER_PAGE)
        try:
            mark = await session.crumb_mark()
            waiting = asyncio.ensure_future(session.next_crumb(mark, ("order",), timeout_ms=60_000))
            await asyncio.sleep(0.2)
            await session.page.close()
            with pytest.raises(PlaywrightError, match="closed"):
                await waiting  # not None a minute later: the wait ends with the page
        finally:
            await session.close()

    run_sync(scenario())
