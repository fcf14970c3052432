// A tiny element builder. Children that are strings become text nodes: data is never parsed as HTML.

/**
 * el("button", {class: "btn", "data-testid": "x", onclick: fn, disabled: true}, "Label", child)
 * Attribute values of false/null/undefined are skipped; true sets an empty attribute.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "value") {
      node.value = value;
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace a node's children; like el(), null/false children are skipped and strings are text. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

let uid = 0;
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}
