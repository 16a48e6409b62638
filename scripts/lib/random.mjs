/**
 * A small seeded PRNG (mulberry32): the demo data must be the same on every machine and every
 * run, so nothing here touches Math.random.
 */

/**
 * @typedef {object} Random
 * @property {() => number} next uniform in [0, 1)
 * @property {(min: number, max: number) => number} int integer in [min, max]
 * @property {(probability: number) => boolean} chance
 * @property {<T>(items: readonly T[]) => T} pick
 * @property {<T>(items: readonly T[]) => T[]} shuffle a shuffled copy
 * @property {<T>(items: readonly T[], count: number) => T[]} sample `count` distinct items, in their original order
 */

/**
 * @param {number} seed
 * @returns {Random}
 */
export function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** @type {(min: number, max: number) => number} */
  const int = (min, max) => min + Math.floor(next() * (max - min + 1));
  /** @type {<T>(items: readonly T[]) => T[]} */
  const shuffle = (items) => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = int(0, i);
      [copy[i], copy[j]] = [/** @type {any} */ (copy[j]), /** @type {any} */ (copy[i])];
    }
    return copy;
  };
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return /** @type {any} */ (items[int(0, items.length - 1)]);
    },
    shuffle,
    sample: (items, count) => {
      const chosen = new Set(shuffle(items.map((_, i) => i)).slice(0, count));
      return items.filter((_, i) => chosen.has(i));
    },
  };
}
