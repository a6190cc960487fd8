import { describe, expect, it } from 'vitest';
import { syntheticFeatures } from '../../../../src/core/ptm/synthetic';
import { fixture } from './fixture';

describe('synthetic feature sets', () => {
  it('equal numpy’s recipe (RandomState standard normals: centres, train rows, test rows) as float32', () => {
    const { spec, features, labels, split } = fixture.synthetic;
    const set = syntheticFeatures(spec);
    expect(set.n).toBe(labels.length);
    expect(Array.from(set.labels)).toEqual(labels);
    expect(Array.from(set.split)).toEqual(split);
    // float32 of the same float64 draws (Math.log may differ from C's log in the last bit of a double)
    features.flat().forEach((v, i) => expect(Math.abs(set.features[i] - v)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(v))));
  });
  it('is deterministic in its seed and changes with it', () => {
    const spec = { classes: 4, dims: 8, trainPerClass: 5, testPerClass: 3, separation: 1, seed: 3 };
    expect(syntheticFeatures(spec).features).toEqual(syntheticFeatures(spec).features);
    expect(syntheticFeatures({ ...spec, seed: 4 }).features).not.toEqual(syntheticFeatures(spec).features);
  });
  it('separates its classes as the separation says: nearest mean errs rarely at 1, often at 0.05', () => {
    const error = (separation: number) => {
      const set = syntheticFeatures({ classes: 5, dims: 64, trainPerClass: 40, testPerClass: 40, separation, seed: 1 });
      const means = Array.from({ length: 5 }, (_, c) => {
        const m = new Float64Array(64);
        let n = 0;
        for (let i = 0; i < set.n; i++) if (set.split[i] === 0 && set.labels[i] === c) (n++, m.forEach((_, t) => (m[t] += set.features[i * 64 + t])));
        return m.map((v) => v / n);
      });
      let wrong = 0;
      let total = 0;
      for (let i = 0; i < set.n; i++) {
        if (set.split[i] !== 1) continue;
        const dist = means.map((m) => m.reduce((s, v, t) => s + (set.features[i * 64 + t] - v) ** 2, 0));
        if (dist.indexOf(Math.min(...dist)) !== set.labels[i]) wrong++;
        total++;
      }
      return wrong / total;
    };
    expect(error(1)).toBeLessThan(0.01);
    expect(error(0.05)).toBeGreaterThan(0.3);
  });
});
