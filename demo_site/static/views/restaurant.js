// A restaurant's page: header, menu with quantity steppers and Add to cart, reviews.
import { api } from "/static/api.js";
import { record } from "/static/activity.js";
import { addToCart } from "/static/cart.js";
import { clutterLevel, menuDelay, promoBanner, scheduleLayoutShift, wishlistButton } from "/static/clutter.js";
import { el, fill } from "/static/dom.js";
import { money } from "/static/format.js";
import { openOptionsDialog } from "/static/views/options.js";

const CATEGORY_TITLES = { main: "Mains", side: "Sides", dessert: "Desserts", drink: "Drinks", starter: "Starters" };

function categoryTitle(category) {
  return CATEGORY_TITLES[category] || category.charAt(0).toUpperCase() + category.slice(1);
}

function stepper(dish) {
  const disabled = Boolean(dish.sold_out);
  const input = el("input", {
    type: "number",
    min: 1,
    max: 50,
    step: 1,
    value: 1,
    inputmode: "numeric",
    class: "qty-input",
    "aria-label": `Quantity of ${dish.name}`,
    disabled,
  });
  const decrease = el("button", { type: "button", class: "step", "aria-label": `Decrease quantity of ${dish.name}`, disabled: true }, "−");
  const increase = el("button", { type: "button", class: "step", "aria-label": `Increase quantity of ${dish.name}`, disabled }, "+");
  const value = () => {
    const n = Number.parseInt(input.value, 10);
    return Number.isInteger(n) ? Math.min(50, Math.max(1, n)) : 1;
  };
  const sync = (n) => {
    input.value = String(n);
    decrease.disabled = disabled || n <= 1;
    increase.disabled = disabled || n >= 50;
  };
  decrease.addEventListener("click", () => sync(value() - 1));
  increase.addEventListener("click", () => sync(value() + 1));
  input.addEventListener("change", () => sync(value()));
  return { node: el("div", { class: "stepper" }, decrease, input, increase), value, reset: () => sync(1) };
}

/** What a person choosing a dish needs to know before pressing Add: which choices it asks for. */
function optionSummary(dish) {
  return el(
    "p",
    { class: "muted option-summary", "data-testid": "dish-options" },
    dish.options.map((option, i) =>
      el(
        "span",
        { class: "dish-option", "data-testid": "dish-option", "data-option": option.name, "data-required": String(Boolean(option.required)) },
        i ? " · " : "",
        `${option.required ? "Choose" : "Optional"} ${option.name}: `,
        option.choices.map((choice, j) => [j ? ", " : "", el("span", { "data-testid": "option-choice" }, choice.name)]),
      ),
    ),
  );
}

function menuItem(dish, ctx) {
  const qty = stepper(dish);
  const add = el(
    "button",
    { type: "button", class: "btn primary", "data-testid": "add-to-cart", "aria-label": `Add ${dish.name} to cart`, disabled: Boolean(dish.sold_out) },
    "Add to cart",
  );
  add.addEventListener("click", async () => {
    const quantity = qty.value();
    if (dish.options && dish.options.length) {
      openOptionsDialog(dish, quantity, async (options, confirmButton) => {
        const cart = await addToCart(dish, quantity, options, [confirmButton, add]);
        if (cart) qty.reset();
        return cart;
      });
      return;
    }
    if (await addToCart(dish, quantity, {}, add)) qty.reset();
  });
  return el(
    "article",
    { class: "menu-item", "data-testid": "menu-item", "data-dish-id": dish.id, "data-sold-out": String(Boolean(dish.sold_out)), "data-has-options": String(dish.options.length > 0) },
    el(
      "div",
      { class: "menu-item-info" },
      el(
        "h3",
        {},
        el("span", { "data-testid": "dish-name" }, dish.name),
        dish.sold_out ? el("span", { class: "badge sold-out", "data-testid": "sold-out" }, "Sold out") : null,
      ),
      el("p", { class: "description" }, dish.description),
      el(
        "p",
        { class: "price-line" },
        el("span", { class: "price", "data-testid": "dish-price" }, money(dish.price_cents)),
      ),
      dish.options && dish.options.length ? optionSummary(dish) : null,
    ),
    el(
      "div",
      { class: "menu-item-actions" },
      qty.node,
      add,
      clutterLevel() >= 3 ? wishlistButton(dish) : null,
    ),
  );
}

function menuSection(restaurant, ctx) {
  const categories = [];
  for (const dish of restaurant.menu) {
    let group = categories.find((c) => c.name === dish.category);
    if (!group) categories.push((group = { name: dish.category, dishes: [] }));
    group.dishes.push(dish);
  }
  return el(
    "section",
    { class: "menu", "aria-label": "Menu", id: "menu" },
    categories.map((c) =>
      el("div", { class: "menu-category" }, el("h2", {}, categoryTitle(c.name)), c.dishes.map((d) => menuItem(d, ctx))),
    ),
  );
}

function skeleton() {
  return el(
    "section",
    { class: "menu", "aria-label": "Menu", "aria-busy": "true", id: "menu" },
    Array.from({ length: 6 }, () => el("div", { class: "menu-item skeleton", "data-testid": "menu-skeleton", "aria-hidden": "true" })),
  );
}

function reviews(restaurant) {
  const list = restaurant.reviews || [];
  return el(
    "section",
    { class: "reviews", "aria-label": "Reviews" },
    el("h2", {}, "Reviews"),
    list.length
      ? el(
          "ul",
          {},
          list.map((r) =>
            el(
              "li",
              { class: "review" },
              el("p", { class: "review-head" }, el("strong", {}, r.author), " ", el("span", { "aria-label": `${r.stars} out of 5 stars` }, "★".repeat(r.stars))),
              el("p", {}, r.text),
            ),
          ),
        )
      : el("p", { class: "muted" }, "No reviews yet."),
  );
}

function header(restaurant) {
  return el(
    "header",
    { class: "restaurant-header" },
    el("a", { href: "/", class: "back-link" }, "Back to restaurants"),
    el("h1", { "data-testid": "restaurant-name" }, restaurant.name),
    el("p", { class: "description" }, restaurant.description),
    el(
      "ul",
      { class: "facts" },
      el("li", {}, restaurant.cuisine),
      el("li", {}, `★ ${restaurant.rating}`),
      el("li", { "data-testid": "min-order" }, `Minimum order ${money(restaurant.min_order_cents)}`),
      el("li", { "data-testid": "delivery-fee" }, `Delivery fee ${money(restaurant.delivery_fee_cents)}`),
      el("li", {}, `${restaurant.eta_minutes} min`),
    ),
  );
}

export async function renderRestaurant(ctx, id) {
  const started = performance.now();
  const delay = menuDelay(id);
  const loading = api("GET", `/api/restaurants/${encodeURIComponent(id)}`);
  if (delay) {
    // Clutter 3: the page appears with skeletons and the menu arrives late.
    fill(ctx.main, el("h1", { class: "skeleton-title" }, "Loading menu…"), skeleton());
  }
  const restaurant = await loading;
  const remaining = delay - (performance.now() - started);
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
  if (!ctx.isCurrent()) return;
  const menu = menuSection(restaurant, ctx);
  fill(ctx.main, header(restaurant), promoBanner(ctx, `restaurant:${id}`), menu, reviews(restaurant));
  scheduleLayoutShift(ctx, menu, id);
  record("navigate", `opened ${restaurant.name} — ${restaurant.menu.length} dishes`);
  ctx.done();
}
