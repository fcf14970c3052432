"""What any page shows, in one evaluation: its title, its main heading (and the step a wizard marks with
``aria-current="step"``), and the form on screen — each field by its label, marked required (``*``),
filled or invalid. Fields inside a dialog are the dialog's (the narration names it); a group of radio
buttons or boxes is one field. Bounded: a page cannot flood a narration through it. Page text: untrusted.
"""

from __future__ import annotations

__all__ = ["MAX_FIELDS", "PAGE_FACTS_JS"]

MAX_FIELDS = 10
"""Fields named one by one; more are counted ("4 more")."""

PAGE_FACTS_JS = r"""
() => {
  const clip = (s, n = 100) => (s || "").replace(/\s+/g, " ").trim().slice(0, n);
  const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const inDialog = (el) => !!el.closest('[role="dialog"], [role="alertdialog"], dialog, [aria-modal="true"]');
  const heading = Array.from(document.querySelectorAll('h1, h2, [role="heading"][aria-level="1"], [role="heading"][aria-level="2"]'))
    .find((h) => shown(h) && clip(h.textContent) && !inDialog(h));
  const step = Array.from(document.querySelectorAll('[aria-current="step"]')).find(shown);
  const named = (f) => clip((f.labels && f.labels[0] && f.labels[0].textContent) || f.getAttribute("aria-label")
    || f.getAttribute("placeholder") || f.getAttribute("name") || f.type, 40).replace(/\s*\*$/, "");
  const groups = new Set();
  const form = [];
  let more = 0;
  for (const f of document.querySelectorAll("input, select, textarea")) {
    if (!shown(f) || inDialog(f) || /^(hidden|submit|button|reset|image)$/.test(f.type)) continue;
    let name = named(f), filled = (f.value || "").trim() !== "";
    if (f.type === "radio" || f.type === "checkbox") {
      const set = f.closest("fieldset, [role=radiogroup], [role=group]");
      const key = (f.type === "radio" && f.name) || set;
      if (key && groups.has(key)) continue;
      if (key) groups.add(key);
      const legend = set && (set.querySelector("legend") || set.getAttribute("aria-label"));
      if (f.type === "radio" || set) name = clip(typeof legend === "string" ? legend : legend ? legend.textContent : f.name || name, 40);
      const peers = f.type === "radio" && f.name ? document.querySelectorAll(`input[type=radio][name="${CSS.escape(f.name)}"]`) : [f];
      filled = Array.from(peers).some((p) => p.checked);
    }
    if (form.length >= __MAX__) { more += 1; continue; }
    const required = f.required || f.getAttribute("aria-required") === "true";
    form.push(name + (required ? " *" : "") + (filled ? " (filled)" : "")
      + (f.getAttribute("aria-invalid") === "true" ? " (invalid)" : ""));
  }
  if (more) form.push(`${more} more`);
  const top = clip(heading && heading.textContent, 100);
  const marked = clip(step && step.textContent, 60);
  return { title: clip(document.title, 80), heading: marked && marked !== top ? `${top} (step: ${marked})`.trim() : top, form };
}
""".replace("__MAX__", str(MAX_FIELDS))
