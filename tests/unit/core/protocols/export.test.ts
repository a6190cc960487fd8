/**
 * The orderings' exports: no CSV formula injection, an RS ordering exported as numpy drew it, one ordering per copy,
 * and a multi-ordering file that parses and keeps every ordering.
 */
import { describe, expect, it } from 'vitest';
import { formatOrders, formatSequence, formatSequences, sequenceKeys, type ExportFormat } from '../../../../src/core/protocols/export';
import { runProtocols } from '../../../../src/core/protocols/run';
import { toSequence } from '../../../../src/core/protocols/sequence';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { csvField } from '../../../../src/core/formats/csv';
import { csvField as chartCsvField } from '../../../../src/ui/common/chart-export';
import type { Sequence } from '../../../../src/core/orderings/types';

/** A deterministic 100×100 similarity (symmetric, unit diagonal). */
function sim(n: number) {
  return matrixFromRows(
    Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0.1 + 0.8 * (((i * 7 + j * 7 + i * j) % 97) / 97)))),
  );
}

// python3 -c "import numpy as np; np.random.seed(1993); print(np.random.permutation(100)[:10])"
const SEED_1993_PREFIX = [68, 56, 78, 8, 23, 84, 90, 65, 74, 76];

/** Every multi-ordering format read back: label → class order. */
function readBack(text: string, format: ExportFormat): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if (format === 'pycil') {
    for (const [k, v] of Object.entries(JSON.parse(text) as Record<string, { class_order: number[] }>)) out.set(k, v.class_order);
  } else if (format === 'avalanche') {
    const body = text
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n');
    expect(body.startsWith('fixed_class_orders = {')).toBe(true);
    for (const [k, v] of Object.entries(JSON.parse(body.slice('fixed_class_orders = '.length)) as Record<string, number[]>)) out.set(k, v);
  } else if (format === 'mammoth') {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i += 2) {
      const m = /^# (.*) \(S = -?\d+\.\d{6}\)$/.exec(lines[i]);
      expect(m, lines[i]).not.toBeNull();
      expect(lines[i + 1]).toMatch(/^--custom_class_order \d+(,\d+)*$/);
      out.set(m![1], lines[i + 1].split(' ')[1].split(',').map(Number));
    }
  } else if (format === 'json') {
    for (const s of (JSON.parse(text) as { sequences: Sequence[] }).sequences) out.set(s.label, s.order);
  }
  return out;
}

describe("RS orderings export numpy's permutation as drawn", () => {
  const report = runProtocols(sim(100), Array(10).fill(10), { protocols: ['rs', 'edge'], rsSeeds: [1993] });
  const rs = report.sequences.find((s) => s.label === 'RS seed 1993')!;

  it('the sequence order is np.random.seed(1993); permutation(100) (CIFAR-100), tasks stay sorted sets', () => {
    expect(rs.order.slice(0, 10)).toEqual(SEED_1993_PREFIX);
    expect(rs.tasks[0]).toEqual([...SEED_1993_PREFIX].sort((a, b) => a - b));
    expect(rs.tasks.flat()).not.toEqual(rs.order);
  });
  it('every export format carries the drawn order', () => {
    const prefix = SEED_1993_PREFIX.join(', ');
    const seqs = report.sequences;
    expect(formatSequences(seqs, 'pycil')).toContain(`"class_order": [${prefix}`);
    expect(formatSequence(rs, 'pycil')).toMatch(new RegExp(`^\\{"class_order": \\[${prefix}`));
    expect(formatSequences(seqs, 'mammoth')).toContain(`--custom_class_order ${SEED_1993_PREFIX.join(',')}`);
    expect(formatSequences(seqs, 'avalanche')).toContain(`"RS seed 1993": [${prefix}`);
    expect(formatSequences(seqs, 'csv').split('\n')[1]).toContain(SEED_1993_PREFIX.join(' '));
    expect(JSON.parse(formatSequences(seqs, 'json')).sequences[0].order.slice(0, 10)).toEqual(SEED_1993_PREFIX);
  });
  it('a drawn order that does not split into the tasks is refused', () => {
    expect(() =>
      toSequence(
        'rs',
        'RS',
        [
          [0, 1],
          [2, 3],
        ],
        sim(4),
        [0, 2, 1, 3],
      ),
    ).toThrow(/does not split/);
    expect(
      toSequence(
        'rs',
        'RS',
        [
          [1, 0],
          [3, 2],
        ],
        sim(4),
        [1, 0, 3, 2],
      ).order,
    ).toEqual([1, 0, 3, 2]);
  });
});

describe('one ordering per copy, a multi-ordering file that parses', () => {
  const report = runProtocols(sim(6), [2, 2, 2], { protocols: ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'] });
  const seqs = report.sequences;

  it('pycil, avalanche, mammoth and json parse and keep all 14 orderings, each order intact', () => {
    expect(seqs).toHaveLength(14);
    for (const format of ['pycil', 'avalanche', 'mammoth', 'json'] as const) {
      const back = readBack(formatSequences(seqs, format), format);
      expect(back.size, format).toBe(14);
      for (const s of seqs) expect(back.get(s.label), `${format} ${s.label}`).toEqual(s.order);
    }
  });
  it('a repeated label (an RS seed given twice) still gives one key per ordering', () => {
    const twice = runProtocols(sim(6), [2, 2, 2], { protocols: ['rs'], rsSeeds: [0, 0, 42] }).sequences;
    expect(sequenceKeys(twice)).toEqual(['RS seed 0', 'RS seed 0 (2)', 'RS seed 42']);
    expect(Object.keys(JSON.parse(formatSequences(twice, 'pycil')))).toHaveLength(3);
  });
  it("one ordering's copy is the text to paste, and the PyCIL one is valid JSON", () => {
    const s = seqs[0];
    expect(JSON.parse(formatSequence(s, 'pycil'))).toEqual({ class_order: s.order });
    expect(formatSequence(s, 'mammoth')).toBe(`--custom_class_order ${s.order.join(',')}`);
    expect(formatSequence(s, 'avalanche')).toBe(`fixed_class_order=[${s.order.join(', ')}]`);
    expect(formatSequence(s, 'csv').split('\n')).toHaveLength(2);
    expect(JSON.parse(formatSequence(s, 'json')).order).toEqual(s.order);
  });
  it("the page's export (formatOrders) is the same text", () => {
    const r = { classes: ['a', 'b', 'c', 'd', 'e', 'f'], omega: report.omega, similarityDescription: 'x', sequences: seqs, notes: [] };
    expect(formatOrders(r, 'pycil', { taskSizes: [2, 2, 2] })).toBe(formatSequences(seqs, 'pycil', { classes: r.classes }));
  });
});

describe('CSV formula injection', () => {
  const seq: Sequence = {
    protocol: 'rs',
    label: 'RS seed 0',
    tasks: [
      [0, 1],
      [2, 3],
    ],
    order: [1, 0, 3, 2],
    score: -0.5,
  };
  const hostile = ['=HYPERLINK("http://x","y")', '+1+2', '@SUM(A1)', '-2+3', '\tcmd'];

  it('class names that a spreadsheet would run get a leading apostrophe in the orderings CSV', () => {
    const csv = formatSequences([seq], 'csv', { classes: hostile.slice(0, 4) });
    const cells = csv.split('\n')[1];
    // a spreadsheet reads a field's first character: the class-names field starts with "=", so it gets the apostrophe
    expect(cells.endsWith(`,"'=HYPERLINK(""http://x"",""y"") +1+2 | @SUM(A1) -2+3"`)).toBe(true);
    // the first character of every field is safe
    const one = formatSequences([seq], 'csv', { classes: ['=cmd', 'b', 'c', 'd'] }).split('\n')[1];
    expect(one.endsWith(",'=cmd b | c d")).toBe(true);
    expect(formatSequence(seq, 'csv', { classes: ['=cmd', 'b', 'c', 'd'] }).split('\n')[1]).toBe(one);
  });
  it('one guard: the chart CSVs and the orderings CSV use the same csvField', () => {
    expect(chartCsvField).toBe(csvField);
    for (const h of hostile) expect(csvField(h).replace(/^"/, '')[0]).toBe("'");
    expect(csvField(-0.5)).toBe('-0.5');
    expect(csvField('-0.5')).toBe('-0.5');
  });
});
