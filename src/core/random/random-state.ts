/**
 * numpy's legacy `np.random.RandomState(seed)` (numpy/random/mtrand.pyx), bit for bit. The community's class orders
 * for CIL benchmarks come from `np.random.seed(s); np.random.permutation(N)` (PyCIL, PILOT, OpenCIL; docs/science.md
 * §1, RS protocol); reproducing them lets a user's CIFAR-100 order here equal their PyTorch run's (seed 1993, N = 100
 * starts 68, 56, 78, 8, 23, …). The pieces, each with the numpy function it mirrors:
 * - seeding: `_legacy_seeding(seed)` → `mt19937_seed` (mt19937.ts); seeds outside [0, 2^32−1] are refused, as numpy;
 * - `random_interval(bitgen, max)`: mask-and-reject in [0, max], 32-bit draws up to 0xffffffff, 64-bit beyond; the
 *   bounded `randint(low, high)` (`_rand_int64`, masked) draws exactly like it;
 * - `shuffle` / `_shuffle_raw`: Fisher–Yates from the END, j = random_interval(i); `permutation(n)`: arange, shuffle;
 * - `random_sample`: `mt19937_next_double` (53 bits);
 * - `standard_normal()`: `legacy_gauss`, Marsaglia's polar method on two doubles, the pair's second normal kept for the
 *   next call; `Math.log` may differ from C's `log` in the last bit, so these agree to ~1e-15 relative.
 */
import { mt19937Next32, mt19937Next64, mt19937NextDouble, mt19937Seed, type Mt19937State } from './mt19937';
import { checkSafeNonNegative, checkUint32Seed, integerBounds, permutationWith, randomIntervalUnchecked, shuffleWith, type BitSource } from './random-interval';

/** A seeded legacy numpy RandomState. Every method advances the shared MT19937 stream. */
export interface RandomState {
  /** numpy `random_interval(max)`: uniform integer in [0, max]; `max` a safe integer ≥ 0. */
  randomInterval(max: number): number;
  /** `RandomState.permutation(n)`: a shuffled `[0, 1, …, n-1]`. */
  permutation(n: number): number[];
  /** `RandomState.shuffle(x)` for a 1-d array: shuffles `items` in place and returns it. */
  shuffle<T>(items: T[]): T[];
  /** `RandomState.random_sample()`: one double in [0, 1) with 53 random bits. */
  randomSample(): number;
  /**
   * `RandomState.randint(low, high)`: uniform integer in [low, high); with one argument,
   * in [0, low) as numpy does. Bounds must be safe integers.
   */
  randint(low: number, high?: number): number;
  /** `RandomState.standard_normal()`: one N(0, 1) draw (the legacy polar method). */
  standardNormal(): number;
}

/** Create a legacy RandomState seeded like `np.random.RandomState(seed)` / `np.random.seed(seed)`. */
export function createRandomState(seed: number): RandomState {
  checkUint32Seed('RandomState', seed);
  const st = mt19937Seed(seed);
  const buf = new Uint32Array(2);
  const src: BitSource = { next32: () => mt19937Next32(st), next64: (out) => mt19937Next64(st, out) };
  let gauss = 0;
  let hasGauss = false;
  return {
    randomInterval(max: number): number {
      checkSafeNonNegative('randomInterval max', max);
      return randomIntervalUnchecked(src, buf, max);
    },
    permutation(n: number): number[] {
      return permutationWith(src, buf, n);
    },
    shuffle<T>(items: T[]): T[] {
      return shuffleWith(src, buf, items);
    },
    randomSample(): number {
      return mt19937NextDouble(st);
    },
    randint(low: number, high?: number): number {
      const [lo, hi] = integerBounds('randint', low, high);
      if (lo >= hi) throw new RangeError(`randint: low >= high (low=${lo}, high=${hi})`);
      const rng = hi - 1 - lo; // numpy draws on the closed interval [low, high-1]
      if (!Number.isSafeInteger(rng)) throw new RangeError(`randint: range high - low is too large (${hi} - ${lo})`);
      return lo + randomIntervalUnchecked(src, buf, rng);
    },
    standardNormal(): number {
      if (hasGauss) {
        hasGauss = false;
        return gauss;
      }
      let x1: number;
      let x2: number;
      let r2: number;
      do {
        x1 = 2.0 * mt19937NextDouble(st) - 1.0;
        x2 = 2.0 * mt19937NextDouble(st) - 1.0;
        r2 = x1 * x1 + x2 * x2;
      } while (r2 >= 1.0 || r2 === 0.0);
      const f = Math.sqrt((-2.0 * Math.log(r2)) / r2);
      gauss = f * x1;
      hasGauss = true;
      return f * x2;
    },
  };
}

/**
 * `np.random.RandomState(seed).permutation(n)` (equivalently `np.random.seed(seed);
 * np.random.permutation(n)`), e.g. the RS protocol's class order.
 */
export function randomStatePermutation(seed: number, n: number): number[] {
  return createRandomState(seed).permutation(n);
}
