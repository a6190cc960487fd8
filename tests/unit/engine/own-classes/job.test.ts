/**
 * The Your-classes lab's jobs (src/engine/own-classes/job.ts) on the tiny CLIP vision fixture (tests/fixtures/
 * clip-vision-tiny) in Node: recorded images → features → fine-tuning forgets the earlier classes, SimpleCIL's
 * prototypes do not (their R equals nearest-class-mean by cosine computed here directly), and every ordering.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OwnEncoder } from '../../../../src/core/config/sections/own-classes';
import { ownFeatureSet } from '../../../../src/core/own-classes/settings';
import { updateVerdict } from '../../../../src/core/own-classes/verdict';
import type { FeatureSet } from '../../../../src/core/features/feature-set';
import { selectBackend } from '../../../../src/engine/backend';
import { RunControl } from '../../../../src/engine/control';
import { jobContext } from '../../../../src/engine/jobs/job';
import { ownEncodeJob, ownOrderingsJob, ownTrainJob } from '../../../../src/engine/own-classes/job';

const encoder: OwnEncoder = {
  source: 'encoder',
  model: 'clip-vision-tiny',
  precision: 'fp32',
  weights: { kind: 'self-hosted', path: resolve('tests/fixtures') },
};
const ctx = jobContext(() => Promise.reject(new Error('no built-in data here')), new RunControl());
const COLOURS = [
  [220, 30, 30],
  [30, 200, 40],
  [40, 60, 230],
  [230, 220, 40],
];
const S = 24;
const TRAIN = 8;
const TEST = 4;

/** Class c's images: its colour with a little seeded noise. */
function images(c: number, n: number): Uint8Array {
  const out = new Uint8Array(n * S * S * 3);
  let s = 1234 + c;
  for (let i = 0; i < out.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out[i] = Math.max(0, Math.min(255, COLOURS[c][i % 3] + ((s >> 16) % 41) - 20));
  }
  return out;
}

let set: FeatureSet;
beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
  const classes = [];
  for (let c = 0; c < COLOURS.length; c++) {
    const out = await ownEncodeJob({ encoder, images: images(c, TRAIN + TEST), shape: [S, S, 3], count: TRAIN + TEST, device: 'cpu' }, ctx, () => {});
    expect(out.dim).toBe(16);
    expect(out.features.length).toBe((TRAIN + TEST) * 16);
    classes.push({ name: `colour ${c}`, rows: out.features, train: TRAIN });
  }
  set = ownFeatureSet(classes, 16);
}, 60_000);

/** R of nearest class mean by cosine, classes taught in order 0, 1, … (rows are unit length). */
function prototypesR(s: FeatureSet): number[][] {
  const { d } = s;
  const C = s.classNames.length;
  const mean = Array.from({ length: C }, (_, c) => {
    const m = new Float64Array(d);
    for (let i = 0; i < s.n; i++) if (s.labels[i] === c && s.split[i] === 0) for (let t = 0; t < d; t++) m[t] += s.features[i * d + t];
    return m;
  });
  const cos = (i: number, m: Float64Array) => {
    let dot = 0;
    let nm = 0;
    for (let t = 0; t < d; t++) {
      dot += s.features[i * d + t] * m[t];
      nm += m[t] * m[t];
    }
    return dot / Math.sqrt(nm);
  };
  return Array.from({ length: C }, (_, step) =>
    Array.from({ length: C }, (_, j) => {
      if (j > step) return 0;
      let right = 0;
      let all = 0;
      for (let i = 0; i < s.n; i++) {
        if (s.labels[i] !== j || s.split[i] !== 1) continue;
        all++;
        let best = 0;
        for (let c = 1; c <= step; c++) if (cos(i, mean[c]) > cos(i, mean[best])) best = c;
        if (best === j) right++;
      }
      return right / all;
    }),
  );
}

describe('Your-classes jobs on the tiny CLIP fixture', () => {
  it('fine-tuning a head forgets the earlier classes; each new class is learnt', async () => {
    const r = await ownTrainJob({ set, strategy: 'finetune', seed: 0 }, ctx, () => {});
    expect(r.order).toEqual([0, 1, 2, 3]);
    expect(r.matrix).toHaveLength(4);
    for (let t = 0; t < 4; t++) expect(r.matrix[t][t]).toBe(1);
    // the first class is lost as soon as the head trains on the second alone, and never comes back
    expect(r.matrix.map((row) => row[0])).toEqual([1, 0, 0, 0]);
    expect(updateVerdict(r.matrix, set.classNames, 'finetune').forgotten).toContain('colour 0');
    expect(r.finalAccuracy).toBeLessThan(1);
  }, 60_000);

  it('SimpleCIL prototypes are nearest class means by cosine: no forgetting on these colours', async () => {
    const r = await ownTrainJob({ set, strategy: 'simplecil', seed: 0 }, ctx, () => {});
    expect(r.matrix).toEqual(prototypesR(set));
    expect(r.matrix[3]).toEqual([1, 1, 1, 1]);
  });

  it('every ordering: 24 for 4 classes, the first the teaching order; prototypes end the same whatever the order', async () => {
    const events: number[] = [];
    const runs = await ownOrderingsJob({ set, strategy: 'simplecil', seed: 0 }, ctx, (e) => events.push(e.done));
    expect(runs).toHaveLength(24);
    expect(runs[0].order).toEqual([0, 1, 2, 3]);
    expect(new Set(runs.map((r) => r.order.join(''))).size).toBe(24);
    expect(new Set(runs.map((r) => r.finalAccuracy)).size).toBe(1);
    expect(events.at(-1)).toBe(24);
  });
});
