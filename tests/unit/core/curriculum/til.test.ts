import { describe, expect, it } from 'vitest';
import { maskedAccuracy, maskedArgmax, taskUnits, tilDominates } from '../../../../src/core/curriculum/til';
import { fx } from './fixture';

describe('CIL and TIL from one model (logits masked to the task)', () => {
  it('equal numpy: CIL = arg-max over seen units, TIL = over the task units', () => {
    expect(fx.scenarios.length).toBe(3);
    for (const s of fx.scenarios) {
      const sizes = Array(s.K).fill(s.size);
      const cil = Array.from({ length: s.K }, () => Array(s.K).fill(0));
      const til = Array.from({ length: s.K }, () => Array(s.K).fill(0));
      for (const r of s.records) {
        const rows = { scores: r.scores, width: s.width };
        const seen = Array.from({ length: (r.afterTask + 1) * s.size }, (_, u) => u);
        cil[r.afterTask][r.task] = maskedAccuracy(rows, r.labels, seen);
        til[r.afterTask][r.task] = maskedAccuracy(rows, r.labels, taskUnits(sizes, r.task));
      }
      for (let i = 0; i < s.K; i++)
        for (let j = 0; j < s.K; j++) {
          expect(cil[i][j], `K=${s.K} cil ${i},${j}`).toBeCloseTo(s.cil[i][j], 12);
          expect(til[i][j], `K=${s.K} til ${i},${j}`).toBeCloseTo(s.til[i][j], 12);
        }
      expect(tilDominates(til, cil)).toBe(true);
    }
  });

  it('TIL ≥ CIL entry by entry on random scores with ties (property)', () => {
    let state = 12345;
    const rand = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 200; trial++) {
      const width = 12;
      const n = 7;
      const scores = Array.from({ length: n * width }, () => Math.round(rand() * 4));
      const task = [4, 5, 6, 7];
      const labels = Array.from({ length: n }, () => task[Math.floor(rand() * 4)]);
      const seen = Array.from({ length: 8 + Math.floor(rand() * 5) }, (_, u) => u);
      expect(maskedAccuracy({ scores, width }, labels, task)).toBeGreaterThanOrEqual(maskedAccuracy({ scores, width }, labels, seen));
    }
  });

  it('first maximum wins a tie; units outside the row are ignored', () => {
    expect(maskedArgmax([1, 3, 3, 0], 0, 4, [2, 1])).toBe(1);
    expect(maskedArgmax([1, 3, 3, 0], 0, 4, [9])).toBe(-1);
    expect(tilDominates([[0.5]], [[0.6]])).toBe(false);
  });
});
