"""What covers an element, found and remembered where the page cannot see or change it.

`obstruction.clear_way` needs to know, before an action, whether something covers its target, and then
to read and watch that layer while it is dismissed. Both are done by a selector engine of our own
registered as a Playwright *content script*: Playwright runs it in its utility world — the page's DOM,
but not its JavaScript — so the page's scripts can neither patch what it reads (`elementFromPoint`,
`getComputedStyle`, `matches`) nor see, move or remove what it remembers. Nothing is written into the
page: no attribute on its elements, no global on its window. What the engine found stays in the
engine's own memory for that document, by level (a popup over the way out of another is level 1):

    target.locator("webagent-layer=find 0")  the target itself when nothing covers it, else nothing —
                                             and what covers it is remembered as level 0
    target.locator("webagent-layer=covered") the target when a click at its centre would hit another
    page.locator("webagent-layer=layer 0")   the layer remembered (while it is in the document)
    page.locator("webagent-layer=parts 0")   the layer and everything in it, shadow roots too
    page.locator("webagent-layer=panel 0")   where its way out is (the layer, or a sheet beside a scrim)
    page.locator("webagent-layer=frame 0")   the iframe that holds the way out (a consent wall's)
    page.locator("webagent-layer=modal 0")   the layer, when it is a modal dialog making the page inert

The engine must be registered before a context is made (`install`); `Browser` does so for every
Playwright it starts.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page, Playwright

__all__ = ["ENGINE", "covered_at", "find_in_way", "install", "remembered"]

ENGINE = "webagent-layer"

# Finds what would stop a person acting on `el`: {how, layer, panel, frame}, or null.
# 1. a modal dialog (aria-modal or <dialog> opened with showModal) that does not hold the target;
# 2. otherwise whatever the page puts at the target's centre: its outermost fixed/sticky/dialog layer.
FIND_BLOCKER_JS = """
(el) => {
  // Containment across shadow roots: a control in an open shadow root is inside its host's layer.
  const up = (n) => n.parentNode || n.host || null;
  const holds = (a, b) => { for (let n = b; n; n = up(n)) if (n === a) return true; return false; };
  const closest = (n, selector) => {
    for (; n; n = up(n)) if (n.nodeType === 1 && n.matches(selector)) return n;
    return null;
  };
  // Hit-test in the target's own tree (its shadow root, if it lives in one): the host is not in its way.
  const scope = el.getRootNode();
  const at = (x, y) => (scope.elementFromPoint ? scope.elementFromPoint(x, y) : document.elementFromPoint(x, y));
  const style = (n) => getComputedStyle(n);
  const shown = (n) => !!n && n.getClientRects().length > 0 && style(n).visibility !== "hidden";
  const isDialog = (n) => n.matches('[role="dialog"], [role="alertdialog"], dialog[open], [aria-modal="true"]');
  const isModal = (n) => n.matches('[aria-modal="true"]') || (n.tagName === "DIALOG" && n.matches(":modal"));
  const outermost = (start) => {
    let layer = null;
    for (let n = start; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      if (n.contains(el)) break;
      const position = style(n).position;
      if (isDialog(n) || position === "fixed" || position === "sticky") layer = n;
    }
    if (layer) return layer;
    let n = start;
    while (n.parentElement && n.parentElement !== document.body && !n.parentElement.contains(el)) n = n.parentElement;
    return n;
  };
  // The buttons and links of a layer, in its shadow roots too; an iframe holds controls the page cannot see.
  const CONTROL = 'button, a[href], [role="button"], [role="link"], [role="menuitem"], input[type="button"], input[type="submit"]';
  const find = (n, selector) => {
    const stack = [n];
    for (let seen = 0; stack.length && seen < 5000; seen += 1) {
      const x = stack.pop();
      if (x.matches(selector) && shown(x)) return x;
      if (x.shadowRoot) stack.push(...x.shadowRoot.children);
      stack.push(...x.children);
    }
    return null;
  };
  const offers = (n) => !!(find(n, CONTROL) || find(n, "iframe"));
  const layerish = (n) => isDialog(n) || ["fixed", "sticky"].includes(style(n).position);
  // The layer in the way; the panel where its way out is; the iframe holding that, if any.
  const mark = (found, how) => {
    let layer = found;
    let panel = found;
    if (!offers(found)) {
      // A scrim takes the click and a sheet beside it holds the buttons: the way out is in the container
      // they share, or in a layer next to the scrim.
      let n = found.parentElement;
      while (n && n !== document.body && !n.contains(el) && !offers(n)) n = n.parentElement;
      if (n && n !== document.body && !n.contains(el)) {
        layer = n;
        panel = n;
      } else {
        const beside = Array.from(found.parentElement ? found.parentElement.children : []).filter(
          (s) => s !== found && !s.contains(el) && shown(s) && layerish(s) && offers(s),
        );
        if (beside.length) panel = beside[beside.length - 1];
      }
    }
    const frame = find(panel, CONTROL) ? null : find(panel, "iframe");
    return { how, layer, panel, frame };
  };
  const hitAtCentre = () => {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) return null;
    const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
    const hit = at(x, y);
    if (!hit || el.contains(hit) || holds(hit, el)) return null;
    const label = hit.closest("label");
    return label && (label.control === el || label.contains(el)) ? null : hit;
  };
  // What is on top at the target comes first (of two stacked popups, the upper one); then a modal
  // dialog elsewhere that makes the rest of the page inert.
  if (hitAtCentre()) {
    // A sticky header over an element scrolled to the page's edge is not in the way: a person (and
    // Playwright) scrolls first. Only what still covers it in the middle of the screen is.
    el.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    const hit = hitAtCentre();
    if (hit) return mark(outermost(hit), "covering");
  }
  const modal = Array.from(document.querySelectorAll('[aria-modal="true"], dialog[open]'))
    .filter((d) => shown(d) && isModal(d) && !holds(d, el));
  const holder = closest(el, '[aria-modal="true"], dialog[open]');
  // Nothing outside the top layer can cover a dialog opened with showModal.
  const onTop = holder && holder.matches(":modal");
  // A target in a popup of its own (a dialog or fixed layer) that is painted over a modal is not behind
  // that modal: of two stacked popups, the upper one's decline is reachable while the lower one is open.
  const own = (() => {
    for (let n = el; n && n !== document.body; n = n.parentElement) if (isDialog(n) || style(n).position === "fixed") return n;
    return null;
  })();
  const chain = (n) => { const up = []; for (; n; n = n.parentElement) up.unshift(n); return up; };
  // The first z-index set on the way down from the common ancestor decides (the stacking context the
  // two compete in); at equal z, the later in the document is painted over the earlier.
  const zFrom = (path, i) => {
    for (let j = i; j < path.length; j++) {
      const s = style(path[j]);
      if (s.zIndex !== "auto" && s.position !== "static") return Number(s.zIndex) || 0;
    }
    return 0;
  };
  const paintedOver = (a, b) => {
    const [pa, pb] = [chain(a), chain(b)];
    let i = 0;
    while (i < pa.length && i < pb.length && pa[i] === pb[i]) i += 1;
    if (i >= pa.length || i >= pb.length) return false;
    const [za, zb] = [zFrom(pa, i), zFrom(pb, i)];
    if (za !== zb) return za > zb;
    return !!(pa[i].compareDocumentPosition(pb[i]) & Node.DOCUMENT_POSITION_PRECEDING);
  };
  const above = modal.filter(
    (d) => !(holder && holder.contains(d)) && (!onTop || d.matches(":modal")) && !(own && !own.contains(d) && paintedOver(own, d)),
  );
  if (above.length) return mark(outermost(above[above.length - 1]), "modal");
  return null;
}
"""

ENGINE_JS = """(() => {
  const find = @FIND@;
  const found = new Map();
  const parts = (n) => {
    const all = [];
    const stack = [n];
    while (stack.length && all.length < 5000) {
      const x = stack.pop();
      all.push(x);
      if (x.shadowRoot) stack.push(...x.shadowRoot.children);
      stack.push(...x.children);
    }
    return all;
  };
  return {
    queryAll(root, body) {
      const [verb, level] = body.trim().split(" ");
      if (verb === "covered") {
        // Whether a click at the centre would land on something else now; off screen is not covered (a
        // click scrolls to it first).
        const box = root.getBoundingClientRect();
        const x = box.left + box.width / 2, y = box.top + box.height / 2;
        if (!box.width || !box.height || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return [];
        const hit = document.elementFromPoint(x, y);
        return hit && !root.contains(hit) ? [root] : [];
      }
      if (verb === "find") {
        const blocker = root.nodeType === 1 ? find(root) : null;
        if (!blocker) {
          found.delete(level);
          return [root];
        }
        found.set(level, blocker);
        return [];
      }
      const blocker = found.get(level);
      if (!blocker || !blocker.layer.isConnected) return [];
      const shown = (n) => (n && n.isConnected ? [n] : []);
      if (verb === "layer") return shown(blocker.layer);
      if (verb === "parts") return parts(blocker.layer);
      if (verb === "panel") return shown(blocker.panel);
      if (verb === "frame") return shown(blocker.frame);
      if (verb === "modal") return blocker.how === "modal" ? shown(blocker.layer) : [];
      return [];
    },
  };
})()""".replace("@FIND@", FIND_BLOCKER_JS.strip())


async def install(playwright: Playwright) -> None:
    """Register the engine with ``playwright`` (before its contexts are made); once is enough."""
    try:
        await playwright.selectors.register(ENGINE, script=ENGINE_JS, content_script=True)
    except PlaywrightError as error:
        if "already registered" not in str(error):
            raise


def find_in_way(target: Locator, level: int) -> Locator:
    """``target``'s first element when nothing covers it (what covers it is remembered otherwise)."""
    return target.first.locator(f"{ENGINE}=find {level}")


def covered_at(target: Locator) -> Locator:
    """``target``'s first element when a click at its centre would land on something else now."""
    return target.first.locator(f"{ENGINE}=covered")


def remembered(page: Page, part: str, level: int) -> Locator:
    """``part`` (layer, parts, panel, frame, modal) of what was found covering a target at ``level``."""
    return page.locator(f"{ENGINE}={part} {level}")
