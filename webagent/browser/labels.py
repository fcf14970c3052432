"""A form control's label as a person reads it, in one JavaScript function both the page reader and the
tools use: the text of its ``<label>`` (or what ``aria-labelledby`` points at) *without* the controls
inside it — a drop-down wrapped in its label would otherwise be "Time Choose19:0020:00", the label's text
plus every option — else its ``aria-label``, placeholder, name or type. Page text: untrusted, unclipped.
"""

from __future__ import annotations

__all__ = ["LABEL_OF_JS"]

LABEL_OF_JS = r"""
(f) => {
  const bare = (el) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll("select, input, textarea, button, datalist").forEach((c) => c.remove());
    return copy.textContent || "";
  };
  const ids = (f.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean);
  const by = ids.map((id) => document.getElementById(id)).filter(Boolean).map(bare).join(" ");
  const text = by.trim() || (f.labels && f.labels[0] ? bare(f.labels[0]).trim() : "") || f.getAttribute("aria-label")
    || f.getAttribute("placeholder") || f.getAttribute("name") || f.type || "";
  return text.replace(/\s+/g, " ").trim().replace(/\s*\*$/, "");
}
"""
