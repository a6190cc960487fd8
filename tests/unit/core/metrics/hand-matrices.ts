/**
 * Hand-computed matrices shared by the metrics tests (values worked out in the comments of each test).
 * Not a test file itself (no `.test.ts`).
 */

/** 2×2: task 0 drops from 0.9 to 0.6 after task 1; 0.1 on task 1 before training it. */
export const R2 = [
  [0.9, 0.1],
  [0.6, 0.8],
];

/**
 * 3×3: task 0 improves at step 1 (0.8 → 0.85, so forgetting ≠ −BWT), then both old tasks drop at step 2;
 * small upper-triangle entries (0.1, 0.0, 0.2).
 */
export const R3 = [
  [0.8, 0.1, 0.0],
  [0.85, 0.9, 0.2],
  [0.4, 0.6, 0.7],
];

export interface MetricsFixtureCase {
  K: number;
  kind: string;
  R: number[][];
  untrained: number[];
  testCounts: number[];
  isolated: number[];
  expected: {
    finalAccuracy: number;
    aia: number;
    finalAccuracyWeighted: number;
    aiaWeighted: number;
    bwt: number | null;
    forgetting: number | null;
    fwt: number | null;
    clear: {
      accuracy: number;
      bwtAverage: number | null;
      fwtAverage: number | null;
      inDomainAccuracy: number;
      nextDomainAccuracy: number | null;
    };
    m2i: { accuracy: number; bwt: number | null; fwt: number | null };
    artefactBaseline: number;
  };
}

/** `expect(actual).toBeCloseTo` that also accepts null == null. */
export function closeOrNull(actual: number | null, expected: number | null): boolean {
  if (expected === null || actual === null) return actual === expected;
  return Math.abs(actual - expected) <= 1e-12;
}
