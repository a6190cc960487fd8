import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJson, parseJsonLines } from '../../../../src/core/results-import/parse-json';

const fx = (name: string) => readFileSync(`tests/fixtures/import/${name}`, 'utf8');

describe('parseJson', () => {
  it('reads {"runs": [...]} with lines, task lists, strings and curves', () => {
    const f = parseJson(fx('small-runs.json'));
    expect(f.format).toBe('json');
    expect(f.problems).toEqual([]);
    expect(f.rows).toHaveLength(4);
    expect(f.rows[0]).toMatchObject({
      method: 'der',
      order: {
        kind: 'tasks',
        tasks: [
          ['0', '1'],
          ['2', '3'],
          ['4', '5'],
        ],
      },
      final: 0.612,
      aia: 0.75,
      seed: 1993,
    });
    expect(f.rows[0].where).toMatch(/^run 1 \(line \d+\)$/);
    expect(f.rows[1].order).toEqual({
      kind: 'tasks',
      tasks: [
        ['Dress', 'Coat'],
        ['Trouser', 'Sandal'],
        ['T-shirt/top', 'Pullover'],
      ],
    });
    expect(f.rows[2].curve).toEqual([0.97, 0.8, 0.655]);
  });
  it('reads a bare array and a single object; reports bad items', () => {
    expect(parseJson('[{"order": [1, 0], "acc": 0.5}, 3, {"acc": 1}]').problems.map((p) => p.reason)).toEqual([
      'expected an object like {"order": [...], "acc": 0.71}, got 3',
      'no "order" (keys: acc)',
    ]);
    expect(parseJson('{"order": [1, 0], "acc": 0.5}').rows).toHaveLength(1);
    expect(parseJson('{"x": 1}').problems[0].reason).toMatch(/expected an array of runs/);
    expect(parseJson('[1,').problems[0].reason).toMatch(/not valid JSON/);
  });
});

describe('parseJsonLines', () => {
  it('reads one run per line and reports lines that are not JSON', () => {
    const f = parseJsonLines(fx('small-runs.jsonl'));
    expect(f.rows.map((r) => [r.line, r.final])).toEqual([
      [1, 71.2],
      [2, 64.5],
      [4, 50],
    ]);
    expect(f.problems).toHaveLength(1);
    expect(f.problems[0]).toMatchObject({ line: 3, where: 'line 3' });
    expect(f.problems[0].reason).toMatch(/^not valid JSON/);
  });
});
