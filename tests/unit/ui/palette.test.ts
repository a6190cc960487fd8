import { describe, expect, it } from 'vitest';
import { OKABE_ITO, luminance, taskColours, textOn } from '../../../src/ui/common/palette';

describe('task palette', () => {
  it('uses Okabe–Ito up to 8 tasks and distinct colours up to 10 beyond', () => {
    expect(taskColours(3)).toEqual(OKABE_ITO.slice(0, 3));
    const ten = taskColours(10);
    expect(new Set(ten).size).toBe(10);
    expect(ten[0]).not.toBe(OKABE_ITO[0]);
  });
  it('picks readable text (contrast ≥ 4.5) on every task colour', () => {
    for (const c of [...OKABE_ITO, ...taskColours(10)]) {
      const l1 = luminance(c);
      const l2 = luminance(textOn(c));
      const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    }
  });
});
