/** Shared access to tests/fixtures/stats.json (made by scripts/make-stats-fixtures.py) and a tolerance check. */
import { expect } from 'vitest';
import raw from '../../../fixtures/stats.json';

export const fixture = raw as any;

/** |actual − expected| ≤ abs + rel·|expected|; `null` in the fixture means NaN. */
export function expectClose(actual: number, expected: number | null, rel = 1e-6, abs = 1e-12, what = ''): void {
  if (expected === null) {
    expect(actual, what).toBeNaN();
    return;
  }
  const tol = abs + rel * Math.abs(expected);
  if (!(Math.abs(actual - expected) <= tol)) {
    expect.fail(`${what}: got ${actual}, expected ${expected} (|diff| ${Math.abs(actual - expected)} > ${tol})`);
  }
}
