// Order history for this session, newest first.
import { api } from "/static/api.js";
import { record } from "/static/activity.js";
import { el, fill } from "/static/dom.js";
import { money } from "/static/format.js";

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export async function renderOrders(ctx) {
  const orders = await api("GET", "/api/orders");
  if (!ctx.isCurrent()) return;
  fill(ctx.main,
    el("h1", {}, "Your orders"),
    orders.length
      ? el(
          "ul",
          { class: "order-list" },
          orders.map((order) => {
            const count = order.items.reduce((sum, item) => sum + item.quantity, 0);
            return el(
              "li",
              { class: "card order-row", "data-testid": "order-row", "data-order-id": order.id },
              el("a", { href: `/orders/${order.id}` }, `Order #${order.id}`),
              el("span", {}, order.restaurant_name),
              el("span", { class: "muted" }, `${count} items · ${when(order.created_at)}`),
              el("strong", {}, money(order.total_cents)),
            );
          }),
        )
      : el("p", { class: "empty", "data-testid": "no-orders" }, "No orders yet. ", el("a", { href: "/" }, "Find something to eat")),
  );
  record("navigate", `opened order history — ${orders.length} orders`);
  ctx.done();
}
