import { describe, expect, it } from 'vitest';
import type { TrainRunResult } from '../../../../src/engine/types';
import { cpcfSeries } from '../../../../src/core/conformal/cpcf';
import { cpcfFromRun, cpcfInputFromRun, type RecordedProbs, type RecordedRun } from '../../../../src/core/conformal/from-run';
import { distanceCorrelation } from '../../../../src/core/conformal/dcor';
import { kemkerOmega } from '../../../../src/core/conformal/kemker';
import { pearson } from '../../../../src/core/stats/pearson';
import { expectClose, fx, qOf } from './fixture';

// Compile-time check: the engine's run result is a RecordedRun (tsc fails here if the shapes drift apart).
const engineRunIsRecordedRun = (r: TrainRunResult): RecordedRun => r;
void engineRunIsRecordedRun;

/** A run as the engine records it: every (step, split, task) cell, future tasks included, flat Float32Array. */
function recordedRun(caseIndex: number): { run: RecordedRun & { probs: RecordedProbs[] }; K: number } {
  const c = fx.cpcf[caseIndex];
  const K = c.outputs.length;
  const probs: RecordedProbs[] = [];
  for (let t = 0; t < K; t++) {
    for (let j = 0; j < K; j++) {
      for (const split of ['calibration', 'test'] as const) {
        // future tasks (j > t) are recorded by the engine too; their labels may lie outside the seen columns
        const src = j <= t ? c.outputs[t][j][split] : { probs: c.outputs[t][0][split].probs, labels: c.outputs[t][0][split].labels.map(() => 99) };
        const width = src.probs[0].length;
        probs.push({ afterTask: t, split, taskIndex: j, probs: Float32Array.from(src.probs.flat()), width, labels: Int32Array.from(src.labels) });
      }
    }
  }
  // an accuracy matrix deliberately different from the arg-max of the recorded outputs
  const matrix = Array.from({ length: K }, (_, i) => Array.from({ length: K }, (_, j) => (j <= i ? 0.9 - 0.1 * (i - j) - 0.01 * j : 0)));
  return { run: { matrix, testCounts: c.outputs[K - 1].map((t) => t.test.labels.length), probs: probs.reverse() }, K };
}

describe('cpcfInputFromRun', () => {
  it('groups the recorded cells into outputs[step][task] (tasks ≤ step only)', () => {
    const { run, K } = recordedRun(0);
    const input = cpcfInputFromRun(run);
    expect(input).toHaveLength(K);
    input.forEach((step, t) => expect(step).toHaveLength(t + 1));
    const expected = fx.cpcf[0].results['aps/0.1'];
    const got = cpcfSeries(input, { alpha: 0.1 });
    expect(got.q).toEqual(expected.steps.map((s) => qOf(s.q)));
    expectClose(
      got.cpcf,
      expected.steps.map((s) => s.cpcf),
      1e-12,
      'cpcf',
    );
  });
  it('clear errors', () => {
    expect(() => cpcfInputFromRun({ matrix: [[1]] })).toThrow(
      'this run has no recorded softmax outputs: train it with the `probs` option (a calibration ratio > 0) to compute CPCF.',
    );
    const { run } = recordedRun(0);
    expect(() => cpcfInputFromRun({ ...run, probs: [...run.probs, run.probs[0]] })).toThrow(
      /records the (test|calibration) outputs of task \d after step \d twice/,
    );
    const noTest = run.probs.filter((r) => !(r.afterTask === 2 && r.split === 'test' && r.taskIndex === 1));
    expect(() => cpcfInputFromRun({ ...run, probs: noTest })).toThrow('the run has no test outputs of task 1 after step 2.');
    const noCal = run.probs.filter((r) => r.split === 'test');
    expect(() => cpcfFromRun({ ...run, probs: noCal }, { alpha: 0.1 })).toThrow('CPCF needs a calibration split (calibration ratio > 0)');
  });
});

describe('Pearson (reused from src/core/stats/pearson.ts) against np.corrcoef', () => {
  it('equals the numpy reference on the fixture series', () => {
    for (const c of fx.dcor.filter((d) => d.x.length >= 2)) {
      const r = pearson(c.x, c.y).statistic;
      if (c.pearson === null) expect(r).toBeNaN();
      else expectClose([r], [c.pearson], 1e-12, `n=${c.x.length}`);
    }
  });
});

describe('cpcfFromRun', () => {
  for (const caseIndex of [0, 1]) {
    it(`${fx.cpcf[caseIndex].name}: accuracies from the outputs ('probs') equal the numpy reference`, () => {
      const { run } = recordedRun(caseIndex);
      const expected = fx.cpcf[caseIndex].results['raps/0.2'];
      const r = cpcfFromRun(run, { alpha: 0.2, score: 'raps', accuracy: 'probs' });
      expect(r.accuracySource).toBe('probs');
      expect(r.score).toBe('raps');
      expect(r.raps).toEqual({ lambda: 0.01, kReg: 5 });
      expectClose(
        r.cpcf,
        expected.steps.map((s) => s.cpcf),
        1e-12,
        'cpcf',
      );
      expectClose(
        r.aPrev,
        expected.steps.map((s) => s.aPrev),
        1e-12,
        'aPrev',
      );
      expectClose(
        r.aNew,
        expected.steps.map((s) => s.aNew),
        1e-12,
        'aNew',
      );
      expectClose(
        r.coverage,
        expected.steps.map((s) => s.coverage),
        1e-12,
        'coverage',
      );
      expect(r.dcor).toBe(distanceCorrelation(r.cpcf, r.aPrev));
      expect(r.pearson).toBe(pearson(r.cpcf, r.aPrev).statistic);
      expect(r.pearsonP).toBe(pearson(r.cpcf, r.aPrev).pvalue);
      expect(r.omega).toEqual(kemkerOmega({ matrix: expected.accuracy, testCounts: run.testCounts }));
    });
  }
  it("by default a_prev, a_new and Ω come from the run's accuracy matrix R", () => {
    const { run, K } = recordedRun(1);
    const r = cpcfFromRun(run, { alpha: 0.1 });
    expect(r.accuracySource).toBe('matrix');
    expect(r.aNew).toEqual(run.matrix.slice(1).map((row, k) => row[k + 1]));
    expectClose(
      r.aPrev,
      run.matrix.slice(1).map((row, k) => row.slice(0, k + 1).reduce((a, b) => a + b, 0) / (k + 1)),
      1e-15,
      'aPrev',
    );
    expect(r.steps[2].previous[1].accuracy).toBe(run.matrix[3][1]);
    expect(r.omega).toEqual(kemkerOmega({ matrix: run.matrix, testCounts: run.testCounts }));
    expect(r.omega.alphaIdeal).toBe(run.matrix[0][0]);
    expect(cpcfFromRun(run, { alpha: 0.1, alphaIdeal: 0.95 }).omega.alphaIdeal).toBe(0.95);
    expect(r.cpcf).toHaveLength(K - 1);
    expect(r.dcor).toBeGreaterThanOrEqual(0);
    expect(r.dcor).toBeLessThanOrEqual(1);
    expect(() => cpcfFromRun({ ...run, matrix: run.matrix.slice(0, 2) }, { alpha: 0.1 })).toThrow(
      `the run's accuracy matrix has 2 rows but its outputs cover ${K} steps.`,
    );
    expect(() => cpcfFromRun(run, { alpha: 0.1, accuracy: 'argmax' as 'probs' })).toThrow('accuracy must be "matrix" or "probs"');
  });
  it('two tasks give one CPCF point: dCor 0, Pearson undefined (NaN)', () => {
    const { run } = recordedRun(0);
    const two = { ...run, matrix: run.matrix.slice(0, 2), probs: run.probs.filter((p) => p.afterTask < 2) };
    const r = cpcfFromRun(two, { alpha: 0.2 });
    expect(r.cpcf).toHaveLength(1);
    expect(r.dcor).toBe(0);
    expect(r.pearson).toBeNaN();
    expect(r.pearsonP).toBeNaN();
  });
});
