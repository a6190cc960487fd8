/**
 * Normality of the truth values, as in the paper's Table A3: Box-Cox (λ by maximum likelihood; values shifted
 * first if any is ≤ 0) then Shapiro–Wilk, D'Agostino–Pearson K² and KS on the transformed values, with the same
 * tests on the raw values beside them. Each test is null with its reason below its minimum n or when the values
 * do not vary. Used by derive.ts for every strategy's truth.
 */
import { boxcox } from '../stats/boxcox';
import { ksNormal } from '../stats/ks';
import { dagostinoPearson, NORMALTEST_MIN_N } from '../stats/normaltest';
import { shapiroWilk, SHAPIRO_MIN_N } from '../stats/shapiro';
import { no, ok, type Maybe } from './maybe';

export interface TestResult {
  statistic: number;
  pvalue: number;
  warning?: string;
}

export interface NormalityTests {
  shapiro: Maybe<TestResult>;
  normaltest: Maybe<TestResult>;
  ks: Maybe<TestResult>;
}

export interface NormalityReport {
  n: number;
  lambda: number;
  /** Added to every value before Box-Cox (0 when all values were positive). */
  shift: number;
  logLikelihood: number;
  /** The tests on the Box-Cox-transformed values (paper Table A3). */
  after: NormalityTests;
  /** The same tests on the raw values. */
  before: NormalityTests;
}

/** Are all the values the same (so nothing that needs spread can be computed)? */
export function allEqual(values: readonly number[]): boolean {
  return values.every((v) => v === values[0]);
}

function testOf(fn: () => TestResult): Maybe<TestResult> {
  try {
    const r = fn();
    if (!Number.isFinite(r.statistic) || !Number.isFinite(r.pvalue)) return no('undefined for these values (they do not vary enough)');
    return ok(r);
  } catch (e) {
    return no(e instanceof Error ? e.message : String(e));
  }
}

function normalityTests(values: ArrayLike<number>): NormalityTests {
  const n = values.length;
  /** The test's statistic, p-value and any warning, once there are at least `minN` values. */
  const gated = (minN: number, run: (v: ArrayLike<number>) => { statistic: number; pvalue: number; warning?: string }): Maybe<TestResult> =>
    n < minN
      ? no(`needs at least ${minN} values; ${n} so far`)
      : testOf(() => {
          const r = run(values);
          return { statistic: r.statistic, pvalue: r.pvalue, ...(r.warning ? { warning: r.warning } : {}) };
        });
  return {
    shapiro: gated(SHAPIRO_MIN_N, shapiroWilk),
    normaltest: gated(NORMALTEST_MIN_N, dagostinoPearson),
    ks: gated(SHAPIRO_MIN_N, ksNormal),
  };
}

/** Box-Cox then the three normality tests (paper Table A3), or null with the reason. */
export function normalityAfterBoxCox(values: readonly number[]): Maybe<NormalityReport> {
  const n = values.length;
  if (n < SHAPIRO_MIN_N) return no(`needs at least ${SHAPIRO_MIN_N} truth values; ${n} so far`);
  if (allEqual(values)) return no(`all ${n} truth values are equal (${+values[0].toPrecision(6)}); Box-Cox needs values that differ`);
  try {
    const bc = boxcox(values);
    return ok({
      n,
      lambda: bc.lambda,
      shift: bc.shift,
      logLikelihood: bc.logLikelihood,
      after: normalityTests(bc.transformed),
      before: normalityTests(values),
    });
  } catch (e) {
    return no(`Box-Cox failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
