"""The demo shop's page reader: its DOM, looked up the way its contract (docs/shop-contract.md) says —
by ``data-testid``, accessible labels and roles — into a `PageState`.

One ``evaluate`` call reads everything, because a tool reads the state before and after every action
and each extra round trip is latency the model waits on. Everything read is *page text*: untrusted
data, never instructions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from webagent.narration.state import PageState, state_from_raw
from webagent.sites.generic.reader import OPEN_FACTS_JS, PAGE_FACTS_JS, REGIONS_JS

__all__ = ["READ_STATE_JS", "Evaluates", "read_state"]

# Reads the page per docs/shop-contract.md. Text is collapsed (whitespace) and bounded so that a
# hostile page cannot flood the model's context through a narration.
READ_STATE_JS = (
    r"""
(QUIET) => {
  const clip = (s, n = 160) => (s || "").replace(/\s+/g, " ").trim().slice(0, n);
  const byId = (root, id) => root.querySelector(`[data-testid="${id}"]`);
  const all = (root, id) => Array.from(root.querySelectorAll(`[data-testid="${id}"]`));
  const text = (root, id) => { const el = root && byId(root, id); return el ? clip(el.textContent) : ""; };
  const shown = (el) => !!el && !el.hidden && el.getClientRects().length > 0
      && getComputedStyle(el).visibility !== "hidden";
  const labelled = (name) => {
    const label = Array.from(document.querySelectorAll("label")).find(
      (l) => clip(l.textContent).replace(/\s*\*$/, "") === name);
    if (label && label.control) return label.control;
    return document.querySelector(`[aria-label="${name}"]`);
  };
  const value = (el) => {
    if (!el) return "";
    if (el.tagName === "SELECT") {
      const opt = el.selectedOptions[0];
      return opt && opt.value !== "" ? clip(opt.textContent) : "";
    }
    return clip(el.value, 200);
  };
  const body = document.body;
  const state = { view: (body && body.dataset.view) || "unknown", url: location.href,
    activity_count: (window.shopActivity || []).length };
  const cartButton = byId(document, "cart-button");
  state.cart_count = parseInt(text(document, "cart-count"), 10) || 0;
  const drawer = byId(document, "cart-drawer");
  state.cart_open = shown(drawer);
  state.cart_lines = drawer ? all(drawer, "cart-line").map((line) => ({
    name: text(line, "line-name"),
    quantity: parseInt((line.querySelector('[role="spinbutton"], input') || {}).value, 10) || 0,
    total: text(line, "line-total"),
  })) : [];
  state.cart_total = drawer ? text(drawer, "cart-total") : "";
  state.cart_subtotal = drawer ? text(drawer, "cart-subtotal") : "";
  const notice = drawer && byId(drawer, "min-order-notice");
  state.min_order_notice = notice && !notice.hidden && clip(notice.textContent) ? clip(notice.textContent) : null;
  // What is open over the page and where typing goes, as on any page; the drawer is no dialog, and the
  // error box, the options dialog's alert and the activity log are read on their own.
  Object.assign(state, (__OPEN__)(QUIET, {
    dialogs: '[data-testid="cart-drawer"]',
    notices: '[data-testid="error"], [data-testid="options-dialog"], [data-testid="activity-log"]',
    label: "testid",
  }));
  state.errors = all(document, "error").filter((e) => shown(e) && clip(e.textContent))
    .map((e) => clip(e.textContent, 240));
  const optionsDialog = byId(document, "options-dialog");
  const optionAlert = optionsDialog && shown(optionsDialog) && optionsDialog.querySelector('[role="alert"]');
  state.option_error = optionAlert && clip(optionAlert.textContent) ? clip(optionAlert.textContent) : null;
  state.restaurant = null;
  state.restaurants = [];
  state.menu = [];
  if (state.view === "restaurants") {
    state.restaurants = all(document, "restaurant-card").map((card) => ({
      name: clip((card.querySelector("h2, h3, [role=heading]") || card).textContent, 80),
      cuisine: clip(card.dataset.cuisine || text(card, "restaurant-cuisine"), 40),
      sponsored: card.dataset.sponsored === "true",
    }));
    state.no_results = !!byId(document, "no-results") && shown(byId(document, "no-results"));
  }
  if (state.view === "restaurant") {
    state.restaurant = text(document, "restaurant-name") || null;
    state.min_order = text(document, "min-order");
    state.menu = all(document, "menu-item").map((item) => ({
      name: text(item, "dish-name"),
      price: text(item, "dish-price"),
      sold_out: item.dataset.soldOut === "true",
      has_options: item.dataset.hasOptions === "true",
      options: Array.from(item.querySelectorAll('[data-testid="dish-option"]')).map((o) => ({
        name: clip(o.dataset.option, 60),
        required: o.dataset.required === "true",
        choices: Array.from(o.querySelectorAll('[data-testid="option-choice"]')).slice(0, 12).map((c) => clip(c.textContent, 60)),
      })),
    }));
    state.menu_loading = all(document, "menu-skeleton").some(shown);
  }
  if (state.view === "checkout") {
    const token = document.querySelector('[name="checkout_token"], [data-checkout-token]');
    const payment = document.querySelector('[role="radiogroup"] input[type="radio"]:checked, input[name="payment_method"]:checked');
    const paymentLabel = payment ? clip((payment.labels && payment.labels[0] ? payment.labels[0].textContent : payment.value)) : "";
    const promoShown = byId(document, "promo-result");
    state.checkout = {
      name: value(labelled("Name")),
      address: value(labelled("Address")),
      phone: value(labelled("Phone")),
      delivery_slot: value(labelled("Delivery time")),
      payment_method: paymentLabel,
      promo_code: value(labelled("Promo code")),
      promo_result: text(document, "promo-result"),
      promo_valid: promoShown && promoShown.dataset.valid ? promoShown.dataset.valid === "true" : null,
      tip: value(labelled("Tip")),
      checkout_token: token ? (token.value || token.dataset.checkoutToken || "") : "",
      slots: Array.from((labelled("Delivery time") || {}).options || []).filter((o) => o.value !== "")
        .slice(0, 24).map((o) => clip(o.textContent, 40)),
      payments: Array.from(document.querySelectorAll('[role="radiogroup"] input[type="radio"], input[name="payment_method"]'))
        .slice(0, 8).map((r) => clip(r.labels && r.labels[0] ? r.labels[0].textContent : r.value, 40)),
    };
    state.summary_total = text(document, "summary-total");
  }
  if (state.view === "confirmation") {
    const number = text(document, "order-number").match(/(\d+)/);
    state.order_number = number ? parseInt(number[1], 10) : null;
    state.order_total = text(document, "order-total");
    state.order_lines = all(document, "order-line").map((line) => clip((line.querySelector("span") || line).textContent, 120));
  }
  if (state.view === "orders") {
    state.orders = all(document, "order-row").map((row) => parseInt(row.dataset.orderId, 10)).filter((n) => n > 0);
  }
  if (state.view === "unknown") Object.assign(state, (__PAGE_FACTS__)(), (__REGIONS__)());  // a page not the shop's: as any page
  return state;
}
""".replace("__PAGE_FACTS__", PAGE_FACTS_JS.strip())
    .replace("__OPEN__", OPEN_FACTS_JS.strip())
    .replace("__REGIONS__", REGIONS_JS.strip())
)


class Evaluates(Protocol):
    """Anything that runs a script in the page: a Playwright ``Page`` (this module imports no browser code)."""

    async def evaluate(self, expression: str, arg: Any = None) -> Any: ...


async def read_state(page: Evaluates, quiet: Sequence[str] = ()) -> PageState:
    """Read the page's state in one round trip; dialogs matching a ``quiet`` CSS selector are left out."""
    raw = await page.evaluate(READ_STATE_JS, list(quiet))
    return state_from_raw(raw)
