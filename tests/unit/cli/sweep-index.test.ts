/** `cil-lab sweep`'s shard index from `--shard i/n`, `--shards n` and the batch engines' variables (src/cli/sweep-index.ts). */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/args';
import { parseShardFlag, resolveShardIndex } from '../../../src/cli/sweep-index';

describe('sweep shard index', () => {
  it('--shard i/n, counted from 0', () => {
    expect(parseShardFlag('2/5')).toEqual({ index: 2, count: 5 });
    expect(resolveShardIndex('0/3', undefined, {})).toEqual({ index: 0, count: 3, source: '--shard' });
    expect(() => parseShardFlag('2')).toThrow(/--shard takes i\/n/);
    expect(() => resolveShardIndex('3/3', undefined, {})).toThrow(/out of range: with 3 shards the indices are 0\.\.2/);
    expect(() => resolveShardIndex('0/0', undefined, {})).toThrow(/at least 1/);
    expect(() => resolveShardIndex('1/3', '4', {})).toThrow(/disagree/);
  });

  it('each engine: Kubernetes, Slurm, AWS Batch, Cloud Run, Google Batch', () => {
    expect(resolveShardIndex(undefined, '4', { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 3, count: 4, source: 'JOB_COMPLETION_INDEX' });
    expect(resolveShardIndex(undefined, undefined, { SLURM_ARRAY_TASK_ID: '12', SLURM_ARRAY_TASK_MIN: '10', SLURM_ARRAY_TASK_COUNT: '3' })).toEqual({
      index: 2,
      count: 3,
      source: 'SLURM_ARRAY_TASK_ID',
    });
    expect(resolveShardIndex(undefined, '3', { SLURM_ARRAY_TASK_ID: '1' })).toMatchObject({ index: 1, count: 3 });
    expect(resolveShardIndex(undefined, '8', { AWS_BATCH_JOB_ARRAY_INDEX: '7' })).toMatchObject({ index: 7, count: 8 });
    expect(resolveShardIndex(undefined, undefined, { CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '2' })).toMatchObject({ index: 0, count: 2 });
    expect(resolveShardIndex(undefined, undefined, { BATCH_TASK_INDEX: '5', BATCH_TASK_COUNT: '6' })).toMatchObject({
      index: 5,
      count: 6,
      source: 'BATCH_TASK_INDEX',
    });
  });

  it('one-line usage errors: no index, no count, out of range, conflicting sources, not a number', () => {
    const err = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        expect(String((e as Error).message)).not.toMatch(/\n/);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(err(() => resolveShardIndex(undefined, undefined, {}))).toMatch(/No shard index: give --shard i\/n, or run as an array job/);
    expect(err(() => resolveShardIndex(undefined, '3', {}))).toMatch(/No shard index/);
    expect(err(() => resolveShardIndex(undefined, undefined, { JOB_COMPLETION_INDEX: '1' }))).toMatch(
      /JOB_COMPLETION_INDEX gives the shard's index but not the number of shards: add --shards n/,
    );
    expect(err(() => resolveShardIndex(undefined, '3', { JOB_COMPLETION_INDEX: '3' }))).toMatch(/Shard index 3 \(JOB_COMPLETION_INDEX\) is out of range/);
    expect(err(() => resolveShardIndex(undefined, undefined, { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '3' }))).toMatch(
      /out of range/,
    );
    expect(err(() => resolveShardIndex(undefined, undefined, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '1' }))).toMatch(/below SLURM_ARRAY_TASK_MIN/);
    expect(err(() => resolveShardIndex('1/3', undefined, { JOB_COMPLETION_INDEX: '2' }))).toMatch(
      /Conflicting shard indices: --shard gives 1\/3 but JOB_COMPLETION_INDEX gives 2\/3/,
    );
    expect(
      err(() =>
        resolveShardIndex(undefined, undefined, { CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '2', BATCH_TASK_INDEX: '1', BATCH_TASK_COUNT: '2' }),
      ),
    ).toMatch(/Conflicting/);
    expect(err(() => resolveShardIndex(undefined, '4', { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '3' }))).toMatch(
      /SLURM_ARRAY_TASK_ID says 3 shards but --shards says 4/,
    );
    expect(err(() => resolveShardIndex(undefined, '3', { JOB_COMPLETION_INDEX: 'x' }))).toMatch(/JOB_COMPLETION_INDEX must be a whole number/);
    // the same index from two places is not a conflict
    expect(resolveShardIndex('1/3', undefined, { JOB_COMPLETION_INDEX: '1' })).toMatchObject({ index: 1, count: 3, source: '--shard' });
  });
});
