"""A payment the page turns down is not reported as paid (found by a reviewer, stop 60): an approved "Pay
$42.00" whose press went through, on a page that then said "Your card was declined.", ended "Paid: …". Now
the run says it may have paid and what the page said; a page that thanks the person still reads as paid.
Pages written here; four refusals beyond the reviewer's, in an alert, a status and a live region (written
after `claims.REFUSED_WORDS`, by the same hand: the reviewer's round is the outside check)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_blind_gate import Ledger, fresh, ledger, page, press, run
from webagent.browser.session import Browser

__all__ = ["fresh", "ledger"]


def pay_page(after: str, role: str = "alert") -> str:
    """A checkout whose Pay button shows ``after`` in a ``role`` region (or a live region), as its own
    script decides."""
    where = "aria-live='assertive'" if role == "live" else f"role='{role}'"
    words = after.replace("'", "\\'")  # in a single-quoted script string, in a double-quoted attribute
    return page(
        f"<main><h1>Checkout</h1><p>2 items · Total $42.00</p>"
        f"<button onclick=\"rec('pay'); document.getElementById('said').textContent = '{words}'\">"
        f"Pay $42.00</button><p id='said' {where}></p></main>",
        title="Checkout",
        view=False,
    )


@pytest.mark.parametrize(
    ("after", "role"),
    [
        ("Your card was declined.", "alert"),
        ("Payment failed: please try another card.", "status"),
        ("Transaction not authorised by your bank.", "alert"),
        ("We couldn't charge your card.", "live"),
        ("Sorry, insufficient funds.", "status"),
    ],
)
def test_a_payment_the_page_turns_down_is_not_reported_as_paid(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path, after: str, role: str
) -> None:
    url, _ = fresh.add(pay_page(after, role))
    result, _, _ = run(
        agent_browser, url, tmp_path, [press("Pay $42.00")], approve="ask", prompt=lambda question: "yes"
    )
    fresh.settle(lambda: "pay" in fresh.hits)
    assert fresh.hits == ["pay"], fresh.hits  # it was pressed, approved
    assert result.outcome != "paid", (result.outcome, result.message)
    assert result.message.startswith("May have paid"), result.message
    assert after.split(":")[0].rstrip(".") in result.message, result.message


def test_a_payment_the_page_thanks_for_is_reported_as_paid(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(pay_page("Payment received: thank you!", "status"))
    result, _, _ = run(
        agent_browser, url, tmp_path, [press("Pay $42.00")], approve="ask", prompt=lambda question: "yes"
    )
    assert result.outcome == "paid" and result.message.startswith("Paid: "), (result.outcome, result.message)
