/**
 * numpy's PCG64 bit generator (numpy/random/src/pcg64/pcg64.{h,c}, numpy/random/_pcg64.pyx), bit for bit:
 * a 128-bit LCG `state = state * PCG_DEFAULT_MULTIPLIER_128 + inc` with the XSL-RR output
 * `rotr64(hi64 ^ lo64, state >> 122)`, advanced BEFORE each output
 * (`pcg_setseq_128_xsl_rr_64_random_r`). It backs `np.random.default_rng(seed)`, whose
 * `permutation` docs/science.md §1 uses for EDGE's random ("median") ordering.
 *
 * Why 16-bit limbs: the hot path (one 128×128-bit multiply per draw) must be fast without BigInt.
 * With eight 16-bit limbs every partial product is < 2^32 and a column sum of at most eight of them
 * plus a carry stays far below 2^53, so plain double arithmetic is exact. BigInt is used only for
 * seeding and for the debugging accessors.
 */

/** PCG_DEFAULT_MULTIPLIER_128 = (2549297995355413924 << 64) + 4865540595714422341. */
const MULT = 0x2360ed051fc65da44385df649fccf645n;
const MASK128 = (1n << 128n) - 1n;

/** The 128-bit multiplier as eight little-endian 16-bit limbs. */
const MULT_LIMBS: readonly number[] = toLimbs(MULT);

/** numpy's `pcg64_state`: the LCG state/increment plus the one-word buffer for 32-bit draws. */
export interface Pcg64State {
  /** 128-bit LCG state, eight little-endian 16-bit limbs. */
  state: Float64Array;
  /** 128-bit increment (always odd), eight little-endian 16-bit limbs. */
  inc: Float64Array;
  /** `has_uint32`: a spare high half of the last 64-bit draw is waiting in `uinteger`. */
  hasUint32: boolean;
  /** `uinteger`: the buffered upper 32 bits. */
  uinteger: number;
}

function toLimbs(x: bigint): number[] {
  const out: number[] = [];
  let v = x & MASK128;
  for (let i = 0; i < 8; i++) {
    out.push(Number(v & 0xffffn));
    v >>= 16n;
  }
  return out;
}

function fromLimbs(limbs: ArrayLike<number>): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 16n) | BigInt(limbs[i]);
  return v;
}

/**
 * 2^-16. A limb sum `acc` is a whole number below 2^53, so `acc * INV_65536` is exact and its floor is the carry; this
 * replaces `acc % 65536`, which V8 computes with a slow fmod call for numbers past 2^31 (draws about 2× faster).
 */
const INV_65536 = 1 / 65536;

/** `pcg_setseq_128_step_r`: state = state * MULT + inc (mod 2^128), in place. */
function step(st: Pcg64State): void {
  const s = st.state;
  const inc = st.inc;
  const m = MULT_LIMBS;
  const s0 = s[0],
    s1 = s[1],
    s2 = s[2],
    s3 = s[3],
    s4 = s[4],
    s5 = s[5],
    s6 = s[6],
    s7 = s[7];
  const m0 = m[0],
    m1 = m[1],
    m2 = m[2],
    m3 = m[3],
    m4 = m[4],
    m5 = m[5],
    m6 = m[6],
    m7 = m[7];
  let acc: number;
  let lo: number;
  let carry: number;

  acc = s0 * m0 + inc[0];
  carry = Math.floor(acc * INV_65536);
  lo = acc - carry * 65536;
  s[0] = lo;
  acc = carry + s0 * m1 + s1 * m0 + inc[1];
  carry = Math.floor(acc * INV_65536);
  lo = acc - carry * 65536;
  s[1] = lo;
  acc = carry + s0 * m2 + s1 * m1 + s2 * m0 + inc[2];
  carry = Math.floor(acc * INV_65536);
  lo = acc - carry * 65536;
  s[2] = lo;
  acc = carry + s0 * m3 + s1 * m2 + s2 * m1 + s3 * m0 + inc[3];
  carry = Math.floor(acc * INV_65536);
  lo = acc - carry * 65536;
  s[3] = lo;
  acc = carry + s0 * m4 + s1 * m3 + s2 * m2 + s3 * m1 + s4 * m0 + inc[4];
  carry = Math.floor(acc * INV_65536);
  lo = acc - carry * 65536;
  s[4] = lo;
  acc = carry + s0 * m5 + s1 * m4 + s2 * m3 + s3 * m2 + s4 * m1 + s5 * m0 + inc[5];
  carry = Math.floor(acc * INV_65536);
  lo = acc - carry * 65536;
  s[5] = lo;
  acc = carry + s0 * m6 + s1 * m5 + s2 * m4 + s3 * m3 + s4 * m2 + s5 * m1 + s6 * m0 + inc[6];
  carry = Math.floor(acc * INV_65536);
  lo = acc - carry * 65536;
  s[6] = lo;
  acc = carry + s0 * m7 + s1 * m6 + s2 * m5 + s3 * m4 + s4 * m3 + s5 * m2 + s6 * m1 + s7 * m0 + inc[7];
  s[7] = acc - Math.floor(acc * INV_65536) * 65536; // the carry out of bit 128 is discarded (mod 2^128)
}

/**
 * `pcg64_srandom_r(initstate, initseq)` = `pcg_setseq_128_srandom_r`:
 * state = 0; inc = (initseq << 1) | 1; step; state += initstate; step.
 * `pcg64_set_seed` builds `initstate = seed[0] << 64 | seed[1]` and `initseq = inc[0] << 64 | inc[1]`
 * from the four uint64 words SeedSequence produced (see default-rng.ts).
 */
export function pcg64Seed(initState: bigint, initSeq: bigint): Pcg64State {
  const st: Pcg64State = {
    state: new Float64Array(8),
    inc: Float64Array.from(toLimbs(((initSeq << 1n) | 1n) & MASK128)),
    hasUint32: false,
    uinteger: 0,
  };
  step(st);
  st.state.set(toLimbs(fromLimbs(st.state) + (initState & MASK128)));
  step(st);
  return st;
}

/**
 * `pcg64_next64`: advance, then XSL-RR output of the new state. Writes the 64-bit result into
 * `out` as `[hi32, lo32]` (unsigned), avoiding BigInt on the hot path.
 */
export function pcg64Next64(st: Pcg64State, out: Uint32Array): void {
  step(st);
  const s = st.state;
  // hi64 ^ lo64 as two 32-bit words
  const xh = (((s[7] << 16) | s[6]) ^ ((s[3] << 16) | s[2])) >>> 0;
  const xl = (((s[5] << 16) | s[4]) ^ ((s[1] << 16) | s[0])) >>> 0;
  const rot = s[7] >>> 10; // state >> 122: the top 6 bits
  if (rot === 0) {
    out[0] = xh;
    out[1] = xl;
  } else if (rot < 32) {
    out[0] = (xh >>> rot) | (xl << (32 - rot));
    out[1] = (xl >>> rot) | (xh << (32 - rot));
  } else if (rot === 32) {
    out[0] = xl;
    out[1] = xh;
  } else {
    const r = rot - 32;
    out[0] = (xl >>> r) | (xh << (32 - r));
    out[1] = (xh >>> r) | (xl << (32 - r));
  }
}

const scratch = new Uint32Array(2);

/**
 * `pcg64_next32`: 32-bit draws come in pairs from one 64-bit output, LOW half first; the high
 * half is buffered in `uinteger` until the next 32-bit request (64-bit draws and doubles do not
 * touch the buffer, exactly as in numpy).
 */
export function pcg64Next32(st: Pcg64State): number {
  if (st.hasUint32) {
    st.hasUint32 = false;
    return st.uinteger;
  }
  pcg64Next64(st, scratch);
  st.hasUint32 = true;
  st.uinteger = scratch[0];
  return scratch[1];
}

/** `pcg64_double` = `uint64_to_double(next64)` = `(next64 >> 11) * 2^-53`. */
export function pcg64NextDouble(st: Pcg64State): number {
  pcg64Next64(st, scratch);
  return (scratch[0] * 2097152 + (scratch[1] >>> 11)) / 9007199254740992;
}

/** `pcg64_next64` as a BigInt (tests, `random_raw`). */
export function pcg64NextUint64(st: Pcg64State): bigint {
  pcg64Next64(st, scratch);
  return (BigInt(scratch[0]) << 32n) | BigInt(scratch[1]);
}

/** The 128-bit state and increment as BigInts, as numpy's `PCG64().state['state']` reports them. */
export function pcg64StateValues(st: Pcg64State): { state: bigint; inc: bigint } {
  return { state: fromLimbs(st.state), inc: fromLimbs(st.inc) };
}
