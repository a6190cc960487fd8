/**
 * `cil-lab stats`: the statistics core (src/core/stats, docs/science.md §2) on JSON arrays of numbers.
 *
 *   cil-lab stats --values F                  moments, Box-Cox λ, and Shapiro–Wilk, D'Agostino–Pearson K² and
 *                                             one-sample KS (against N(mean, population std) of the same values),
 *                                             each before and after Box-Cox
 *   cil-lab stats --truth F --estimate F      JSD (bits) and W1 (accuracy points, ×100) of the Gaussian fitted
 *                                             (population variance) to the estimate's values, against the truth's
 *
 * Each F is a JSON file holding an array of finite numbers. Bad input (unreadable file, not JSON, not an array,
 * a non-number, too few values for a test, values all equal) is a UsageError: a clear message and exit code 2.
 */
import { boxcox } from '../core/stats/boxcox';
import { estimateQuality, gaussianEstimate } from '../core/stats/estimate';
import { ksNormal, KS_MIN_N } from '../core/stats/ks';
import { moments } from '../core/stats/moments';
import { dagostinoPearson, NORMALTEST_MIN_N } from '../core/stats/normaltest';
import { shapiroWilk, SHAPIRO_MIN_N } from '../core/stats/shapiro';
import { UsageError } from './args';
import { readTextInput } from './inputs';

type Values = Record<string, string | boolean | undefined>;

/** Read `--name F` as a JSON array of finite numbers. */
export function readNumberArray(path: string, option: string): number[] {
  const text = readTextInput(path, `the --${option} file`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--${option}: "${path}" is not valid JSON (${(e as Error).message}); expected an array of numbers like [0.81, 0.79, 0.84].`);
  }
  if (!Array.isArray(data)) {
    throw new UsageError(
      `--${option}: "${path}" holds ${data === null ? 'null' : typeof data}, not an array; expected an array of numbers like [0.81, 0.79, 0.84].`,
    );
  }
  if (data.length === 0) throw new UsageError(`--${option}: "${path}" is an empty array; give at least one number.`);
  data.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new UsageError(`--${option}: item ${i} of "${path}" is ${JSON.stringify(x)}, not a finite number.`);
    }
  });
  return data as number[];
}

function normality(values: ArrayLike<number>) {
  const sw = shapiroWilk(values);
  const k2 = dagostinoPearson(values);
  const ks = ksNormal(values);
  const notes = [sw.warning, k2.warning].filter((w): w is string => !!w);
  return {
    result: {
      shapiro: { statistic: sw.statistic, pvalue: sw.pvalue },
      normaltest: { statistic: k2.statistic, pvalue: k2.pvalue, skewtest: k2.skew, kurtosistest: k2.kurtosis },
      kstest: { statistic: ks.statistic, pvalue: ks.pvalue, mean: ks.reference.mean, std: ks.reference.std },
    },
    notes,
  };
}

function valuesReport(values: number[]): string {
  const n = values.length;
  if (n < NORMALTEST_MIN_N) {
    throw new UsageError(
      `--values: ${n} value${n === 1 ? ' is' : 's are'} too few for the normality tests: the D'Agostino–Pearson K² test ` +
        `(normaltest) needs at least ${NORMALTEST_MIN_N} values, Shapiro–Wilk at least ${SHAPIRO_MIN_N}, Kolmogorov–Smirnov at least ${KS_MIN_N}, ` +
        'Box-Cox at least 2 that differ.',
    );
  }
  if (values.every((v) => v === values[0])) {
    throw new UsageError(`--values: all ${n} values are equal (${values[0]}); Box-Cox and the normality tests need values that differ.`);
  }
  const bc = boxcox(values);
  const before = normality(values);
  const after = normality(bc.transformed);
  const notes = [...before.notes.map((w) => `before Box-Cox: ${w}`), ...after.notes.map((w) => `after Box-Cox: ${w}`)];
  if (bc.shift !== 0) notes.push(`Box-Cox needs positive values: every value was shifted by ${bc.shift} ((max − min) − min) first.`);
  return JSON.stringify({
    n,
    moments: moments(values),
    boxcox: { lambda: bc.lambda, shift: bc.shift, logLikelihood: bc.logLikelihood },
    normality: { before: before.result, after: after.result },
    notes,
  });
}

function qualityReport(truth: number[], estimate: number[]): string {
  const q = estimateQuality(truth, estimate);
  const t = moments(truth);
  const notes: string[] = [];
  if (Number.isNaN(q.jsd)) notes.push('The truth values have no spread (all equal), so the JSD grid is undefined: jsd is null.');
  if (estimate.length === 1 || gaussianEstimate(estimate).std === 0)
    notes.push('The estimate values have no spread: the Gaussian is a point mass at their mean.');
  return JSON.stringify({
    truth: { n: t.n, mean: t.mean, std: t.std, min: t.min, max: t.max },
    estimate: gaussianEstimate(estimate),
    jsd: q.jsd,
    w1: q.w1,
    w1Raw: q.w1Raw,
    units: { jsd: 'bits', w1: 'accuracy points (×100 of the input unit)', w1Raw: 'the input unit' },
    notes,
  });
}

/** The `stats` command. */
export function statsCommand(v: Values): string {
  const has = (k: string) => typeof v[k] === 'string';
  if (has('values')) {
    if (has('truth') || has('estimate')) throw new UsageError('Give either --values F, or --truth F --estimate F, not both.');
    return valuesReport(readNumberArray(v.values as string, 'values'));
  }
  if (has('truth') || has('estimate')) {
    if (!has('truth')) throw new UsageError('--estimate needs --truth F too (the truth values to compare with).');
    if (!has('estimate')) throw new UsageError("--truth needs --estimate F too (the protocol's values).");
    return qualityReport(readNumberArray(v.truth as string, 'truth'), readNumberArray(v.estimate as string, 'estimate'));
  }
  throw new UsageError('Give --values F (moments, Box-Cox, normality tests) or --truth F --estimate F (JSD and W1); each F a JSON array of numbers.');
}
