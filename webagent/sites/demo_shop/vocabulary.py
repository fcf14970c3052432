"""What the voice vocabulary (webagent/voice/vocabulary.py) reads the demo shop's names with: its
restaurant cards and links, and when its list and a menu have rendered."""

from __future__ import annotations

__all__ = ["CARDS_JS", "LIST_READY_JS", "MENU_READY_JS"]

# Each card's name (as `reader.read_state` reads it) and the link that opens its restaurant.
CARDS_JS = """
() => Array.from(document.querySelectorAll('[data-testid="restaurant-card"]')).map((card) => {
  const heading = card.querySelector("h2, h3, [role=heading]") || card;
  const links = Array.from(card.querySelectorAll("a[href]"));
  const link = links.find((a) => a.textContent.trim().startsWith("Open")) || links[0];
  return {name: heading.textContent.replace(/\\s+/g, " ").trim().slice(0, 80),
          link: link ? link.getAttribute("href") : ""};
})
"""

MENU_READY_JS = """document.body && document.body.dataset.view === "restaurant"
    && document.querySelector('[data-testid="menu-item"]')
    && !document.querySelector('[data-testid="menu-skeleton"]')"""
LIST_READY_JS = """document.body && document.body.dataset.view === "restaurants"
    && document.querySelector('[data-testid="restaurant-card"]')"""
