/**
 * numpy's `np.random.default_rng(seed)` (`Generator(PCG64(SeedSequence(seed)))`), bit for bit: docs/science.md §1
 * pins EDGE's random ordering to the authors' `default_rng(0).permutation(N)`, and the MS baseline draws its 200
 * orderings from one seeded generator, so the Generator keeps its state across calls. The pieces, each with the numpy function it mirrors:
 * - `SeedSequence(seed)` (numpy/random/bit_generator.pyx): `_coerce_to_uint32_array(seed)` →
 *   `mix_entropy` into a 4-word pool with `hashmix`/`mix` → `generate_state(4, np.uint64)`.
 * - `PCG64.__init__` (_pcg64.pyx): `pcg64_set_seed(state, val[0:2], val[2:4])` (pcg64.ts).
 * - `Generator.permutation(n)` = `arange(n)` + `Generator.shuffle` → `_shuffle_raw` with
 *   `j = random_interval(bitgen, i)` — the MASKED rejection method (not Lemire), drawing 32-bit
 *   words via PCG64's buffered `next_uint32` (low half of a 64-bit output first, then the high half).
 *   Verified in numpy 2.x `_generator.pyx`: `_shuffle_int` (Lemire) is used only by `choice`.
 * - `Generator.random()` = `random_standard_uniform` = `(next_uint64 >> 11) * 2^-53`.
 * - `Generator.integers(low, high, endpoint)` = `_rand_int64(..., use_masked=False)` →
 *   `random_bounded_uint64_fill`: Lemire's method (`buffered_bounded_lemire_uint32` for ranges
 *   below 2^32-1, `bounded_lemire_uint64` above).
 */
import { pcg64Next32, pcg64Next64, pcg64NextDouble, pcg64NextUint64, pcg64Seed, pcg64StateValues, type Pcg64State } from './pcg64';
import {
  TWO_32,
  checkSafeNonNegative,
  checkUint32Seed,
  integerBounds,
  permutationWith,
  randomIntervalUnchecked,
  shuffleWith,
  type BitSource,
} from './random-interval';

// SeedSequence constants (bit_generator.pyx).
const DEFAULT_POOL_SIZE = 4;
const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const XSHIFT = 16;

/**
 * SeedSequence's entropy pool for run-entropy given as uint32 words (no spawn key, pool size 4):
 * `mix_entropy`. `hashConst` is the running multiplier shared by every `hashmix` call.
 */
export function seedSequencePool(entropy: readonly number[]): Uint32Array {
  const pool = new Uint32Array(DEFAULT_POOL_SIZE);
  let hashConst = INIT_A;
  const hashmix = (value: number): number => {
    let v = (value ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_A) >>> 0;
    v = Math.imul(v, hashConst) >>> 0;
    return (v ^ (v >>> XSHIFT)) >>> 0;
  };
  const mix = (x: number, y: number): number => {
    const r = (Math.imul(MIX_MULT_L, x) - Math.imul(MIX_MULT_R, y)) >>> 0;
    return (r ^ (r >>> XSHIFT)) >>> 0;
  };
  // Add in the entropy up to the pool size; keep running the hash out over zeros.
  for (let i = 0; i < pool.length; i++) pool[i] = hashmix(i < entropy.length ? entropy[i] : 0);
  // Mix all bits together so late bits can affect earlier bits.
  for (let src = 0; src < pool.length; src++) {
    for (let dst = 0; dst < pool.length; dst++) {
      if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    }
  }
  // Add any remaining entropy, mixing each new word with each pool word.
  for (let src = pool.length; src < entropy.length; src++) {
    for (let dst = 0; dst < pool.length; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[src]));
  }
  return pool;
}

/**
 * `SeedSequence.generate_state(nWords, np.uint32)`: cycle through the pool, hashing each word with
 * a running multiplier. (`dtype=np.uint64` is this with twice the words, paired little-endian.)
 */
export function seedSequenceGenerateState(pool: Uint32Array, nWords: number): Uint32Array {
  const out = new Uint32Array(nWords);
  let hashConst = INIT_B;
  for (let i = 0; i < nWords; i++) {
    let v = (pool[i % pool.length] ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_B) >>> 0;
    v = Math.imul(v, hashConst) >>> 0;
    out[i] = (v ^ (v >>> XSHIFT)) >>> 0;
  }
  return out;
}

/** `_int_to_uint32_array(seed)`: 32-bit words, lowest first; 0 becomes `[0]`. */
function seedWords(seed: number): number[] {
  if (seed === 0) return [0];
  const words: number[] = [];
  let n = seed;
  while (n > 0) {
    words.push(n % TWO_32);
    n = Math.floor(n / TWO_32);
  }
  return words;
}

/**
 * `PCG64(seed)`: SeedSequence → `generate_state(4, np.uint64)` → `pcg64_set_seed`.
 * uint64 word k is `w32[2k] | w32[2k+1] << 32`; initstate = w64[0] << 64 | w64[1],
 * initseq = w64[2] << 64 | w64[3].
 */
export function pcg64FromSeed(seed: number): Pcg64State {
  checkUint32Seed('default_rng', seed);
  const w = seedSequenceGenerateState(seedSequencePool(seedWords(seed)), 8);
  const u64 = (k: number): bigint => (BigInt(w[2 * k + 1]) << 32n) | BigInt(w[2 * k]);
  return pcg64Seed((u64(0) << 64n) | u64(1), (u64(2) << 64n) | u64(3));
}

/** A seeded numpy `Generator` over PCG64. Every method advances the shared stream. */
export interface DefaultRng {
  /** `Generator.random()`: one double in [0, 1), 53 random bits. */
  random(): number;
  /**
   * `Generator.integers(low, high, endpoint=False)`: uniform integer in [low, high) (or
   * [low, high] with `endpoint`); with one argument, in [0, low). Bounds must be safe integers.
   */
  integers(low: number, high?: number, endpoint?: boolean): number;
  /** `Generator.permutation(n)`: a shuffled `[0, 1, …, n-1]`. */
  permutation(n: number): number[];
  /** `Generator.shuffle(x)` for a 1-d array: shuffles `items` in place and returns it. */
  shuffle<T>(items: T[]): T[];
  /** numpy `random_interval(max)` on this stream: uniform integer in [0, max] (masked rejection). */
  randomInterval(max: number): number;
  /** `bit_generator.random_raw()`: one raw 64-bit PCG64 output. */
  randomRaw(): bigint;
  /** The PCG64 state, as `bit_generator.state['state']` reports it (`state`, `inc`). */
  pcg64State(): { state: bigint; inc: bigint };
}

/**
 * `buffered_bounded_lemire_uint32(rng)` for 0 < rng < 2^32-1: m = next32 * (rng+1) as an exact
 * 64-bit product; reject while its low word < (2^32-1 - rng) % (rng+1); return its high word.
 */
function lemire32(st: Pcg64State, rng: number): number {
  const rngExcl = rng + 1;
  const threshold = (0xffffffff - rng) % rngExcl;
  for (;;) {
    const x = pcg64Next32(st);
    const leftover = Math.imul(x, rngExcl) >>> 0; // low 32 bits of the product
    if (leftover >= threshold) {
      // high 32 bits, exactly: x = xh*2^16 + xl; each part times rngExcl is < 2^48
      const p = (x & 0xffff) * rngExcl;
      const q = (x >>> 16) * rngExcl;
      const ql = q % 65536;
      return (q - ql) / 65536 + Math.floor((ql * 65536 + p) / TWO_32);
    }
  }
}

/** `bounded_lemire_uint64(rng)` for 2^32-1 < rng < 2^53: the 128-bit product via BigInt (rare path). */
function lemire64(st: Pcg64State, rng: number): number {
  const rngExcl = BigInt(rng) + 1n;
  const mask64 = (1n << 64n) - 1n;
  const threshold = (mask64 - BigInt(rng)) % rngExcl;
  for (;;) {
    const m = pcg64NextUint64(st) * rngExcl;
    if ((m & mask64) >= threshold) return Number(m >> 64n);
  }
}

/** Create a Generator seeded like `np.random.default_rng(seed)` (seed an integer in [0, 2^32-1]). */
export function createDefaultRng(seed: number): DefaultRng {
  return generatorOver(pcg64FromSeed(seed));
}

/**
 * `np.random.default_rng([a, b, …])` for whole numbers in [0, 2^32-1]: SeedSequence's entropy is the words
 * themselves (`_coerce_to_uint32_array` of a list concatenates each number's words), so one stream per (seed, key)
 * pair without arithmetic on the seed, e.g. `default_rng([seed, classLabel])`.
 */
export function createDefaultRngFromWords(words: readonly number[]): DefaultRng {
  if (words.length === 0) throw new RangeError('default_rng: give at least one seed word.');
  words.forEach((w) => checkUint32Seed('default_rng', w));
  const w = seedSequenceGenerateState(seedSequencePool(words), 8);
  const u64 = (k: number): bigint => (BigInt(w[2 * k + 1]) << 32n) | BigInt(w[2 * k]);
  return generatorOver(pcg64Seed((u64(0) << 64n) | u64(1), (u64(2) << 64n) | u64(3)));
}

function generatorOver(st: Pcg64State): DefaultRng {
  const buf = new Uint32Array(2);
  const src: BitSource = { next32: () => pcg64Next32(st), next64: (out) => pcg64Next64(st, out) };
  return {
    random(): number {
      return pcg64NextDouble(st);
    },
    integers(low: number, high?: number, endpoint = false): number {
      const [lo, hi] = integerBounds('integers', low, high);
      const top = endpoint ? hi : hi - 1; // numpy draws on the closed interval [low, top]
      if (lo > top) throw new RangeError(`integers: ${endpoint ? 'low > high' : 'low >= high'} (low=${lo}, high=${hi})`);
      const rng = top - lo;
      if (!Number.isSafeInteger(rng)) throw new RangeError(`integers: range high - low is too large (${hi} - ${lo})`);
      if (rng === 0) return lo; // numpy returns `off` without drawing
      if (rng < 0xffffffff) return lo + lemire32(st, rng);
      if (rng === 0xffffffff) return lo + pcg64Next32(st);
      return lo + lemire64(st, rng);
    },
    permutation(n: number): number[] {
      return permutationWith(src, buf, n);
    },
    shuffle<T>(items: T[]): T[] {
      return shuffleWith(src, buf, items);
    },
    randomInterval(max: number): number {
      checkSafeNonNegative('randomInterval max', max);
      return randomIntervalUnchecked(src, buf, max);
    },
    randomRaw(): bigint {
      return pcg64NextUint64(st);
    },
    pcg64State(): { state: bigint; inc: bigint } {
      return pcg64StateValues(st);
    },
  };
}

/** `np.random.default_rng(seed).permutation(n)`, e.g. EDGE's random ("median") ordering for seed 0. */
export function defaultRngPermutation(seed: number, n: number): number[] {
  return createDefaultRng(seed).permutation(n);
}
