// Clutter level 4: popups nobody wrote down (docs/shop-contract.md, "Clutter", level 4).
//
// Each session gets a seeded plan of overlays drawn from a vocabulary of campaigns, wordings and
// placements. They carry no data-testid and no stable id or class (ids and class names are random
// per page load, styles are set on the element), so nothing about them can be learnt except what a
// person sees: roles, names and text. What is seeded: which kinds, where, with which words, and when
// (after how many actions, and how long after). Progress is kept in sessionStorage like clutter.js.
import { activity, onRecord, record } from "/static/activity.js";
import { el } from "/static/dom.js";
import { pick, randInt, seeded } from "/static/rng.js";

const STATE_KEY = "shop:surprises";

// What the popups are about; each campaign's words belong together.
const CAMPAIGNS = [
  {
    titles: ["Join QuickPerks", "Unlock member prices", "Members eat for less"],
    texts: ["Members get free delivery on Tuesdays and 15% off every dessert.", "One tap and your next three orders are cheaper."],
    accepts: ["Join now", "Become a member", "Sign me up"],
    without: "membership",
  },
  {
    titles: ["Quick question", "Got 30 seconds?", "Help us improve"],
    texts: ["Tell us how we're doing in a two-question survey.", "How likely are you to recommend QuickBite to a friend?"],
    accepts: ["Take the survey", "Answer now", "Sure, let's go"],
    without: "the survey",
  },
  {
    titles: ["Never miss a deal", "Turn on alerts?", "Stay in the loop"],
    texts: ["We'll let you know when your favourite restaurants run specials.", "Flash deals last minutes. Be the first to hear."],
    accepts: ["Allow notifications", "Turn on alerts", "Notify me"],
    without: "alerts",
  },
  {
    titles: ["Where are you eating?", "Faster delivery estimates", "Share your location"],
    texts: ["Let us use your location for more accurate delivery times.", "We can find restaurants that deliver to you faster."],
    accepts: ["Share my location", "Use my location", "Allow location"],
    without: "location",
  },
  {
    titles: ["You've unlocked a reward", "A little something for you", "Spin the wheel!"],
    texts: ["Spin to win up to 50% off your next order.", "Your reward expires in 10 minutes."],
    accepts: ["Claim my reward", "Spin now", "Get the deal"],
    without: "the reward",
  },
  {
    titles: ["We value your privacy", "Personalised offers", "Your choices"],
    texts: ["We and our 300 partners use your data to show you offers you'll love.", "Allow tracking so we can tailor deals to your taste."],
    accepts: ["Accept all", "Agree and continue", "I agree"],
    without: "personalised offers",
  },
  {
    titles: ["Try the app", "Order faster in the app", "Your cart, everywhere"],
    texts: ["App users check out in one tap and get app-only deals.", "Scan to download and get $5 off your first app order."],
    accepts: ["Open the app", "Download now", "Get the app"],
    without: "the app",
  },
];
const DECLINES = ["Not now", "Maybe later", "No thanks", "Skip", "I'll pass", "Continue without {}", "No, I'm good", "Remind me later"];
const CLOSE_LABELS = ["Close", "Dismiss", "Close dialog", "×", "Close this message", "Hide", "Close popup"];
const GLYPHS = ["×", "✕", "✖", "╳"];
const PLACES = ["modal", "sheet", "topbar", "corner", "fullpage"];
const BLOCKING_KINDS = ["close-icon", "escape", "decline", "again"];
// Ink on paper, accent button with its text: every pair passes WCAG AA contrast.
const PALETTES = [
  { paper: "#ffffff", ink: "#1f2328", accent: "#0b5cad", onAccent: "#ffffff" },
  { paper: "#1f2328", ink: "#f1f3f5", accent: "#ffd43b", onAccent: "#1f2328" },
  { paper: "#fff4e6", ink: "#3d2a14", accent: "#9a3412", onAccent: "#ffffff" },
  { paper: "#e6fcf5", ink: "#0b3d2e", accent: "#087f5b", onAccent: "#ffffff" },
  { paper: "#f3f0ff", ink: "#2b1d5c", accent: "#5f3dc4", onAccent: "#ffffff" },
];

function shuffled(rng, items) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

function roleFor(rng, place) {
  if (place === "fullpage") return null; // a plain full-page div: no role, no name
  if (place === "modal") return pick(rng, ["dialog", "alertdialog"]);
  if (place === "topbar") return pick(rng, [null, "region"]);
  return pick(rng, ["dialog", "dialog", null]);
}

/** How one appearance of an overlay looks: its words, place, role and controls. */
function appearance(rng, campaign, place, closeWith, withAccept) {
  return {
    title: pick(rng, campaign.titles),
    text: pick(rng, campaign.texts),
    accept: withAccept ? pick(rng, campaign.accepts) : null,
    decline: closeWith === "decline" ? pick(rng, DECLINES).replace("{}", campaign.without) : null,
    close: closeWith === "close-icon" ? pick(rng, CLOSE_LABELS) : null,
    glyph: pick(rng, GLYPHS),
    escape: closeWith === "escape",
    palette: pick(rng, PALETTES),
    place,
    side: pick(rng, ["left", "right"]), // for a corner
    role: roleFor(rng, place),
    naming: pick(rng, ["labelledby", "label"]),
    backdrop: place === "modal" || (place === "sheet" && rng() < 0.5),
  };
}

/**
 * The session's overlays, in the order they appear: a pure function of the seed.
 *
 * Four blocking ones, one of each kind, each in a different place: `close-icon` (only an icon
 * button named by aria-label; maybe an accepting button), `escape` (no close button, Escape closes
 * it; maybe an accepting button), `decline` (a decline button worded differently each time, and an
 * accepting one), `again` (comes back once after it is dismissed: elsewhere, its way out changed).
 * Then one `accept-only` card that offers nothing but an accepting button: non-modal, in a bottom
 * corner, under the shop's own drawer and notices. Each shows `delay` ms after the visitor's own
 * actions (breadcrumbs that are not clutter) reach `actions`.
 */
export function plan(seed) {
  const rng = seeded(seed, "surprise:plan");
  const campaigns = shuffled(rng, CAMPAIGNS);
  const places = shuffled(rng, PLACES);
  const kinds = shuffled(rng, BLOCKING_KINDS);
  let actions = randInt(rng, 0, 2);
  const overlays = kinds.map((kind, index) => {
    const campaign = campaigns[index];
    const closeWith = kind === "again" ? pick(rng, ["decline", "close-icon"]) : kind;
    const withAccept = kind === "decline" || kind === "again" || rng() < 0.5;
    const views = [appearance(rng, campaign, places[index], closeWith, withAccept)];
    if (kind === "again") {
      const elsewhere = pick(rng, PLACES.filter((place) => place !== places[index]));
      const otherWay = closeWith === "decline" ? "close-icon" : "decline";
      views.push({ ...appearance(rng, campaign, elsewhere, otherWay, true), title: views[0].title, delay: randInt(rng, 700, 2000) });
    }
    const overlay = { kind, actions, delay: randInt(rng, 200, 2500), views };
    actions += randInt(rng, 2, 4);
    return overlay;
  });
  const acceptOnly = {
    kind: "accept-only",
    actions: randInt(rng, 1, 6),
    delay: randInt(rng, 300, 3000),
    view: { ...appearance(rng, campaigns[4], "corner", null, true), role: pick(rng, ["dialog", "complementary", null]) },
  };
  return { overlays, acceptOnly };
}

// ---- state ---------------------------------------------------------------------------------------

const FRESH = { next: 0, open: false, second: false, acceptOnlyDone: false };

function state() {
  try {
    return { ...FRESH, ...JSON.parse(sessionStorage.getItem(STATE_KEY) || "{}") };
  } catch {
    return { ...FRESH };
  }
}

function save(changes) {
  sessionStorage.setItem(STATE_KEY, JSON.stringify({ ...state(), ...changes }));
}

function ownActions() {
  return activity.filter((entry) => entry.kind !== "clutter").length;
}

/** Random per page load, so no id or class name can be learnt. */
function randomName() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return String.fromCharCode(97 + (bytes[0] % 26)) + [...bytes.slice(1)].map((b) => b.toString(36)).join("");
}

function styled(node, style) {
  Object.assign(node.style, style); // the CSSOM, which the CSP allows (style attributes it would refuse)
  node.className = randomName();
  return node;
}

// ---- building ------------------------------------------------------------------------------------

function button(text, palette, primary, attrs = {}) {
  return styled(el("button", { type: "button", ...attrs }, text), {
    font: "inherit",
    fontWeight: "600",
    padding: "0.55rem 1rem",
    borderRadius: "8px",
    cursor: "pointer",
    border: `2px solid ${primary ? palette.accent : palette.ink}`,
    background: primary ? palette.accent : "transparent",
    color: primary ? palette.onAccent : palette.ink,
  });
}

const PLACE_STYLES = {
  modal: { position: "relative", width: "min(440px, 90vw)", borderRadius: "14px", padding: "1.5rem", boxShadow: "0 20px 60px rgb(0 0 0 / 35%)" },
  sheet: { position: "fixed", left: "0", right: "0", bottom: "0", minHeight: "32vh", padding: "1.5rem 2rem", boxShadow: "0 -10px 40px rgb(0 0 0 / 30%)", borderRadius: "16px 16px 0 0" },
  topbar: { position: "fixed", left: "0", right: "0", top: "0", padding: "1rem 3rem 1rem 2rem", display: "flex", flexWrap: "wrap", alignItems: "center", gap: "0.5rem 1.5rem", boxShadow: "0 8px 30px rgb(0 0 0 / 25%)" },
  corner: { position: "fixed", bottom: "16px", width: "min(300px, 80vw)", padding: "1rem", borderRadius: "12px", boxShadow: "0 10px 30px rgb(0 0 0 / 25%)" },
  fullpage: { position: "fixed", inset: "0", display: "flex", flexDirection: "column", alignItems: "center", justifyContent: "center", gap: "0.8rem", padding: "2rem", textAlign: "center" },
};

/**
 * One appearance as elements: `outer` goes on the page (the backdrop, if any), `box` holds the
 * content. Its controls call `answer(accepted, label)`.
 */
function build(view, zIndex, answer) {
  const { palette } = view;
  const heading = styled(el("h2", {}, view.title), { margin: view.place === "topbar" ? "0" : "0 0 0.5rem", fontSize: "1.2rem", lineHeight: "1.25" });
  const box = styled(el("div", {}), { ...PLACE_STYLES[view.place], background: palette.paper, color: palette.ink, zIndex: String(zIndex) });
  if (view.place === "corner") box.style[view.side] = "16px";
  if (view.role) {
    box.setAttribute("role", view.role);
    if (view.role === "dialog" || view.role === "alertdialog") {
      box.setAttribute("aria-modal", String(view.place === "modal" || view.place === "fullpage"));
    }
    if (view.naming === "labelledby") {
      heading.id = randomName();
      box.setAttribute("aria-labelledby", heading.id);
    } else {
      box.setAttribute("aria-label", view.title);
    }
  }
  const controls = styled(el("div", {}), { display: "flex", flexWrap: "wrap", gap: "0.6rem", marginTop: view.place === "topbar" ? "0" : "1rem" });
  if (view.decline) {
    const decline = button(view.decline, palette, false);
    decline.addEventListener("click", () => answer(false, view.decline));
    controls.append(decline);
  }
  if (view.accept) {
    const accept = button(view.accept, palette, true);
    accept.addEventListener("click", () => answer(true, view.accept));
    controls.append(accept);
  }
  let close = null;
  if (view.close) {
    close = styled(el("button", { type: "button", "aria-label": view.close }, view.glyph), {
      position: "absolute", top: "0.5rem", right: "0.6rem", font: "inherit", fontSize: "1.3rem", lineHeight: "1",
      padding: "0.3rem 0.5rem", border: "0", borderRadius: "6px", background: "transparent", color: palette.ink, cursor: "pointer",
    });
    close.addEventListener("click", () => answer(false, view.close));
  }
  const text = styled(el("p", {}, view.text), { margin: "0" });
  box.append(...[close, heading, text, controls.childElementCount ? controls : null].filter(Boolean));
  if (!view.backdrop) return { outer: box, box };
  const backdrop = styled(el("div", {}), {
    position: "fixed", inset: "0", background: "rgb(20 20 20 / 55%)", zIndex: String(zIndex),
    display: "flex", alignItems: "center", justifyContent: "center",
  });
  backdrop.append(box);
  return { outer: backdrop, box };
}

function insertSomewhere(node) {
  // Not in #clutter-root: where an overlay sits in the document is no tell either.
  const spots = [...document.body.children];
  document.body.insertBefore(node, spots[Math.floor(Math.random() * (spots.length + 1))] ?? null);
}

// ---- showing -------------------------------------------------------------------------------------

let current = null; // this session's plan
let showing = false; // a blocking overlay is on the page
let pending = null; // the timer for the next one
let cornerShown = false;

function whenNoModal(show) {
  if (document.querySelector("dialog[open]")) setTimeout(() => whenNoModal(show), 300);
  else show();
}

function showBlocking(index, second) {
  const overlay = current.overlays[index];
  const view = overlay.views[second ? 1 : 0];
  showing = true;
  save({ open: true, second });
  const onKey = (event) => {
    if (event.key === "Escape") answer(false, "Escape");
  };
  const answer = (accepted, label) => {
    outer.remove();
    document.removeEventListener("keydown", onKey);
    showing = false;
    const what = `a popup "${view.title}"`;
    record("clutter", accepted ? `accepted "${label}" on ${what}` : `dismissed ${what} with ${label === "Escape" ? label : `"${label}"`}`);
    if (overlay.views.length > 1 && !second) {
      save({ open: false, second: true });
      pending = setTimeout(() => {
        pending = null;
        whenNoModal(() => showBlocking(index, true));
      }, overlay.views[1].delay);
      return;
    }
    save({ open: false, second: false, next: index + 1 });
    schedule();
  };
  const { outer, box } = build(view, 95, answer);
  if (view.escape) document.addEventListener("keydown", onKey);
  insertSomewhere(outer);
  if (view.place !== "corner" && view.place !== "topbar") {
    box.tabIndex = -1;
    box.focus({ preventScroll: true });
  }
}

function showAcceptOnly() {
  const { view } = current.acceptOnly;
  // z-index 40: under the cart drawer (45), the notices and every modal, so it never covers them.
  const { outer } = build(view, 40, (_accepted, label) => {
    outer.remove();
    document.body.style.paddingBottom = "";
    save({ acceptOnlyDone: true });
    record("clutter", `accepted "${label}" on a popup "${view.title}"`);
  });
  insertSomewhere(outer);
  // Room below the page's last control, so anything can be scrolled clear of the card.
  document.body.style.paddingBottom = `${outer.offsetHeight + 32}px`;
}

/** Arrange for whatever is due next (after each of the visitor's actions, and once per page load). */
function schedule() {
  const now = state();
  if (!cornerShown && !now.acceptOnlyDone && ownActions() >= current.acceptOnly.actions) {
    cornerShown = true;
    setTimeout(showAcceptOnly, current.acceptOnly.delay);
  }
  if (showing || pending || now.open || now.second || now.next >= current.overlays.length) return;
  const index = now.next;
  const overlay = current.overlays[index];
  if (ownActions() < overlay.actions) return;
  pending = setTimeout(() => {
    pending = null;
    whenNoModal(() => {
      if (!showing && state().next === index) showBlocking(index, false);
    });
  }, overlay.delay);
}

/** Level 4: follow the session's plan; after a reload, whatever was open (or due back) shows at once. */
export function initSurprises(seed) {
  current = plan(seed);
  const now = state();
  if (now.next < current.overlays.length && (now.open || now.second)) {
    whenNoModal(() => showBlocking(now.next, now.second));
  }
  onRecord((entry) => {
    if (entry.kind !== "clutter") schedule();
  });
  schedule();
}
