/**
 * The Forgetting lab's CPCF report takes the experiment's report settings whole (src/core/labs/forgetting/settings.ts
 * `reportSettingsOf`): α, the score and RAPS' λ and k_reg reach `cpcfFromRun` through the tab's report cache
 * (src/ui/forgetting/results.ts), and each setting is part of the cache's key.
 */
import { describe, expect, it } from 'vitest';
import { cpcfFromRun, type RecordedProbs } from '../../../src/core/conformal/from-run';
import { CONFORMAL_FILL, reportSettingsOf } from '../../../src/core/labs/forgetting/settings';
import { createReportCache, summariesOf } from '../../../src/ui/forgetting/results';
import type { ForgettingRun } from '../../../src/services/forgetting-store';

/** softmax rows from a fixed sequence (no randomness): 40 rows of 4 columns, labels cycling */
function cell(afterTask: number, split: 'calibration' | 'test', taskIndex: number): RecordedProbs {
  const n = 40;
  const width = 2 * (afterTask + 1);
  const probs = new Float32Array(n * width);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let k = 0; k < width; k++) sum += probs[i * width + k] = 1 + ((i * 7 + k * 13 + afterTask * 5 + taskIndex * 3 + (split === 'test' ? 1 : 0)) % 11);
    for (let k = 0; k < width; k++) probs[i * width + k] /= sum;
    labels[i] = 2 * taskIndex + (i % 2);
  }
  return { afterTask, split, taskIndex, probs, width, labels };
}

const run = {
  id: 'r1',
  createdAt: 1,
  matrix: [
    [0.9, 0],
    [0.6, 0.8],
  ],
  testCounts: [40, 40],
  probs: [0, 1].flatMap((t) => [0, 1].filter((j) => j <= t).flatMap((j) => [cell(t, 'calibration', j), cell(t, 'test', j)])),
} as unknown as ForgettingRun;

describe('the Forgetting report reads the conformal settings whole', () => {
  const raps = { ...CONFORMAL_FILL, score: 'raps' as const, raps: { lambda: 0.5, kReg: 0 } };

  it('drops only what the run was trained with (the calibration split, the softmax)', () => {
    expect(reportSettingsOf({ ...raps, calibrationRatio: 0.3, softmax: 'all' })).toEqual({ alpha: 0.1, score: 'raps', raps: { lambda: 0.5, kReg: 0 } });
  });

  it("passes RAPS' λ and k_reg to the computation, and keys the cache by them", () => {
    const reportOf = createReportCache();
    const mine = reportOf(run, reportSettingsOf(raps));
    const fill = reportOf(run, reportSettingsOf({ ...raps, raps: CONFORMAL_FILL.raps }));
    if (mine instanceof Error || fill instanceof Error) throw mine instanceof Error ? mine : fill;
    expect(mine.raps).toEqual({ lambda: 0.5, kReg: 0 });
    expect(fill.raps).toEqual({ lambda: 0.01, kReg: 5 });
    expect(mine).toEqual(cpcfFromRun(run, { alpha: 0.1, score: 'raps', raps: { lambda: 0.5, kReg: 0 } }));
    // a penalty of 0.5 per rank moves the thresholds: a cache keyed by α and the score alone would give `fill` here
    expect(mine.q).not.toEqual(fill.q);
  });

  it('the per-run summaries vary α and keep the rest', () => {
    const reportOf = createReportCache();
    const [s] = summariesOf([run], reportSettingsOf(raps), reportOf);
    const at = (alpha: number) => cpcfFromRun(run, { alpha, score: 'raps', raps: { lambda: 0.5, kReg: 0 } });
    expect(s.report).toEqual(at(0.1));
    expect(s.series?.(0.2)).toEqual({ cpcf: at(0.2).cpcf, aPrev: at(0.2).aPrev });
  });
});
