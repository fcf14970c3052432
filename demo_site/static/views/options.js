// The options dialog for dishes with options: radios for required options, checkboxes for optional ones.
import { record } from "/static/activity.js";
import { el, uniqueId } from "/static/dom.js";
import { money } from "/static/format.js";

function fieldset(option, index) {
  const type = option.required ? "radio" : "checkbox";
  const name = `option-${index}`;
  return el(
    "fieldset",
    { class: "option-group", "data-option": option.name },
    el("legend", {}, option.required ? `${option.name} (required)` : option.name),
    option.choices.map((choice) => {
      const id = uniqueId("choice");
      return el(
        "div",
        { class: "choice" },
        el("input", { type, id, name, value: choice.name, "data-delta": choice.price_delta_cents }),
        el("label", { for: id }, choice.name),
        el("span", { class: "muted delta" }, choice.price_delta_cents ? `+${money(choice.price_delta_cents)}` : "included"),
      );
    }),
  );
}

/**
 * Open the dialog; `onConfirm(options, confirmButton)` adds to the cart and resolves to the cart or null.
 * A missing required choice keeps the dialog open with a role=alert inside it.
 */
export function openOptionsDialog(dish, quantity, onConfirm) {
  const titleId = uniqueId("options-title");
  const alert = el("p", { role: "alert", class: "error", "data-testid": "options-error", hidden: true });
  const groups = dish.options.map(fieldset);
  const price = el("span", { "data-testid": "options-price" }, money(dish.price_cents * quantity));
  const confirm = el("button", { type: "submit", class: "btn primary", "data-testid": "options-confirm" }, "Add to cart");
  const cancel = el("button", { type: "button", class: "btn", value: "cancel" }, "Cancel");
  const form = el(
    "form",
    { method: "dialog" },
    el("h2", { id: titleId }, `Choose options for ${dish.name}`),
    el("p", { class: "muted" }, `Quantity ${quantity} · `, price),
    groups,
    alert,
    el("div", { class: "dialog-actions" }, cancel, confirm),
  );
  const dialog = el(
    "dialog",
    { class: "options-dialog", "data-testid": "options-dialog", "aria-labelledby": titleId },
    form,
  );

  const chosen = () => {
    const options = {};
    const missing = [];
    dish.options.forEach((option, index) => {
      const checked = [...groups[index].querySelectorAll("input:checked")].map((i) => i.value);
      if (option.required) {
        if (checked.length) options[option.name] = checked[0];
        else missing.push(option.name);
      } else if (checked.length) {
        options[option.name] = checked;
      }
    });
    return { options, missing };
  };

  form.addEventListener("change", () => {
    const delta = [...form.querySelectorAll("input:checked")].reduce((sum, i) => sum + Number(i.dataset.delta), 0);
    price.textContent = money((dish.price_cents + delta) * quantity);
  });

  let closedBy = "cancel";
  const close = () => dialog.close();
  cancel.addEventListener("click", close);
  dialog.addEventListener("close", () => {
    if (closedBy === "cancel") record("options", `closed options for ${dish.name} without adding`);
    dialog.remove();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const { options, missing } = chosen();
    if (missing.length) {
      const message = `Choose ${missing.join(" and ")} before adding ${dish.name} to the cart.`;
      alert.textContent = message;
      alert.hidden = false;
      record("error", `could not add ${dish.name} — choose ${missing.join(" and ")}`);
      return;
    }
    alert.hidden = true;
    const cart = await onConfirm(options, confirm);
    if (cart) {
      closedBy = "confirm";
      close();
    } else {
      // The API error is on the page (role=alert data-testid=error); show it here too, above the backdrop.
      alert.textContent = document.getElementById("error").textContent;
      alert.hidden = false;
    }
  });

  document.body.append(dialog);
  dialog.showModal();
  record("options", `opened options for ${dish.name}`);
}
