// The page-level notices: one role=alert for errors (never auto-hidden), one role=status toast.
import { record } from "/static/activity.js";
import { reason } from "/static/format.js";

let toastTimer = null;

function errorBox() {
  return document.getElementById("error");
}

/**
 * Show an error until the next action clears it. The alert sits in the sticky top bar, so it is in
 * view wherever the page is scrolled; scrolling to it would yank the page away from what was clicked.
 */
export function showError(message) {
  const box = errorBox();
  box.textContent = message;
  box.hidden = false;
}

export function clearError() {
  const box = errorBox();
  box.textContent = "";
  box.hidden = true;
}

/**
 * Report a failed action: an `error` breadcrumb "could not {what} — {reason}" and the alert.
 * Errors that are not from the API (bugs) are rethrown.
 */
export function reportError(what, error) {
  if (!error || error.detail === undefined) throw error;
  record("error", `could not ${what} — ${reason(error.detail)}`);
  showError(error.detail);
}

export function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
    box.textContent = "";
  }, 4000);
}

/** Disable a button while its API call is in flight. */
export async function busy(button, work) {
  const buttons = Array.isArray(button) ? button : [button];
  const previous = buttons.map((b) => b.disabled);
  for (const b of buttons) {
    b.disabled = true;
    b.setAttribute("aria-busy", "true");
  }
  try {
    return await work();
  } finally {
    buttons.forEach((b, i) => {
      b.disabled = previous[i];
      b.removeAttribute("aria-busy");
    });
  }
}
