import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importResults } from '../../../../src/core/results-import/import-results';
import expected from '../../../fixtures/import/expected.json';

const FM6 = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal'];
const fx = (name: string) => readFileSync(`tests/fixtures/import/${name}`, 'utf8');
const ctx = { classNames: FM6, taskSizes: [2, 2, 2] };

describe('importResults: the 90-ordering fixture (CSV, percent, malformed rows)', () => {
  const r = importResults(fx('fmnist6-runs.csv'), 'fmnist6-runs.csv', ctx);
  it('imports every valid row and lists each malformed one with its line and reason', () => {
    expect(r.error).toBeNull();
    expect(r.format).toBe('csv');
    expect(r.unit).toBe('percent');
    expect(r.unitReason).toMatch(/values above 1 were found/);
    expect(r.runs).toHaveLength(expected.imported);
    expect(r.rowsRead).toBe(expected.rows);
    expect(r.skipped.map((s) => s.line)).toEqual(expected.malformed.map((m) => m.line));
    r.skipped.forEach((s, i) => expect(s.reason).toContain(expected.malformed[i].reason));
  });
  it('gives canonical keys, so every one of the 90 orderings appears once per method', () => {
    for (const m of ['finetune', 'ewc']) {
      const keys = new Set(r.runs.filter((x) => x.method === m).map((x) => x.orderingKey));
      expect(keys.size).toBe(90);
      for (const d of [...expected.rs, ...expected.edge]) expect(keys.has(d.key)).toBe(true);
    }
    expect(r.runs.every((x) => x.orderingKey === x.tasks.map((t) => t.join(',')).join('|'))).toBe(true);
  });
  it('reads accuracies as fractions and R when given', () => {
    const withR = r.runs.filter((x) => x.matrix);
    expect(withR.length).toBeGreaterThan(5);
    for (const x of withR) expect(x.matrix!.flat().every((v) => v >= 0 && v <= 1)).toBe(true);
    const finals = r.runs.filter((x) => x.method === 'finetune').map((x) => x.finalAccuracy);
    expect(Math.min(...finals)).toBeCloseTo(expected.methods.final.finetune.truth.min, 12);
  });
});

describe('importResults: other formats and contexts', () => {
  it('JSON with names, task lists, curves; bad rows reported', () => {
    const r = importResults(fx('small-runs.json'), 'small-runs.json', ctx);
    expect(r.unit).toBe('fraction');
    expect(r.runs.map((x) => [x.method, x.seed, x.orderingKey, x.finalAccuracy, x.aia])).toEqual([
      ['der', 1993, '0,1|2,3|4,5', 0.612, 0.75],
      ['der', 1993, '3,4|1,5|0,2', 0.587, null],
      ['memo', 0, '4,5|2,3|0,1', 0.655, (0.97 + 0.8 + 0.655) / 3],
    ]);
    expect(r.skipped).toEqual([expect.objectContaining({ reason: '3 classes are missing: 3 (Dress), 4 (Coat), 5 (Sandal) (the experiment has 6 classes)' })]);
  });
  it('JSON lines in percent with the default method; an out-of-range index is reported', () => {
    const r = importResults(fx('small-runs.jsonl'), 'x.jsonl', { ...ctx, defaultMethod: 'podnet' });
    expect(r.format).toBe('jsonl');
    expect(r.unit).toBe('percent');
    expect(r.runs.map((x) => [x.method, x.seed, x.orderingKey, x.finalAccuracy])).toEqual([
      ['podnet', 0, '1,3|0,2|4,5', 71.2 / 100],
      ['podnet', 1, '0,1|2,3|4,5', 64.5 / 100],
    ]);
    expect(r.skipped.map((s) => s.line)).toEqual([3, 4]);
    expect(r.skipped[1].reason).toMatch(/class index 9 is out of range/);
  });
  it('a PyCIL log: percent curves, task sizes and classes from the log when the experiment gives none', () => {
    const r = importResults(fx('small-pycil.log'), 'train.log');
    expect(r.format).toBe('pycil-log');
    expect(r.taskSizesFrom).toBe('file');
    expect(r.taskSizes).toEqual([2, 2, 2]);
    expect(r.classNames).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(r.runs.map((x) => [x.method, x.seed, x.orderingKey])).toEqual([
      ['icarl', 1993, '0,2|3,4|1,5'],
      ['icarl', 0, '2,5|1,3|0,4'],
    ]);
    expect(r.runs[0].finalAccuracy).toBeCloseTo(0.5517, 12);
    expect(r.runs[0].aia).toBeCloseTo((0.9735 + 0.712 + 0.5517) / 3, 12);
  });
  it('a crashed PyCIL run (short curve) is reported; other task sizes say what to change', () => {
    const r = importResults('=> [1, 0, 3, 2]\n=> CNN top1 curve: [90.5]\n', 'x.log', { classNames: ['a', 'b', 'c', 'd'], taskSizes: [2, 2] });
    expect(r.skipped[0].reason).toBe('the accuracy curve has 1 value but there are 2 tasks (did the run stop early?)');
    const s = importResults('method,order,final_accuracy\nx,0 1 2 | 3,0.5\n', 'x.csv', { classNames: ['a', 'b', 'c', 'd'], taskSizes: [2, 2] });
    expect(s.runs).toHaveLength(0);
    expect(s.error).toMatch(/No row could be imported/);
    expect(s.notes.join(' ')).toMatch(/no row fits the experiment's task sizes/);
  });
  it('maps positions to dataset class indices for the keys (a subset of classes)', () => {
    const r = importResults('method,order,final_accuracy\nx,1 0 | 3 2,0.5\n', 'x.csv', {
      classNames: ['a', 'b', 'c', 'd'],
      datasetClasses: [2, 5, 7, 8],
      taskSizes: [2, 2],
    });
    expect(r.runs[0].orderingKey).toBe('2,5|7,8');
  });
  it('computes final and AIA from R when the row has only R (tasks weighted by class count)', () => {
    const r = importResults('method,order,matrix\nx,0 | 1 2,"[[0.9,0],[0.6,0.8]]"\n', 'x.csv', { classNames: ['a', 'b', 'c'], taskSizes: [1, 2] });
    expect(r.runs[0].finalAccuracy).toBeCloseTo((0.6 + 2 * 0.8) / 3, 12);
    expect(r.runs[0].aia).toBeCloseTo((0.9 + (0.6 + 2 * 0.8) / 3) / 2, 12);
    const bad = importResults('method,order,final_accuracy,matrix\nx,0 | 1 2,0.5,"[[0.9]]"\nx,1 | 0 2,0.5,-\n', 'x.csv', {
      classNames: ['a', 'b', 'c'],
      taskSizes: [1, 2],
    });
    expect(bad.skipped.map((s) => s.reason)).toEqual([
      'the matrix must be 2×2 (one row per task); got 1 row',
      'the matrix is not valid JSON (expected e.g. [[0.9, 0], [0.6, 0.8]])',
    ]);
  });
  it('a bad seed is reported; without task sizes a flat file cannot be cut', () => {
    const r = importResults('method,order,final_accuracy,seed\nx,0 1,0.5,1.5\n', 'x.csv', { classNames: ['a', 'b'], taskSizes: [1, 1] });
    expect(r.skipped[0].reason).toBe('seed "1.5" is not a whole number ≥ 0');
    expect(importResults('method,order,final_accuracy\nx,0 1,0.5\n', 'x.csv').error).toMatch(/without task boundaries/);
    expect(importResults('hello', 'x.csv').error).toMatch(/^Nothing to import/);
  });
});

describe('importResults: a file mixing fractions and percentages', () => {
  it('leaves out the rows written as fractions (0.2375 is not 0.2375 %), with the reason; the percent rows import', () => {
    const csv = [
      'method,order,final_accuracy,aia',
      'finetune,0 1 2 3 4 5,23.75,40.5',
      'finetune,1 0 2 3 4 5,0.2375,0.405',
      'finetune,2 0 1 3 4 5,25,41',
      // a run really under 1 % is written with a % sign: it stays a percentage
      'finetune,3 0 1 2 4 5,0.8%,30.2',
      // zero is zero in either unit
      'finetune,4 0 1 2 3 5,0,0',
    ].join('\n');
    const r = importResults(csv, 'mixed.csv', ctx);
    expect(r.unit).toBe('percent');
    expect(r.runs.map((x) => x.finalAccuracy)).toEqual([0.2375, 0.25, 0.008, 0]);
    expect(r.skipped).toHaveLength(1);
    expect(r.skipped[0].line).toBe(3);
    expect(r.skipped[0].reason).toMatch(
      /^its accuracies are all between 0 and 1 \(e\.g\. 0\.2375\) while the file's are percentages \(a value is written with a % sign \(0\.8% on line 5\)/,
    );
    expect(r.skipped[0].reason).toContain('the file mixes fractions and percentages');
  });
  it('a file of fractions only is read as fractions, as before', () => {
    const r = importResults('method,order,final_accuracy\nfinetune,0 1 2 3 4 5,0.2375\n', 'f.csv', ctx);
    expect(r.unit).toBe('fraction');
    expect(r.runs.map((x) => x.finalAccuracy)).toEqual([0.2375]);
  });
});
