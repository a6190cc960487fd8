/**
 * "Export the orderings" on the Orderings page: the formats people paste into their own runs, with the very text
 * `cil-lab orders --format F` prints for the same experiment (core/protocols/export.ts `formatOrders`; a unit test
 * checks the page's text against the CLI's for the default experiment). Pure (tests/unit/ui/orderings-export.test.ts).
 */
import { formatOrders, type ExportFormat, type OrdersMeta, type OrdersReport } from '../../core/protocols/export';

export interface ExportChoice {
  format: ExportFormat;
  /** the menu's name */
  name: string;
  /** what the text is, in a few words */
  hint: string;
  /** file name ending */
  suffix: string;
  mime: string;
}

export const EXPORT_CHOICES: readonly ExportChoice[] = [
  { format: 'pycil', name: 'PyCIL / PILOT', hint: '"class_order": [...] for the JSON config', suffix: '_pycil.txt', mime: 'text/plain;charset=utf-8' },
  { format: 'mammoth', name: 'Mammoth', hint: '--custom_class_order …', suffix: '_mammoth.txt', mime: 'text/plain;charset=utf-8' },
  { format: 'avalanche', name: 'Avalanche', hint: 'fixed_class_order=[…]', suffix: '_avalanche.py', mime: 'text/x-python;charset=utf-8' },
  { format: 'csv', name: 'CSV', hint: 'one row per ordering, with class names', suffix: '.csv', mime: 'text/csv;charset=utf-8' },
  { format: 'json', name: 'JSON', hint: 'everything cil-lab orders prints', suffix: '.json', mime: 'application/json;charset=utf-8' },
];

export function exportChoice(format: ExportFormat): ExportChoice {
  const c = EXPORT_CHOICES.find((x) => x.format === format);
  if (!c) throw new Error(`Unknown export format "${format}".`);
  return c;
}

/** File name stem: "class-orders_fashion-mnist_6-classes_3-tasks" (characters outside [A-Za-z0-9._-] become "-"). */
export function exportStem(datasetId: string, classCount: number, taskCount: number): string {
  const id = datasetId.replace(/[^A-Za-z0-9._-]+/g, '-');
  return `class-orders_${id}_${classCount}-classes_${taskCount}-tasks`;
}

export function exportFileName(stem: string, format: ExportFormat): string {
  return `${stem}${exportChoice(format).suffix}`;
}

/** The export text of the page's current result (equal to `cil-lab orders … --format F`; a file ends with "\n"). */
export function exportText(report: OrdersReport, format: ExportFormat, meta: OrdersMeta): string {
  return formatOrders(report, format, meta);
}

/** The CLI command that prints the same text (for the menu's footnote); built-in lists only. */
export function ordersCommand(
  meta: { dataset?: string; selected?: number[]; taskSizes: number[]; seeds?: number[]; protocols?: readonly string[] },
  format: ExportFormat,
): string | null {
  if (!meta.dataset || !meta.selected) return null;
  const equal = meta.taskSizes.every((m) => m === meta.taskSizes[0]);
  const sizes = equal ? `--tasks ${meta.taskSizes.length}` : `--task-sizes ${meta.taskSizes.join(',')}`;
  const all = ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'];
  const protocols =
    meta.protocols && !(meta.protocols.length === all.length && all.every((p) => meta.protocols!.includes(p))) ? ` --protocol ${meta.protocols.join(',')}` : '';
  const seeds = meta.seeds && meta.seeds.join(',') !== '0,42,1993' ? ` --seeds ${meta.seeds.join(',')}` : '';
  return `npx cil-lab orders --dataset ${meta.dataset} --subset ${compactRanges(meta.selected)} ${sizes}${protocols}${seeds} --format ${format}`;
}

/** 0,1,2,3,7,9,10 → "0-3,7,9-10". */
export function compactRanges(xs: readonly number[]): string {
  const s = [...new Set(xs)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < s.length;) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    parts.push(j > i ? `${s[i]}-${s[j]}` : String(s[i]));
    i = j + 1;
  }
  return parts.join(',');
}
