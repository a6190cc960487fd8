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
