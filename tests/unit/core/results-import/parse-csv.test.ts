import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../src/core/results-import/parse-csv';

describe('parseCsv', () => {
  it('reads the columns by their names and aliases, with line numbers', () => {
    const f = parseCsv('Strategy,Class Order,Final Acc,AIA,seed\n\newc,"3 1 | 0 2",71.2,80.4,1\n# a comment\nlwf,0 1 2 3,0.5,,\n');
    expect(f.problems).toEqual([]);
    expect(f.rows).toEqual([
      {
        where: 'line 3',
        line: 3,
        method: 'ewc',
        order: {
          kind: 'tasks',
          tasks: [
            ['3', '1'],
            ['0', '2'],
          ],
        },
        final: '71.2',
        aia: '80.4',
        seed: '1',
      },
      { where: 'line 5', line: 5, method: 'lwf', order: { kind: 'flat', tokens: ['0', '1', '2', '3'] }, final: '0.5' },
    ]);
  });
  it('prefers the "tasks" column (the app\'s own orders CSV export has both)', () => {
    const f = parseCsv('protocol,label,score,order,tasks,final_accuracy\nrs,RS seed 0,1.3,2 3 0 1,2 3 | 0 1,0.4\n');
    expect(f.rows[0].order).toEqual({
      kind: 'tasks',
      tasks: [
        ['2', '3'],
        ['0', '1'],
      ],
    });
  });
  it('reads tab-separated files and a quoted matrix', () => {
    const f = parseCsv('method\torder\tmatrix\nder\t1 0\t[[0.9,0],[0.5,0.8]]\n');
    expect(f.rows[0].matrix).toBe('[[0.9,0],[0.5,0.8]]');
    const g = parseCsv('method,order,matrix\nder,1 0,"[[0.9, 0],\n [0.5, 0.8]]"\nder,0 1,"[[1,0],[0,1]]"\n');
    expect(g.rows.map((r) => r.line)).toEqual([2, 4]);
  });
  it('rejects a header without order or accuracy, and rows without an order', () => {
    expect(parseCsv('a,b\n1,2\n').problems[0].reason).toMatch(/lacks an order column.*and an accuracy column/);
    const f = parseCsv('method,order,final_accuracy\newc,,0.5\newc,[1,,0.5\n');
    expect(f.problems.map((p) => [p.line, p.reason])).toEqual([
      [2, 'the order is missing'],
      [3, 'the order "[1" is not a valid list'],
    ]);
  });
});
