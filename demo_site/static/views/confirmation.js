// Order confirmation (/orders/{id}); another session's order is "not found".
import { api, ApiError } from "/static/api.js";
import { record } from "/static/activity.js";
import { el, fill } from "/static/dom.js";
import { lineName, money } from "/static/format.js";
import { reportError } from "/static/notices.js";

function row(label, value, testid) {
  return el("div", { class: "total-row" }, el("dt", {}, label), el("dd", testid ? { "data-testid": testid } : {}, value));
}

export async function renderConfirmation(ctx, id) {
  let order;
  try {
    order = await api("GET", `/api/orders/${encodeURIComponent(id)}`);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404 || !ctx.isCurrent()) throw error;
    fill(ctx.main,
      el("h1", {}, "Order not found"),
      el("p", { "data-testid": "order-not-found" }, `There is no order #${id} in this session. `, el("a", { href: "/orders" }, "Your order history")),
    );
    reportError(`open order #${id}`, error);
    ctx.done();
    return;
  }
  if (!ctx.isCurrent()) return;
  fill(ctx.main,
    el(
      "div",
      { class: "card confirmation" },
      el("h1", {}, "Order confirmed"),
      el("p", { class: "order-number", "data-testid": "order-number" }, `Order #${order.id}`),
      el("p", {}, `From ${order.restaurant_name} · ${order.status}`),
      el(
        "ul",
        { class: "summary-lines" },
        order.items.map((item) =>
          el("li", { "data-testid": "order-line" }, el("span", {}, `${item.quantity} × ${lineName(item.dish_name, item.options)}`), el("span", {}, money(item.line_total_cents))),
        ),
      ),
      el(
        "dl",
        { class: "totals" },
        row("Subtotal", money(order.subtotal_cents)),
        row("Delivery fee", money(order.delivery_fee_cents)),
        row("Service fee", money(order.service_fee_cents)),
        order.discount_cents ? row(`Discount (${order.promo_code})`, `−${money(order.discount_cents)}`, "order-discount") : null,
        row("Tip", money(order.tip_cents)),
        el("div", { class: "total-row strong" }, el("dt", {}, "Total"), el("dd", { "data-testid": "order-total" }, money(order.total_cents))),
      ),
      el(
        "dl",
        { class: "details" },
        row("Delivery time", order.delivery_slot, "order-slot"),
        row("Payment method", order.payment_method, "order-payment"),
        row("Address", order.address, "order-address"),
        row("Name", order.name),
        row("Phone", order.phone),
      ),
      el("p", {}, el("a", { href: "/orders" }, "Your order history"), " · ", el("a", { href: "/" }, "Order something else")),
    ),
  );
  record("navigate", `opened order #${order.id} — ${money(order.total_cents)}`);
  ctx.done();
}
