/**
 * Class orders in the formats people paste into their own runs (docs/architecture.md contracts):
 * PyCIL/PILOT (`"class_order": [...]` in the JSON config), Mammoth (`--custom_class_order`),
 * Avalanche (`fixed_class_order=[...]`), CSV (one row per sequence) and JSON.
 *
 * One ordering (`formatSequence`, a row's own copy) is the very text to paste: `{"class_order": [...]}`,
 * `--custom_class_order …`, `fixed_class_order=[…]`. Several orderings (`formatSequences`, the file) are a form that
 * parses as a whole: PyCIL is one JSON object keyed by the orderings' labels, Avalanche one
 * Python dict `fixed_class_orders = {label: [...]}` (its body is JSON), Mammoth one `--custom_class_order` line per
 * ordering under a `#` comment (shell comments), CSV one row per ordering. A label that repeats (e.g. an RS seed given
 * twice) gets " (2)", " (3)", … so no key is lost.
 *
 * `order` is the class order as the protocol drew it (RS: numpy's permutation, PyCIL's class_order list exactly;
 * see sequence.ts), so every format writes `order`, never the tasks re-sorted.
 */
import { csvField } from '../formats/csv';
import type { Sequence } from '../orderings/types';

export type ExportFormat = 'json' | 'pycil' | 'mammoth' | 'avalanche' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'pycil', 'mammoth', 'avalanche', 'csv'];

function header(s: Sequence, hash: string): string {
  return `${hash} ${s.label} (S = ${s.score.toFixed(6)})`;
}

/** The labels as unique keys, in order: a repeated label gets " (2)", " (3)", …. */
export function sequenceKeys(sequences: readonly Sequence[]): string[] {
  const seen = new Set<string>();
  return sequences.map((s) => {
    let key = s.label;
    for (let i = 2; seen.has(key); i++) key = `${s.label} (${i})`;
    seen.add(key);
    return key;
  });
}

const CSV_COLUMNS = ['protocol', 'label', 'score', 'order', 'tasks', 'class_names'];

function csvRow(s: Sequence, classes?: string[]): string {
  const names = classes ? s.tasks.map((t) => t.map((c) => classes[c]).join(' ')).join(' | ') : '';
  return [s.protocol, s.label, s.score, s.order.join(' '), s.tasks.map((t) => t.join(' ')).join(' | '), names].map(csvField).join(',');
}

const list = (order: readonly number[]) => `[${order.join(', ')}]`;

/** The export of one ordering (a row's own copy): the text to paste into a run's config or command line. */
export function formatSequence(s: Sequence, format: ExportFormat, extra: { classes?: string[] } = {}): string {
  switch (format) {
    case 'json':
      return JSON.stringify(s, null, 2);
    case 'pycil':
      return `{"class_order": ${list(s.order)}}`;
    case 'mammoth':
      return `--custom_class_order ${s.order.join(',')}`;
    case 'avalanche':
      return `fixed_class_order=${list(s.order)}`;
    case 'csv':
      return `${CSV_COLUMNS.join(',')}\n${csvRow(s, extra.classes)}`;
  }
}

/** The export of several orderings (the file): a text that parses as a whole and keeps every ordering. */
export function formatSequences(sequences: Sequence[], format: ExportFormat, extra: { classes?: string[]; omega?: string; taskSizes?: number[] } = {}): string {
  const keys = sequenceKeys(sequences);
  switch (format) {
    case 'json':
      return JSON.stringify({ ...extra, sequences }, null, 2);
    case 'pycil': {
      // one JSON object keyed by label; each value holds the config's "class_order" and the ordering's S
      const rows = sequences.map((s, i) => `  ${JSON.stringify(keys[i])}: {"S": ${JSON.stringify(s.score)}, "class_order": ${list(s.order)}}`);
      return `{\n${rows.join(',\n')}\n}`;
    }
    case 'mammoth':
      return sequences.map((s) => `${header(s, '#')}\n${formatSequence(s, 'mammoth')}`).join('\n');
    case 'avalanche': {
      const rows = sequences.map((s, i) => `    ${JSON.stringify(keys[i])}: ${list(s.order)}`);
      return (
        sequences.map((s, i) => `# ${keys[i]}: S = ${s.score.toFixed(6)}\n`).join('') +
        '# use one with fixed_class_order=fixed_class_orders[label]\n' +
        `fixed_class_orders = {\n${rows.join(',\n')}\n}`
      );
    }
    case 'csv':
      return [CSV_COLUMNS.join(','), ...sequences.map((s) => csvRow(s, extra.classes))].join('\n');
  }
}

/** What `cil-lab orders` reports (and the Orderings page has) for one experiment: the input of `formatOrders`. */
export interface OrdersReport {
  classes: string[];
  omega: string;
  similarityDescription: string;
  synsets?: unknown[];
  sequences: (Sequence & { fractionBelow?: number })[];
  exact?: { min: number; max: number; enumerated: number };
  notes: string[];
}

/** What the document says besides the report: the dataset's id, the task sizes and the page's verdict sentences. */
export interface OrdersMeta {
  dataset?: string;
  taskSizes: number[];
  /** The Orderings page's "What this shows" ({id, kind, text} per sentence, core/verdict/orderings.ts), when given. */
  verdict?: readonly { id: string; kind: string; text: string }[];
  /** … and its headline. */
  headline?: string;
}

/**
 * The JSON document `cil-lab orders --format json` prints (src/cli/main.ts prints this very object; a unit test keeps
 * the two equal): classes, dataset (a built-in list's id, absent for custom names), task sizes, |Ω| as an exact
 * string, the similarity's provenance, every sequence with S, the exact extremes when enumerated, the notes,
 * and the Orderings page's verdict sentences when given.
 * A sequence's share of Ω below (`fractionBelow`, from the page's histogram) is left out: the CLI does not compute
 * the distribution (the histogram's own CSV carries it).
 */
export function ordersDocument(report: OrdersReport, meta: OrdersMeta): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    classes: report.classes,
    dataset: meta.dataset,
    taskSizes: meta.taskSizes,
    omega: report.omega,
    similarity: { source: report.similarityDescription, synsets: report.synsets },
    sequences: report.sequences.map((s) => {
      const { fractionBelow: _dropped, ...rest } = s;
      void _dropped;
      return rest;
    }),
    exact: report.exact,
    notes: report.notes,
  };
  if (meta.headline !== undefined) doc.headline = meta.headline;
  if (meta.verdict) doc.verdict = meta.verdict;
  return doc;
}

/**
 * The text of `cil-lab orders --format F` for a report: `formatSequences` for pycil, mammoth, avalanche and csv
 * (with the class names), the `ordersDocument` for json (indented by two spaces; the CLI prints it on one line).
 */
export function formatOrders(report: OrdersReport, format: ExportFormat, meta: OrdersMeta): string {
  if (format === 'json') return JSON.stringify(ordersDocument(report, meta), null, 2);
  return formatSequences(report.sequences, format, { classes: report.classes });
}
