// The restaurant list: search box, cuisine filter, cards.
import { api } from "/static/api.js";
import { record } from "/static/activity.js";
import { promoBanner } from "/static/clutter.js";
import { el, fill } from "/static/dom.js";
import { money } from "/static/format.js";
import { busy, clearError, reportError } from "/static/notices.js";

function card(restaurant) {
  return el(
    "article",
    {
      class: "card restaurant-card",
      "data-testid": "restaurant-card",
      "data-restaurant-id": restaurant.id,
      "data-sponsored": String(Boolean(restaurant.sponsored)),
    },
    el(
      "div",
      { class: "card-head" },
      el("h2", {}, restaurant.name),
      restaurant.sponsored ? el("span", { class: "badge sponsored", "data-testid": "sponsored-badge" }, "Sponsored") : null,
    ),
    el("p", { class: "muted" }, restaurant.cuisine, " · ", el("span", { "aria-label": `Rated ${restaurant.rating} out of 5` }, `★ ${restaurant.rating}`), ` · ${restaurant.eta_minutes} min`),
    el("p", { class: "description" }, restaurant.description),
    el(
      "ul",
      { class: "facts" },
      el("li", {}, `Min. order ${money(restaurant.min_order_cents)}`),
      el("li", {}, `Delivery fee ${money(restaurant.delivery_fee_cents)}`),
    ),
    el("a", { class: "btn", href: `/restaurant/${encodeURIComponent(restaurant.id)}` }, `Open ${restaurant.name}`),
  );
}

function renderList(container, restaurants) {
  if (!restaurants.length) {
    fill(container,
      el("p", { class: "empty", "data-testid": "no-results" }, "No restaurants match your search. Try another dish or cuisine."),
    );
  } else {
    fill(container, ...restaurants.map(card));
  }
}

function query(q, cuisine) {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (cuisine) params.set("cuisine", cuisine);
  return params.toString();
}

export async function renderRestaurants(ctx) {
  const q = ctx.params.get("q") || "";
  const cuisine = ctx.params.get("cuisine") || "";
  const [cuisines, restaurants] = await Promise.all([
    api("GET", "/api/cuisines"),
    api("GET", `/api/restaurants?${query(q, cuisine)}`),
  ]);
  if (!ctx.isCurrent()) return;

  const search = el("input", {
    type: "search",
    id: "search-input",
    name: "q",
    "aria-label": "Search restaurants",
    placeholder: "Search restaurants, cuisines or dishes",
    "data-testid": "search-input",
    value: q,
    autocomplete: "off",
  });
  const select = el(
    "select",
    { id: "cuisine-filter", name: "cuisine", "aria-label": "Cuisine", "data-testid": "cuisine-filter" },
    el("option", { value: "" }, "All cuisines"),
    cuisines.map((c) => el("option", { value: c }, c)),
  );
  select.value = cuisine;
  const submit = el("button", { type: "submit", class: "btn primary" }, "Search");
  const list = el("div", { class: "grid", id: "restaurant-list" });
  renderList(list, restaurants);

  const form = el("form", { role: "search", class: "search-bar" }, search, select, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearError();
    const text = search.value.trim();
    const chosen = select.value;
    try {
      const found = await busy(submit, () => api("GET", `/api/restaurants?${query(text, chosen)}`));
      if (!ctx.isCurrent()) return;
      const qs = query(text, chosen);
      history.replaceState({}, "", qs ? `/?${qs}` : "/");
      renderList(list, found);
      record("search", `searched "${text}" in ${chosen || "all cuisines"} — ${found.length} restaurants`);
    } catch (error) {
      reportError(`search "${text}"`, error);
    }
  });

  fill(ctx.main,
    el("h1", {}, "Restaurants near you"),
    promoBanner(ctx, "list"),
    form,
    list,
  );
  record("navigate", `opened the restaurant list — ${restaurants.length} restaurants`);
  ctx.done();
}
