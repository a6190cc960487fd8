/**
 * The Mersenne Twister MT19937 bit generator exactly as numpy implements it
 * (numpy/random/src/mt19937/mt19937.{h,c}), so that numpy's legacy `RandomState` can be
 * reproduced bit for bit (docs/science.md §1, RS protocol).
 *
 * Only the integer seeding is implemented: numpy's `MT19937._legacy_seeding(seed)` calls
 * `mt19937_seed(state, seed)` for a Python int in [0, 2^32-1], which is Matsumoto–Nishimura's
 * `init_genrand`. (Array seeds use `init_by_array`, which nothing in the app needs.)
 *
 * All arithmetic is on unsigned 32-bit words held in a Uint32Array; `Math.imul` gives the exact
 * low 32 bits of the seeding multiplication.
 */

/** Number of 32-bit words of state (numpy's RK_STATE_LEN). */
export const MT19937_N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

/** MT19937 state: numpy's `mt19937_state` (`key[624]`, `pos`). */
export interface Mt19937State {
  key: Uint32Array;
  /** Index of the next word to temper; MT19937_N means "regenerate first". */
  pos: number;
}

/**
 * numpy `mt19937_seed(state, seed)`: Knuth's linear recurrence
 * `key[i] = 1812433253 * (key[i-1] ^ (key[i-1] >>> 30)) + i (mod 2^32)`, then `pos = 624` so the
 * first draw regenerates the whole block. The caller validates that `seed` is an integer in
 * [0, 2^32-1]; here it is reduced mod 2^32 as numpy's `seed &= 0xffffffff` does.
 */
export function mt19937Seed(seed: number): Mt19937State {
  const key = new Uint32Array(MT19937_N);
  let s = seed >>> 0;
  for (let pos = 0; pos < MT19937_N; pos++) {
    key[pos] = s;
    s = (Math.imul(1812433253, (s ^ (s >>> 30)) >>> 0) + pos + 1) >>> 0;
  }
  return { key, pos: MT19937_N };
}

/** numpy `mt19937_gen`: regenerate all 624 words (the "twist"). */
function mt19937Gen(state: Mt19937State): void {
  const key = state.key;
  let i = 0;
  let y: number;
  for (; i < MT19937_N - M; i++) {
    y = (key[i] & UPPER_MASK) | (key[i + 1] & LOWER_MASK);
    key[i] = key[i + M] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
  }
  for (; i < MT19937_N - 1; i++) {
    y = (key[i] & UPPER_MASK) | (key[i + 1] & LOWER_MASK);
    key[i] = key[i + (M - MT19937_N)] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
  }
  y = (key[MT19937_N - 1] & UPPER_MASK) | (key[0] & LOWER_MASK);
  key[MT19937_N - 1] = key[M - 1] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
  state.pos = 0;
}

/** numpy `mt19937_next` / `mt19937_next32`: one tempered unsigned 32-bit word. */
export function mt19937Next32(state: Mt19937State): number {
  if (state.pos === MT19937_N) mt19937Gen(state);
  let y = state.key[state.pos++];
  y ^= y >>> 11;
  y ^= (y << 7) & 0x9d2c5680;
  y ^= (y << 15) & 0xefc60000;
  y ^= y >>> 18;
  return y >>> 0;
}

/**
 * numpy `mt19937_next64`: `(uint64)next() << 32 | next()`. The first word drawn is the HIGH half
 * (GCC/Clang evaluate the left operand first; verified against numpy in the fixtures via
 * `RandomState.randint` with ranges above 2^32). Written into `out` as `[hi, lo]` to avoid BigInt.
 */
export function mt19937Next64(state: Mt19937State, out: Uint32Array): void {
  out[0] = mt19937Next32(state);
  out[1] = mt19937Next32(state);
}

/**
 * numpy `mt19937_next_double` (RandomState.random_sample): a 53-bit double in [0, 1) from two
 * words, `((a >> 5) * 2^26 + (b >> 6)) / 2^53`.
 */
export function mt19937NextDouble(state: Mt19937State): number {
  const a = mt19937Next32(state) >>> 5;
  const b = mt19937Next32(state) >>> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}
