"""What any page shows, in one evaluation: its title, its main heading (and the step a wizard marks with
``aria-current="step"``), the form on screen — each field by its label, marked required (``*``), filled
or invalid — the lists and tables in its main part in brief (a name, a count, the first few items), and a
digest of its main text, so a change none of those name is still seen. Fields inside a dialog are the
dialog's (the narration names it); a group of radio buttons or boxes is one field. A page nobody wrote an
adapter for is read for its landmarks and live regions too (`REGIONS_JS`). Bounded: a page cannot flood a
narration through it. Page text: untrusted.
"""

from __future__ import annotations

from webagent.browser.labels import LABEL_OF_JS
from webagent.narration.narrate import MAX_LANDMARKS

__all__ = [
    "CHOICES",
    "LIST_ITEMS",
    "MAX_ANNOUNCED",
    "MAX_FIELDS",
    "MAX_LISTS",
    "OPEN_FACTS_JS",
    "PAGE_FACTS_JS",
    "READ_ANY_PAGE_JS",
    "REGIONS_JS",
]

MAX_FIELDS = 10
"""Fields named one by one; more are counted ("4 more")."""
MAX_LISTS = 3
"""Lists and tables read, in page order (a results list, a table of times): more are left to `read_page`."""
LIST_ITEMS = 3
"""Items quoted from each list; the rest are counted."""
CHOICES = 4
"""Choices named for a drop-down or a group of radio buttons nothing is chosen in yet; more are "…"."""
MAX_ANNOUNCED = 3
"""Live regions read, in page order."""

PAGE_FACTS_JS = (
    r"""
() => {
  const clip = (s, n = 100) => (s || "").replace(/\s+/g, " ").trim().slice(0, n);
  const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const inDialog = (el) => !!el.closest('[role="dialog"], [role="alertdialog"], dialog, [aria-modal="true"]');
  const labelOf = (__LABEL_OF__);
  const heading = Array.from(document.querySelectorAll('h1, h2, [role="heading"][aria-level="1"], [role="heading"][aria-level="2"]'))
    .find((h) => shown(h) && clip(h.textContent) && !inDialog(h));
  const step = Array.from(document.querySelectorAll('[aria-current="step"]')).find(shown);
  const named = (f) => clip(labelOf(f), 40);
  // a field the browser itself found wrong once the person typed in it or a send was tried (`:user-invalid`)
  const userInvalid = (f) => { try { return f.matches(":user-invalid"); } catch (e) { return false; } };
  const groups = new Set();
  const form = [];
  let more = 0;
  for (const f of document.querySelectorAll("input, select, textarea")) {
    if (!shown(f) || inDialog(f) || /^(hidden|submit|button|reset|image)$/.test(f.type)) continue;
    let name = named(f), filled = (f.value || "").trim() !== "";
    let choices = f.tagName === "SELECT" ? Array.from(f.options).filter((o) => o.value !== "").map((o) => o.textContent) : [];
    if (f.type === "radio" || f.type === "checkbox") {
      const set = f.closest("fieldset, [role=radiogroup], [role=group]");
      const key = (f.type === "radio" && f.name) || set;
      if (key && groups.has(key)) continue;
      if (key) groups.add(key);
      const legend = set && (set.querySelector("legend") || set.getAttribute("aria-label"));
      if (f.type === "radio" || set) name = clip(typeof legend === "string" ? legend : legend ? legend.textContent : f.name || name, 40);
      const peers = f.type === "radio" && f.name ? document.querySelectorAll(`input[type=radio][name="${CSS.escape(f.name)}"]`) : [f];
      filled = Array.from(peers).some((p) => p.checked);
      if (f.type === "radio") choices = Array.from(peers).map((p) => labelOf(p));
    }
    if (form.length >= __MAX__) { more += 1; continue; }
    const required = f.required || f.getAttribute("aria-required") === "true";
    // what a person sees to choose from, while nothing is chosen: a few, bounded, in the page's words
    const offered = filled ? [] : choices.map((c) => clip(c, 24).replace(/[|()"]/g, "")).filter(Boolean);
    const listed = offered.length ? ` (choices: ${offered.slice(0, __CHOICES__).join("|")}${offered.length > __CHOICES__ ? "|…" : ""})` : "";
    form.push(name + (required ? " *" : "") + (filled ? " (filled)" : "")
      + (f.getAttribute("aria-invalid") === "true" || userInvalid(f) ? " (invalid)" : "") + listed);
  }
  if (more) form.push(`${more} more`);
  const root = document.querySelector("main, [role=main]") || document.body;
  const LISTS = 'ul, ol, table, [role="list"], [role="table"], [role="grid"]';
  const nameOfList = (l) => {
    const own = l.getAttribute("aria-label") || (l.caption && l.caption.textContent);
    if (clip(own)) return clip(own, 60);
    for (let node = l, hops = 0; node && node !== root.parentElement && hops < 6; node = node.parentElement, hops++) {
      const label = node !== l && node.getAttribute && node.getAttribute("aria-label");
      for (let sib = node.previousElementSibling; sib; sib = sib.previousElementSibling) {
        const hs = sib.matches("h1, h2, h3, h4, h5, h6, [role=heading]") ? [sib] : Array.from(sib.querySelectorAll("h1, h2, h3, h4, h5, h6, [role=heading]"));
        const h = hs.reverse().find(shown);
        if (h && clip(h.textContent)) return clip(h.textContent, 60);
      }
      if (label && clip(label)) return clip(label, 60);
    }
    return "";
  };
  const lists = [];
  for (const l of root.querySelectorAll(LISTS)) {
    if (lists.length >= __LISTS__) break;
    if (!shown(l) || inDialog(l) || (l.parentElement && l.parentElement.closest(LISTS))) continue;
    if (l.closest('nav, header, footer, [role=navigation], [role=banner], [role=contentinfo], [role=menu], [role=tablist]')) continue;
    const table = l.matches('table, [role="table"], [role="grid"]');
    const rows = table
      ? Array.from(l.querySelectorAll('tr, [role="row"]')).filter((r) => !r.querySelector('th, [role="columnheader"]') || r.querySelector('td, [role="cell"], [role="gridcell"]'))
      : Array.from(l.children).filter((c) => c.matches('li, [role="listitem"]'));
    const items = rows.filter(shown);
    if (!items.length) continue;
    const text = (r) => table
      ? clip(Array.from(r.querySelectorAll('td, th, [role="cell"], [role="gridcell"], [role="rowheader"]')).map((c) => clip(c.textContent, 30)).filter(Boolean).join(", "), 60)
      : clip(r.textContent, 60);
    lists.push({ name: nameOfList(l), count: items.length, items: items.slice(0, __ITEMS__).map(text) });
  }
  let digest = 0;
  const words = (root.innerText || "").replace(/\s+/g, " ");
  for (let i = 0; i < words.length; i++) digest = (Math.imul(digest, 31) + words.charCodeAt(i)) | 0;
  const top = clip(heading && heading.textContent, 100);
  const marked = clip(step && step.textContent, 60);
  return { title: clip(document.title, 80), heading: marked && marked !== top ? `${top} (step: ${marked})`.trim() : top,
           form, lists, text_digest: words.trim() ? (digest >>> 0).toString(16) : "" };
}
""".replace("__MAX__", str(MAX_FIELDS))
    .replace("__LISTS__", str(MAX_LISTS))
    .replace("__ITEMS__", str(LIST_ITEMS))
    .replace("__CHOICES__", str(CHOICES))
    .replace("__LABEL_OF__", LABEL_OF_JS.strip())
)

# What is open over any page, and where typing goes: its dialogs (by role, and anything fixed that covers
# the middle of the screen, role or not), the notices it announces (``role=status``/``alert``) and the
# focused field. ``QUIET``: selectors of overlays already handled (left out); ``SKIP``: a site's own parts
# that are neither ({dialogs, notices}: CSS selectors, or ""), and ``label``: the data attribute a site
# names its dialogs by when they have no accessible name (else their heading).
OPEN_FACTS_JS = r"""
(QUIET, SKIP) => {
  const clip = (s, n = 160) => (s || "").replace(/\s+/g, " ").trim().slice(0, n);
  const shown = (el) => !!el && !el.hidden && el.getClientRects().length > 0
      && getComputedStyle(el).visibility !== "hidden";
  const skipped = (el, selector) => !!selector && !!el.closest(selector);
  const quiet = (el) => QUIET.some((q) => el.matches(q));
  const dialogs = Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"], dialog[open]'))
    .filter((d) => shown(d) && !(SKIP.dialogs && d.matches(SKIP.dialogs)) && !quiet(d))
    .map((d) => clip(d.getAttribute("aria-label") ||
      (d.getAttribute("aria-labelledby") && clip((document.getElementById(d.getAttribute("aria-labelledby")) || {}).textContent)) ||
      (SKIP.label && d.dataset[SKIP.label]) || clip((d.querySelector("h1, h2, h3, [role=heading]") || {}).textContent)
      || "dialog", 80));
  // Anything fixed that covers the middle of the viewport is a popup too, role or not.
  const middle = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
  let cover = null;
  for (let n = middle; n && n !== document.body; n = n.parentElement) {
    if (getComputedStyle(n).position === "fixed") cover = n;
  }
  if (cover && !(SKIP.dialogs && cover.matches(SKIP.dialogs)) && !cover.matches('[role="dialog"], [role="alertdialog"], dialog')
      && !cover.querySelector('[role="dialog"], [role="alertdialog"], dialog[open]') && !quiet(cover)) {
    const heading = cover.querySelector("h1, h2, h3, [role=heading]");
    dialogs.push(clip(cover.getAttribute("aria-label") || (heading && heading.textContent) || cover.textContent, 60) || "overlay");
  }
  const notices = Array.from(document.querySelectorAll('[role="status"], [role="alert"]'))
    .filter((n) => shown(n) && clip(n.textContent) && !skipped(n, SKIP.notices))
    .slice(0, 3).map((n) => clip(n.textContent, 160));
  const active = document.activeElement;
  // Only a field takes typing: focus on a button just pressed is no news.
  const typing = active && (active.matches('select, textarea, [contenteditable="true"], [role="textbox"], [role="combobox"]')
    || (active.tagName === "INPUT" && !/^(button|submit|reset|checkbox|radio|image)$/.test(active.type)));
  let focused = null;
  if (typing) {
    const label = active.labels && active.labels[0] ? active.labels[0].textContent : "";
    focused = clip(active.getAttribute("aria-label") || label || active.getAttribute("placeholder")
      || active.textContent || active.getAttribute("name") || active.tagName.toLowerCase(), 60).replace(/\s*\*$/, "");
  }
  return { dialogs, notices, focused };
}
"""

# How any page is laid out, and what it announces: its landmark regions by role and accessible name (the
# first few, in page order, the rest counted; a form or region only when named, a header or footer inside
# a part of the page not the page's banner or footer), and the text of its live regions (``aria-live``,
# ``role=log``: a log's newest entry) — not those that are, hold or sit in a ``role=status``/``alert``
# (`OPEN_FACTS_JS` reads them as notices), nor those holding a list or table (read as lists). Timers and
# marquees are left out: silent to a screen reader, and a timer never still. Read for a page nobody wrote
# an adapter for only: a site's own reader leaves them out (the demo shop's narration stays as it was).
REGIONS_JS = r"""
() => {
  const clip = (s, n = 160) => (s || "").replace(/\s+/g, " ").trim().slice(0, n);
  const shown = (el) => !!el && !el.hidden && el.getClientRects().length > 0
      && getComputedStyle(el).visibility !== "hidden";
  const OPEN = '[role="dialog"], [role="alertdialog"], dialog, [aria-modal="true"]';
  const PART = "article, aside, main, nav, section, [role=article], [role=complementary], [role=main], "
    + "[role=navigation], [role=region]";
  const ROLES = ["banner", "navigation", "search", "main", "complementary", "form", "region", "contentinfo"];
  const TAGS = { nav: "navigation", main: "main", aside: "complementary", search: "search", header: "banner",
                 footer: "contentinfo", form: "form", section: "region" };
  const nameOf = (el) => {
    const by = (el.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean)
      .map((id) => (document.getElementById(id) || {}).textContent || "").join(" ");
    return clip(clip(by) || el.getAttribute("aria-label") || el.getAttribute("title"), 40);
  };
  const roleOf = (el) => {
    const own = (el.getAttribute("role") || "").trim().split(/\s+/)[0];
    const role = own ? (ROLES.includes(own) ? own : "") : TAGS[el.localName] || "";
    const part = !own && (role === "banner" || role === "contentinfo") && el.parentElement && el.parentElement.closest(PART);
    return part ? "" : role;
  };
  const landmarks = [];
  let more = 0;
  for (const el of document.querySelectorAll("nav, main, aside, search, header, footer, form, section, [role]")) {
    const role = roleOf(el);
    if (!role || !shown(el) || el.closest(OPEN)) continue;
    const name = nameOf(el);
    if ((role === "form" || role === "region") && !name) continue;
    if (landmarks.length >= __LANDMARKS__) { more += 1; continue; }
    landmarks.push({ role, name });
  }
  const NOTICE = '[role="status"], [role="alert"]';
  const LIVE = '[aria-live="polite"], [aria-live="assertive"], [role="log"]';
  const LISTS = 'ul, ol, table, [role="list"], [role="table"], [role="grid"]';
  const announced = [];
  for (const el of document.querySelectorAll(LIVE)) {
    if (announced.length >= __ANNOUNCED__) break;
    if (!shown(el) || el.closest(NOTICE) || el.querySelector(NOTICE) || el.querySelector(LISTS)) continue;
    if (el.parentElement && el.parentElement.closest(LIVE)) continue;  // the outer region reads it
    const entries = el.matches('[role="log"]') ? Array.from(el.children).filter((c) => clip(c.textContent)) : [];
    const text = clip((entries.length ? entries[entries.length - 1] : el).textContent);
    if (text) announced.push(text);
  }
  return { landmarks, landmarks_more: more, announced };
}
""".replace("__LANDMARKS__", str(MAX_LANDMARKS)).replace("__ANNOUNCED__", str(MAX_ANNOUNCED))

# Any page, read with nothing of a site's own: what is open over it, what it shows, and how it is laid out.
READ_ANY_PAGE_JS = (
    r"""
(QUIET) => Object.assign(
  { view: "unknown", url: location.href },
  (__OPEN__)(QUIET, { dialogs: "", notices: "", label: "" }),
  (__FACTS__)(),
  (__REGIONS__)(),
)
""".replace("__OPEN__", OPEN_FACTS_JS.strip())
    .replace("__FACTS__", PAGE_FACTS_JS.strip())
    .replace("__REGIONS__", REGIONS_JS.strip())
)
