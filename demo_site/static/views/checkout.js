// Checkout: delivery details, promo code preview, tip, order summary, Place order (idempotent).
import { api } from "/static/api.js";
import { record } from "/static/activity.js";
import { currentCart, loadCart, onCartChange } from "/static/cart.js";
import { el, fill, uniqueId } from "/static/dom.js";
import { lineName, money, reason } from "/static/format.js";
import { busy, clearError, reportError, toast } from "/static/notices.js";

const TIPS = [0, 100, 200, 300, 500];

function field(label, input) {
  const id = uniqueId("field");
  input.id = id;
  return el("div", { class: "field" }, el("label", { for: id }, label), input);
}

function promoSummary(result, subtotal) {
  if (result.discount_cents > 0 && subtotal > 0) return `${Math.round((result.discount_cents * 100) / subtotal)}% off`;
  if (result.free_delivery || /deliver/i.test(result.message || "")) return "free delivery";
  return result.message || "applied";
}

function isFreeDelivery(result) {
  return Boolean(result && result.valid && (result.free_delivery || (result.discount_cents === 0 && /deliver/i.test(result.message || ""))));
}

export async function renderCheckout(ctx) {
  const [cart, config] = await Promise.all([loadCart(), api("GET", "/api/config")]);
  if (!ctx.isCurrent()) return;

  if (!cart.lines.length) {
    fill(ctx.main,
      el("h1", {}, "Checkout"),
      el("p", { "data-testid": "cart-empty" }, "Your cart is empty. ", el("a", { href: "/" }, "Back to restaurants")),
    );
    record("navigate", `opened checkout — cart empty`);
    ctx.done();
    return;
  }

  let promo = null; // the last valid preview {code, discount_cents, ...}
  const name = el("input", { type: "text", name: "name", autocomplete: "name", required: true, maxlength: 80 });
  const address = el("input", { type: "text", name: "address", autocomplete: "street-address", required: true, maxlength: 200 });
  const phone = el("input", { type: "tel", name: "phone", autocomplete: "tel", required: true, maxlength: 30 });
  const slot = el("select", { name: "delivery_slot" }, config.delivery_slots.map((s) => el("option", { value: s }, s)));
  const legendId = uniqueId("payment");
  const payment = el(
    "fieldset",
    { role: "radiogroup", "aria-labelledby": legendId, class: "radios" },
    el("legend", { id: legendId }, "Payment method"),
    config.payment_methods.map((method, i) => {
      const id = uniqueId("pay");
      return el(
        "div",
        { class: "choice" },
        el("input", { type: "radio", name: "payment_method", id, value: method, checked: i === 0 }),
        el("label", { for: id }, method),
      );
    }),
  );
  const promoInput = el("input", { type: "text", name: "promo_code", autocomplete: "off", placeholder: "e.g. WELCOME10" });
  const applyPromo = el("button", { type: "button", class: "btn" }, "Apply promo code");
  const promoResult = el("p", { "data-testid": "promo-result", class: "promo-result", "aria-live": "polite" });
  const tip = el("select", { name: "tip_cents" }, TIPS.map((c) => el("option", { value: c }, c ? money(c) : "No tip")));
  const token = el("input", { type: "hidden", name: "checkout_token", value: cart.checkout_token });
  const place = el("button", { type: "submit", class: "btn primary wide", "data-testid": "place-order" }, "Place order");
  const summary = el("section", { class: "summary card", "data-testid": "order-summary", "aria-label": "Order summary" });

  const renderSummary = () => {
    const c = currentCart();
    if (!c) return;
    token.value = c.checkout_token;
    const discount = promo ? promo.discount_cents : 0;
    const delivery = isFreeDelivery(promo) ? 0 : c.delivery_fee_cents;
    const tipCents = Number(tip.value);
    const total = c.subtotal_cents + delivery + c.service_fee_cents - discount + tipCents;
    const row = (label, value, testid, cls) =>
      el("div", { class: cls ? `total-row ${cls}` : "total-row" }, el("dt", {}, label), el("dd", { "data-testid": testid }, value));
    fill(summary,
      el("h2", {}, "Order summary"),
      el("p", { class: "muted" }, `From ${c.restaurant_name}`),
      el(
        "ul",
        { class: "summary-lines" },
        c.lines.map((l) =>
          el("li", { "data-testid": "summary-line" }, el("span", {}, `${l.quantity} × ${lineName(l.dish_name, l.options)}`), el("span", {}, money(l.line_total_cents))),
        ),
      ),
      el(
        "dl",
        { class: "totals" },
        row("Subtotal", money(c.subtotal_cents), "summary-subtotal"),
        row("Delivery fee", money(delivery), "summary-delivery-fee"),
        row("Service fee", money(c.service_fee_cents), "summary-service-fee"),
        discount ? row(`Discount (${promo.code})`, `−${money(discount)}`, "summary-discount") : null,
        row("Tip", money(tipCents), "summary-tip"),
        row("Total", money(total), "summary-total", "strong"),
      ),
      c.min_order_met
        ? null
        : el("p", { class: "notice", "data-testid": "min-order-notice" }, `Add ${money(c.min_order_cents - c.subtotal_cents)} more to reach the ${money(c.min_order_cents)} minimum`),
    );
    return total;
  };
  onCartChange(() => {
    if (ctx.isCurrent()) renderSummary();
  });
  tip.addEventListener("change", () => {
    const total = renderSummary();
    record("checkout", `chose tip ${tip.selectedOptions[0].textContent} — total ${money(total)}`);
  });

  // Editing the code withdraws the applied one: the summary must never show a discount the order won't get.
  promoInput.addEventListener("input", () => {
    if (promo && promoInput.value.trim().toUpperCase() !== promo.code) {
      promo = null;
      promoResult.textContent = "";
      delete promoResult.dataset.valid;
      renderSummary();
    }
  });

  applyPromo.addEventListener("click", async () => {
    clearError();
    const code = promoInput.value.trim();
    if (!code) {
      promoResult.textContent = "Enter a promo code first.";
      return;
    }
    try {
      const result = await busy(applyPromo, () => api("POST", "/api/promo", { code }));
      const shown = (result.code || code).toUpperCase();
      promoResult.textContent = result.message || (result.valid ? "Promo code applied." : "This promo code cannot be used.");
      promoResult.dataset.valid = String(Boolean(result.valid));
      if (result.valid) {
        promo = { ...result, code: shown };
        record("promo", `promo code ${shown} applied — ${promoSummary(result, currentCart().subtotal_cents)}`);
      } else {
        promo = null;
        const why = (result.message || "not valid").replace(/^The promo code \S+ /i, "");
        record("promo", `promo code ${shown} rejected — ${reason(why)}`);
      }
      renderSummary();
    } catch (error) {
      reportError(`apply promo code ${code}`, error);
    }
  });

  let submitting = false;
  const form = el(
    "form",
    { "aria-label": "Delivery details", class: "checkout-form card", novalidate: true },
    el("h2", {}, "Delivery details"),
    field("Name", name),
    field("Address", address),
    field("Phone", phone),
    field("Delivery time", slot),
    payment,
    el("div", { class: "field" }, el("label", { for: (promoInput.id = uniqueId("promo")) }, "Promo code"), el("div", { class: "inline" }, promoInput, applyPromo)),
    promoResult,
    field("Tip", tip),
    token,
    place,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (submitting) return;
    submitting = true;
    place.disabled = true;
    clearError();
    const data = new FormData(form);
    const body = {
      name: String(data.get("name")).trim(),
      address: String(data.get("address")).trim(),
      phone: String(data.get("phone")).trim(),
      delivery_slot: data.get("delivery_slot"),
      payment_method: data.get("payment_method"),
      tip_cents: Number(data.get("tip_cents")),
      checkout_token: data.get("checkout_token"),
    };
    const code = String(data.get("promo_code") || "").trim();
    if (code) body.promo_code = code;
    try {
      const order = await busy(place, () => api("POST", "/api/orders", body));
      record("order", `placed order #${order.id} — ${money(order.total_cents)}`);
      toast(`Order #${order.id} placed`);
      try {
        await loadCart();
      } catch {
        // The order exists; a stale cart count is fixed by the next page load.
      }
      ctx.navigate(`/orders/${order.id}`);
    } catch (error) {
      reportError("place the order", error);
      if (error.status === 409) {
        try {
          await loadCart();
        } catch {
          // Keep the error that is already shown.
        }
      }
      submitting = false;
      place.disabled = false;
    }
  });

  fill(ctx.main,
    el("h1", {}, "Checkout"),
    el("div", { class: "checkout" }, form, summary),
  );
  const total = renderSummary();
  record("navigate", `opened checkout — total ${money(total)}`);
  ctx.done();
}
