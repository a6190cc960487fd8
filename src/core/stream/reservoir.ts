/**
 * Biased reservoir sampling at bucket level, exactly as CLEAR's supplement Alg. 1 (docs/science.md §7; supplement
 * §4): buckets S_1..S_N arrive whole; the buffer B holds at most k samples. α is fixed (0.5, 1, 2, 5; α = 1 is
 * classic reservoir sampling) or dynamic α = c·i/k (c = 0.25…1), so the admission probability α·k/i is the constant
 * c; c = 1 admits every sample, and with |S_t| ≥ k the buffer then holds only the newest samples (FIFO). A sample is
 * its position in the concatenation of the buckets (bucket t's are offset_t … offset_t+|S_t|−1).
 */
import { CONFIG_LIMITS, grouped } from '../config/limits';
import type { DefaultRng } from '../random/default-rng';

/** α of Alg. 1: a constant, or c·i/k (admission probability c). */
export type AlphaSpec = { kind: 'fixed'; value: number } | { kind: 'dynamic'; c: number };

export class ReservoirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReservoirError';
  }
}

/** The fixed α values and dynamic c values of the paper's Table 2 / supplement Tables 4–5. */
export const FIXED_ALPHAS: readonly number[] = [0.5, 1, 2, 5];
export const DYNAMIC_CS: readonly number[] = [0.25, 0.5, 0.75, 1];
/** Table 2's sweep: every α the paper tried, fixed first. */
export const ALPHA_SWEEP: readonly AlphaSpec[] = [
  ...FIXED_ALPHAS.map((value) => ({ kind: 'fixed' as const, value })),
  ...DYNAMIC_CS.map((c) => ({ kind: 'dynamic' as const, c })),
];

/** "2", "0.5" → fixed; "dynamic:0.75" → c·i/k. Throws ReservoirError with what is wrong. */
export function parseAlpha(text: string): AlphaSpec {
  const t = text.trim().toLowerCase();
  const m = /^dynamic:(.*)$/.exec(t);
  const spec: AlphaSpec = m ? { kind: 'dynamic', c: Number(m[1]) } : { kind: 'fixed', value: t === '' ? NaN : Number(t) };
  checkAlpha(spec);
  return spec;
}

/** The text parseAlpha reads back. */
export function formatAlpha(a: AlphaSpec): string {
  return a.kind === 'fixed' ? String(a.value) : `dynamic:${a.c}`;
}

/** A label for charts: "α = 2" or "α = 0.5·i/k". */
export function alphaLabel(a: AlphaSpec): string {
  return a.kind === 'fixed' ? `α = ${a.value}${a.value === 1 ? ' (reservoir)' : ''}` : `α = ${a.c}·i/k${a.c === 1 ? ' (FIFO)' : ''}`;
}

export function checkAlpha(a: AlphaSpec): void {
  if (a.kind === 'fixed') {
    if (!Number.isFinite(a.value) || a.value <= 0)
      throw new ReservoirError(`α must be a positive number (e.g. 0.5, 1, 2, 5) or dynamic:C; got ${String(a.value)}.`);
  } else if (!Number.isFinite(a.c) || a.c <= 0 || a.c > 1) {
    throw new ReservoirError(`dynamic:C needs 0 < C ≤ 1 (C is the admission probability; 1 = FIFO); got ${String(a.c)}.`);
  }
}

/** Admission probability α·k/i of bucket t's samples once the buffer is full (may exceed 1: then every sample). */
export function admissionProbability(a: AlphaSpec, k: number, seen: number): number {
  return a.kind === 'fixed' ? (a.value * k) / seen : a.c;
}

function checkInputs(bucketSizes: readonly number[], k: number): void {
  const L = CONFIG_LIMITS;
  if (!Array.isArray(bucketSizes) || bucketSizes.length === 0) throw new ReservoirError('Give at least one bucket size.');
  if (bucketSizes.length > L.reservoirBuckets)
    throw new ReservoirError(
      `At most ${grouped(L.reservoirBuckets)} buckets (the composition keeps buckets × buckets counts); got ${grouped(bucketSizes.length)}.`,
    );
  bucketSizes.forEach((n, t) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new ReservoirError(`Bucket size ${t} must be a whole number ≥ 0; got ${String(n)}.`);
  });
  if (!Number.isInteger(k) || k < 1 || k > L.reservoirK)
    throw new ReservoirError(`The buffer size k must be a whole number from 1 to ${grouped(L.reservoirK)}; got ${k > 1e15 ? k.toExponential(2) : String(k)}.`);
}

/**
 * The sizes Alg. 1 is asked for, within the bounds of limits.ts (checked before anything is drawn or kept): the
 * buckets, k, the trials, the buffers one trial keeps (buckets × min(k, samples)) and the work of all trials
 * (Σ_t |S_t| + |B_t| per trial). Throws a ReservoirError naming the bound.
 */
export function checkReservoirSizes(bucketSizes: readonly number[], k: number, trials: number): void {
  const L = CONFIG_LIMITS;
  checkInputs(bucketSizes, k);
  if (!Number.isInteger(trials) || trials < 1 || trials > L.reservoirTrials)
    throw new ReservoirError(`The number of trials must be a whole number from 1 to ${grouped(L.reservoirTrials)}; got ${String(trials)}.`);
  let seen = 0;
  let perTrial = 0;
  for (const n of bucketSizes) {
    seen += n;
    perTrial += n + Math.min(k, seen);
  }
  const kept = bucketSizes.length * Math.min(k, seen);
  if (kept > L.reservoirKept)
    throw new ReservoirError(
      `A trial keeps every bucket's buffer, at most ${grouped(L.reservoirKept)} positions in all; ${grouped(bucketSizes.length)} buckets × a buffer of ${grouped(Math.min(k, seen))} ` +
        `would keep ${grouped(kept)}: use fewer buckets or a smaller k.`,
    );
  const work = perTrial * trials;
  if (work > L.reservoirWork)
    throw new ReservoirError(
      `One call runs at most ${grouped(L.reservoirWork)} steps of Alg. 1 (a draw per sample and a pass over each buffer, about half a minute); ` +
        `${grouped(trials)} trials of these buckets need ${work > 1e15 ? work.toExponential(2) : grouped(work)}: use fewer trials or smaller buckets.`,
    );
}

/**
 * Alg. 1: the buffer after each bucket, as sample positions; `rng` is advanced. Returns N buffers B_1..B_N (each
 * |B_t| ≤ k). Per bucket t (0-based): (1) i = Σ_{j≤t} |S_j|, every sample seen so far, bucket t whole; (2) each
 * sample of S_t in order joins B while |B| < k (no draw), else one draw u ~ U[0,1) and it joins the list T when
 * u ≤ α·k/i; (3) when |T| > k a uniform random k of T are kept (the supplement's pseudocode would otherwise grow B
 * past k); (4) B is shuffled, its first |T| samples dropped, T appended. The draws, in this order, are part of the
 * definition (scripts/make-stream-fixtures.py repeats them with numpy and gets the same buffers): one `random()`
 * per sample that meets a full buffer, then, only when |T| > k, `permutation(|T|)` whose first k entries pick the
 * kept T in that order, then `shuffle(B)`.
 */
export function biasedReservoir(bucketSizes: readonly number[], k: number, alpha: AlphaSpec, rng: DefaultRng): Int32Array[] {
  checkInputs(bucketSizes, k);
  checkAlpha(alpha);
  let buffer: number[] = [];
  const out: Int32Array[] = [];
  let seen = 0;
  let offset = 0;
  for (const size of bucketSizes) {
    seen += size;
    const p = seen > 0 ? admissionProbability(alpha, k, seen) : 0;
    let admitted: number[] = [];
    for (let s = 0; s < size; s++) {
      if (buffer.length < k) buffer.push(offset + s);
      else if (rng.random() <= p) admitted.push(offset + s);
    }
    if (admitted.length > k) {
      const perm = rng.permutation(admitted.length);
      admitted = perm.slice(0, k).map((q) => admitted[q]);
    }
    rng.shuffle(buffer);
    buffer = buffer.slice(admitted.length).concat(admitted);
    out.push(Int32Array.from(buffer));
    offset += size;
  }
  return out;
}

/** Offsets of the buckets in the concatenation: offsets[t] = Σ_{j<t} |S_j|. */
export function bucketOffsets(bucketSizes: readonly number[]): number[] {
  const out: number[] = [];
  let o = 0;
  for (const n of bucketSizes) {
    out.push(o);
    o += n;
  }
  return out;
}

/** How many samples of each bucket a buffer holds. */
export function bufferComposition(buffer: ArrayLike<number>, bucketSizes: readonly number[]): number[] {
  const offsets = bucketOffsets(bucketSizes);
  const counts = new Array<number>(bucketSizes.length).fill(0);
  for (let q = 0; q < buffer.length; q++) {
    const pos = buffer[q];
    // the last bucket whose offset is ≤ pos (binary search: many buckets stay cheap)
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    counts[lo]++;
  }
  return counts;
}

export interface ReservoirTrials {
  /** mean over trials of the final buffer's share from each bucket (share = count / |B_N|) */
  shares: number[];
  /** mean over trials of the final buffer's count from each bucket */
  counts: number[];
  /** standard deviation over trials of each bucket's share (for a tolerance: σ/√trials) */
  shareStd: number[];
  /** |B_N| of each trial's final buffer (all equal to min(k, Σ|S_t|)) */
  sizes: number[];
  /** mean composition after every bucket: composition[t][j] = mean count from bucket j in B_t */
  composition: number[][];
}

/** `trials` runs of Alg. 1 on one generator (seeded by the caller), the statistics of `cil-lab reservoir`. */
export function reservoirTrials(bucketSizes: readonly number[], k: number, alpha: AlphaSpec, trials: number, rng: DefaultRng): ReservoirTrials {
  checkReservoirSizes(bucketSizes, k, trials);
  checkAlpha(alpha);
  const N = bucketSizes.length;
  const sum = new Array<number>(N).fill(0);
  const sumSq = new Array<number>(N).fill(0);
  const countSum = new Array<number>(N).fill(0);
  const comp = Array.from({ length: N }, () => new Array<number>(N).fill(0));
  const sizes: number[] = [];
  for (let r = 0; r < trials; r++) {
    const buffers = biasedReservoir(bucketSizes, k, alpha, rng);
    buffers.forEach((b, t) => bufferComposition(b, bucketSizes).forEach((c, j) => (comp[t][j] += c)));
    const last = buffers[N - 1];
    sizes.push(last.length);
    const counts = bufferComposition(last, bucketSizes);
    counts.forEach((c, j) => {
      const share = last.length > 0 ? c / last.length : 0;
      sum[j] += share;
      sumSq[j] += share * share;
      countSum[j] += c;
    });
  }
  const shares = sum.map((s) => s / trials);
  return {
    shares,
    counts: countSum.map((s) => s / trials),
    shareStd: sumSq.map((s, j) => Math.sqrt(Math.max(0, s / trials - shares[j] * shares[j]))),
    sizes,
    composition: comp.map((row) => row.map((c) => c / trials)),
  };
}
