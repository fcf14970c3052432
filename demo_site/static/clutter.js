// Deliberate clutter, levels 0–4 (docs/shop-contract.md, "Clutter"): deterministic for the session's seed,
// and once dismissed, dismissed for the session (sessionStorage). Level 4's unknown popups: surprise.js.
import { activity, onRecord, record } from "/static/activity.js";
import { el, uniqueId } from "/static/dom.js";
import { pick, randInt, seeded } from "/static/rng.js";
import { initSurprises } from "/static/surprise.js";

const STATE_KEY = "shop:clutter";
const PROMO_TEXTS = [
  "Free delivery on your first order over $25 — today only!",
  "Hungry? 20% off desserts after 9 pm.",
  "New: order for a group and split the bill.",
  "Rate your last order and win a $10 voucher.",
  "Lunch deal: any main plus a drink from $9.99.",
];
const CHAT_LINES = [
  "Hi there! I'm Robin from QuickBite support.",
  "Hungry? Ask me anything about our restaurants.",
  "Psst — our sponsored restaurants deliver fastest tonight!",
];

let level = 0;
let seed = 7;
let newsletterOpen = false;
let stillThereOpen = false;

function state() {
  try {
    return { dismissed: {}, navs: 0, stillThere: 0, ...JSON.parse(sessionStorage.getItem(STATE_KEY) || "{}") };
  } catch {
    return { dismissed: {}, navs: 0, stillThere: 0 };
  }
}

function save(next) {
  sessionStorage.setItem(STATE_KEY, JSON.stringify(next));
}

function isDismissed(name) {
  return Boolean(state().dismissed[name]);
}

function dismiss(name, node, breadcrumb) {
  const next = state();
  next.dismissed[name] = true;
  save(next);
  node.remove();
  record("clutter", breadcrumb);
}

function root() {
  return document.getElementById("clutter-root");
}

/** Some overlays wait while a native modal dialog (the options dialog) is open, so they stay clickable. */
function whenNoModal(show) {
  if (document.querySelector("dialog[open]")) setTimeout(() => whenNoModal(show), 300);
  else show();
}

export function clutterLevel() {
  return level;
}

// ---- level 1 ---------------------------------------------------------------------------------------

function cookieBanner() {
  if (isDismissed("cookies")) return;
  const titleId = uniqueId("cookie-title");
  const accept = el("button", { type: "button", class: "btn primary" }, "Accept all");
  const reject = el("button", { type: "button", class: "btn" }, "Reject non-essential");
  const banner = el(
    "div",
    { role: "dialog", "aria-labelledby": titleId, "aria-modal": "false", class: "cookie-banner", "data-testid": "cookie-banner" },
    el("div", { class: "cookie-inner" },
      el("h2", { id: titleId }, "Cookie consent"),
      el("p", {}, "We and our 214 partners use cookies to personalise your cravings, measure our ads and remember your cart. You can change your mind at any time in the settings you will never find."),
      el("div", { class: "cookie-actions" }, reject, accept),
    ),
  );
  accept.addEventListener("click", () => dismiss("cookies", banner, "accepted cookies"));
  reject.addEventListener("click", () => dismiss("cookies", banner, "rejected non-essential cookies"));
  root().append(banner);
}

/** A text-only promo banner for a view (level ≥ 1), or null. */
export function promoBanner(ctx, where) {
  if (level < 1) return null;
  return el("p", { class: "promo-banner", "data-testid": "promo-banner" }, pick(seeded(seed, `promo:${where}`), PROMO_TEXTS));
}

// ---- level 2 ---------------------------------------------------------------------------------------

function appBar() {
  if (isDismissed("app-bar")) return;
  const close = el("button", { type: "button", class: "icon-button", "aria-label": "Dismiss app banner" }, "✕");
  const bar = el(
    "div",
    { class: "app-bar", "data-testid": "app-bar" },
    
    el("span", {}, el("strong", {}, "Get the QuickBite app"), " — faster checkout and app-only deals."),
    el("span", { class: "app-bar-cta" }, "Open in app"),
    close,
  );
  close.addEventListener("click", () => dismiss("app-bar", bar, "dismissed app banner"));
  document.getElementById("top").prepend(bar);
}

function chatWidget() {
  if (isDismissed("chat")) return;
  const rng = seeded(seed, "chat");
  const delay = randInt(rng, 1200, 3000);
  setTimeout(() => {
    if (isDismissed("chat")) return;
    const titleId = uniqueId("chat-title");
    const minimize = el("button", { type: "button", class: "icon-button light", "aria-label": "Minimize chat" }, "—");
    const widget = el(
      "div",
      { role: "dialog", "aria-labelledby": titleId, class: "chat-widget", "data-testid": "chat-widget" },
      el("div", { class: "chat-head" }, el("h2", { id: titleId }, "Chat with us"), minimize),
      el("ul", { class: "chat-lines" }, CHAT_LINES.map((line) => el("li", {}, line))),
      el("div", { class: "chat-input" }, el("input", { type: "text", "aria-label": "Message", placeholder: "Type a message…", disabled: true }), el("button", { type: "button", class: "btn", disabled: true }, "Send")),
    );
    minimize.addEventListener("click", () => dismiss("chat", widget, "minimized chat"));
    root().append(widget);
  }, delay);
}

function newsletter() {
  if (newsletterOpen || isDismissed("newsletter")) return;
  newsletterOpen = true;
  const titleId = uniqueId("newsletter-title");
  const emailId = uniqueId("newsletter-email");
  const noThanks = el("button", { type: "button", class: "btn" }, "No thanks");
  const subscribe = el("button", { type: "button", class: "btn primary" }, "Subscribe");
  const backdrop = el(
    "div",
    { class: "backdrop", "data-testid": "newsletter-backdrop" },
    el(
      "div",
      { role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, class: "modal", "data-testid": "newsletter-modal" },
      el("h2", { id: titleId }, "Subscribe to our newsletter"),
      el("p", {}, "Weekly deals, new restaurants and a free dessert on your birthday."),
      el("div", { class: "field" }, el("label", { for: emailId }, "Email address"), el("input", { type: "email", id: emailId, autocomplete: "off" })),
      el("div", { class: "dialog-actions" }, noThanks, subscribe),
    ),
  );
  const close = (breadcrumb) => {
    newsletterOpen = false;
    dismiss("newsletter", backdrop, breadcrumb);
  };
  noThanks.addEventListener("click", () => close("dismissed newsletter popup"));
  subscribe.addEventListener("click", () => close("subscribed to the newsletter"));
  root().append(backdrop);
}

let toastTimer = null;

function promoToast(navs) {
  if (isDismissed("promo-toast") || root().querySelector(".promo-toast")) return;
  const rng = seeded(seed, `toast:${navs}`);
  if (rng() >= 0.5) return;
  const close = el("button", { type: "button", class: "icon-button", "aria-label": "Close promotion" }, "✕");
  const node = el(
    "div",
    { class: "promo-toast", "data-testid": "promo-toast", role: "note" },
    el("span", {}, el("strong", {}, "Free dessert today!"), " With any order over $20."),
    close,
  );
  close.addEventListener("click", () => {
    clearTimeout(toastTimer);
    dismiss("promo-toast", node, "closed promotion");
  });
  root().append(node);
  toastTimer = setTimeout(() => node.remove(), randInt(rng, 3000, 5000));
}

// ---- level 3 ---------------------------------------------------------------------------------------

function stillThereThresholds() {
  const rng = seeded(seed, "still-there");
  const first = randInt(rng, 4, 7);
  return [first, first + randInt(rng, 8, 12)];
}

function stillThere() {
  if (stillThereOpen) return;
  stillThereOpen = true;
  const titleId = uniqueId("still-title");
  const here = el("button", { type: "button", class: "btn primary" }, "I'm still here");
  const backdrop = el(
    "div",
    { class: "backdrop" },
    el(
      "div",
      { role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, class: "modal", "data-testid": "still-there" },
      el("h2", { id: titleId }, "Are you still there?"),
      el("p", {}, "You have been quiet for a while. We kept your cart for you."),
      el("div", { class: "dialog-actions" }, here),
    ),
  );
  here.addEventListener("click", () => {
    stillThereOpen = false;
    backdrop.remove();
    record("clutter", "confirmed I'm still here");
  });
  root().append(backdrop);
}

function countActions(entry) {
  if (entry.kind === "clutter") return;
  const thresholds = stillThereThresholds();
  const current = state();
  if (current.stillThere >= thresholds.length) return;
  const count = activity.filter((e) => e.kind !== "clutter").length;
  if (count < thresholds[current.stillThere]) return;
  current.stillThere += 1;
  save(current);
  setTimeout(() => whenNoModal(stillThere), 250);
}

/** Clutter 3: how long the menu of a restaurant hides behind skeletons (0 below level 3). */
export function menuDelay(restaurantId) {
  return level >= 3 ? randInt(seeded(seed, `menu:${restaurantId}`), 300, 900) : 0;
}

/** Clutter 3: a banner pushes the menu down after a seeded delay. */
export function scheduleLayoutShift(ctx, menu, restaurantId) {
  if (level < 3) return;
  const delay = randInt(seeded(seed, `shift:${restaurantId}`), 400, 1200);
  setTimeout(() => {
    if (!ctx.isCurrent() || !menu.isConnected) return;
    menu.before(
      el("div", { class: "shift-banner", "data-testid": "layout-shift-banner" }, el("strong", {}, "Tonight only: "), "order any two mains and get a dessert on us. No code needed."),
    );
  }, delay);
}

/** Clutter 3: the look-alike button beside "Add to cart". */
export function wishlistButton(dish) {
  const button = el(
    "button",
    { type: "button", class: "btn primary wishlist", "data-testid": "add-to-wishlist", "aria-label": `Add ${dish.name} to wishlist` },
    "Add to wishlist",
  );
  button.addEventListener("click", () => {
    button.textContent = "On your wishlist ♥";
    record("clutter", `added ${dish.name} to the wishlist`);
  });
  return button;
}

// ---- wiring ----------------------------------------------------------------------------------------

export function initClutter(session) {
  level = Math.max(0, Math.min(4, Number(session.clutter) || 0));
  seed = Number.isFinite(Number(session.seed)) ? Number(session.seed) : 7;
  document.body.dataset.clutter = String(level);
  if (level >= 1) cookieBanner();
  if (level >= 2) {
    appBar();
    chatWidget();
  }
  if (level >= 3) onRecord(countActions);
  if (level >= 4) initSurprises(seed);
}

/** Called by the router once a view has rendered. */
export function viewRendered() {
  const current = state();
  current.navs += 1;
  save(current);
  if (level < 2) return;
  if (current.navs >= 2) whenNoModal(newsletter);
  promoToast(current.navs);
}
