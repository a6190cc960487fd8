import { describe, expect, it } from 'vitest';
import { kemkerOmega } from '../../../../src/core/conformal/kemker';
import { expectClose, fx, type FxOmega } from './fixture';

const values = (o: FxOmega | ReturnType<typeof kemkerOmega>) => [o.omegaBase, o.omegaNew, o.omegaAll, o.omegaPrev, o.alphaIdeal];

describe('kemkerOmega', () => {
  it('by hand (T = 3, α_ideal = R[0][0] = 0.8)', () => {
    const R = [
      [0.8, 0, 0],
      [0.6, 0.9, 0],
      [0.4, 0.5, 0.7],
    ];
    const o = kemkerOmega({ matrix: R });
    // Ω_base = mean(0.6, 0.4)/0.8; Ω_new = mean(0.9, 0.7); Ω_all = mean(0.75, 1.6/3)/0.8; Ω_prev = mean(0.6, 0.45)/0.8
    expectClose(values(o), [0.625, 0.8, (0.75 + 1.6 / 3) / 2 / 0.8, 0.525 / 0.8, 0.8], 1e-15, 'Ω');
    expect(o.alphaIdealSource).toBe('base-task');
    // α_all pooled over test examples: step 1 = (100·0.6 + 300·0.9)/400
    const w = kemkerOmega({ matrix: R, testCounts: [100, 300, 100] });
    expect(w.omegaAll).toBeCloseTo(((100 * 0.6 + 300 * 0.9) / 400 + (100 * 0.4 + 300 * 0.5 + 100 * 0.7) / 500) / 2 / 0.8, 15);
    const s = kemkerOmega({ matrix: R, alphaIdeal: 1 });
    expect(s.omegaBase).toBeCloseTo(0.5, 15);
    expect(s.alphaIdealSource).toBe('supplied');
  });
  it('reads only the lower triangle (ragged rows work)', () => {
    expect(kemkerOmega({ matrix: [[0.8], [0.6, 0.9], [0.4, 0.5, 0.7]] })).toEqual(
      kemkerOmega({
        matrix: [
          [0.8, 0.1, 0.2],
          [0.6, 0.9, 0.3],
          [0.4, 0.5, 0.7],
        ],
      }),
    );
  });
  it('equals the numpy reference', () => {
    for (const c of fx.omega) {
      expectClose(values(kemkerOmega({ matrix: c.matrix, testCounts: c.testCounts })), values(c.weighted), 1e-12, `T=${c.matrix.length} weighted`);
      expectClose(values(kemkerOmega({ matrix: c.matrix })), values(c.unweighted), 1e-12, `T=${c.matrix.length} unweighted`);
      expectClose(
        values(kemkerOmega({ matrix: c.matrix, testCounts: c.testCounts, alphaIdeal: 0.97 })),
        values(c.supplied),
        1e-12,
        `T=${c.matrix.length} supplied`,
      );
    }
  });
  it('clear errors', () => {
    expect(() => kemkerOmega({ matrix: [[0.8]] })).toThrow('the Ω metrics need at least two tasks (T ≥ 2).');
    expect(() => kemkerOmega({ matrix: [[0], [0.5, 0.5]] })).toThrow(
      "α_ideal = R[0][0] = 0: the base task's accuracy after base training must be > 0 to normalise by it.",
    );
    expect(() => kemkerOmega({ matrix: [[0.8], [0.5, 0.5]], alphaIdeal: 1.2 })).toThrow('alphaIdeal must be an accuracy in (0, 1]; got 1.2.');
    expect(() => kemkerOmega({ matrix: [[0.8], [0.5, 50]] })).toThrow('accuracy matrix entry R[1][1] must be a fraction in [0, 1]; got 50.');
    expect(() => kemkerOmega({ matrix: [[0.8], [0.5]] })).toThrow('accuracy matrix row 1 needs entries for tasks 0..1.');
    expect(() => kemkerOmega({ matrix: [[0.8], [0.5, 0.5]], testCounts: [10] })).toThrow('testCounts needs one count per task (2); got 1.');
    expect(() => kemkerOmega({ matrix: [[0.8], [0.5, 0.5]], testCounts: [10, 0] })).toThrow('testCounts[1] must be a positive number; got 0.');
  });
});
