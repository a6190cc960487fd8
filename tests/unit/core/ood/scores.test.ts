import { describe, expect, it } from 'vitest';
import {
  klmScores,
  klmTemplates,
  nnguideBank,
  nnguideScores,
  percentileLinear,
  reactScores,
  reactThreshold,
  relationBank,
  relationScores,
} from '../../../../src/core/ood/feature-scores';
import { energyScores, genScores, maxLogitScores, mspScores, odinScores } from '../../../../src/core/ood/scores';
import { OodInputError } from '../../../../src/core/ood/rows';
import { expectAllClose, fx } from './fixture';

const TOL = 1e-12;

describe('post-hoc scores equal the numpy/scipy reference', () => {
  for (const c of fx.scores) {
    for (const asF32 of [false, true]) {
      const rows = (m: number[][]) => (asF32 ? m.map((r) => Float32Array.from(r)) : m);
      const z = rows(c.logits);
      const h = rows(c.features);
      const sz = rows(c.setupLogits);
      const sh = rows(c.setupFeatures);
      const tag = `${c.name}${asF32 ? ' (Float32Array rows)' : ''}`;
      it(`${tag}: MSP, MaxLogit, Energy, GEN, ODIN`, () => {
        expectAllClose(mspScores(z), c.scores.msp, TOL, 'msp');
        expectAllClose(maxLogitScores(z), c.scores.maxlogit, TOL, 'maxlogit');
        expectAllClose(energyScores(z), c.scores.energy, TOL, 'energy');
        expectAllClose(genScores(z), c.scores.gen, TOL, 'gen');
        expectAllClose(odinScores(z), c.scores.odin, TOL, 'odin');
      });
      it(`${tag}: ReAct, KLM, Relation, NNGuide`, () => {
        const clip = reactThreshold(sh);
        expect(clip).toBeCloseTo(c.reactClip, 12);
        expectAllClose(reactScores(h, c.layer, clip), c.scores.react, TOL, 'react');
        const templates = klmTemplates(sz);
        templates.forEach((t, k) => {
          const want = c.klmTemplates[k];
          if (want === null) expect(t).toBeNull();
          else expectAllClose(t as Float64Array, want, TOL, `template ${k}`);
        });
        expectAllClose(klmScores(z, templates), c.scores.klm, 1e-10, 'klm');
        const bh = sh.slice(0, c.bankSize);
        const bz = sz.slice(0, c.bankSize);
        expectAllClose(relationScores(h, z, relationBank(bh, bz)), c.scores.relation, TOL, 'relation');
        expectAllClose(nnguideScores(h, z, nnguideBank(bh, bz), c.K), c.scores.nnguide, TOL, 'nnguide');
      });
    }
  }
  it('the fixtures hold ties: identical logit rows score the same', () => {
    const c = fx.scores[0];
    expect(c.scores.msp[0]).toBe(c.scores.msp[1]);
    expect(c.scores.energy[0]).toBe(c.scores.energy[1]);
    expect(c.scores.msp[2]).toBeCloseTo(1 / c.logits[0].length, 15); // all logits equal
  });
});

describe('scores by hand', () => {
  it('energy is T·logsumexp(z/T); higher = more ID for every score', () => {
    expect(energyScores([[0, 0]])[0]).toBeCloseTo(Math.log(2), 15);
    expect(energyScores([[2, 0]], 2)[0]).toBeCloseTo(2 * Math.log(Math.exp(1) + 1), 15);
    const confident = [10, 0, 0];
    const unsure = [1, 1, 1];
    for (const f of [mspScores, maxLogitScores, (z: number[][]) => energyScores(z), (z: number[][]) => genScores(z)]) {
      const [a, b] = f([confident, unsure]);
      expect(a).toBeGreaterThan(b);
    }
  });
  it('percentile is numpy linear interpolation', () => {
    expect(percentileLinear([1, 2, 3, 4], 90)).toBeCloseTo(3.7, 15);
    expect(percentileLinear([5], 90)).toBe(5);
  });
});

describe('bad input', () => {
  it('empty, ragged or non-finite rows are clear errors', () => {
    expect(() => mspScores([])).toThrow(OodInputError);
    expect(() => energyScores([[1, 2], [3]])).toThrow(/row 1 has 1 values but row 0 has 2/);
    expect(() => genScores([[1, Number.NaN]])).toThrow(/row 0, column 1/);
    expect(() => maxLogitScores([[]])).toThrow(/at least 1 column/);
    expect(() => reactScores([[1, 2]], { weights: [1, 2, 3], bias: [0], inDim: 2, outDim: 1 }, 1)).toThrow(/weights hold 3 values/);
    expect(() => nnguideScores([[1]], [[1]], [])).toThrow(/bank is empty/);
    expect(() => klmScores([[1, 2]], [null, null])).toThrow(/no class template/);
  });
});
