import { describe, expect, it } from 'vitest';
import { leastSquares } from '../../../../src/core/stats/least-squares';

describe('leastSquares (numpy.polyfit(x, y, 1))', () => {
  it('equals numpy on scattered points', () => {
    // python3 -c "import numpy as np; print(np.polyfit([0.71,0.84,0.97,1.0,0.76,0.9],[20.0,16.5,12.0,9.5,18.25,14.0],1))"
    // → [-33.95917338709669, 44.35975302419345]
    const f = leastSquares([0.71, 0.84, 0.97, 1.0, 0.76, 0.9], [20.0, 16.5, 12.0, 9.5, 18.25, 14.0])!;
    expect(f.slope).toBeCloseTo(-33.95917338709669, 10);
    expect(f.intercept).toBeCloseTo(44.35975302419345, 10);
  });
  it('is undefined below two points or when x does not vary', () => {
    expect(leastSquares([1], [1])).toBeNull();
    expect(leastSquares([2, 2, 2], [1, 2, 3])).toBeNull();
  });
});
