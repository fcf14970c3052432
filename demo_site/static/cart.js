// The cart: state from the server, the header count and the cart drawer.
import { api } from "/static/api.js";
import { record } from "/static/activity.js";
import { el, fill } from "/static/dom.js";
import { cartSummary, lineName, money } from "/static/format.js";
import { busy, clearError, reportError, toast } from "/static/notices.js";

let cart = null;
let navigateTo = () => {};
const changeListeners = [];

export function currentCart() {
  return cart;
}

/** Called whenever the cart changed (views with a summary re-render with it). */
export function onCartChange(listener) {
  changeListeners.push(listener);
}

function setCart(next) {
  cart = next;
  renderCount();
  renderDrawer();
  for (const listener of changeListeners) listener(cart);
}

export async function loadCart() {
  setCart(await api("GET", "/api/cart"));
  return cart;
}

function renderCount() {
  const count = cart ? cart.item_count : 0;
  const button = document.getElementById("cart-button");
  button.setAttribute("aria-label", `Cart, ${count} items`);
  document.getElementById("cart-count").textContent = String(count);
}

/** POST a dish to the cart; returns the new cart or null after reporting the error. */
export async function addToCart(dish, quantity, options, button) {
  clearError();
  const name = lineName(dish.name, options);
  try {
    const next = await busy(button, () => api("POST", "/api/cart/items", { dish_id: dish.id, quantity, options }));
    setCart(next);
    record("cart", `added ${quantity} × ${name} to the cart — ${cartSummary(next)}`);
    toast(`Added ${quantity} × ${name} to the cart`);
    return next;
  } catch (error) {
    reportError(`add ${dish.name}`, error);
    return null;
  }
}

async function changeQuantity(line, quantity, controls) {
  clearError();
  const name = lineName(line.dish_name, line.options);
  try {
    const next = await busy(controls, () =>
      api("PATCH", `/api/cart/items/${encodeURIComponent(line.line_id)}`, { quantity }),
    );
    setCart(next);
    record("cart", `changed ${name} to ${quantity} — ${cartSummary(next)}`);
  } catch (error) {
    reportError(`change ${name}`, error);
    renderDrawer();
  }
}

async function removeLine(line, controls) {
  clearError();
  const name = lineName(line.dish_name, line.options);
  try {
    const next = await busy(controls, () => api("DELETE", `/api/cart/items/${encodeURIComponent(line.line_id)}`));
    setCart(next);
    record("cart", `removed ${name} from the cart — ${cartSummary(next)}`);
  } catch (error) {
    reportError(`remove ${name}`, error);
  }
}

async function emptyCart(button) {
  clearError();
  try {
    const next = await busy(button, () => api("DELETE", "/api/cart"));
    setCart(next);
    record("cart", `emptied the cart — ${cartSummary(next)}`);
  } catch (error) {
    reportError("empty the cart", error);
  }
}

function cartLine(line) {
  const name = lineName(line.dish_name, line.options);
  const input = el("input", {
    type: "number",
    min: 1,
    max: 50,
    step: 1,
    inputmode: "numeric",
    value: line.quantity,
    "aria-label": `Quantity of ${name}`,
    class: "qty-input",
  });
  const decrease = el(
    "button",
    { type: "button", class: "step", "aria-label": `Decrease quantity of ${name}`, disabled: line.quantity <= 1 },
    "−",
  );
  const increase = el(
    "button",
    { type: "button", class: "step", "aria-label": `Increase quantity of ${name}`, disabled: line.quantity >= 50 },
    "+",
  );
  const remove = el("button", { type: "button", class: "link-button danger", "aria-label": `Remove ${name}` }, "Remove");
  const controls = [input, decrease, increase, remove];
  decrease.addEventListener("click", () => changeQuantity(line, line.quantity - 1, controls));
  increase.addEventListener("click", () => changeQuantity(line, line.quantity + 1, controls));
  input.addEventListener("change", () => {
    const quantity = Number.parseInt(input.value, 10);
    if (Number.isInteger(quantity) && quantity >= 1 && quantity <= 50 && quantity !== line.quantity) {
      changeQuantity(line, quantity, controls);
    } else {
      input.value = String(line.quantity);
    }
  });
  remove.addEventListener("click", () => removeLine(line, controls));
  return el(
    "li",
    { class: "cart-line", "data-testid": "cart-line", "data-line-id": line.line_id },
    el(
      "div",
      { class: "cart-line-top" },
      el("span", { class: "line-name", "data-testid": "line-name" }, name),
      el("span", { class: "line-total", "data-testid": "line-total" }, money(line.line_total_cents)),
    ),
    el(
      "div",
      { class: "cart-line-bottom" },
      el("div", { class: "stepper" }, decrease, input, increase),
      el("span", { class: "muted" }, `${money(line.unit_price_cents)} each`),
      remove,
    ),
  );
}

function totalRow(label, testid, cents, strong = false) {
  return el(
    "div",
    { class: strong ? "total-row strong" : "total-row" },
    el("dt", {}, label),
    el("dd", { "data-testid": testid }, money(cents)),
  );
}

function renderDrawer() {
  const body = document.getElementById("cart-body");
  if (!body || !cart) return;
  if (!cart.lines.length) {
    fill(body,
      el("p", { class: "cart-empty", "data-testid": "cart-empty" }, "Your cart is empty. Add a dish from a restaurant's menu."),
    );
    return;
  }
  const checkout = el(
    "button",
    { type: "button", class: "btn primary wide", "data-testid": "checkout-button", disabled: !cart.min_order_met },
    "Go to checkout",
  );
  checkout.addEventListener("click", () => {
    closeCart();
    navigateTo("/checkout");
  });
  const empty = el("button", { type: "button", class: "link-button danger" }, "Empty cart");
  empty.addEventListener("click", () => emptyCart(empty));
  const missing = cart.min_order_cents - cart.subtotal_cents;
  fill(body,
    el("p", { class: "cart-restaurant" }, "From ", el("strong", {}, cart.restaurant_name || "")),
    el("ul", { class: "cart-lines" }, cart.lines.map(cartLine)),
    el(
      "dl",
      { class: "totals" },
      totalRow("Subtotal", "cart-subtotal", cart.subtotal_cents),
      totalRow("Delivery fee", "cart-delivery-fee", cart.delivery_fee_cents),
      totalRow("Service fee", "cart-service-fee", cart.service_fee_cents),
      totalRow("Total", "cart-total", cart.total_cents, true),
    ),
    cart.min_order_met
      ? null
      : el(
          "p",
          { class: "notice", "data-testid": "min-order-notice" },
          `Add ${money(missing)} more to reach the ${money(cart.min_order_cents)} minimum`,
        ),
    checkout,
    el("div", { class: "cart-actions" }, empty),
  );
}

export function openCart() {
  const drawer = document.getElementById("cart-drawer");
  drawer.hidden = false;
  document.getElementById("cart-button").setAttribute("aria-expanded", "true");
  document.getElementById("cart-close").focus();
  const count = cart ? cart.item_count : 0;
  const subtotal = cart ? cart.subtotal_cents : 0;
  record("navigate", `opened the cart — ${count} items, ${money(subtotal)}`);
}

export function closeCart() {
  const drawer = document.getElementById("cart-drawer");
  if (drawer.hidden) return;
  drawer.hidden = true;
  document.getElementById("cart-button").setAttribute("aria-expanded", "false");
}

/** Wire the header button and the drawer; `navigate` is the router's (avoids an import cycle). */
export function mountCart(navigate) {
  navigateTo = navigate;
  document.getElementById("cart-button").addEventListener("click", () => {
    const drawer = document.getElementById("cart-drawer");
    if (drawer.hidden) openCart();
    else closeCart();
  });
  document.getElementById("cart-close").addEventListener("click", closeCart);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !document.querySelector("dialog[open]")) closeCart();
  });
  renderCount();
}
