import { describe, expect, it } from 'vitest';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { runProtocols } from '../../../../src/core/protocols/run';
import { cosineSimilarity } from '../../../../src/core/similarity/cosine';
import { createDefaultRng } from '../../../../src/core/random/default-rng';

/** 6 classes in 3 tight pairs: {0,1}, {2,3}, {4,5}. */
const blocks = matrixFromRows(
  [0, 1, 2, 3, 4, 5].map((i) => [0, 1, 2, 3, 4, 5].map((j) => (i === j ? 1 : Math.floor(i / 2) === Math.floor(j / 2) ? 0.9 : 0.1 + 0.01 * ((i + j) % 3)))),
);

describe('runProtocols', () => {
  const report = runProtocols(blocks, [2, 2, 2], { protocols: ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'] });
  const by = (label: string) => report.sequences.find((s) => s.label === label)!;

  it('reports |Ω| and every protocol in order, RS with the default seeds 0, 42, 1993', () => {
    expect(report.omega).toBe('90');
    expect(report.sequences.map((s) => s.label)).toEqual([
      'RS seed 0',
      'RS seed 42',
      'RS seed 1993',
      'EDGE hard',
      'EDGE easy',
      'EDGE median (seed 0)',
      'EDGE+ hard',
      'EDGE+ easy',
      'AS hard',
      'AS easy',
      'MS hard (200 draws)',
      'MS easy (200 draws)',
      'Exact hard (min S)',
      'Exact easy (max S)',
    ]);
  });
  it('RS seed 0 is numpy.random.RandomState(0).permutation(6) = [5,2,1,3,0,4] split into tasks', () => {
    expect(by('RS seed 0').tasks).toEqual([
      [2, 5],
      [1, 3],
      [0, 4],
    ]);
  });
  it('EDGE median seed 0 is default_rng(0).permutation(6) split into tasks', () => {
    // python3 -c "import numpy as np; print(np.random.default_rng(0).permutation(6))" → [3 2 5 4 0 1]
    expect(by('EDGE median (seed 0)').tasks).toEqual([
      [2, 3],
      [4, 5],
      [0, 1],
    ]);
  });
  it('on tight pairs, hard keeps pairs together (the exact min) and easy spreads them (the exact max)', () => {
    expect(by('EDGE hard').tasks.map((t) => Math.floor(t[0] / 2) === Math.floor(t[1] / 2))).toEqual([true, true, true]);
    // EDGE's greedy task order is near the exact extreme here; EDGE+ local search reaches it
    expect(by('EDGE hard').gapToExact).toBeLessThan(0.01);
    expect(by('EDGE easy').gapToExact).toBeLessThan(0.01);
    expect(by('EDGE+ hard').gapToExact).toBeCloseTo(0, 12);
    expect(by('EDGE+ easy').gapToExact).toBeCloseTo(0, 12);
    for (const s of report.sequences) {
      if (s.gapToExact !== undefined) expect(s.gapToExact).toBeGreaterThanOrEqual(-1e-12);
      expect(s.score).toBeGreaterThanOrEqual(report.exact!.min - 1e-12);
      expect(s.score).toBeLessThanOrEqual(report.exact!.max + 1e-12);
    }
    for (const rs of report.sequences.filter((s) => s.protocol === 'rs')) {
      expect(by('EDGE hard').score).toBeLessThan(rs.score);
      expect(by('EDGE easy').score).toBeGreaterThanOrEqual(rs.score); // RS seed 0 happens to reach the max here
    }
  });
  it('a too-large Ω skips the exact extremes with a note and still runs the rest', () => {
    const rng = createDefaultRng(3);
    const emb = Array.from({ length: 40 }, () => Array.from({ length: 8 }, () => rng.random() - 0.5));
    const r = runProtocols(cosineSimilarity(emb), Array(10).fill(4), { protocols: ['edge', 'exact'] });
    expect(r.exact).toBeUndefined();
    expect(r.notes[0]).toMatch(/Exact extremes skipped: there are .*e\d+ orderings/);
    expect(r.sequences.map((s) => s.label)).toEqual(['EDGE hard', 'EDGE easy', 'EDGE median (seed 0)']);
  });
});

describe('runProtocols with the distribution of S', () => {
  it('places the exact extremes at the ends of Ω and every ordering inside', () => {
    const r = runProtocols(blocks, [2, 2, 2], { protocols: ['rs', 'exact'], distribution: true });
    expect(r.distribution!.kind).toBe('exact');
    expect(r.distribution!.count).toBe(90);
    expect(r.distribution!.min).toBeCloseTo(r.exact!.min, 12);
    expect(r.distribution!.max).toBeCloseTo(r.exact!.max, 12);
    const hard = r.sequences.find((s) => s.label === 'Exact hard (min S)')!;
    const easy = r.sequences.find((s) => s.label === 'Exact easy (max S)')!;
    expect(hard.fractionBelow).toBe(0);
    expect(easy.fractionBelow).toBeGreaterThan(0.9);
    for (const s of r.sequences) expect(s.fractionBelow).toBeGreaterThanOrEqual(0);
  });
});
