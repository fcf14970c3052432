// Entry point: session, header, History API router. Views live in /static/views/.
import { api, ApiError } from "/static/api.js";
import { mountActivity } from "/static/activity.js";
import { closeCart, loadCart, mountCart } from "/static/cart.js";
import { initClutter, viewRendered } from "/static/clutter.js";
import { el, fill } from "/static/dom.js";
import { clearError, reportError } from "/static/notices.js";
import { renderCheckout } from "/static/views/checkout.js";
import { renderConfirmation } from "/static/views/confirmation.js";
import { renderOrders } from "/static/views/orders.js";
import { renderRestaurant } from "/static/views/restaurant.js";
import { renderRestaurants } from "/static/views/restaurants.js";

const ROUTES = [
  { pattern: /^\/$/, view: "restaurants", render: renderRestaurants, what: () => "open the restaurant list" },
  { pattern: /^\/restaurant\/([^/]+)\/?$/, view: "restaurant", render: renderRestaurant, what: (id) => `open restaurant ${id}` },
  { pattern: /^\/checkout\/?$/, view: "checkout", render: renderCheckout, what: () => "open checkout" },
  { pattern: /^\/orders\/?$/, view: "orders", render: renderOrders, what: () => "open order history" },
  { pattern: /^\/orders\/(\d+)\/?$/, view: "confirmation", render: renderConfirmation, what: (id) => `open order #${id}` },
];

let renderCount = 0;

export function navigate(path) {
  if (path !== location.pathname + location.search) history.pushState({}, "", path);
  render();
}

function notFound(main) {
  fill(main,
    el("h1", {}, "Page not found"),
    el("p", {}, "There is nothing at this address. ", el("a", { href: "/" }, "Back to restaurants")),
  );
}

async function render() {
  const token = ++renderCount;
  const isCurrent = () => token === renderCount;
  document.body.dataset.view = "loading";
  clearError();
  closeCart();
  const main = document.getElementById("main");
  fill(main, el("p", { class: "loading", "aria-busy": "true" }, "Loading…"));
  const path = decodeURIComponent(location.pathname);
  const route = ROUTES.find((r) => r.pattern.test(path));
  if (!route) {
    notFound(main);
    document.body.dataset.view = "not-found";
    return;
  }
  const params = path.match(route.pattern).slice(1);
  const ctx = {
    main,
    isCurrent,
    navigate,
    params: new URLSearchParams(location.search),
    /** Mark the view rendered: sets body[data-view] and lets the clutter react to the navigation. */
    done() {
      if (!isCurrent()) return;
      document.body.dataset.view = route.view;
      viewRendered(route.view, ctx);
    },
  };
  try {
    await route.render(ctx, ...params);
  } catch (error) {
    if (!(error instanceof ApiError) || !isCurrent()) throw error;
    const retry = el("button", { type: "button", class: "btn" }, "Try again");
    retry.addEventListener("click", () => render());
    fill(main, el("h1", {}, "Something went wrong"), el("p", {}, "The page could not be loaded. "), retry);
    reportError(route.what(...params), error);
    ctx.done();
  }
}

function interceptLinks(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  const link = event.target.closest("a[href]");
  if (!link || link.target || link.hasAttribute("download")) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/static/") || url.pathname.startsWith("/api/")) return;
  if (url.hash && url.pathname === location.pathname) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
}

async function boot() {
  let session = { clutter: 0, seed: 7 };
  try {
    session = await api("GET", "/api/session");
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  mountActivity(document.getElementById("activity"), session.clutter >= 2);
  mountCart(navigate);
  document.addEventListener("click", interceptLinks);
  window.addEventListener("popstate", () => render());
  initClutter(session);
  try {
    await loadCart();
  } catch (error) {
    reportError("load the cart", error);
  }
  await render();
}

boot();
