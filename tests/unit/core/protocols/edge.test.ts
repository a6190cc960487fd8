import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/edge.json';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { similarityScore } from '../../../../src/core/orderings/score';
import { orderingToLabels } from '../../../../src/core/orderings/enumerate';
import {
  easyPartition,
  edgeGranularities,
  edgeOrderings,
  edgeSequence,
  edgeSequences,
  hardPartition,
  orderedClusters,
} from '../../../../src/core/protocols/edge';

/** A small seeded PRNG (mulberry32) and Gaussian draws, for test data only. */
function rng(seed: number) {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
  const shuffle = (xs: number[]) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(u() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  return { u, normal, shuffle };
}

describe('EDGE hard / easy', () => {
  it('fixture says how it was made', () => {
    expect(fixture._note).toMatch(/independent Python implementation/);
  });

  for (const c of fixture.cases) {
    it(`equals the independent Python implementation: ${c.name}`, () => {
      const sim = matrixFromRows(c.sim);
      const out = edgeOrderings(sim, c.sizes);
      const want = c.edge;
      expect(out.candidates.length).toBe(want.candidates.length);
      out.candidates.forEach((cand, i) => {
        const w = want.candidates[i];
        expect([cand.aim, cand.granularity, cand.clusterCount, cand.variant], `candidate ${i}`).toEqual([w.aim, w.granularity, w.clusterCount, w.variant]);
        expect(cand.tasks, `candidate ${i} tasks`).toEqual(w.tasks);
        expect(cand.score).toBeCloseTo(w.score, 12);
      });
      for (const aim of ['hard', 'easy'] as const) {
        expect(out[aim].tasks).toEqual(want[aim].tasks);
        expect(out[aim].score).toBeCloseTo(want[aim].score, 12);
        expect(out[aim].granularity).toBe(want[aim].granularity);
        expect(out[aim].variant).toBe(want[aim].variant);
        // the result respects the task sizes position by position
        expect(() => orderingToLabels(out[aim].tasks, c.sizes)).not.toThrow();
      }
      // hard is the minimum and easy the maximum over the candidates
      const hardScores = out.candidates.filter((x) => x.aim === 'hard').map((x) => x.score);
      const easyScores = out.candidates.filter((x) => x.aim === 'easy').map((x) => x.score);
      expect(out.hard.score).toBe(Math.min(...hardScores));
      expect(out.easy.score).toBe(Math.max(...easyScores));
    });
  }

  it('on four tight blocks (24 classes, 6 tasks), hard scores below 200 random orderings and easy above', () => {
    const r = rng(3);
    const n = 24;
    const sizes = [4, 4, 4, 4, 4, 4];
    const block = (c: number) => c % 4;
    const rows = Array.from({ length: n }, (_, i) =>
      Array.from({ length: n }, (_, j) => (i === j ? 1 : block(i) === block(j) ? 0.9 + 0.02 * r.u() : 0.1 + 0.02 * r.u())),
    );
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) rows[i][j] = rows[j][i];
    const sim = matrixFromRows(rows);
    const out = edgeOrderings(sim, sizes);
    for (let s = 0; s < 200; s++) {
      const perm = r.shuffle(Array.from({ length: n }, (_, i) => i));
      const o = sizes.map((_, t) => perm.slice(4 * t, 4 * t + 4));
      const score = similarityScore(o, sim);
      expect(out.hard.score).toBeLessThan(score);
      expect(out.easy.score).toBeGreaterThan(score);
    }
  });

  it('granularities {K, 2K, 5K, 10K, 20K} are capped at N and deduplicated', () => {
    expect(edgeGranularities(100, 10)).toEqual([10, 20, 50, 100]);
    expect(edgeGranularities(6, 3)).toEqual([3, 6]);
    expect(edgeGranularities(1000, 10)).toEqual([10, 20, 50, 100, 200]);
    expect(edgeGranularities(10, 2, [4, 4, 30])).toEqual([4, 10]);
    expect(() => edgeGranularities(10, 2, [0])).toThrow(/positive/);
  });

  it('hard partition: largest cluster first, task-sized chunks, overflow to the emptiest task', () => {
    // clusters in leaf order already; sizes 3,3,3
    const clusters = [[0, 1, 2, 3, 4], [5, 6], [7], [8]];
    expect(hardPartition(clusters, [3, 3, 3])).toEqual([
      [0, 1, 2],
      [3, 4, 7],
      [5, 6, 8],
    ]);
    // unequal sizes: emptiest = most free slots
    expect(
      hardPartition(
        [
          [0, 1, 2, 3],
          [4, 5],
        ],
        [2, 4],
      ),
    ).toEqual([
      [4, 5],
      [0, 1, 2, 3],
    ]);
  });

  it('easy partition: members dealt round-robin, pointer carried over, full tasks skipped', () => {
    const clusters = [[0, 1, 2, 3, 4], [5, 6], [7], [8]];
    expect(easyPartition(clusters, [3, 3, 3])).toEqual([
      [0, 3, 6],
      [1, 4, 7],
      [2, 5, 8],
    ]);
    expect(easyPartition([[0, 1, 2, 3]], [1, 3])).toEqual([[0], [1, 2, 3]]);
  });

  it('clusters: largest first, ties by smallest member, members in leaf order', () => {
    const labels = [2, 1, 2, 3, 1, 3]; // clusters {0,2}, {1,4}, {3,5}
    expect(orderedClusters(labels, [5, 3, 4, 1, 2, 0])).toEqual([
      [2, 0],
      [4, 1],
      [5, 3],
    ]);
  });

  it('edge cases: one task, one class per task, bad input', () => {
    const r = rng(9);
    const n = 5;
    const rows = Array.from({ length: n }, () => Array.from({ length: n }, () => r.u()));
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) rows[i][j] = i === j ? 1 : rows[j][i];
    const sim = matrixFromRows(rows);
    const one = edgeOrderings(sim, [5]);
    expect(one.hard.tasks).toEqual([[0, 1, 2, 3, 4]]);
    expect(one.hard.score).toBe(0);
    const singles = edgeOrderings(sim, [1, 1, 1, 1, 1]);
    expect(singles.hard.tasks.flat().sort()).toEqual([0, 1, 2, 3, 4]);
    expect(singles.hard.score).toBeLessThanOrEqual(singles.easy.score);
    expect(() => edgeOrderings(sim, [2, 2])).toThrow(/sum to 4/);
    const tiny = edgeOrderings({ n: 1, data: new Float64Array([1]) }, [1]);
    expect(tiny.hard.tasks).toEqual([[0]]);
    expect(tiny.easy.tasks).toEqual([[0]]);
  });

  it('Sequence helpers', () => {
    const c = fixture.cases[3];
    const sim = matrixFromRows(c.sim);
    const out = edgeOrderings(sim, c.sizes);
    const seq = edgeSequence(out.hard, 'hard', sim);
    expect(seq.protocol).toBe('edge');
    expect(seq.label).toBe('EDGE hard');
    expect(seq.order).toEqual(out.hard.tasks.flat());
    expect(seq.score).toBeCloseTo(out.hard.score, 14);
    expect(edgeSequences(out, sim).map((s) => s.label)).toEqual(['EDGE hard', 'EDGE easy']);
  });
});
