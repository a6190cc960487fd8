import { describe, expect, it } from 'vitest';
import { ownEdge, ownNamesEdge } from '../../../../src/core/own-classes/edge';
import { ownFeatureSet } from '../../../../src/core/own-classes/settings';
import { edgeVerdict } from '../../../../src/core/own-classes/verdict';
import { edgeOrderings } from '../../../../src/core/protocols/edge';
import { cosineSimilarity } from '../../../../src/core/similarity/cosine';

describe('EDGE on your classes', () => {
  // four classes in 3-d: 0 and 1 point the same way, 2 and 3 another; each class has two training rows and one test row
  const dirs = [
    [1, 0.1, 0],
    [1, 0.2, 0],
    [0, 1, 0.1],
    [0, 1, 0.3],
  ];
  const set = ownFeatureSet(
    dirs.map((v, k) => ({ name: `c${k}`, rows: Float32Array.from([...v, ...v.map((x) => x * 2), ...v]), train: 2 })),
    3,
  );
  it('runs EDGE on the cosine of the class means, one class per task', () => {
    const e = ownEdge(set);
    const unit = dirs.map((v) => v.map((x) => x / Math.hypot(...v)));
    const want = edgeOrderings(cosineSimilarity(unit), [1, 1, 1, 1]);
    expect(e.hard).toEqual(want.hard.tasks.map((t) => t[0]));
    expect(e.easy).toEqual(want.easy.tasks.map((t) => t[0]));
    expect([...e.hard].sort()).toEqual([0, 1, 2, 3]);
    expect(e.hard).not.toEqual(e.easy);
  });
  it('says how EDGE’s picks did, by final accuracy or by AIA, over every ordering or a sample', () => {
    const s = { min: 0.4, max: 0.7 };
    expect(edgeVerdict({ hard: [0, 1], easy: [1, 0] }, { hard: 0.4, easy: 0.7 }, s, ['mug', 'pen'])).toMatch(
      /calls “mug” → “pen” hard \(it reached 40 %\) and “pen” → “mug” easy \(70 %\); every ordering’s final accuracy ranges from 40 % to 70 %: its hard pick did worse than its easy one/,
    );
    expect(edgeVerdict({ hard: [0, 1], easy: [1, 0] }, { hard: 0.5, easy: 0.5 }, s, ['mug', 'pen'])).toMatch(/do not tell hard from easy/);
    expect(edgeVerdict({ hard: [0, 1], easy: [1, 0] }, { hard: 0.6, easy: 0.5 }, s, ['mug', 'pen'], 'images', 'aia', false)).toMatch(
      /hard \(AIA 60 %\) .* the sampled orderings’ AIA ranges from 40 % to 70 %: its hard pick did better than its easy one, the opposite/,
    );
    expect(edgeVerdict({ hard: [0, 1], easy: [1, 0] }, { hard: 0.5, easy: 0.5 }, { min: 0.5, max: 0.501 }, ['mug', 'pen'])).toMatch(
      /final accuracy is 50 % in every one/,
    );
  });
  it('runs EDGE on one text embedding per class name, and it agrees with the prototype route on the same vectors', () => {
    // the class means of `set` are the unit directions of `dirs` (rows v and 2v average to 1.5v), so both routes see one cosine matrix
    const e = ownNamesEdge(
      dirs.map((v) => Float32Array.from(v.map((x) => x * 3))),
      ['c0', 'c1', 'c2', 'c3'],
    );
    expect(e).toEqual(ownEdge(set));
    expect(() => ownNamesEdge([Float32Array.from([1, 0])], ['a', 'b'])).toThrow(/1 name embeddings for 2 classes/);
    expect(edgeVerdict({ hard: [0, 1], easy: [1, 0] }, { hard: 0.4, easy: 0.7 }, { min: 0.4, max: 0.7 }, ['mug', 'pen'], 'names')).toMatch(
      /^EDGE on your class names \(the cosine of CLIP’s text embeddings of the names, as the paper does it\), calls “mug” → “pen” hard/,
    );
  });
});
