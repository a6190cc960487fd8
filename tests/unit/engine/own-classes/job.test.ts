/**
 * The Your-classes lab's jobs (src/engine/own-classes/job.ts) on the tiny CLIP vision fixture (tests/fixtures/
 * clip-vision-tiny) in Node: recorded images → features → fine-tuning forgets the earlier classes, SimpleCIL's
 * prototypes do not (their R equals nearest-class-mean by cosine computed here directly), and every ordering.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OwnEncoder } from '../../../../src/core/labs/own-classes/section';
import { ownFeatureSet } from '../../../../src/core/own-classes/settings';
import { updateVerdict } from '../../../../src/core/own-classes/verdict';
import type { FeatureSet } from '../../../../src/core/features/feature-set';
import { selectBackend } from '../../../../src/engine/backend';
import { RunControl } from '../../../../src/engine/control';
import { jobContext } from '../../../../src/engine/jobs/job';
import { ownEncodeJob, ownJointJob, ownOrderingsJob, ownOverviewJob, ownStepsJob, ownTrainJob } from '../../../../src/engine/own-classes/job';
import { OWN_TRAINING } from '../../../../src/core/own-classes/settings';
import { aiaWeighted } from '../../../../src/core/metrics/accuracy-matrix';
import { syntheticFeatures } from '../../../../src/core/ptm/synthetic';
import { featureDatasetOf } from '../../../../src/engine/features/dataset';
import { trainRun } from '../../../../src/engine/trainer';

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

  it('every ordering of a closed-form head from its states: 24 for 4 classes, the same final accuracy in each', async () => {
    const events: number[] = [];
    const classKeys = set.classNames.map((n, k) => `${k}:${n}`);
    const out = await ownOverviewJob({ set, strategy: 'simplecil', seed: 0, classKeys, sample: null, picks: [[3, 2, 1, 0]] }, ctx, (e) => events.push(e.done));
    expect(out.overview.exact).toBe(true);
    expect(out.overview.orderings).toBe(24);
    expect(out.overview.states).toBe(15);
    expect(out.overview.final.max - out.overview.final.min).toBeLessThan(1e-12);
    expect(out.picks).toHaveLength(1);
    expect(events.at(-1)).toBe(24);
  });

  it('trains the head on the orders given, each run sent as it finishes', async () => {
    const events: number[] = [];
    const runs = await ownOrderingsJob(
      {
        set,
        strategy: 'finetune',
        seed: 0,
        orders: [
          [0, 1, 2, 3],
          [3, 2, 1, 0],
        ],
      },
      ctx,
      (e) => events.push(e.done),
    );
    expect(runs.map((r) => r.order)).toEqual([
      [0, 1, 2, 3],
      [3, 2, 1, 0],
    ]);
    expect(events).toEqual([1, 2]);
    const counts = [0, 1, 2, 3].map((k) => Array.from({ length: set.n }, (_, i) => i).filter((i) => set.labels[i] === k && set.split[i] === 1).length);
    expect(runs[0].aia).toBe(aiaWeighted(runs[0].matrix, counts));
  }, 60_000);
});

/** The lab's linear head trained (fine-tuning, seed 0) on `tasks` of `s`, with a width of one unit per class. */
const headRun = (s: FeatureSet, tasks: number[][]) =>
  trainRun(featureDatasetOf(s), {
    tasks,
    seed: 0,
    strategy: 'finetune',
    model: { kind: 'head', hidden: [] },
    epochs: OWN_TRAINING.epochs,
    batchSize: OWN_TRAINING.batchSize,
    lr: OWN_TRAINING.lr,
  });

describe('the history never rewrites itself', () => {
  // four overlapping classes: a head's row 1 here depends on its initial output weights
  const hard = syntheticFeatures({ classes: 4, dims: 8, trainPerClass: 8, testPerClass: 6, separation: 0.5, seed: 3 });
  const sub = (K: number): FeatureSet => {
    const keep = Array.from({ length: hard.n }, (_, i) => i).filter((i) => hard.labels[i] < K);
    return {
      features: Float32Array.from(keep.flatMap((i) => [...hard.features.subarray(i * 8, i * 8 + 8)])),
      n: keep.length,
      d: 8,
      labels: Int32Array.from(keep, (i) => hard.labels[i]),
      split: Uint8Array.from(keep, (i) => hard.split[i]),
      classNames: hard.classNames.slice(0, K),
    };
  };
  for (const strategy of ['finetune', 'replay'] as const) {
    it(`${strategy}: rows 0–1 after class 2 are the rows 0–1 after class 4 (the head's width is fixed)`, async () => {
      const keys = (K: number) => hard.classNames.slice(0, K);
      const two = await ownStepsJob({ set: sub(2), strategy, seed: 0, classKeys: keys(2), from: 0 }, ctx, () => {});
      const four = await ownStepsJob({ set: sub(4), strategy, seed: 0, classKeys: keys(4), from: 0 }, ctx, () => {});
      expect(four.rows.slice(0, 2).map((r) => r.row)).toEqual(two.rows.map((r) => r.row));
      expect(four.rows.map((r) => r.step)).toEqual([0, 1, 2, 3]);
      // only the rows asked for come back
      const later = await ownStepsJob({ set: sub(4), strategy, seed: 0, classKeys: keys(4), from: 3 }, ctx, () => {});
      expect(later.rows.map((r) => r.step)).toEqual([3]);
      expect(later.rows[0].row).toEqual(four.rows[3].row);
    }, 60_000);
  }

  it('a head whose width grew with the classes would rewrite row 1 (what the fixed width prevents)', async () => {
    const rowOne = async (K: number) =>
      (
        await headRun(
          sub(K),
          Array.from({ length: K }, (_, k) => [k]),
        )
      ).matrix[1].slice(0, 2);
    expect(await rowOne(2)).not.toEqual(await rowOne(4));
  }, 60_000);

  it('a closed-form head grows by the classes it has not seen and starts again when an earlier class changed', async () => {
    const keys = hard.classNames.map((n) => n);
    const first = await ownStepsJob({ set: sub(3), strategy: 'fecam', seed: 0, classKeys: keys.slice(0, 3), from: 0 }, ctx, () => {});
    const next = await ownStepsJob({ set: sub(4), strategy: 'fecam', seed: 0, classKeys: keys, from: 3 }, ctx, () => {});
    expect(next.rows.map((r) => r.step)).toEqual([3]);
    const whole = await ownStepsJob({ set: sub(4), strategy: 'fecam', seed: 0, classKeys: ['other', ...keys.slice(1)], from: 0 }, ctx, () => {});
    expect(whole.rows.slice(0, 3).map((r) => r.row)).toEqual(first.rows.map((r) => r.row));
    expect(whole.rows[3].row).toEqual(next.rows[0].row);
  });

  it('the joint head is the same head and training on every class at once (one task)', async () => {
    const j = await ownJointJob({ set: hard, seed: 0 }, ctx, () => {});
    const r = await headRun(hard, [[0, 1, 2, 3]]);
    expect(j.accuracy).toBe(r.matrix[0][0]);
  }, 60_000);
});
