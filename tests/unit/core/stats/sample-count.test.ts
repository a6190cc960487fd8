import { describe, expect, it } from 'vitest';
import { sampleCountStudy } from '../../../../src/core/stats/sample-count';
import { expectClose, fixture } from './fixture';

describe('sample-count study (paper Fig. A6) against the numpy replica with default_rng', () => {
  const f = fixture.sampleCount;
  const study = sampleCountStudy({ truth: f.truth, edgeIndices: f.edgeIndices, maxL: f.maxL, repeats: f.repeats, seed: f.seed });
  it('one point per L, EDGE from L = 3', () => {
    expect(study.points.map((p) => p.L)).toEqual(Array.from({ length: f.maxL }, (_, i) => i + 1));
    expect(study.points[0].edge).toBeNull();
    expect(study.points[1].edge).toBeNull();
    expect(study.points[2].edge).not.toBeNull();
    expect(study.edgeValues).toEqual(f.edgeIndices.map((i: number) => f.truth[i]));
  });
  for (const e of f.points) {
    it(`L = ${e.L}`, () => {
      const p = study.points[e.L - 1];
      for (const k of ['rs', 'edge'] as const) {
        if (e[k] === null) {
          expect(p[k]).toBeNull();
          continue;
        }
        const got = p[k]!;
        expectClose(got.jsd, e[k].jsd, 1e-9, 1e-12, `${k} jsd`);
        expectClose(got.w1, e[k].w1, 1e-9, 1e-12, `${k} w1`);
        expectClose(got.jsdStd, e[k].jsdStd, 1e-7, 1e-12, `${k} jsd std`);
        expectClose(got.w1Std, e[k].w1Std, 1e-7, 1e-12, `${k} w1 std`);
      }
    });
  }
  it('EDGE with L = 3 is deterministic (no spread over repeats)', () => {
    expect(study.points[2].edge!.jsdStd).toBe(0);
  });
});

describe('sample-count options', () => {
  const truth = fixture.sampleCount.truth as number[];
  it('caps L at the number of truth values and accepts EDGE as values', () => {
    const s = sampleCountStudy({ truth: truth.slice(0, 5), edgeValues: [0.5, 0.9, 0.7], maxL: 8, repeats: 2, seed: 1 });
    expect(s.points[4].rs).not.toBeNull();
    expect(s.points[5].rs).toBeNull();
    expect(s.points[7].edge).not.toBeNull(); // 3 EDGE + 5 extra
  });
  it('validates its input', () => {
    expect(() => sampleCountStudy({ truth: [], edgeIndices: [0, 1, 2] })).toThrow(/needs truth values/);
    expect(() => sampleCountStudy({ truth, maxL: 0, edgeIndices: [0, 1, 2] })).toThrow(/maxL/);
    expect(() => sampleCountStudy({ truth })).toThrow(/either edgeIndices/);
    expect(() => sampleCountStudy({ truth, edgeIndices: [0, 1] })).toThrow(/3 orderings/);
    expect(() => sampleCountStudy({ truth, edgeIndices: [0, 1, 999] })).toThrow(/not a truth index/);
  });
  it('is reproducible from its seed', () => {
    const a = sampleCountStudy({ truth, edgeIndices: [0, 1, 2], maxL: 6, repeats: 3, seed: 42 });
    const b = sampleCountStudy({ truth, edgeIndices: [0, 1, 2], maxL: 6, repeats: 3, seed: 42 });
    expect(a).toEqual(b);
  });
});
