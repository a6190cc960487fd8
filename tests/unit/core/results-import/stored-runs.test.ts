import { describe, expect, it } from 'vitest';
import { importConflicts, outsidePlan, strategiesShown, toStoredRuns, withoutConflicts } from '../../../../src/core/results-import/stored-runs';
import type { ImportedRun } from '../../../../src/core/results-import/types';

const run = (method: string, key: string, seed = 0, aia: number | null = 0.7): ImportedRun => ({
  where: 'line 2',
  line: 2,
  method,
  seed,
  tasks: key.split('|').map((t) => t.split(',').map(Number)),
  orderingKey: key,
  finalAccuracy: 0.5,
  aia,
  matrix: null,
});

describe('imported runs in the store', () => {
  it('become StoredRuns marked imported, without test counts', () => {
    const [s] = toStoredRuns([run('der', '0,1|2,3', 3, null)], 'h1', 42);
    expect(s).toEqual({
      configHash: 'h1',
      orderingKey: '0,1|2,3',
      tasks: [
        [0, 1],
        [2, 3],
      ],
      strategy: 'der',
      seed: 3,
      matrix: [],
      untrained: [],
      testCounts: [],
      finalAccuracy: 0.5,
      aia: NaN,
      backend: 'imported',
      seconds: 0,
      imported: true,
      createdAt: 42,
    });
  });
  it('conflicts are the same (ordering, method, seed)', () => {
    const incoming = toStoredRuns([run('der', '0,1|2,3'), run('der', '0,1|2,3', 1), run('ewc', '0,1|2,3')], 'h');
    const stored = [
      { orderingKey: '0,1|2,3', strategy: 'der', seed: 0, imported: true },
      { orderingKey: '0,1|2,3', strategy: 'ewc', seed: 0 },
    ];
    expect(importConflicts(incoming, stored)).toEqual([
      { orderingKey: '0,1|2,3', strategy: 'der', seed: 0, storedImported: true },
      { orderingKey: '0,1|2,3', strategy: 'ewc', seed: 0, storedImported: false },
    ]);
    expect(withoutConflicts(incoming, stored).map((r) => r.seed)).toEqual([1]);
  });
  it('the lab shows checked strategies with runs, then the imported methods', () => {
    expect(strategiesShown(['finetune', 'replay'], [])).toEqual(['finetune', 'replay']);
    const runs = [{ strategy: 'finetune' }, { strategy: 'der', imported: true }, { strategy: 'memo', imported: true }];
    expect(strategiesShown(['finetune', 'replay'], runs)).toEqual(['finetune', 'der', 'memo']);
    expect(strategiesShown(['finetune', 'replay'], runs, true)).toEqual(['finetune', 'replay', 'der', 'memo']);
    expect(outsidePlan([{ orderingKey: 'a' }, { orderingKey: 'b' }], new Set(['a']))).toBe(1);
  });
});
