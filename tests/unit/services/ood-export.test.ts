/** The Open-world lab's exports: the JSON is `cil-lab ood`'s report of the stored steps; the CSV rows. */
import { describe, expect, it } from 'vitest';
import { OPEN_WORLD_PRESETS } from '../../../src/core/labs/open-world/settings';
import type { OodRunMeta } from '../../../src/engine/ood/report';
import type { OpenWorldStep } from '../../../src/engine/ood/run';
import { oodExportJson, oodResultsTable, oodSeedsExportJson, oodSeedsResultsTable } from '../../../src/services/ood-export';

const S = { ...OPEN_WORLD_PRESETS.quick, tasks: 2, classes: [0, 1, 2, 3] };
const res = (t: number, detector: 'msp' | 'energy', oodSet: string, auroc: number) => ({
  step: t,
  detector,
  oodSet,
  auroc: auroc / 100,
  fpr95: (100 - auroc) / 100,
  auprIn: 0.7012345,
  auprOut: 0.6,
  idCount: 10 * (t + 1),
  oodCount: 5,
});
const step = (t: number): OpenWorldStep => ({
  step: t,
  steps: 2,
  accuracy: [0.95, 0.81234][t],
  row: [],
  samples: [],
  detectorSeconds: { msp: 0.1234, energy: 0.2 },
  setup: { newCount: 8, oldCount: t * 4 },
  results: [
    res(t, 'msp', 'digits:6-9', 80 + t),
    res(t, 'energy', 'digits:6-9', 85),
    res(t, 'msp', 'fashion-mnist', 90),
    res(t, 'energy', 'fashion-mnist', 95 - t),
  ],
  confidence: { tasks: [0.9, 0.8].slice(0, t + 1), ood: { 'digits:6-9': 0.7, 'fashion-mnist': 0.6 } },
  assignment: { 'digits:6-9': [1 - t / 2, t / 2].slice(0, t + 1) },
});
const meta: OodRunMeta = {
  oodSets: [
    { name: 'digits:6-9', kind: 'near', count: 40 },
    { name: 'fashion-mnist', kind: 'far', count: 100 },
  ],
  train: {
    tasks: [
      [0, 1],
      [2, 3],
    ],
    matrix: [
      [0.95, 0],
      [0.8, 0.82],
    ],
    backend: 'wasm',
    seconds: 1.23456,
    config: {
      tasks: [
        [0, 1],
        [2, 3],
      ],
    } as never,
  },
  seconds: { total: 2.34567, detectors: { msp: 0.2468, energy: 0.4 } },
};

describe('Open-world exports', () => {
  it('JSON: cil-lab ood’s fields, numbers as stored, summary = means over steps', () => {
    const j = oodExportJson(S, [step(0), step(1)], meta);
    expect(Object.keys(j)).toEqual([
      'results',
      'accuracy',
      'summary',
      'steps',
      'oodSets',
      'dataset',
      'order',
      'tasks',
      'matrix',
      'backend',
      'seconds',
      'head',
      'config',
    ]);
    expect(j.accuracy).toEqual([0.95, 0.81234]);
    expect(j.results).toHaveLength(8);
    expect(j.order).toEqual([0, 1, 2, 3]);
    expect(j.seconds).toEqual({ total: 2.346, training: 1.235, detectors: { msp: 0.247, energy: 0.4 } });
    expect(j.head.epochs).toBe(S.headEpochs);
    const msp = j.summary.find((x) => x.detector === 'msp');
    expect(msp?.mean.auroc).toBeCloseTo((0.805 + 0.9) / 2, 10);
    expect(JSON.parse(JSON.stringify(j))).toEqual(j);
  });
  it('CSV: one row per step × detector × set, steps from 1, near/far, accuracy in %', () => {
    const t = oodResultsTable(S, [step(0), step(1)]);
    expect(t.columns).toHaveLength(11);
    expect(t.rows).toHaveLength(8);
    expect(t.rows[0]).toEqual([1, 'msp', 'digits:6-9', 'near', 80, 20, 70.123, 60, 10, 5, 95]);
    expect(t.rows[7]).toEqual([2, 'energy', 'fashion-mnist', 'far', 94, 6, 70.123, 60, 20, 5, 81.234]);
  });
  it('several seeds: the JSON holds every seed’s run, the reading over seeds and the verdict; the CSV a seed column', () => {
    const seedMeta = (seed: number): OodRunMeta => ({ ...meta, train: { ...meta.train, config: { ...meta.train.config, seed } as never } });
    const a = oodExportJson(S, [step(0), step(1)], seedMeta(0));
    const b = oodExportJson(S, [step(0), step(1)], seedMeta(1));
    const j = oodSeedsExportJson([a, b]) as { runs: unknown[]; summary: { seeds: number[] }; verdict: unknown[] };
    expect(j.runs).toEqual([a, b]);
    expect(j.summary.seeds).toEqual([0, 1]);
    expect(j.verdict.length).toBeGreaterThan(0);
    // one seed: the single report with its headline and verdict, as cil-lab ood prints it
    expect(Object.keys(oodSeedsExportJson([a]))).toEqual([...Object.keys(a), 'headline', 'verdict']);
    const t = oodSeedsResultsTable(S, [a, b]);
    expect(t.columns).toEqual(['seed', ...oodResultsTable(S, [step(0)]).columns]);
    expect(t.rows).toHaveLength(16);
    expect(t.rows[0]).toEqual([0, 1, 'msp', 'digits:6-9', 'near', 80, 20, 70.123, 60, 10, 5, 95]);
    expect(t.rows[15]).toEqual([1, 2, 'energy', 'fashion-mnist', 'far', 94, 6, 70.123, 60, 20, 5, 81.234]);
  });
});
