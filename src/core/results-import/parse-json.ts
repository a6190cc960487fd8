/**
 * JSON results: an array of runs, `{"runs": [...]}`, or JSON lines (one run object per line).
 *
 *   [{"method": "ewc", "order": [[3, 1], [0, 2], [5, 4]], "final_accuracy": 0.712, "seed": 0}, …]
 *   {"order": [3, 1, 0, 2, 5, 4], "acc": 71.2}                       ← one such object per line (JSON lines)
 *
 * Keys of a run (the first alias found wins): method | strategy | model | model_name; order | tasks | class_order |
 * ordering; final_accuracy | final | acc | accuracy (a number, or the accuracy curve as an array: final = its last
 * value, AIA = its mean); aia | avg_acc; seed; matrix; curve | acc_curve | top1_curve. The order may be a list, a
 * list of task lists, or a string in the CSV forms (parse-order.ts).
 */
import { placeJsonError } from '../formats/json-errors';
import { RUN_FIELD_ALIASES } from './column-aliases';
import { orderFromJson, parseOrderText } from './parse-order';
import type { ImportFormat, ImportProblem, ParsedFile, RawOrder, RawRow } from './types';

const KEYS = {
  ...RUN_FIELD_ALIASES,
  matrix: ['matrix', 'accuracy_matrix', 'matrix_json'],
  curve: ['curve', 'acc_curve', 'accuracy_curve', 'top1_curve'],
} as const;

function pick(obj: Record<string, unknown>, names: readonly string[]): unknown {
  const lower = new Map(Object.keys(obj).map((k) => [k.toLowerCase().replace(/[\s-]+/g, '_'), k]));
  for (const n of names) {
    const k = lower.get(n);
    if (k !== undefined && obj[k] !== null && obj[k] !== undefined) return obj[k];
  }
  return undefined;
}

/** The first 60 characters of a JSON value (a list nested 10^5 deep overflows JSON.stringify's stack: said, not thrown). */
function jsonStart(v: unknown): string {
  try {
    return JSON.stringify(v).slice(0, 60);
  } catch {
    return Array.isArray(v) ? '[[[…' : typeof v;
  }
}

/** One run object → RawRow, or the reason it cannot be one. */
export function rowFromObject(obj: unknown, where: string, line: number, knownNames: readonly string[]): RawRow | ImportProblem {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
    return { where, line, reason: `expected an object like {"order": [...], "acc": 0.71}, got ${Array.isArray(obj) ? 'an array' : JSON.stringify(obj)}` };
  const o = obj as Record<string, unknown>;
  const orderValue = pick(o, KEYS.order);
  if (orderValue === undefined) return { where, line, reason: `no "order" (keys: ${Object.keys(o).join(', ') || 'none'})` };
  let order: RawOrder | null;
  try {
    order = typeof orderValue === 'string' ? parseOrderText(orderValue, knownNames) : orderFromJson(orderValue);
  } catch (e) {
    return { where, line, reason: (e as Error).message };
  }
  if (!order) return { where, line, reason: `the order ${jsonStart(orderValue)} is neither a list of classes nor a list of task lists` };
  const row: RawRow = { where, line, order };
  const method = pick(o, KEYS.method);
  if (typeof method === 'string' && method.trim()) row.method = method.trim();
  else if (typeof method === 'number') row.method = String(method);
  const final = pick(o, KEYS.final);
  if (Array.isArray(final)) row.curve = final;
  else if (final !== undefined) row.final = final;
  const curve = pick(o, KEYS.curve);
  if (curve !== undefined && row.curve === undefined) row.curve = curve;
  const aia = pick(o, KEYS.aia);
  if (aia !== undefined) row.aia = aia;
  const seed = pick(o, KEYS.seed);
  if (seed !== undefined) row.seed = seed;
  const matrix = pick(o, KEYS.matrix);
  if (matrix !== undefined) row.matrix = matrix;
  return row;
}

const isProblem = (r: RawRow | ImportProblem): r is ImportProblem => 'reason' in r;

/** Line (1-based) on which the i-th element of a top-level JSON array starts (for messages); best effort. */
function elementLines(text: string, count: number): number[] {
  // walk the text, tracking depth and strings; an element of the run list starts at depth `d0` after '[' or ','
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let listDepth = -1;
  let expecting = false;
  for (let i = 0; i < text.length && lines.length < count; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (expecting && !/\s/.test(ch)) {
      lines.push(line);
      expecting = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (ch === '[' && listDepth < 0) {
        // the run list: the top-level array, or the value of "runs"
        const before = text.slice(Math.max(0, i - 12), i);
        if (depth === 1 || /"runs"\s*:\s*$/.test(before)) {
          listDepth = depth;
          expecting = true;
        }
      }
    } else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === listDepth) expecting = true;
  }
  return lines;
}

export function parseJson(text: string, knownNames: readonly string[] = []): ParsedFile {
  const file: ParsedFile = { format: 'json', rows: [], problems: [], notes: [] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const at = placeJsonError(text, e);
    const where = at.line === undefined ? 'the file' : `line ${at.line}`;
    file.problems.push({
      where,
      line: at.line ?? 0,
      reason: `not valid JSON (${at.reason}${at.line === undefined ? '' : `, at line ${at.line}, column ${at.column}`})`,
    });
    return file;
  }
  let list: unknown[];
  if (Array.isArray(data)) list = data;
  else if (data && typeof data === 'object' && Array.isArray((data as { runs?: unknown }).runs)) list = (data as { runs: unknown[] }).runs;
  else if (data && typeof data === 'object' && pick(data as Record<string, unknown>, KEYS.order) !== undefined) list = [data];
  else {
    file.problems.push({ where: 'the file', line: 0, reason: 'expected an array of runs or {"runs": [...]}' });
    return file;
  }
  const lines = elementLines(text, list.length);
  list.forEach((item, i) => {
    const line = lines[i] ?? 0;
    const r = rowFromObject(item, `run ${i + 1}${line ? ` (line ${line})` : ''}`, line, knownNames);
    if (isProblem(r)) file.problems.push(r);
    else file.rows.push(r);
  });
  return file;
}

export function parseJsonLines(text: string, knownNames: readonly string[] = []): ParsedFile {
  const file: ParsedFile = { format: 'jsonl' as ImportFormat, rows: [], problems: [], notes: [] };
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const t = raw.trim();
    const line = i + 1;
    const where = `line ${line}`;
    if (t === '' || t.startsWith('#') || t.startsWith('//')) return;
    let obj: unknown;
    try {
      obj = JSON.parse(t);
    } catch (e) {
      const at = placeJsonError(t, e);
      file.problems.push({ where, line, reason: `not valid JSON (${at.reason}${at.column === undefined ? '' : `, at column ${at.column + raw.indexOf(t)}`})` });
      return;
    }
    const r = rowFromObject(obj, where, line, knownNames);
    if (isProblem(r)) file.problems.push(r);
    else file.rows.push(r);
  });
  return file;
}
