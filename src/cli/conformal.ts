/**
 * `cil-lab conformal --calibration F --test F --alpha A [--score aps|lac|raps]`: split conformal prediction sets
 * from softmax outputs in two JSON files (docs/science.md §3; src/core/conformal).
 *
 * Each file is `{"probs": number[][], "labels": number[]}` — one softmax row per example, labels are column
 * indices; labels are required for the calibration file and optional for the test file. Rows must sum to 1
 * within 1e-4 (softmax outputs, not logits) and both files must have the same number of classes.
 *
 * Prints `{"q", "qInfinite", "sets", "sizes", "coverage", "meanSize", "n", "alpha", "score"[, "raps"]}`:
 * - `q` is the threshold, or **null when it is +∞** (too few calibration points for α: n < ⌈1/α⌉ − 1), with
 *   `qInfinite: true`; JSON has no Infinity, and null plus a flag keeps `q` a number-or-null for every reader;
 * - `sets[i]` lists the classes of test row i by descending probability (ties by class index), `sizes[i]` its size;
 * - `coverage` is the fraction of test rows whose label is in their set, null without test labels;
 * - RAPS uses λ = 0.01, k_reg = 5 (printed as `raps`).
 */
import { checkProbabilities, probRows, type ProbMatrix } from '../core/conformal/probs';
import { SCORE_NAMES, resolveScore, type ScoreName } from '../core/conformal/scores';
import { conformalSets } from '../core/conformal/sets';
import { UsageError, numberArg } from './args';
import { readTextInput } from './inputs';

interface ProbsFile {
  probs: number[][];
  labels?: number[];
}

function readProbsFile(path: string, what: 'calibration' | 'test', labelsRequired: boolean): ProbsFile {
  const text = readTextInput(path, `the ${what} file`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`The ${what} file "${path}" is not valid JSON: ${(e as Error).message}`);
  }
  const where = `the ${what} file "${path}"`;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new UsageError(`${where} must hold an object {"probs": [[…], …], "labels": [...]}.`);
  }
  const { probs, labels } = data as { probs?: unknown; labels?: unknown };
  if (!Array.isArray(probs) || probs.length === 0) throw new UsageError(`${where}: "probs" must be a non-empty array of rows (one softmax row per example).`);
  if (labels === undefined) {
    if (labelsRequired) throw new UsageError(`${where}: "labels" is missing; the calibration data needs the true class of every row.`);
  } else if (!Array.isArray(labels)) {
    throw new UsageError(`${where}: "labels" must be an array of class indices.`);
  }
  try {
    const rows = probRows(probs as ProbMatrix, `${where}: probs`);
    checkProbabilities(rows, `${where}: probs`, 1e-4);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return { probs: probs as number[][], labels: labels as number[] | undefined };
}

/** Runs the command on parsed options; returns the JSON to print. */
export function conformalCommand(v: Record<string, string | boolean | undefined>): string {
  if (typeof v.calibration !== 'string')
    throw new UsageError('Give --calibration F, a JSON file {"probs": [[…]], "labels": […]} of calibration softmax outputs.');
  if (typeof v.test !== 'string') throw new UsageError('Give --test F, a JSON file {"probs": [[…]], "labels"?: […]} of test softmax outputs.');
  const alpha = numberArg(v.alpha as string | undefined, 'alpha');
  if (alpha === undefined) throw new UsageError('Give --alpha, the miscoverage level in (0, 1) (e.g. 0.1 for 90% coverage).');
  if (!(alpha > 0 && alpha < 1)) throw new UsageError(`--alpha must be strictly between 0 and 1 (e.g. 0.1 for 90% coverage); got ${alpha}.`);
  const scoreName = ((v.score as string | undefined) ?? 'aps').toLowerCase();
  if (!SCORE_NAMES.includes(scoreName as ScoreName)) throw new UsageError(`Unknown --score "${String(v.score)}": use ${SCORE_NAMES.join(', ')}.`);
  const { score, raps } = resolveScore({ score: scoreName as ScoreName });

  const cal = readProbsFile(v.calibration, 'calibration', true);
  const test = readProbsFile(v.test, 'test', false);
  const calWidth = cal.probs[0].length;
  const testWidth = test.probs[0].length;
  if (calWidth !== testWidth) {
    throw new UsageError(
      `the calibration file "${v.calibration}" has ${calWidth} classes but the test file "${v.test}" has ${testWidth}; both need the same classes.`,
    );
  }
  let r;
  try {
    r = conformalSets({ probs: cal.probs, labels: cal.labels as number[] }, { probs: test.probs, labels: test.labels }, { alpha, score });
  } catch (e) {
    // core messages start with "calibration labels…" / "test labels…": say which file
    const msg = (e as Error).message
      .replace(/^calibration labels/, `the calibration file "${v.calibration}": labels`)
      .replace(/^test labels/, `the test file "${v.test}": labels`);
    throw new UsageError(msg);
  }
  const qInfinite = r.q === Infinity;
  return JSON.stringify({
    q: qInfinite ? null : r.q,
    qInfinite,
    sets: r.sets,
    sizes: r.sizes,
    coverage: r.coverage,
    meanSize: r.meanSize,
    n: r.n,
    alpha,
    score,
    ...(score === 'raps' ? { raps } : {}),
  });
}
