/**
 * A small seeded pseudo-random generator (SFC32, 128-bit state), so that the same seed always
 * produces the same blog. Not for cryptography.
 */
export function createRandom(seed) {
  let [a, b, c, d] = seedState(String(seed));
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 20; i++) next();

  const random = {
    /** A float in [0, 1). */
    next,
    /** An integer in [0, n). */
    int: (n) => Math.floor(next() * n),
    /** An integer in [min, max]. */
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    /** True with probability p. */
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    /** n random bytes. */
    bytes: (n) => {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
      return out;
    },
  };
  return random;
}

/** Four 32-bit words from a string (FNV-1a with four different offsets). */
function seedState(text) {
  const offsets = [0x811c9dc5, 0x01000193, 0xdeadbeef, 0x9e3779b9];
  return offsets.map((offset) => {
    let h = offset >>> 0;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h;
  });
}
