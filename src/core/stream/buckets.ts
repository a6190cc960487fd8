/**
 * The built-in drifting stream (docs/science.md §7): K buckets cut from one labelled image pool (Fashion-MNIST's
 * training split), one label space, each image redrawn in its bucket's look (schedule.ts, transform.ts).
 *
 * - `drift` (the default): bucket b has level b/(K − 1): the look moves smoothly from the first bucket to the last.
 * - `abrupt` (control): the same K looks in a seeded shuffled order (never the identity): the same buckets, but
 *   neighbours in time are no longer neighbours in look.
 * - `mixed` (control): the drift stream's images shuffled across buckets within each class: every bucket is the
 *   same mixture of all looks, i.e. no drift at all.
 *
 * Every bucket holds `perClass` images of every class, disjoint between buckets, in a seeded order.
 * Randomness: one generator `default_rng(seed)` gives four 32-bit seeds, in this order, for: picking the images,
 * the jitter of each image's look, the abrupt order, the mixing. So the three kinds cut the same images from the
 * pool (abrupt reorders the looks, mixed moves the images between buckets).
 */
import { TIME_LIMITS } from '../config/limits';
import { createDefaultRng } from '../random/default-rng';
import { bucketLevel, jitteredLook, lookAt } from './schedule';
import { applyLook, type ImageShape, type Look } from './transform';

export type StreamKind = 'drift' | 'abrupt' | 'mixed';
export const STREAM_KINDS: readonly StreamKind[] = ['drift', 'abrupt', 'mixed'];
export const STREAM_KIND_LABELS: Readonly<Record<StreamKind, string>> = {
  drift: 'drift: the look changes gradually from bucket to bucket',
  abrupt: 'abrupt (control): the same buckets in a shuffled order',
  mixed: 'mixed (control): every bucket a mixture of all looks — no drift',
};

export const MAX_BUCKETS = TIME_LIMITS.buckets.max;

export interface StreamSpec {
  kind: StreamKind;
  /** K, 1…MAX_BUCKETS */
  buckets: number;
  /** images of each class in each bucket */
  perClass: number;
  /** drift strength (1 = the default path of schedule.ts; 0 = no change of look) */
  strength: number;
  seed: number;
}

/** The labelled images the stream is cut from: uint8 H×W×C each, concatenated. */
export interface SourcePool {
  images: Uint8Array;
  labels: ArrayLike<number>;
  shape: ImageShape;
  numClasses: number;
}

export interface StreamBuckets {
  shape: ImageShape;
  /** every bucket's images, bucket 0 first (uint8 H×W×C each) */
  images: Uint8Array;
  labels: Uint8Array;
  /** |S_t| */
  sizes: number[];
  /** the look level ℓ of each bucket (drift: b/(K−1); abrupt: shuffled; mixed: the mean level of its images) */
  levels: number[];
  /** the level of each image (before jitter) */
  levelOf: Float32Array;
  /** each image's index in the source pool */
  source: Int32Array;
}

export class StreamSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamSpecError';
  }
}

const UINT32 = 2 ** 32;

/** The order of the looks under `abrupt`: a seeded permutation of 0..K−1 that is not the identity (K ≥ 2). */
export function abruptOrder(K: number, seed: number): number[] {
  if (K < 2) return [0];
  const rng = createDefaultRng(seed);
  for (;;) {
    const p = rng.permutation(K);
    if (p.some((v, i) => v !== i)) return p;
  }
}

/** The four derived seeds of a stream (see the header). */
export function streamSeeds(seed: number): { pick: number; jitter: number; order: number; mix: number } {
  const rng = createDefaultRng(seed >>> 0);
  return { pick: rng.integers(0, UINT32), jitter: rng.integers(0, UINT32), order: rng.integers(0, UINT32), mix: rng.integers(0, UINT32) };
}

export function checkStreamSpec(spec: StreamSpec, pool: SourcePool): void {
  if (!Number.isInteger(spec.buckets) || spec.buckets < 1 || spec.buckets > MAX_BUCKETS) {
    throw new StreamSpecError(`The number of buckets must be a whole number from 1 to ${MAX_BUCKETS}; got ${String(spec.buckets)}.`);
  }
  if (!Number.isInteger(spec.perClass) || spec.perClass < 1)
    throw new StreamSpecError(`Images per class per bucket must be a whole number ≥ 1; got ${String(spec.perClass)}.`);
  if (!(Number.isFinite(spec.strength) && spec.strength >= 0 && spec.strength <= 2))
    throw new StreamSpecError(`The drift strength must be in [0, 2]; got ${String(spec.strength)}.`);
  if (!STREAM_KINDS.includes(spec.kind)) throw new StreamSpecError(`Unknown stream "${String(spec.kind)}": use ${STREAM_KINDS.join(', ')}.`);
  const counts = new Array<number>(pool.numClasses).fill(0);
  for (let i = 0; i < pool.labels.length; i++) counts[pool.labels[i]]++;
  const need = spec.buckets * spec.perClass;
  const short = counts.findIndex((n) => n < need);
  if (short >= 0) throw new StreamSpecError(`Class ${short} has ${counts[short]} images; ${spec.buckets} buckets × ${spec.perClass} per class need ${need}.`);
}

/** Which pool images go to which bucket, in each bucket's seeded order, and each image's level (before transform). */
export function planBuckets(spec: StreamSpec, pool: SourcePool): { members: number[][]; levelOf: number[][]; bucketLevels: number[] } {
  checkStreamSpec(spec, pool);
  const K = spec.buckets;
  const seeds = streamSeeds(spec.seed);
  const pick = createDefaultRng(seeds.pick);
  const byClass: number[][] = Array.from({ length: pool.numClasses }, () => []);
  for (let i = 0; i < pool.labels.length; i++) byClass[pool.labels[i]].push(i);
  // chosen[c][b] = the pool indices of class c in bucket b
  const chosen = byClass.map((idx) => {
    const perm = pick.permutation(idx.length);
    return Array.from({ length: K }, (_, b) => perm.slice(b * spec.perClass, (b + 1) * spec.perClass).map((q) => idx[q]));
  });
  const order = spec.kind === 'abrupt' ? abruptOrder(K, seeds.order) : Array.from({ length: K }, (_, b) => b);
  const bucketLevels = order.map((o) => bucketLevel(o, K));
  // (pool index, level) per class per bucket
  let cells = chosen.map((perBucket) => perBucket.map((members, b) => members.map((m) => [m, bucketLevels[b]] as [number, number])));
  if (spec.kind === 'mixed') {
    const mix = createDefaultRng(seeds.mix);
    cells = cells.map((perBucket) => {
      const all = perBucket.flat();
      const perm = mix.permutation(all.length);
      return Array.from({ length: K }, (_, b) => perm.slice(b * spec.perClass, (b + 1) * spec.perClass).map((q) => all[q]));
    });
  }
  const members: number[][] = [];
  const levelOf: number[][] = [];
  for (let b = 0; b < K; b++) {
    const items = cells.flatMap((perBucket) => perBucket[b]);
    pick.shuffle(items);
    members.push(items.map((it) => it[0]));
    levelOf.push(items.map((it) => it[1]));
  }
  const levels = spec.kind === 'mixed' ? levelOf.map((ls) => ls.reduce((a, v) => a + v, 0) / ls.length) : bucketLevels;
  return { members, levelOf, bucketLevels: levels };
}

/** uint8 bytes → [0, 1] floats, the look, → rounded bytes. */
export function redraw(bytes: Uint8Array, shape: ImageShape, look: Look): Uint8Array {
  const f = new Float32Array(bytes.length);
  for (let p = 0; p < bytes.length; p++) f[p] = bytes[p] / 255;
  const g = applyLook(f, shape, look);
  const out = new Uint8Array(g.length);
  for (let p = 0; p < g.length; p++) out[p] = Math.round(Math.min(1, Math.max(0, g[p])) * 255);
  return out;
}

/** Build the stream: pick, order and redraw every image (see the header). */
export function buildStream(spec: StreamSpec, pool: SourcePool): StreamBuckets {
  const plan = planBuckets(spec, pool);
  const size = pool.shape[0] * pool.shape[1] * pool.shape[2];
  const total = plan.members.reduce((n, m) => n + m.length, 0);
  const images = new Uint8Array(total * size);
  const labels = new Uint8Array(total);
  const levelOf = new Float32Array(total);
  const source = new Int32Array(total);
  const jitter = createDefaultRng(streamSeeds(spec.seed).jitter);
  const random = (): number => jitter.random();
  let n = 0;
  plan.members.forEach((members, b) => {
    members.forEach((m, q) => {
      const level = plan.levelOf[b][q];
      const look = jitteredLook(lookAt(level, spec.strength), random);
      images.set(redraw(pool.images.subarray(m * size, (m + 1) * size), pool.shape, look), n * size);
      labels[n] = pool.labels[m];
      levelOf[n] = level;
      source[n] = m;
      n++;
    });
  });
  return { shape: pool.shape, images, labels, sizes: plan.members.map((m) => m.length), levels: plan.bucketLevels, levelOf, source };
}
