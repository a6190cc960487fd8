/**
 * Read a results file (any format of this folder) against an experiment: the one entry point of the lab's
 * "Import results" dialog and of `cil-lab analyze`.
 *
 *   text + file name + ImportContext  →  ImportResult (runs with canonical keys, skipped rows with reasons, the
 *                                        format and the unit detected)
 *
 * Without the experiment's classes (the CLI given only --results), they are inferred from the first row whose order
 * reads cleanly: indices → classes 0..N−1 (N = that row's length); names → those names in the order they appear.
 * Without task sizes: the file's own (PyCIL's init_cls/increment; else the first row written as task lists).
 */
import { detectFormat } from './detect-format';
import { parseCsv } from './parse-csv';
import { parseJson, parseJsonLines } from './parse-json';
import { parsePycilLog } from './parse-pycil-log';
import type { ImportContext, ImportFormat, ImportResult, ParsedFile } from './types';
import { FORMAT_LABEL } from './types';
import { validateRows } from './validate-rows';

export function parseWithFormat(format: ImportFormat, text: string, knownNames: readonly string[]): ParsedFile {
  switch (format) {
    case 'csv':
      return parseCsv(text, knownNames);
    case 'json':
      return parseJson(text, knownNames);
    case 'jsonl':
      return parseJsonLines(text, knownNames);
    case 'pycil-log':
      return parsePycilLog(text);
  }
}

export function inferClasses(parsed: ParsedFile): string[] | null {
  for (const r of parsed.rows) {
    const tokens = r.order.kind === 'flat' ? r.order.tokens : r.order.tasks.flat();
    if (tokens.length < 2 || new Set(tokens).size !== tokens.length) continue;
    if (tokens.every((t) => /^\d+$/.test(t))) {
      const n = tokens.length;
      if (tokens.every((t) => Number(t) < n)) return Array.from({ length: n }, (_, i) => String(i));
      continue;
    }
    if (tokens.every((t) => !/^\d+$/.test(t))) return [...tokens];
  }
  return null;
}

export function inferTaskSizes(parsed: ParsedFile): number[] | null {
  if (parsed.taskSizes) return parsed.taskSizes;
  const r = parsed.rows.find((x) => x.order.kind === 'tasks');
  return r && r.order.kind === 'tasks' ? r.order.tasks.map((t) => t.length) : null;
}

export function importResults(text: string, fileName: string, ctx: ImportContext = {}): ImportResult {
  const format = detectFormat(text, fileName);
  const parsed = parseWithFormat(format, text, ctx.classNames ?? []);
  const base = {
    format,
    formatLabel: FORMAT_LABEL[format],
    rowsRead: parsed.rows.length + parsed.problems.filter((p) => p.line > 0).length,
    notes: [...parsed.notes],
  };
  const fail = (error: string): ImportResult => ({
    ...base,
    unit: 'fraction',
    unitReason: '',
    runs: [],
    skipped: parsed.problems,
    classNames: [...(ctx.classNames ?? [])],
    datasetClasses: [...(ctx.datasetClasses ?? [])],
    taskSizes: [...(ctx.taskSizes ?? [])],
    taskSizesFrom: ctx.taskSizes ? 'experiment' : 'file',
    error,
  });

  const fileLevel = parsed.problems.find((p) => p.line === 0 || (parsed.rows.length === 0 && parsed.problems.length === 1));
  if (parsed.rows.length === 0) return fail(fileLevel ? `Nothing to import: ${fileLevel.reason}.` : 'Nothing to import: no row could be read.');

  const classNames = ctx.classNames ? [...ctx.classNames] : inferClasses(parsed);
  if (!classNames) return fail("The classes could not be inferred from the file: give the experiment's classes (--dataset ID or --classes a,b,c).");
  if (!ctx.classNames) base.notes.push(`classes inferred from the file: ${classNames.join(', ')}`);
  const datasetClasses = ctx.datasetClasses ? [...ctx.datasetClasses] : classNames.map((_, i) => i);
  if (datasetClasses.length !== classNames.length) return fail(`There are ${classNames.length} class names but ${datasetClasses.length} class indices.`);

  let taskSizes = ctx.taskSizes ? [...ctx.taskSizes] : inferTaskSizes(parsed);
  if (!taskSizes) return fail('The file gives flat class orders without task boundaries: give the task sizes (--tasks K or --task-sizes m1,m2,…).');
  if (taskSizes.reduce((a, b) => a + b, 0) !== classNames.length) {
    if (!ctx.taskSizes) return fail(`The file's task sizes (${taskSizes.join(', ')}) do not add up to its ${classNames.length} classes.`);
    taskSizes = [...ctx.taskSizes];
  }
  if (ctx.taskSizes && parsed.taskSizes && parsed.taskSizes.join(',') !== ctx.taskSizes.join(',')) {
    base.notes.push(
      `the file's task sizes (${parsed.taskSizes.join(', ')}) differ from the experiment's (${ctx.taskSizes.join(', ')}); the experiment's are used`,
    );
  }

  const v = validateRows(parsed, { classNames, datasetClasses, taskSizes, defaultMethod: ctx.defaultMethod?.trim() || 'imported' });
  const sizeProblems = v.skipped.filter((s) => s.reason.startsWith('wrong task sizes'));
  if (v.runs.length === 0 && sizeProblems.length > 0 && ctx.taskSizes) {
    base.notes.push(`no row fits the experiment's task sizes (${ctx.taskSizes.join(', ')}): set the experiment's tasks to the file's sizes and import again`);
  }
  return {
    ...base,
    unit: v.unit,
    unitReason: v.unitReason,
    runs: v.runs,
    skipped: v.skipped,
    classNames,
    datasetClasses,
    taskSizes,
    taskSizesFrom: ctx.taskSizes ? 'experiment' : 'file',
    error: v.runs.length === 0 ? 'No row could be imported: see the reasons below.' : null,
  };
}
