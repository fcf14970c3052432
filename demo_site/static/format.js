// Text formatting shared by views and breadcrumbs.

/** 3710 → "$37.10" (integer cents, no float rounding). */
export function money(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** "HH:MM:SS", local time, zero-padded. */
export function clock(date = new Date()) {
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((n) => String(n).padStart(2, "0"))
    .join(":");
}

/** Chosen option values in order, lists flattened: {Size: "Large", Extras: ["Bacon"]} → ["Large", "Bacon"]. */
export function choiceList(options) {
  return Object.values(options || {}).flatMap((v) => (Array.isArray(v) ? v : [v]));
}

/** A cart line's display name: "Margherita Pizza (Large, Bacon)", or just the dish name without options. */
export function lineName(dishName, options) {
  const choices = choiceList(options);
  return choices.length ? `${dishName} (${choices.join(", ")})` : dishName;
}

/** Cart summary used at the end of cart breadcrumbs: "cart 3 items, $37.10" (subtotal). */
export function cartSummary(cart) {
  return `cart ${cart.item_count} items, ${money(cart.subtotal_cents)}`;
}

/** A server error detail as a breadcrumb reason: short forms for the common cases. */
export function reason(detail) {
  const text = String(detail || "").trim().replace(/\.$/, "");
  if (/sold out/i.test(text)) return "sold out";
  if (/expired/i.test(text)) return "expired";
  return text;
}
