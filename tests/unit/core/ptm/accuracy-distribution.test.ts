import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/whole-distribution.json';
import { readFeaturesNpz } from '../../../../src/data/features/npz';
import { splitIntoTasks } from '../../../../src/core/orderings/key';
import { sampleOrderingsByShuffle } from '../../../../src/core/orderings/sample';
import {
  accuracyDistribution,
  EXACT_DISTRIBUTION_LIMIT,
  placeOrdering,
  statesOfOmega,
  StepAccuracies,
  type AccuracyDistribution,
  type Placement,
} from '../../../../src/core/ptm/accuracy-distribution';
import type { ValueSummary } from '../../../../src/core/stats/value-summary';
import type { PtmStrategy } from '../../../../src/core/ptm/defaults';
import { preparePtm, runPtmGroundTruth } from '../../../../src/core/ptm/ground-truth';
import { PtmInputError } from '../../../../src/core/ptm/problem';
import { syntheticFeatures } from '../../../../src/core/ptm/synthetic';
import { jsdToTruth } from '../../../../src/core/stats/jsd';
import { fitGaussian } from '../../../../src/core/stats/gaussian';

// The whole distribution of AIA and final accuracy over every ordering of 12 classes in 4 tasks (369 600), against an
// independent numpy enumeration (scripts/make-whole-distribution-fixtures.py): summaries, histogram counts, the
// extremes and placed orders' percentiles.
type Summary = ValueSummary;
interface Case {
  name: string;
  strategy: PtmStrategy;
  seed: number;
  taskSizes: number[];
  orderings: number;
  states: number;
  aia: Summary;
  final: Summary;
  extremes: AccuracyDistribution['extremes'];
  /** each placed order with numpy's values (the Placement's fields, plus its label and flat order) */
  places: (Pick<Placement, 'tasks' | 'aia' | 'final' | 'percentile' | 'finalPercentile' | 'below' | 'equal'> & { label: string; order: number[] })[];
  rs: { aiaMean: number; aiaSd: number; aiaJsd: number; finalJsd: number | null };
}
const cases = fixture.cases as unknown as Case[];
const features = readFeaturesNpz(new Uint8Array(readFileSync(join(__dirname, '../../../fixtures/ptm12-features.npz'))), 'ptm12-features.npz');
const classes = Array.from({ length: 12 }, (_, i) => i);

function expectSummary(got: Summary, want: Summary): void {
  expect(got.count).toBe(want.count);
  expect(got.min).toBeCloseTo(want.min, 12);
  expect(got.max).toBeCloseTo(want.max, 12);
  expect(got.mean).toBeCloseTo(want.mean, 12);
  expect(got.sd).toBeCloseTo(want.sd, 12);
  for (const [q, v] of Object.entries(want.quantiles)) expect(got.quantiles[q], `quantile ${q}`).toBeCloseTo(v, 12);
  expect(got.histogram.counts).toEqual(want.histogram.counts);
  got.histogram.edges.forEach((e, i) => expect(e).toBeCloseTo(want.histogram.edges[i], 12));
}

describe.each(cases.map((c) => [c.name, c] as const))('%s: every ordering, as numpy enumerates them', (_name, c) => {
  it('AIA and final accuracy distributions, extremes and placed orders equal numpy', async () => {
    const evaluator = preparePtm({ features, classes, strategy: c.strategy, seed: c.seed });
    const dist = await accuracyDistribution({ evaluator, taskSizes: c.taskSizes, orderings: { kind: 'all' } });
    expect(dist.exact).toBe(true);
    expect(dist.orderings).toBe(c.orderings);
    expect(dist.states).toBe(c.states);
    expectSummary(dist.aia, c.aia);
    expectSummary(dist.final, c.final);
    for (const v of ['aia', 'final'] as const) {
      for (const end of ['worst', 'best'] as const) {
        const got = dist.extremes[v][end];
        const want = c.extremes[v][end];
        expect(got.tasks, `${v} ${end}`).toEqual(want.tasks);
        expect(got.aia).toBeCloseTo(want.aia, 12);
        expect(got.final).toBeCloseTo(want.final, 12);
        expect(got.ties).toBe(want.ties);
      }
    }
    for (const p of c.places) {
      const placed = placeOrdering(dist, splitIntoTasks(p.order, c.taskSizes));
      expect(placed.tasks, p.label).toEqual(p.tasks);
      expect(placed.aia).toBeCloseTo(p.aia, 12);
      expect(placed.final).toBeCloseTo(p.final, 12);
      expect(placed.below).toBe(p.below);
      expect(placed.equal).toBe(p.equal);
      expect(placed.percentile).toBeCloseTo(p.percentile, 10);
      expect(placed.finalPercentile).toBeCloseTo(p.finalPercentile, 10);
    }
    const rs = c.places.slice(0, 3).map((p) => placeOrdering(dist, splitIntoTasks(p.order, c.taskSizes)).aia);
    const g = fitGaussian(rs);
    expect(g.mean).toBeCloseTo(c.rs.aiaMean, 12);
    expect(g.std).toBeCloseTo(c.rs.aiaSd, 12);
    expect(jsdToTruth(dist.sortedAia, g)).toBeCloseTo(c.rs.aiaJsd, 9);
  });
});

describe('the whole distribution beside the per-run records', () => {
  const small = syntheticFeatures({ classes: 8, dims: 10, trainPerClass: 12, testPerClass: 9, separation: 0.4, seed: 3 });
  const cls = [5, 2, 7, 0, 1, 6, 3, 4];
  it.each([
    ['SimpleCIL', { id: 'simplecil', options: { metric: 'cosine' } }],
    ['RanPAC, λ from the last task', { id: 'ranpac', options: { projection: 24, lambdaFrom: 'task' } }],
  ] as [string, PtmStrategy][])('%s: each ordering’s AIA and final accuracy equal its record’s (R, sample-weighted)', async (_n, strategy) => {
    const evaluator = preparePtm({ features: small, classes: cls, strategy, seed: 1 });
    const sizes = [2, 2, 2, 2];
    const records: { aia: number; final: number; tasks: number[][] }[] = [];
    const orderings = sampleOrderingsByShuffle(sizes, 300, 7);
    await runPtmGroundTruth(
      { evaluator, taskSizes: sizes, orderings },
      { onRecord: (r, k) => (records[k] = { aia: r.aia, final: r.finalAccuracy, tasks: orderings[k] }) },
    );
    const dist = await accuracyDistribution({ evaluator, taskSizes: sizes, orderings: { kind: 'all' } });
    for (const r of records) {
      const p = placeOrdering(dist, r.tasks);
      expect(p.aia).toBeCloseTo(r.aia, 14);
      expect(p.final).toBeCloseTo(r.final, 14);
    }
    // a sample: the same values for its orderings, summarised over them only
    const sample = await accuracyDistribution({ evaluator, taskSizes: sizes, orderings: { kind: 'list', orderings, label: 'a sample of 300' } });
    expect(sample.exact).toBe(false);
    expect(sample.orderings).toBe(300);
    const aias = records.map((r) => r.aia).sort((a, b) => a - b);
    expect(sample.aia.min).toBeCloseTo(aias[0], 14);
    expect(sample.aia.max).toBeCloseTo(aias[299], 14);
    expect(sample.path).toBe(`over a sample of 300: ${sample.states} states (${evaluator.stateRule})`);
  });

  it.each([
    ['SimpleCIL', { id: 'simplecil', options: { metric: 'cosine' } }],
    ['RanPAC, λ from the last task', { id: 'ranpac', options: { projection: 24, lambdaFrom: 'task' } }],
  ] as [string, PtmStrategy][])(
    '%s: the states listed ahead are those the enumeration visits; computed ahead and loaded, the same distribution',
    async (_n, strategy) => {
      const sizes = [2, 2, 2, 2];
      const evaluator = preparePtm({ features: small, classes: cls, strategy, seed: 1 });
      const plain = await accuracyDistribution({ evaluator, taskSizes: sizes, orderings: { kind: 'all' } });
      const listed = statesOfOmega(new StepAccuracies(evaluator, sizes));
      expect(listed).toHaveLength(plain.states);
      // computed in another table (as another thread would), then loaded: the enumeration computes nothing more
      const other = new StepAccuracies(preparePtm({ features: small, classes: cls, strategy, seed: 1 }), sizes);
      const entries = listed.map((s) => {
        const { key, accuracy } = other.stateAccuracy(s.seen, s.task);
        return [key, accuracy] as const;
      });
      const table = new StepAccuracies(evaluator, sizes);
      table.preload(entries);
      const ahead = await accuracyDistribution({ evaluator, taskSizes: sizes, orderings: { kind: 'all' }, table });
      expect(ahead.states).toBe(plain.states);
      expect(ahead.aia).toEqual(plain.aia);
      expect(ahead.final).toEqual(plain.final);
      expect(ahead.extremes).toEqual(plain.extremes);
    },
  );

  it('more classes than fit a number mask: the word path gives the same values as the records', async () => {
    const wide = syntheticFeatures({ classes: 30, dims: 6, trainPerClass: 3, testPerClass: 2, separation: 0.8, seed: 5 });
    const cls30 = Array.from({ length: 30 }, (_, i) => i);
    const evaluator = preparePtm({ features: wide, classes: cls30, strategy: { id: 'simplecil', options: { metric: 'cosine' } }, seed: 0 });
    const sizes = [10, 10, 10];
    const orderings = sampleOrderingsByShuffle(sizes, 40, 2);
    const records: number[] = [];
    await runPtmGroundTruth({ evaluator, taskSizes: sizes, orderings }, { onRecord: (r, k) => (records[k] = r.aia) });
    const dist = await accuracyDistribution({ evaluator, taskSizes: sizes, orderings: { kind: 'list', orderings, label: 'a sample of 40' } });
    orderings.forEach((o, k) => expect(placeOrdering(dist, o).aia).toBeCloseTo(records[k], 14));
  });

  it('refuses an enumeration beyond the limit, and says to sample', async () => {
    const evaluator = preparePtm({
      features: syntheticFeatures({ classes: 16, dims: 4, trainPerClass: 3, testPerClass: 2, separation: 1, seed: 1 }),
      classes: Array.from({ length: 16 }, (_, i) => i),
      strategy: { id: 'simplecil', options: { metric: 'cosine' } },
      seed: 0,
    });
    // 16 classes in 8 tasks of 2: 81 729 648 000 orderings
    const run = accuracyDistribution({ evaluator, taskSizes: [2, 2, 2, 2, 2, 2, 2, 2], orderings: { kind: 'all' } });
    await expect(run).rejects.toThrow(PtmInputError);
    await expect(run).rejects.toThrow(/more than the 20 000 000 the whole distribution enumerates: sample them instead/);
    expect(EXACT_DISTRIBUTION_LIMIT).toBe(20_000_000);
  });

  it('reports progress and awaits its checkpoint, which can cancel', async () => {
    const evaluator = preparePtm({ features: small, classes: cls, strategy: { id: 'simplecil', options: { metric: 'cosine' } }, seed: 1 });
    const seen: number[] = [];
    let checks = 0;
    const dist = await accuracyDistribution(
      { evaluator, taskSizes: [2, 2, 2, 2], orderings: { kind: 'all' } },
      { onProgress: (p) => seen.push(p.done), checkpoint: () => void checks++, progressEvery: 500 },
    );
    expect(dist.orderings).toBe(2520);
    expect(seen).toEqual([500, 1000, 1500, 2000, 2500, 2520]);
    expect(checks).toBeGreaterThan(0);
    const cancelled = accuracyDistribution(
      { evaluator, taskSizes: [2, 2, 2, 2], orderings: { kind: 'all' } },
      {
        checkpoint: () => {
          throw new Error('cancelled');
        },
      },
    );
    await expect(cancelled).rejects.toThrow('cancelled');
  });
});
