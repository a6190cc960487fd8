/**
 * CLEAR's two evaluation protocols as plans of which samples train and which test at each step (docs/science.md
 * §7; paper: [CLEAR] in docs/science.md, References §4.1–4.2). Samples are positions in the stream's concatenated buckets.
 *
 * - iid: every bucket is split, per class and seeded, into 70% training and 30% test data (ratio configurable);
 *   R[i][j] = accuracy on bucket j's test part after training through bucket i.
 * - streaming: all of bucket i trains, all of bucket j tests ("today's test set is tomorrow's training set"); only
 *   j > i is a test of unseen data (metrics.ts `cellUsed`).
 *
 * The training set of step i is the buffer: `cumulative` = the training parts of buckets 0..i; `reservoir` = Alg. 1's
 * B_i (reservoir.ts) over the training parts, which are handed to it in their seeded order.
 */
import { createDefaultRng } from '../random/default-rng';
import { biasedReservoir, type AlphaSpec } from './reservoir';
import type { StreamProtocol } from './metrics';

export type BufferSpec = { kind: 'cumulative' } | { kind: 'reservoir'; k: number; alpha: AlphaSpec };

export interface ProtocolPlan {
  protocol: StreamProtocol;
  /** train[t]: bucket t's samples that may be trained on, in a seeded order */
  train: Int32Array[];
  /** test[t]: the samples column t of R is measured on */
  test: Int32Array[];
}

/** Split each bucket per class: round(ratio·n_c) of class c to training, the rest to test (seeded). */
export function planProtocol(protocol: StreamProtocol, labels: ArrayLike<number>, sizes: readonly number[], seed: number, trainRatio = 0.7): ProtocolPlan {
  if (!(trainRatio > 0 && trainRatio < 1)) throw new RangeError(`The training share of a bucket must be in (0, 1); got ${trainRatio}.`);
  const rng = createDefaultRng(seed >>> 0);
  const train: Int32Array[] = [];
  const test: Int32Array[] = [];
  let offset = 0;
  for (const size of sizes) {
    const members = Array.from({ length: size }, (_, q) => offset + q);
    if (protocol === 'streaming') {
      const perm = rng.permutation(size);
      train.push(Int32Array.from(perm, (q) => members[q]));
      test.push(Int32Array.from(members));
    } else {
      const byClass = new Map<number, number[]>();
      for (const m of members) {
        const c = labels[m];
        if (!byClass.has(c)) byClass.set(c, []);
        (byClass.get(c) as number[]).push(m);
      }
      const tr: number[] = [];
      const te: number[] = [];
      for (const c of [...byClass.keys()].sort((a, b) => a - b)) {
        const idx = byClass.get(c) as number[];
        const perm = rng.permutation(idx.length);
        const nTrain = Math.round(trainRatio * idx.length);
        perm.forEach((q, r) => (r < nTrain ? tr : te).push(idx[q]));
      }
      const order = rng.permutation(tr.length);
      train.push(Int32Array.from(order, (q) => tr[q]));
      test.push(Int32Array.from(te.sort((a, b) => a - b)));
    }
    offset += size;
  }
  return { protocol, train, test };
}

/**
 * The training set of every step under the buffer (see the header). For `reservoir`, `seed` seeds Alg. 1's
 * generator. Returns sample positions per step.
 */
export function trainingSets(plan: ProtocolPlan, buffer: BufferSpec, seed: number): Int32Array[] {
  if (buffer.kind === 'cumulative') {
    const out: Int32Array[] = [];
    let acc: number[] = [];
    for (const t of plan.train) {
      acc = acc.concat(Array.from(t));
      out.push(Int32Array.from(acc));
    }
    return out;
  }
  const sizes = plan.train.map((t) => t.length);
  const all = plan.train.flatMap((t) => Array.from(t));
  const buffers = biasedReservoir(sizes, buffer.k, buffer.alpha, createDefaultRng(seed >>> 0));
  return buffers.map((b) => Int32Array.from(b, (pos) => all[pos]));
}
