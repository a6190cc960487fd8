/**
 * Class orders in the formats people paste into their own runs (ARCHITECTURE.md contracts):
 * PyCIL/PILOT (`"class_order": [...]` in the JSON config), Mammoth (`--custom_class_order`),
 * Avalanche (`fixed_class_order=[...]`), CSV (one row per sequence) and JSON.
 */
import type { Sequence } from '../orderings/types';

export type ExportFormat = 'json' | 'pycil' | 'mammoth' | 'avalanche' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'pycil', 'mammoth', 'avalanche', 'csv'];

function csvCell(v: string): string {
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

function header(s: Sequence, hash: string): string {
  return `${hash} ${s.label} (S = ${s.score.toFixed(6)})`;
}

export function formatSequences(
  sequences: Sequence[],
  format: ExportFormat,
  extra: { classes?: string[]; omega?: string; taskSizes?: number[] } = {},
): string {
  switch (format) {
    case 'json':
      return JSON.stringify({ ...extra, sequences }, null, 2);
    case 'pycil':
      return sequences.map((s) => `${header(s, '//')}\n"class_order": [${s.order.join(', ')}],`).join('\n');
    case 'mammoth':
      return sequences.map((s) => `${header(s, '#')}\n--custom_class_order ${s.order.join(',')}`).join('\n');
    case 'avalanche':
      return sequences.map((s) => `${header(s, '#')}\nfixed_class_order=[${s.order.join(', ')}]`).join('\n');
    case 'csv': {
      const rows = [['protocol', 'label', 'score', 'order', 'tasks', 'class_names'].join(',')];
      for (const s of sequences) {
        const names = extra.classes ? s.tasks.map((t) => t.map((c) => extra.classes![c]).join(' ')).join(' | ') : '';
        rows.push(
          [s.protocol, s.label, String(s.score), s.order.join(' '), s.tasks.map((t) => t.join(' ')).join(' | '), names]
            .map(csvCell)
            .join(','),
        );
      }
      return rows.join('\n');
    }
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

/**
 * The JSON document `cil-lab orders --format json` prints (src/cli/main.ts builds the same object; a unit test keeps
 * the two equal): classes, dataset (a built-in list's id, absent for custom names), task sizes, |Ω| as an exact
 * string, the similarity's provenance, every sequence with S, the exact extremes when enumerated, and the notes.
 * A sequence's share of Ω below (`fractionBelow`, from the page's histogram) is left out: the CLI does not compute
 * the distribution (the histogram's own CSV carries it).
 */
export function ordersDocument(report: OrdersReport, meta: { dataset?: string; taskSizes: number[] }): Record<string, unknown> {
  return {
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
}

/**
 * The text of `cil-lab orders --format F` for a report: `formatSequences` for pycil, mammoth, avalanche and csv
 * (with the class names), the `ordersDocument` for json (indented by two spaces; the CLI prints it on one line).
 */
export function formatOrders(report: OrdersReport, format: ExportFormat, meta: { dataset?: string; taskSizes: number[] }): string {
  if (format === 'json') return JSON.stringify(ordersDocument(report, meta), null, 2);
  return formatSequences(report.sequences, format, { classes: report.classes });
}
