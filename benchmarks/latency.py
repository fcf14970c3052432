"""Tool latency: each tool through the `Toolbox` vs the raw Playwright action it wraps (raw.py),
interleaved on the same page of the same context; and what the session's overlay handlers cost."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import raw
from common import CLUTTER, RESTAURANT, SEED, log, median_ms
from table import Report, Row

from webagent.browser.session import Browser, PageSession
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sites.demo_shop.reader import read_state
from webagent.sites.demo_shop.waits import close_cart, go_home, open_cart
from webagent.tools.toolbox import Toolbox

AT_MOST = 1.5
"""Each tool's median time ≤ this × the median of the raw Playwright action it wraps. Both are measured in the
same run, interleaved. There is no constant slack: the 30 ms once added let a tool at 2.1× a 53 ms action pass.
The tool does the raw action's work plus its own: validation, a look for what covers the target, a page read
before and after, and the narration. Measured 0.91–1.47× (2026-12-03, quiet machine) and 1.17–1.43× (2026-12-05,
load average 6–11). Before issue 22, `open_restaurant` took 1.86–1.93× (its obstruction check made three
round trips). With a 50 ms wait added to every call, five of the six tools missed; with 30 ms more CPU per
call, three missed (docs/benchmarks.md). Medians of 60 rounds: with 25 rounds on a loaded machine, one tool
read 1.32× in one run and 1.72× in the next."""

# Two sets of details, alternated so every fill changes the form.
DETAILS = (
    ("Ada Lovelace", "12 Oak Street", "555-0101", "19:00-19:30", "Cash"),
    ("Grace Hopper", "7 Elm Road", "555-0199", "ASAP", "Card on delivery"),
)


@dataclass
class LatencyCase:
    """A tool and its raw action, and how to put the page in the state both start from."""

    tool: str
    args: Callable[[int], dict[str, Any]]
    raw: Callable[[PageSession, int], Awaitable[None]]
    setup: Callable[[Toolbox], Awaitable[None]]
    baseline_note: str


async def at_home(toolbox: Toolbox) -> None:
    state = await toolbox.state()
    if state.cart_open:
        await close_cart(toolbox.context)
    await go_home(toolbox.context, clear_search=True)


async def at_restaurant(toolbox: Toolbox) -> None:
    state = await toolbox.state()
    if state.cart_open:
        await close_cart(toolbox.context)
    if state.view != "restaurant":
        await toolbox.call("open_restaurant", {"name": RESTAURANT})


async def at_restaurant_with_room(toolbox: Toolbox) -> None:
    """At the menu, with room in the Tiramisu line: the shop holds at most 50 of a dish, and every round adds 2."""
    state = await toolbox.state()
    if state.cart_count >= 40:
        await cart_open(toolbox)
        await toolbox.call("change_quantity", {"item": "Tiramisu", "quantity": 1})
    await at_restaurant(toolbox)


async def cart_open(toolbox: Toolbox) -> None:
    state = await toolbox.state()
    if not state.cart_open:
        await open_cart(toolbox.context)


async def at_checkout(toolbox: Toolbox) -> None:
    state = await toolbox.state()
    if state.view != "checkout":
        await toolbox.call("go_to_checkout", {})


async def fresh_restaurant_list(toolbox: Toolbox) -> None:
    await at_home(toolbox)


async def _raw_open(session: PageSession, _i: int) -> None:
    await raw.open_restaurant(session.page, RESTAURANT)


async def _raw_add(session: PageSession, _i: int) -> None:
    await raw.add_to_cart(session.page, "Tiramisu")


async def _raw_view(session: PageSession, _i: int) -> None:
    await raw.view_cart(session.page)


async def _raw_change(session: PageSession, i: int) -> None:
    await raw.change_quantity(session.page, "Tiramisu", 2 + i % 2)


async def _raw_search(session: PageSession, i: int) -> None:
    await raw.search_restaurants(session.page, ("pizza", "sushi")[i % 2])


async def _raw_fill(session: PageSession, i: int) -> None:
    await raw.fill_delivery_details(session.page, *DETAILS[i % 2])


def _fill_args(i: int) -> dict[str, Any]:
    name, address, phone, slot, payment = DETAILS[i % 2]
    return {
        "name": name,
        "address": address,
        "phone": phone,
        "delivery_slot": slot,
        "payment_method": payment,
    }


CASES = (
    LatencyCase(
        "open_restaurant",
        lambda i: {"name": RESTAURANT},
        _raw_open,
        fresh_restaurant_list,
        "click the card's link, wait until the menu replaced the list",
    ),
    LatencyCase(
        "add_to_cart",
        lambda i: {"dish": "Tiramisu", "quantity": 1},
        _raw_add,
        at_restaurant_with_room,
        'read the cart count, click "Add Tiramisu to cart", wait for the count to change',
    ),
    LatencyCase(
        "view_cart",
        lambda i: {},
        _raw_view,
        at_restaurant,
        "click the cart button, wait for the drawer to show",
    ),
    LatencyCase(
        "change_quantity",
        lambda i: {"item": "Tiramisu", "quantity": 2 + i % 2},
        _raw_change,
        cart_open,
        "read the count, fill the drawer's quantity box, blur, wait for the count to change",
    ),
    LatencyCase(
        "search_restaurants",
        lambda i: {"query": ("pizza", "sushi")[i % 2]},
        _raw_search,
        at_home,
        "fill the search box, click Search, wait for the shop's search breadcrumb",
    ),
    LatencyCase(
        "fill_delivery_details",
        _fill_args,
        _raw_fill,
        at_checkout,
        "fill name/address/phone, select the slot, check the payment radio",
    ),
)


async def bench_latency(browser: Browser, shop_url: str, reps: int, report: Report) -> None:
    session = await browser.new_session(shop_url, DEMO_SHOP)
    await session.goto(DEMO_SHOP.start_url(session.shop_url, CLUTTER, SEED))
    toolbox = Toolbox(session, DEMO_SHOP)
    # Warm up: meet every overlay clutter 2 has (the handlers dismiss them; they stay dismissed).
    await toolbox.call("open_restaurant", {"name": RESTAURANT})
    await toolbox.call("add_to_cart", {"dish": "Tiramisu", "quantity": 1})
    await asyncio.sleep(3.5)  # the chat widget opens 1.2-3 s after a load
    await toolbox.call("back_to_restaurants", {})
    await toolbox.call("open_restaurant", {"name": RESTAURANT})
    details: dict[str, Any] = {}
    call = 0
    for case in CASES:
        ours: list[float] = []
        base: list[float] = []
        failures = 0
        for rep in range(reps):
            # Alternate who goes first, so drift in the page (a longer cart, a warmer cache) is shared.
            for who in ("tool", "raw") if rep % 2 == 0 else ("raw", "tool"):
                await case.setup(toolbox)
                toolbox.new_breadcrumbs()  # the setup's and the baseline's news are not this call's
                session.take_dismissed()
                started = time.perf_counter()
                if who == "tool":
                    result = await toolbox.call(case.tool, case.args(call))
                    ours.append(time.perf_counter() - started)
                    failures += not result.ok
                else:
                    await case.raw(session, call)
                    base.append(time.perf_counter() - started)
                call += 1
        tool_ms, raw_ms = median_ms(ours), median_ms(base)
        ratio = round(tool_ms / raw_ms, 2)
        low, high = _interval(ours, base)
        details[case.tool] = {
            "tool_ms": [round(s * 1000, 1) for s in ours],
            "raw_ms": [round(s * 1000, 1) for s in base],
            "failed_calls": failures,
            "ratio_90pct_interval": [low, high],
            "baseline": case.baseline_note,
        }
        report.rows.append(
            Row(
                "latency",
                case.tool,
                tool_ms,
                raw_ms,
                "ms",
                ratio=ratio,
                target=f"≤ {AT_MOST}×",
                met=ratio <= AT_MOST and failures == 0,
                note=f"{case.baseline_note}; 90 % of resamples of the rounds give {low}–{high}×"
                + (f"; {failures} failed calls" if failures else ""),
            )
        )
        log(f"latency {case.tool}: {tool_ms} ms vs raw {raw_ms} ms")
    # Where a tool call's time goes: the one-round-trip page read it does 2-4 times.
    reads = []
    for _ in range(max(reps, 10)):
        started = time.perf_counter()
        await read_state(session.page, [overlay.selector for overlay in session.handled_overlays])
        reads.append(time.perf_counter() - started)
    round_trips = []
    for _ in range(max(reps, 10)):
        started = time.perf_counter()
        await session.page.evaluate("0")
        round_trips.append(time.perf_counter() - started)
    details["read_state_ms"] = median_ms(reads)
    details["evaluate_round_trip_ms"] = median_ms(round_trips)
    report.details["latency"] = details
    report.notes.append(
        f"Latency: median of {reps} calls each, tool and raw interleaved on one page of one context "
        "(same overlay handlers); the ratio is of the two medians, judged against the target as measured, and "
        "each row's note gives the 5–95 % range of that ratio over bootstrap resamples of the rounds. Tool "
        "time is `Toolbox.call` from JSON arguments to narration. "
        f"One page read (`read_state`) takes {details['read_state_ms']} ms, a bare `evaluate` round trip "
        f"{details['evaluate_round_trip_ms']} ms."
    )
    await session.close()


def _interval(ours: list[float], base: list[float], resamples: int = 2000) -> tuple[float, float]:
    """Where the ratio of the two medians lies in 90 % of bootstrap resamples of the rounds (each round's
    tool call and raw action drawn together, as they ran): how far noise could move the verdict."""
    draw = random.Random(0)
    rounds = list(zip(ours, base, strict=True))
    ratios = []
    for _ in range(resamples):
        sample = draw.choices(rounds, k=len(rounds))
        ratios.append(statistics.median(t for t, _ in sample) / statistics.median(r for _, r in sample))
    cuts = statistics.quantiles(ratios, n=20)
    return round(cuts[0], 2), round(cuts[-1], 2)


async def bench_overlay_handlers(browser: Browser, shop_url: str, reps: int, report: Report) -> None:
    """What the session's overlay handlers cost each Playwright action: the same click and wait on
    two pages of one browser, one with the six `add_locator_handler`s `PageSession` installs, one
    with them removed once the clutter was dismissed."""
    pages = []
    for keep in (True, False):
        session = await browser.new_session(shop_url, DEMO_SHOP)
        await session.goto(DEMO_SHOP.start_url(session.shop_url, CLUTTER, SEED))
        toolbox = Toolbox(session, DEMO_SHOP)
        await toolbox.call("open_restaurant", {"name": RESTAURANT})
        await toolbox.call("add_to_cart", {"dish": "Tiramisu", "quantity": 1})
        pages.append((keep, session))
    await asyncio.sleep(3.5)  # let the chat widget open, then meet it once
    for _keep, session in pages:
        await raw.view_cart(session.page)
        await close_cart(Toolbox(session, DEMO_SHOP).context)
    for keep, session in pages:
        if not keep:
            for locator in raw.overlay_buttons(session.page):
                await session.page.remove_locator_handler(locator)
    timings: dict[bool, list[float]] = {True: [], False: []}
    for rep in range(reps):
        for keep, session in pages if rep % 2 == 0 else pages[::-1]:
            started = time.perf_counter()
            await raw.view_cart(session.page)
            timings[keep].append(time.perf_counter() - started)
            await close_cart(Toolbox(session, DEMO_SHOP).context)
    with_ms, without_ms = median_ms(timings[True]), median_ms(timings[False])
    report.details["overlay_handlers"] = {
        "with_ms": [round(t * 1000, 1) for t in timings[True]],
        "without_ms": [round(t * 1000, 1) for t in timings[False]],
    }
    report.rows.append(
        Row(
            "latency",
            "one click + wait, with the 6 overlay handlers vs none",
            with_ms,
            without_ms,
            "ms",
            ratio=round(with_ms / without_ms, 2),
            note="view_cart's raw action (click the cart button, wait for the drawer) on a page with "
            "PageSession's six locator handlers vs a page whose handlers were removed after the clutter "
            "was dismissed; the tool-latency baselines above run with the handlers, so this cost is "
            "in both columns there",
        )
    )
    log(f"overlay handlers: {with_ms} ms with vs {without_ms} ms without")
    for _keep, session in pages:
        await session.close()
