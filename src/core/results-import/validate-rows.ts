/**
 * From raw rows to runs in the experiment's terms (see types.ts): resolve class tokens, check the ordering
 * (unknown class, duplicate, missing classes, wrong task sizes), read the accuracies in the file's unit, and drop
 * a second row for the same (ordering, method, seed). Every row left out is listed with where it is and why; the
 * rest are imported.
 *
 * Decisions:
 *   - Task sizes: the experiment's when given (a row written as task lists must have exactly those sizes), else the
 *     file's own (PyCIL's init_cls/increment, else the first row written as task lists); a flat order is cut into
 *     tasks by them (the first m_1 classes form task 1, …, as PyCIL does).
 *   - Accuracies: final = the final-accuracy field, else the curve's last value, else the sample-weighted last row
 *     of R with each task weighted by its class count (equal test images per class). AIA = the AIA field, else the
 *     curve's mean, else R's weighted AIA; absent when none is given (the lab then skips the run for "AIA").
 *   - Seed: a whole number ≥ 0; 0 when the row has none.
 */
import { aiaWeighted, finalAccuracyWeighted } from '../metrics/accuracy-matrix';
import { canonicalOrdering, orderingKey } from '../orderings/key';
import { detectUnit, hasPercentSign, readNumber, toFraction } from './accuracy-unit';
import { nameIndex, resolveToken } from './parse-order';
import type { AccuracyUnit, ImportContext, ImportedRun, ImportProblem, ParsedFile, RawRow } from './types';

export interface ValidatedRows {
  runs: ImportedRun[];
  skipped: ImportProblem[];
  unit: AccuracyUnit;
  unitReason: string;
}

function matrixValues(m: unknown): unknown[] {
  let v = m;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return [];
    }
  }
  return Array.isArray(v) ? v.flat(2) : [];
}

function curveValues(c: unknown): unknown[] {
  if (Array.isArray(c)) return c;
  if (typeof c === 'string') {
    try {
      const v = JSON.parse(c);
      return Array.isArray(v) ? v : [c];
    } catch {
      return [c];
    }
  }
  return c === undefined ? [] : [c];
}

/**
 * In a file read as percentages: a row whose accuracies are all in [0, 1] with one above 0 and none with a % sign
 * is a row written as fractions (read as percent, 0.2375 would become 0.2375 %). A real run under 1 % on every
 * task is not plausible (the first task alone trains to above chance); such a row can be written with a % sign.
 * Returns an example value of such a row, or null.
 */
function fractionInPercentFile(r: RawRow): number | null {
  const values = [r.final, r.aia, ...curveValues(r.curve), ...matrixValues(r.matrix)].filter((x) => x !== undefined);
  if (values.length === 0 || values.some(hasPercentSign)) return null;
  const numbers = values.map(readNumber).filter((x): x is number => x !== null);
  if (numbers.length === 0 || numbers.some((x) => x > 1) || !numbers.some((x) => x > 0)) return null;
  return numbers.find((x) => x > 0) as number;
}

/** Every accuracy value of the file, for the unit decision. */
function accuracyValues(rows: readonly RawRow[]): { value: unknown; where: string }[] {
  const out: { value: unknown; where: string }[] = [];
  for (const r of rows) {
    if (r.final !== undefined) out.push({ value: r.final, where: r.where });
    if (r.aia !== undefined) out.push({ value: r.aia, where: r.where });
    for (const v of curveValues(r.curve)) out.push({ value: v, where: r.where });
    for (const v of matrixValues(r.matrix)) out.push({ value: v, where: r.where });
  }
  return out;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The class positions of a row, cut into tasks; or the reason the ordering does not fit. */
function orderingOf(row: RawRow, classNames: readonly string[], byName: Map<string, number>, sizes: readonly number[]): number[][] | string {
  const n = classNames.length;
  const tokenTasks = row.order.kind === 'tasks' ? row.order.tasks : [row.order.tokens];
  const resolved: number[][] = [];
  const unknown: string[] = [];
  for (const t of tokenTasks) {
    const task: number[] = [];
    for (const tok of t) {
      const p = resolveToken(tok, classNames, byName);
      if (typeof p === 'string') unknown.push(p);
      else task.push(p);
    }
    resolved.push(task);
  }
  if (unknown.length) return unknown.length === 1 ? unknown[0] : `${unknown[0]} (and ${plural(unknown.length - 1, 'more problem')})`;
  const flat = resolved.flat();
  const seen = new Set<number>();
  for (const p of flat) {
    if (seen.has(p)) return `class ${JSON.stringify(classNames[p])} (${p}) appears twice`;
    seen.add(p);
  }
  if (flat.length < n) {
    const missing = classNames.map((_, p) => p).filter((p) => !seen.has(p));
    const list = missing
      .slice(0, 6)
      .map((p) => `${p} (${classNames[p]})`)
      .join(', ');
    return `${plural(missing.length, 'class is', 'classes are')} missing: ${list}${missing.length > 6 ? ', …' : ''} (the experiment has ${n} classes)`;
  }
  if (row.order.kind === 'tasks') {
    const got = resolved.map((t) => t.length);
    if (got.length !== sizes.length || got.some((m, i) => m !== sizes[i])) {
      return `wrong task sizes: ${got.join(' + ')}, but the experiment's tasks have ${sizes.join(' + ')} classes`;
    }
    return resolved;
  }
  const out: number[][] = [];
  let at = 0;
  for (const m of sizes) {
    out.push(flat.slice(at, at + m));
    at += m;
  }
  return out;
}

function readMatrix(m: unknown, K: number, unit: AccuracyUnit): number[][] | string {
  let v = m;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return 'the matrix is not valid JSON (expected e.g. [[0.9, 0], [0.6, 0.8]])';
    }
  }
  if (!Array.isArray(v) || v.length !== K || !v.every((r) => Array.isArray(r) && r.length === K)) {
    return `the matrix must be ${K}×${K} (one row per task); got ${Array.isArray(v) ? `${v.length} row${v.length === 1 ? '' : 's'}` : typeof v}`;
  }
  const out: number[][] = [];
  for (const r of v as unknown[][]) {
    const row: number[] = [];
    for (const x of r) {
      const f = toFraction(x, unit, 'a matrix entry');
      if (typeof f === 'string') return f;
      row.push(f);
    }
    out.push(row);
  }
  return out;
}

export function validateRows(
  parsed: ParsedFile,
  ctx: { classNames: readonly string[]; datasetClasses: readonly number[]; taskSizes: readonly number[]; defaultMethod: string },
): ValidatedRows {
  const { classNames, datasetClasses, taskSizes } = ctx;
  const byName = nameIndex(classNames);
  const K = taskSizes.length;
  const { unit, reason: unitReason } = detectUnit(accuracyValues(parsed.rows));
  const runs: ImportedRun[] = [];
  const skipped: ImportProblem[] = [...parsed.problems];
  const firstOf = new Map<string, string>();
  for (const row of parsed.rows) {
    const skip = (reason: string) => skipped.push({ where: row.where, line: row.line, reason });
    const mixed = unit === 'percent' ? fractionInPercentFile(row) : null;
    if (mixed !== null) {
      skip(
        `its accuracies are all between 0 and 1 (e.g. ${mixed}) while the file's are percentages (${unitReason}): ` +
          'the file mixes fractions and percentages; write one unit (a run under 1 % can be written with a % sign, e.g. 0.8%)',
      );
      continue;
    }
    const local = orderingOf(row, classNames, byName, taskSizes);
    if (typeof local === 'string') {
      skip(local);
      continue;
    }
    const tasks = canonicalOrdering(local.map((t) => t.map((p) => datasetClasses[p])));
    const key = orderingKey(tasks);
    const method = row.method?.trim() || ctx.defaultMethod;
    let seed = 0;
    if (row.seed !== undefined && String(row.seed).trim() !== '') {
      const s = readNumber(row.seed);
      if (s === null || !Number.isInteger(s) || s < 0) {
        skip(`seed ${JSON.stringify(row.seed)} is not a whole number ≥ 0`);
        continue;
      }
      seed = s;
    }
    // R, then the curve, then the fields
    let matrix: number[][] | null = null;
    if (row.matrix !== undefined) {
      const m = readMatrix(row.matrix, K, unit);
      if (typeof m === 'string') {
        skip(m);
        continue;
      }
      matrix = m;
    }
    let curve: number[] | null = null;
    if (row.curve !== undefined) {
      const c = curveValues(row.curve).map((x) => toFraction(x, unit, 'a curve value'));
      const bad = c.find((x): x is string => typeof x === 'string');
      if (bad) {
        skip(bad);
        continue;
      }
      if (c.length !== K) {
        skip(
          `the accuracy curve has ${c.length} value${c.length === 1 ? '' : 's'} but there are ${K} tasks${c.length < K ? ' (did the run stop early?)' : ''}`,
        );
        continue;
      }
      curve = c as number[];
    }
    /** the row's own value (an error text when it is not one), else `derived` (what its curve or its matrix gives) */
    const ownOr = (v: unknown, what: string, derived: () => number | null) => (v !== undefined ? toFraction(v, unit, what) : derived());
    const final = ownOr(row.final, 'the final accuracy', () => (curve ? curve[K - 1] : matrix ? finalAccuracyWeighted(matrix, taskSizes) : null));
    if (typeof final === 'string' || final === null) {
      skip(final ?? 'no final accuracy');
      continue;
    }
    const aia = ownOr(row.aia, 'the AIA', () => (curve ? curve.reduce((x, y) => x + y, 0) / K : matrix ? aiaWeighted(matrix, taskSizes) : null));
    if (typeof aia === 'string') {
      skip(aia);
      continue;
    }

    const id = JSON.stringify([key, method, seed]);
    const first = firstOf.get(id);
    if (first) {
      skip(`the same ordering, method and seed as ${first} (give a seed column to import several runs of one ordering)`);
      continue;
    }
    firstOf.set(id, row.where);
    runs.push({ where: row.where, line: row.line, method, seed, tasks, orderingKey: key, finalAccuracy: final, aia, matrix });
  }
  skipped.sort((a, b) => a.line - b.line);
  return { runs, skipped, unit, unitReason };
}
