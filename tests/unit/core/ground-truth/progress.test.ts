/** Teaching mode's readout of a ground truth (src/core/ground-truth/progress.ts). */
import { describe, expect, it } from 'vitest';
import { orderingProgress } from '../../../../src/core/ground-truth/progress';

describe('teaching mode: ordering n of N', () => {
  const jobs = ['a', 'b', 'c'].flatMap((k) => ['finetune', 'replay'].map((strategy) => ({ orderingKey: k, strategy, seed: 0 })));
  const run = (k: string, strategy: string) => ({ orderingKey: k, strategy, seed: 0 });
  it('counts orderings with every run stored, and says which is next and how many runs it needs', () => {
    expect(orderingProgress(jobs, [])).toEqual({ done: 0, total: 3, next: 'a', runsOfNext: 2 });
    expect(orderingProgress(jobs, [run('a', 'finetune')])).toEqual({ done: 0, total: 3, next: 'a', runsOfNext: 1 });
    expect(orderingProgress(jobs, [run('a', 'finetune'), run('a', 'replay')])).toEqual({ done: 1, total: 3, next: 'b', runsOfNext: 2 });
    // runs stored out of order (an earlier session) and runs of other experiments do not confuse it
    expect(orderingProgress(jobs, [run('c', 'finetune'), run('c', 'replay'), run('z', 'finetune')])).toEqual({ done: 1, total: 3, next: 'a', runsOfNext: 2 });
    const all = jobs.map((j) => run(j.orderingKey, j.strategy));
    expect(orderingProgress(jobs, all)).toEqual({ done: 3, total: 3, next: null, runsOfNext: 0 });
  });
});
