/**
 * Our own seeded PRNG: sfc32 (Chris Doty-Humphrey's Small Fast Chaotic generator, 128-bit state),
 * seeded through splitmix32. Only 32-bit integer arithmetic, so the same seed gives the same
 * numbers on every machine and Node version. The state is a Uint32Array so that a game state can
 * carry and clone it cheaply.
 */

/** 2^−32, exactly. */
const TWO_TO_MINUS_32 = 1 / 0x100000000;
/** Rng.int's bound for its 32-bit integer path. */
const SMALL_N = 1 << 15;

export class Rng {
  readonly s: Uint32Array;

  constructor(seed: number | string | Uint32Array = 0) {
    this.s = new Uint32Array(4);
    if (seed instanceof Uint32Array) {
      this.s.set(seed);
      return;
    }
    let x = (typeof seed === 'string' ? hashString(seed) : seed) >>> 0;
    // splitmix32 spreads even tiny seeds (0, 1, 2 …) over the whole state.
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      this.s[i] = (z ^ (z >>> 16)) >>> 0;
    }
    if ((this.s[0] | this.s[1] | this.s[2] | this.s[3]) === 0) this.s[0] = 1;
    // Warm up: the first outputs of sfc32 still show the seed's structure.
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  /** Next uniform 32-bit unsigned integer. */
  nextU32(): number {
    const s = this.s;
    const a = s[0];
    const b = s[1];
    const c = s[2];
    const d = s[3];
    const t = (((a + b) | 0) + d) | 0;
    s[3] = (d + 1) | 0;
    s[0] = b ^ (b >>> 9);
    s[1] = (c + (c << 3)) | 0;
    s[2] = ((c << 21) | (c >>> 11)) + t;
    return t >>> 0;
  }

  /** Uniform integer in [0, n) for 1 ≤ n ≤ 2^21, without bias. */
  int(n: number): number {
    if (n <= 1) return 0;
    // Lemire's multiply-shift: the high 32 bits of x·n, rejecting the few x that would bias it
    // (low, the low 32 bits, below 2^32 mod n).
    if (n < SMALL_N) {
      // In 32-bit integers, for the small n of every draw and shuffle: low is Math.imul's, and the
      // high part is summed from x's two halves, (x_hi·n + ⌊x_lo·n / 2^16⌋) / 2^16, which stays
      // below 2^31 for n < 2^15. The same numbers as the double arithmetic below, without its
      // conversions and multiplies on the way (a sixth of a random draw's own time, by perf).
      for (;;) {
        const x = this.nextU32();
        const low = Math.imul(x, n) >>> 0;
        if (low >= n || low >= (0x100000000 - n) % n) return ((x >>> 16) * n + (((x & 0xffff) * n) >>> 16)) >>> 16;
      }
    }
    // x·n < 2^53, so the product is exact in a double; the multiply by 2^−32 is exact and `| 0`
    // floors it (m / 2^32 < 2^21).
    for (;;) {
      const m = this.nextU32() * n;
      const high = (m * TWO_TO_MINUS_32) | 0;
      const low = m - high * 0x100000000;
      if (low >= n || low >= (0x100000000 - n) % n) return high;
    }
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.nextU32() / 0x100000000;
  }

  /** Shuffles a[from, to) in place (Fisher–Yates). */
  shuffle<T extends { [i: number]: number } | unknown[]>(a: T, from = 0, to = (a as { length: number }).length): T {
    const arr = a as unknown as unknown[];
    for (let i = to - 1; i > from; i--) {
      const j = from + this.int(i - from + 1);
      const t = arr[i];
      arr[i] = arr[j];
      arr[j] = t;
    }
    return a;
  }

  /** An independent generator derived from this one (advances this one by four draws). */
  fork(): Rng {
    return this.forkInto(new Rng(new Uint32Array(4)));
  }

  /** fork, written into an existing generator (no allocation); returns it. */
  forkInto(target: Rng): Rng {
    const t = target.s;
    t[0] = this.nextU32();
    t[1] = this.nextU32();
    t[2] = this.nextU32();
    t[3] = this.nextU32() | 1;
    for (let i = 0; i < 12; i++) target.nextU32();
    return target;
  }

  clone(): Rng {
    return new Rng(this.s);
  }
}

/** FNV-1a hash of a string to 32 bits, for string seeds. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
