/** A small seeded PRNG (mulberry32) so demo data is identical on every run and machine — never Math.random. */

/** Deterministic random source. */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
  /** `length` lowercase hex digits. */
  hex(length: number): string;
  /** A UUID-v4-shaped string (random bits from this generator). */
  uuid(): string;
}

/** Creates a PRNG from a 32-bit seed. */
export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const hex = (length: number): string => Array.from({ length }, () => int(16).toString(16)).join('');
  return {
    next,
    int,
    hex,
    pick<T>(list: readonly T[]): T {
      const value = list[int(list.length)];
      if (value === undefined) throw new Error('pick from an empty list');
      return value;
    },
    uuid(): string {
      const variant = '89ab'[int(4)] ?? '8';
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
    },
  };
}
