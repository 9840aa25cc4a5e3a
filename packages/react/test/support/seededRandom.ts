/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same numbers, so a
 * randomized test that fails can be replayed from its seed.
 */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  return {
    /** A number in [0, 1). */
    next,
    /** An integer from `min` to `max`, both included. */
    int: (min: number, max: number): number => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    /** A choice among entries weighted by their numbers. */
    weighted: <T extends string>(weights: Readonly<Record<T, number>>): T => {
      const entries = Object.entries(weights) as [T, number][];
      let left = next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [name, weight] of entries) {
        left -= weight;
        if (left < 0) return name;
      }
      return (entries[entries.length - 1] as [T, number])[0];
    },
  };
}
