/**
 * Bring your own results: the shapes shared by the importers in this folder.
 *
 * Reading a file goes in two steps:
 *   1. a format reader (parse-csv.ts, parse-json.ts, parse-pycil-log.ts) turns the text into `RawRow`s — the
 *      method, the class order as it was written (tokens, flat or as task lists), the accuracies as written — and
 *      lists what it could not read at all;
 *   2. `validateRows` (validate-rows.ts) resolves the class tokens against the experiment's classes, checks the
 *      task sizes, detects percent vs fraction for the whole file and returns `ImportedRun`s with canonical
 *      ordering keys (so RS/EDGE orderings of the lab match by key), and the rows it skipped, each with its line
 *      and the reason.
 */

export type ImportFormat = 'csv' | 'json' | 'jsonl' | 'pycil-log';

export const FORMAT_LABEL: Record<ImportFormat, string> = {
  csv: 'CSV table',
  json: 'JSON (array of runs)',
  jsonl: 'JSON lines ({"order": …, "acc": …} per line)',
  'pycil-log': 'PyCIL / PILOT log',
};

/** A class order as written: one flat sequence, or the task lists. Tokens are class indices or names. */
export type RawOrder = { kind: 'flat'; tokens: string[] } | { kind: 'tasks'; tasks: string[][] };

/** One run as a reader found it; nothing is checked yet. */
export interface RawRow {
  /** "line 12" / "run 3 of the array": where a person finds it in the file */
  where: string;
  line: number;
  method?: string;
  order: RawOrder;
  /** the values as written (number, numeric string, "71.2%", …) */
  final?: unknown;
  aia?: unknown;
  seed?: unknown;
  /** R as written (JSON text or a nested array) */
  matrix?: unknown;
  /** accuracy on all classes seen after each task (PyCIL's "CNN top1 curve"): final = last, AIA = mean */
  curve?: unknown;
}

/** A row left out (or a file-level problem), with where it is and why, in one sentence. */
export interface ImportProblem {
  where: string;
  line: number;
  reason: string;
}

/** What a format reader returns. */
export interface ParsedFile {
  format: ImportFormat;
  rows: RawRow[];
  problems: ImportProblem[];
  /** things worth saying about the file ("task sizes 2, 2, 2 from init_cls/increment") */
  notes: string[];
  /** task sizes the file states itself (PyCIL's init_cls / increment) */
  taskSizes?: number[];
}

/** The experiment the rows are read against. */
export interface ImportContext {
  /**
   * The experiment's class names in order: position p is class p of an order written with indices (the same
   * positions the app's exports write, e.g. `"class_order": [2, 3, 0, 1]`). Without it the classes are inferred
   * from the file (indices 0..N−1, or the names in order of first appearance).
   */
  classNames?: readonly string[];
  /** Dataset class index of each position (default: position p is class p); keys are over these. */
  datasetClasses?: readonly number[];
  /** The experiment's task sizes; without them, the sizes the file states (task lists or PyCIL's settings). */
  taskSizes?: readonly number[];
  /** Method name for rows that have none (default "imported"). */
  defaultMethod?: string;
}

export type AccuracyUnit = 'percent' | 'fraction';

/** One valid run, in the experiment's terms: fractions, canonical tasks over dataset class indices. */
export interface ImportedRun {
  where: string;
  line: number;
  method: string;
  seed: number;
  /** canonical: each task ascending, over dataset class indices */
  tasks: number[][];
  orderingKey: string;
  finalAccuracy: number;
  /** null when the file has no AIA (nor a curve or matrix to compute it from) */
  aia: number | null;
  /** R (K×K, fractions) when the file gives it */
  matrix: number[][] | null;
}

export interface ImportResult {
  format: ImportFormat;
  formatLabel: string;
  unit: AccuracyUnit;
  /** why that unit ("values above 1 were found (e.g. 71.23 on line 2), so all are read as percentages") */
  unitReason: string;
  /** rows the reader found (valid or not) */
  rowsRead: number;
  runs: ImportedRun[];
  skipped: ImportProblem[];
  classNames: string[];
  datasetClasses: number[];
  taskSizes: number[];
  taskSizesFrom: 'experiment' | 'file';
  notes: string[];
  /** set when nothing could be imported at all (not a results file, no task sizes, …) */
  error: string | null;
}
