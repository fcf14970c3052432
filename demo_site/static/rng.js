// Seeded randomness for the clutter: the same session seed gives the same shop, reload after reload.

/** mulberry32: a tiny 32-bit PRNG returning floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashString(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** An independent stream per purpose, so adding one clutter element does not reshuffle the others. */
export function seeded(seed, purpose) {
  return mulberry32(hashString(`${seed}:${purpose}`));
}

export function randInt(rng, lo, hi) {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

export function pick(rng, items) {
  return items[Math.floor(rng() * items.length)];
}
