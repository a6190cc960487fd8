import { describe, expect, it } from 'vitest';
import { accuracySeries, cpcfSeries, type CpcfInput, type TaskOutputs } from '../../../../src/core/conformal/cpcf';
import { distanceCorrelation } from '../../../../src/core/conformal/dcor';
import { pearson } from '../../../../src/core/stats/pearson';
import { ConformalInputError } from '../../../../src/core/conformal/probs';
import { createDefaultRng, type DefaultRng } from '../../../../src/core/random/default-rng';
import { expectClose, fx, qOf, type FxSplit } from './fixture';
import { normal, softmax } from './synthetic';

const flat = (s: FxSplit, f32: boolean) =>
  f32 && s.probs.length > 0 ? { probs: { data: Float32Array.from(s.probs.flat()), width: s.probs[0].length }, labels: Int32Array.from(s.labels) } : s;

describe('cpcfSeries equals the numpy reference', () => {
  for (const c of fx.cpcf) {
    const input: CpcfInput = c.outputs.map((step) => step.map((t) => ({ calibration: flat(t.calibration, c.float32), test: flat(t.test, c.float32) })));
    for (const [key, expected] of Object.entries(c.results)) {
      it(`${c.name}: ${key}`, () => {
        const [score, alpha] = key.split('/');
        const got = cpcfSeries(input, { alpha: Number(alpha), score: score as 'aps' });
        expect(got.accuracy).toEqual(expected.accuracy);
        expect(got.steps).toHaveLength(expected.steps.length);
        got.steps.forEach((s, k) => {
          const e = expected.steps[k];
          const what = `${key} step ${e.afterTask}`;
          expect(s.afterTask).toBe(e.afterTask);
          expect(s.width).toBe(e.width);
          expect(s.q, what).toBe(qOf(e.q));
          expect(s.calibrationCount).toBe(e.calibrationCount);
          expect(s.testCount).toBe(e.testCount);
          expectClose([s.cpcf, s.coverage, s.aPrev, s.aNew], [e.cpcf, e.coverage, e.aPrev, e.aNew], 1e-12, what);
          s.previous.forEach((p, i) => {
            const ep = e.previous[i];
            expect(p.task).toBe(ep.task);
            expect(p.n).toBe(ep.n);
            expect(p.sizeCounts, `${what} task ${i}`).toEqual(ep.sizeCounts);
            expectClose([p.meanSetSize, p.coverage, p.accuracy], [ep.meanSetSize, ep.coverage, ep.accuracy], 1e-12, `${what} task ${i}`);
          });
        });
        expect(got.cpcf).toEqual(got.steps.map((s) => s.cpcf));
        expect(got.aPrev).toEqual(got.steps.map((s) => s.aPrev));
        expect(got.q).toEqual(got.steps.map((s) => s.q));
      });
    }
  }
});

/**
 * A controlled run with forgetting that grows step by step: 6 tasks on a 10-unit head (the paper's layout: 5 base
 * classes, then one class per task), 300 calibration + 300 test examples per task. An example's logits are
 * `s·onehot(y) + noise` (its noise fixed across steps) divided by a temperature T; after step j every earlier
 * task has signal s_j and temperature T_j, so its probabilities flatten more at every step (s falls, T rises),
 * while the task just learnt has s = 4, T = 1. (The start matters: from a very accurate, sharp model a first bit
 * of flattening can *shrink* non-randomised APS sets — q falls with the top probabilities — so the run starts
 * from a moderately accurate model, a_prev ≈ 0.75.)
 */
function forgettingRun(seed: number, s: (j: number) => number, T: (j: number) => number): CpcfInput {
  const rng: DefaultRng = createDefaultRng(seed);
  const taskClasses = [[0, 1, 2, 3, 4], [5], [6], [7], [8], [9]];
  const width = 10;
  const draw = (task: number, n: number) =>
    Array.from({ length: n }, () => {
      const cls = taskClasses[task];
      const y = cls[rng.integers(0, cls.length)];
      return { y, noise: Array.from({ length: width }, () => normal(rng)) };
    });
  const data = taskClasses.map((_, t) => ({ cal: draw(t, 300), test: draw(t, 300) }));
  const outputs: TaskOutputs[][] = [];
  for (let j = 0; j < taskClasses.length; j++) {
    const step: TaskOutputs[] = [];
    for (let i = 0; i <= j; i++) {
      const [sig, temp] = i === j ? [4, 1] : [s(j), T(j)];
      const split = (ex: { y: number; noise: number[] }[]) => ({
        probs: ex.map(({ y, noise }) => softmax(noise.map((v, k) => (v + (k === y ? sig : 0)) / temp))),
        labels: ex.map((e) => e.y),
      });
      step.push({ calibration: split(data[i].cal), test: split(data[i].test) });
    }
    outputs.push(step);
  }
  return outputs;
}

describe('CPCF follows forgetting (controlled synthetic run)', () => {
  // after step j the earlier tasks have signal 2.5 − 0.4j and temperature 1 + 0.2j (j = 1..5)
  const forgetting = forgettingRun(
    7,
    (j) => 2.5 - 0.4 * j,
    (j) => 1 + 0.2 * j,
  );
  for (const score of ['aps', 'lac', 'raps'] as const) {
    for (const alpha of [0.05, 0.1, 0.2]) {
      it(`${score.toUpperCase()} α = ${alpha}: CPCF strictly increases while a_prev falls`, () => {
        const r = cpcfSeries(forgetting, { alpha, score });
        for (let k = 1; k < r.cpcf.length; k++) {
          expect(r.cpcf[k], `CPCF step ${k + 1}: ${r.cpcf.join(', ')}`).toBeGreaterThan(r.cpcf[k - 1]);
          expect(r.aPrev[k], `a_prev step ${k + 1}: ${r.aPrev.join(', ')}`).toBeLessThan(r.aPrev[k - 1]);
        }
        expect(distanceCorrelation(r.cpcf, r.aPrev)).toBeGreaterThan(0.9);
        expect(pearson(r.cpcf, r.aPrev).statistic).toBeLessThan(-0.9);
        // the sets stay valid on the (exchangeable) earlier tasks: mean coverage over the steps (one seed, so
        // some slack; the 200-seed check is in sets.test.ts)
        expect(r.coverage.reduce((a, b) => a + b, 0) / r.coverage.length).toBeGreaterThan(1 - alpha - 0.03);
      });
    }
  }
  it('without forgetting CPCF stays flat', () => {
    const r = cpcfSeries(
      forgettingRun(
        7,
        () => 2.5,
        () => 1,
      ),
      { alpha: 0.1 },
    );
    expect(Math.max(...r.cpcf) - Math.min(...r.cpcf)).toBeLessThan(0.25);
    expect(Math.max(...r.aPrev) - Math.min(...r.aPrev)).toBeLessThan(0.05);
  });
});

describe('cpcfSeries input checks', () => {
  const task = (probs: number[][], labels: number[]): TaskOutputs => ({ calibration: { probs, labels }, test: { probs, labels } });
  const step0 = [
    task(
      [
        [0.9, 0.1],
        [0.2, 0.8],
      ],
      [0, 1],
    ),
  ];
  const step1 = [
    task(
      [
        [0.6, 0.3, 0.1],
        [0.3, 0.6, 0.1],
      ],
      [0, 1],
    ),
    task([[0.1, 0.1, 0.8]], [2]),
  ];
  it('a tiny calibration set gives q = +∞ and the full set (CPCF = the number of classes)', () => {
    const r = cpcfSeries([step0, step1], { alpha: 0.1 });
    expect(r.q).toEqual([Infinity]);
    expect(r.cpcf).toEqual([3]);
    expect(r.coverage).toEqual([1]);
    expect(r.steps[0].previous[0].sizeCounts).toEqual([0, 0, 0, 2]);
    expect(r.aPrev).toEqual([1]);
    expect(r.aNew).toEqual([1]);
    expect(r.accuracy).toEqual([[1], [1, 1]]);
  });
  it('clear errors', () => {
    expect(() => cpcfSeries([step0], { alpha: 0.1 })).toThrow('CPCF needs the outputs of at least two steps (the base task and one more); got 1.');
    expect(() => cpcfSeries([step0, step1], { alpha: 1 })).toThrow(RangeError);
    expect(() => cpcfSeries([step0, step1.slice(0, 1)], { alpha: 0.1 })).toThrow('step 1 needs the outputs of tasks 0..1; got 1.');
    const ragged = [step1[0], task([[0.5, 0.5]], [1])];
    expect(() => cpcfSeries([step0, ragged], { alpha: 0.1 })).toThrow(
      'test data of task 1 after step 1 has 2 classes but test data of task 0 after step 1 has 3: every output of one step must cover the same classes.',
    );
    const badLabel = [task([[0.6, 0.3, 0.1]], [3]), step1[1]];
    expect(() => cpcfSeries([step0, badLabel], { alpha: 0.1 })).toThrow('test data of task 0 after step 1 labels[0] = 3 is out of range');
    const noCal: TaskOutputs[] = [{ calibration: { probs: [], labels: [] }, test: step1[0].test }, step1[1]];
    expect(() => cpcfSeries([step0, noCal], { alpha: 0.1 })).toThrow(ConformalInputError);
    expect(() => cpcfSeries([step0, noCal], { alpha: 0.1 })).toThrow(
      'after step 1 there is no calibration data for tasks 0..0: CPCF needs a calibration split (calibration ratio > 0).',
    );
  });
});

describe('accuracySeries', () => {
  it('a_prev = mean of the earlier tasks on row j, a_new = the diagonal', () => {
    const R = [
      [0.9, 0, 0],
      [0.6, 0.8, 0],
      [0.3, 0.5, 0.7],
    ];
    const r = accuracySeries(R);
    expectClose(r.aPrev, [0.6, 0.4], 1e-15, 'aPrev');
    expect(r.aNew).toEqual([0.8, 0.7]);
    expect(accuracySeries([[0.9], [0.6, 0.8]])).toEqual({ aPrev: [0.6], aNew: [0.8] });
    expect(() => accuracySeries([[0.9]])).toThrow('at least two steps');
    expect(() => accuracySeries([[0.9], [0.5]])).toThrow('accuracy matrix row 1 needs entries for tasks 0..1.');
    expect(() => accuracySeries([[0.9], [NaN, 0.5]])).toThrow('R[1][0] must be a finite number; got NaN.');
  });
});
