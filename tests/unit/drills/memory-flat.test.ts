/**
 * Drill: tensors and memory stay flat over 500 orderings. 500 orderings of 8 classes in 4 tasks of 2 (a
 * tiny MLP on a synthetic 6×6 dataset, 1 epoch) are trained through `trainShared`, the engine path of the training
 * worker's ground truth (prefix sharing on, as the worker runs it), on the cpu backend; `tf.memory()` is read after
 * every finished ordering (`onRunDone`). Checks: the tensor count never grows past its value after the first
 * ordering, tensor bytes likewise, and after the run both are back at the baseline before it. The JS heap is sampled
 * too (after a forced GC when node runs with --expose-gc, as `npm run drills` does) and may not grow by more than
 * 64 MB from the first to the last 50 orderings beyond the results kept (a result per ordering is kept by design).
 * Then 100 orderings the naive way (`share: false`, one `trainRun` each). Prints the curve's start / middle / end.
 * The full drill takes ~80 s on this machine: `npm run drills` (DRILLS=1) runs it; `npm test` runs 60 + 20 orderings.
 */
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { enumerateOrderings } from '../../../src/core/orderings/enumerate';
import { createDefaultRng } from '../../../src/core/random/default-rng';
import { selectBackend } from '../../../src/engine/backend';
import { trainShared } from '../../../src/engine/shared-train';
import type { TrainRunConfig } from '../../../src/engine/types';
import { syntheticDataset } from '../engine/synthetic';

const ds = syntheticDataset({ classes: 8, trainPerClass: 6, testPerClass: 3 });
const gc = (globalThis as { gc?: () => void }).gc;
const LONG = Boolean(process.env.DRILLS);
const SHARED = LONG ? 500 : 60;
const NAIVE = LONG ? 100 : 20;

/** `n` orderings of 8 classes in 4 tasks of 2, drawn without replacement from the 2 520 (seeded shuffle). */
function orderings(n: number, seed: number): number[][][] {
  const all = Array.from(enumerateOrderings([2, 2, 2, 2]), (o) => o.map((t) => [...t]));
  const rng = createDefaultRng(seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rng.random() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, n);
}

const configsOf = (tasks: number[][][]): TrainRunConfig[] =>
  tasks.map(
    (t) =>
      ({
        tasks: t,
        seed: 1,
        model: { kind: 'mlp', hidden: [8] },
        epochs: 1,
        batchSize: 16,
        lr: 0.01,
        strategy: 'replay',
        strategyOptions: { memory: 8 },
      }) as TrainRunConfig,
  );

interface Sample {
  tensors: number;
  bytes: number;
  heap: number;
}

function sample(): Sample {
  const m = tf.memory();
  return { tensors: m.numTensors, bytes: m.numBytes, heap: process.memoryUsage().heapUsed };
}

const fmt = (s: Sample) => `${s.tensors} tensors, ${(s.bytes / 1024).toFixed(1)} KB, heap ${(s.heap / 1e6).toFixed(1)} MB`;

async function drill(n: number, share: boolean): Promise<{ before: Sample; curve: Sample[]; after: Sample; ms: number }> {
  gc?.();
  const before = sample();
  const curve: Sample[] = [];
  const t0 = performance.now();
  const results = await trainShared(
    ds,
    configsOf(orderings(n, 16)),
    { share, population: 1 },
    {
      onRunDone: (index) => {
        if (gc && (curve.length % 50 === 0 || curve.length === n - 1)) gc();
        curve.push(sample());
        void index;
      },
    },
  );
  const ms = performance.now() - t0;
  gc?.();
  const after = sample();
  expect(results.length).toBe(n);
  return { before, curve, after, ms };
}

function report(name: string, r: { before: Sample; curve: Sample[]; after: Sample; ms: number }): void {
  const c = r.curve;
  const mid = c[Math.floor(c.length / 2)];
  const maxTensors = Math.max(...c.map((s) => s.tensors));
  console.log(
    `memory drill (${name}): ${c.length} orderings in ${(r.ms / 1000).toFixed(1)} s (${(r.ms / c.length).toFixed(0)} ms each)${gc ? ', heap after forced GC' : ', heap without GC (run with --expose-gc for exact figures)'}\n` +
      `  before      ${fmt(r.before)}\n  first       ${fmt(c[0])}\n  middle      ${fmt(mid)}\n  last        ${fmt(c[c.length - 1])}\n  after       ${fmt(r.after)}\n  most tensors during the run: ${maxTensors}`,
  );
}

describe('drill: tensors and memory flat over many orderings', () => {
  beforeAll(async () => {
    await selectBackend('cpu', { strict: true });
  });

  it(`${SHARED} orderings through trainShared (prefix sharing, the worker path): tensors flat, back to baseline after`, async () => {
    const r = await drill(SHARED, true);
    report(`trainShared, ${SHARED} orderings`, r);
    const first = r.curve[0];
    // flat: no finished ordering leaves more tensors (or bytes) than the first did
    for (const [k, s] of r.curve.entries()) {
      expect(s.tensors, `tensors after ordering ${k}`).toBeLessThanOrEqual(first.tensors);
      expect(s.bytes, `tensor bytes after ordering ${k}`).toBeLessThanOrEqual(first.bytes);
    }
    expect(r.after.tensors).toBe(r.before.tensors);
    expect(r.after.bytes).toBe(r.before.bytes);
    if (gc) {
      // heap: the sampled points after GC; the last may exceed the first only by the kept results (≪ 64 MB) and slack
      const gcd = r.curve.filter((_, k) => k % 50 === 0 || k === r.curve.length - 1);
      expect(gcd[gcd.length - 1].heap - gcd[Math.min(1, gcd.length - 1)].heap).toBeLessThan(64e6);
    }
  }, 600_000);

  it(`${NAIVE} orderings the naive way (trainRun each): back to baseline after every one`, async () => {
    const r = await drill(NAIVE, false);
    report(`trainRun each, ${NAIVE} orderings`, r);
    for (const [k, s] of r.curve.entries()) expect(s.tensors, `tensors after ordering ${k}`).toBeLessThanOrEqual(r.curve[0].tensors);
    expect(r.after.tensors).toBe(r.before.tensors);
    expect(r.after.bytes).toBe(r.before.bytes);
  }, 600_000);
});
