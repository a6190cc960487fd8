/**
 * numpy's `random_interval(bitgen, max)` (numpy/random/src/distributions/distributions.c) and the Fisher–Yates
 * shuffle built on it, shared by the legacy RandomState (MT19937) and the Generator (PCG64): both `permutation`s
 * shuffle with this masked rejection — 32-bit draws when max ≤ 0xffffffff, 64-bit draws otherwise.
 */

export const TWO_32 = 4294967296;

/** The bit generator's draws: `next32()` and `next64(out)` with out = [hi, lo]. */
export interface BitSource {
  next32(): number;
  next64(out: Uint32Array): void;
}

/** Smallest all-ones mask ≥ x (the C code's shift-or cascade, within 32 bits). */
export function mask32(x: number): number {
  let m = x | (x >>> 1);
  m |= m >>> 2;
  m |= m >>> 4;
  m |= m >>> 8;
  m |= m >>> 16;
  return m;
}

/** `random_interval` for a validated safe integer max ≥ 0 (max ≤ 2^53 keeps 64-bit values exact). */
export function randomIntervalUnchecked(src: BitSource, buf: Uint32Array, max: number): number {
  if (max === 0) return 0; // numpy returns without drawing
  if (max <= 0xffffffff) {
    const mask = mask32(max);
    let v: number;
    do v = (src.next32() & mask) >>> 0;
    while (v > max);
    return v;
  }
  // 64-bit draws masked: the low word's mask is all ones, the high word's the smallest all-ones mask ≥ max / 2^32
  const hiMask = mask32(Math.floor(max / TWO_32));
  let v: number;
  do {
    src.next64(buf);
    v = ((buf[0] & hiMask) >>> 0) * TWO_32 + buf[1];
  } while (v > max);
  return v;
}

/** numpy's in-place shuffle: for i from n−1 down to 1, j = random_interval(i), swap. */
export function shuffleWith<T>(src: BitSource, buf: Uint32Array, items: T[]): T[] {
  for (let i = items.length - 1; i >= 1; i--) {
    const j = randomIntervalUnchecked(src, buf, i);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

/** `permutation(n)` = shuffle(arange(n)). */
export function permutationWith(src: BitSource, buf: Uint32Array, n: number): number[] {
  checkSafeNonNegative('permutation n', n);
  const arr = new Array<number>(n);
  for (let i = 0; i < n; i++) arr[i] = i;
  return shuffleWith(src, buf, arr);
}

export function checkSafeNonNegative(name: string, x: number): void {
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer, got ${String(x)}`);
  }
}

/**
 * A numpy seed given as one int: an integer in [0, 2^32 − 1], else a RangeError naming `owner`
 * ('default_rng', 'RandomState'). numpy would reject non-integers with a TypeError/ValueError.
 */
export function checkUint32Seed(owner: string, seed: number): void {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`${owner} seed must be an integer between 0 and 2^32 - 1 (4294967295), got ${String(seed)}`);
  }
}

/**
 * numpy's integer bounds `(low, high)`, where one argument means `(0, low)`; both must be safe integers, else a
 * RangeError naming `method` ('integers', 'randint').
 */
export function integerBounds(method: string, low: number, high: number | undefined): [number, number] {
  const [lo, hi] = high === undefined ? [0, low] : [low, high];
  if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)) {
    throw new RangeError(`${method} bounds must be safe integers, got low=${String(lo)}, high=${String(hi)}`);
  }
  return [lo, hi];
}
