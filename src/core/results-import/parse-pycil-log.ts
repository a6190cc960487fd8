/**
 * PyCIL / PILOT logs (github.com/G-U-N/PyCIL, github.com/sun-hailong/LAMDA-PILOT: trainer.py and
 * utils/data_manager.py). Their logging format is `%(asctime)s [%(filename)s] => %(message)s`; the prefix up to
 * "=> " is dropped, and plain `print` output (no prefix) is read too. The lines read:
 *
 *   … [trainer.py] => model_name: icarl          print_args: the method (also `prefix`, unused)
 *   … [trainer.py] => seed: 1993                   print_args: the seed of this run (also "Seed: 1993")
 *   … [trainer.py] => init_cls: 10                 print_args: size of the first task
 *   … [trainer.py] => increment: 10                print_args: size of every later task
 *   … [data_manager.py] => [68, 56, 78, 8, …]      DataManager: the class order, a bare list (`class_order: [...]`,
 *                                                  printed by print_args when the config sets one, is read too)
 *   … [trainer.py] => CNN top1 curve: [90.1, 80.35, 71.2]
 *                                                  after each task: top-1 accuracy (%) on all classes seen so far;
 *                                                  the last such line of a run has one value per task
 */
import type { ParsedFile, RawRow } from './types';

const PREFIX = /^.*?=>\s?/;
const LIST = /^\[\s*-?\d+(?:\s*,\s*-?\d+)+\s*\]$/;

/** Whether a text looks like a PyCIL/PILOT log. */
export function looksLikePycilLog(text: string): boolean {
  return /top1 curve:\s*\[/i.test(text);
}

function numbers(list: string): number[] {
  return list
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => Number(s.replace(/^np\.float64\((.*)\)$/, '$1')));
}

/**
 * The runs of a log. A log may hold several (PyCIL loops over the config's seeds in one process): a run ends where
 * the next run's class order (or "seed:" line) appears after a curve. Each run gives one row: its order (class
 * indices), final accuracy = the curve's last value, AIA = the curve's mean (PyCIL's "Average Accuracy (CNN)"). A
 * run whose curve is shorter than its number of tasks (a crashed run) is reported, not imported. The "NME top1
 * curve" is ignored.
 */
export function parsePycilLog(text: string): ParsedFile {
  const file: ParsedFile = { format: 'pycil-log', rows: [], problems: [], notes: [] };
  let method: string | undefined;
  let seed: number | undefined;
  let initCls: number | undefined;
  let increment: number | undefined;
  let order: { tokens: string[]; line: number } | undefined;
  let curve: { values: string[]; line: number } | undefined;
  const sizesSeen = new Set<string>();
  let classCount = 0;

  const flush = () => {
    if (!curve) return;
    const where = `line ${curve.line}`;
    if (!order) {
      file.problems.push({
        where,
        line: curve.line,
        reason: 'a "CNN top1 curve" with no class order logged before it (PyCIL logs the order as a bare list such as "[68, 56, 78, …]")',
      });
    } else {
      const row: RawRow = { where, line: curve.line, order: { kind: 'flat', tokens: order.tokens }, curve: curve.values };
      if (method) row.method = method;
      if (seed !== undefined) row.seed = seed;
      file.rows.push(row);
      classCount = order.tokens.length;
    }
    curve = undefined;
  };

  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const line = i + 1;
    const msg = raw.includes('=>') ? raw.replace(PREFIX, '').trim() : raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^model_name:\s*(\S+)/i.exec(msg))) {
      flush();
      method = m[1];
    } else if ((m = /^seed:\s*\[?\s*(-?\d+)\s*\]?$/i.exec(msg))) {
      flush();
      seed = Number(m[1]);
    } else if ((m = /^init_cls:\s*(\d+)/i.exec(msg))) initCls = Number(m[1]);
    else if ((m = /^increment:\s*(\d+)/i.exec(msg))) increment = Number(m[1]);
    else if (LIST.test(msg) || ((m = /^class_order:\s*(\[.*\])$/i.exec(msg)) && LIST.test(m[1]))) {
      flush();
      const list = m ? m[1] : msg;
      order = { tokens: numbers(list).map(String), line };
    } else if ((m = /^CNN top1 curve:\s*(\[.*\])\s*$/i.exec(msg))) {
      curve = {
        values: m[1]
          .replace(/^\[|\]$/g, '')
          .split(',')
          .map((s) => s.trim().replace(/^np\.float64\((.*)\)$/, '$1'))
          .filter((s) => s !== ''),
        line,
      };
    }
    if (initCls !== undefined && increment !== undefined) sizesSeen.add(`${initCls}/${increment}`);
  });
  flush();

  if (file.rows.length === 0 && file.problems.length === 0) {
    file.problems.push({ where: 'the file', line: 0, reason: 'no "CNN top1 curve: [...]" line was found' });
  }
  if (initCls !== undefined && increment !== undefined && classCount > 0 && sizesSeen.size === 1) {
    const sizes = [initCls];
    let left = classCount - initCls;
    while (left > 0 && increment > 0) {
      sizes.push(Math.min(increment, left));
      left -= increment;
    }
    if (sizes.reduce((a, b) => a + b, 0) === classCount) {
      file.taskSizes = sizes;
      file.notes.push(`task sizes ${sizes.join(', ')} from the log's init_cls = ${initCls} and increment = ${increment}`);
    }
  } else if (sizesSeen.size > 1) file.notes.push('the log has runs with different init_cls/increment; task sizes come from the experiment');
  if (method) file.notes.push(`method from the log's model_name: ${method}`);
  return file;
}
