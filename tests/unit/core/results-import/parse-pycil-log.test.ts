import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { looksLikePycilLog, parsePycilLog } from '../../../../src/core/results-import/parse-pycil-log';

const log = readFileSync('tests/fixtures/import/small-pycil.log', 'utf8');

describe('parsePycilLog', () => {
  it('finds each run: the logged class order, the last "CNN top1 curve", model_name and seed', () => {
    expect(looksLikePycilLog(log)).toBe(true);
    const f = parsePycilLog(log);
    expect(f.problems).toEqual([]);
    expect(f.rows).toHaveLength(2);
    // np.random.seed(1993); np.random.permutation(6) and seed 0
    expect(f.rows[0]).toMatchObject({
      method: 'icarl',
      seed: 1993,
      curve: ['97.35', '71.2', '55.17'],
      order: { kind: 'flat', tokens: ['0', '2', '3', '4', '5', '1'] },
    });
    expect(f.rows[1]).toMatchObject({ method: 'icarl', seed: 0, curve: ['96.5', '70.05', '58.33'] });
    expect(f.rows[1].order).toEqual({ kind: 'flat', tokens: ['5', '2', '1', '3', '0', '4'] });
    expect(f.taskSizes).toEqual([2, 2, 2]);
    expect(f.notes).toContain("task sizes 2, 2, 2 from the log's init_cls = 2 and increment = 2");
  });
  it('reads print output without the logging prefix, class_order lines and np.float64 values', () => {
    const f = parsePycilLog('class_order: [1, 0, 3, 2]\nCNN top1 curve: [np.float64(90.5), np.float64(60.25)]\n');
    expect(f.rows).toEqual([{ where: 'line 2', line: 2, order: { kind: 'flat', tokens: ['1', '0', '3', '2'] }, curve: ['90.5', '60.25'] }]);
  });
  it('reports a curve without a class order before it', () => {
    const f = parsePycilLog('x => CNN top1 curve: [90.5]\n');
    expect(f.problems[0].reason).toMatch(/no class order logged before it/);
  });
});
