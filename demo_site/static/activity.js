// Self-narration: every action records an "@action: … at HH:MM:SS" breadcrumb (see docs/shop-contract.md).
import { clock } from "/static/format.js";
import { el, fill } from "/static/dom.js";

const STORAGE_KEY = "shop:activity";
const listeners = [];

function load() {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) || "[]");
    return Array.isArray(stored) ? stored : [];
  } catch {
    return [];
  }
}

/** The breadcrumbs of this tab's session, oldest first; the same array is window.shopActivity. */
export const activity = load();
window.shopActivity = activity;

let list = null;

function item(entry) {
  return el("li", { "data-kind": entry.kind }, entry.message);
}

/**
 * Scroll the list itself to its newest entry. Never scrollIntoView: that also scrolls the window, and
 * every action would drag the page down to the log (screenshots would show the log, not the shop).
 */
function showNewest() {
  list.scrollTop = list.scrollHeight;
}

/** Build the Activity panel (collapsed by default when the clutter level is 2 or more). */
export function mountActivity(container, collapsed) {
  list = el("ol", { class: "activity-list", id: "activity-list" }, activity.map(item));
  const toggle = el(
    "button",
    { type: "button", class: "link-button", "aria-expanded": String(!collapsed), "aria-controls": "activity-list" },
    collapsed ? "Show activity" : "Hide activity",
  );
  list.hidden = collapsed;
  toggle.addEventListener("click", () => {
    list.hidden = !list.hidden;
    toggle.setAttribute("aria-expanded", String(!list.hidden));
    toggle.textContent = list.hidden ? "Show activity" : "Hide activity";
    if (!list.hidden) showNewest();
  });
  fill(container, el("div", { class: "activity-head" }, el("h2", {}, "Activity"), toggle), list);
}

/** Record one breadcrumb: text is the part between "@action: " and " at HH:MM:SS". */
export function record(kind, text) {
  const at = clock();
  const entry = { message: `@action: ${text} at ${at}`, at, kind };
  activity.push(entry);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(activity));
  } catch {
    // Storage full or disabled: the in-memory list and the event still carry the breadcrumb.
  }
  if (list) {
    list.append(item(entry));
    if (!list.hidden) showNewest();
  }
  window.dispatchEvent(new CustomEvent("shop:action", { detail: { ...entry } }));
  for (const listener of listeners) listener(entry);
  return entry;
}

/** Called after every breadcrumb (the clutter counts actions with it). */
export function onRecord(listener) {
  listeners.push(listener);
}
