/** mulberry32: a small deterministic PRNG (uniform in [0, 1)), for seeded training and benchmarks. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a hash of a string, to seed a PRNG from a name. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Fisher–Yates shuffle of `xs` in place, drawing from `rand`. */
export function shuffleInPlace<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

/** A shuffled copy of `xs` (the same draws as shuffleInPlace). */
export function shuffled<T>(xs: readonly T[], rand: () => number): T[] {
  return shuffleInPlace([...xs], rand);
}
