/**
 * Which shard this process is (`cil-lab sweep`): `--shard i/n`, or the array index a batch engine puts in the
 * environment. Shards are numbered from 0, like every engine's array index.
 *
 * | engine                      | index                                      | count                      |
 * |-----------------------------|--------------------------------------------|----------------------------|
 * | Kubernetes Indexed Job      | JOB_COMPLETION_INDEX                       | --shards n                 |
 * | Slurm job array             | SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN | SLURM_ARRAY_TASK_COUNT     |
 * | AWS Batch array job         | AWS_BATCH_JOB_ARRAY_INDEX                  | --shards n                 |
 * | Cloud Run Jobs              | CLOUD_RUN_TASK_INDEX                       | CLOUD_RUN_TASK_COUNT       |
 * | Google Cloud Batch          | BATCH_TASK_INDEX                           | BATCH_TASK_COUNT           |
 *
 * Two sources that disagree (the flag and an engine, or two engines) are an error, never a silent choice.
 */
import { CONFIG_LIMITS, grouped } from '../core/config/limits';
import { UsageError } from './args';

export interface ShardIndex {
  index: number;
  count: number;
  /** where it came from: "--shard", "JOB_COMPLETION_INDEX", … */
  source: string;
}

type Env = Readonly<Record<string, string | undefined>>;

function whole(text: string, what: string): number {
  if (!/^\s*\d+\s*$/.test(text)) throw new UsageError(`${what} must be a whole number ≥ 0; got "${text}".`);
  return Number(text);
}

/** "2/5" → {index 2, count 5}. */
export function parseShardFlag(text: string): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UsageError(`--shard takes i/n, the shard's index from 0 and the number of shards (e.g. 0/4); got "${text}".`);
  return { index: Number(m[1]), count: Number(m[2]) };
}

/** The index and count each engine variable set in `env` gives (count undefined when the engine has none). */
function engineSources(env: Env): { source: string; index: number; count?: number }[] {
  const out: { source: string; index: number; count?: number }[] = [];
  const has = (k: string): boolean => env[k] !== undefined && env[k] !== '';
  if (has('JOB_COMPLETION_INDEX')) out.push({ source: 'JOB_COMPLETION_INDEX', index: whole(env.JOB_COMPLETION_INDEX!, 'JOB_COMPLETION_INDEX') });
  if (has('SLURM_ARRAY_TASK_ID')) {
    const id = whole(env.SLURM_ARRAY_TASK_ID!, 'SLURM_ARRAY_TASK_ID');
    const min = has('SLURM_ARRAY_TASK_MIN') ? whole(env.SLURM_ARRAY_TASK_MIN!, 'SLURM_ARRAY_TASK_MIN') : 0;
    if (id < min) throw new UsageError(`SLURM_ARRAY_TASK_ID ${id} is below SLURM_ARRAY_TASK_MIN ${min}.`);
    const count = has('SLURM_ARRAY_TASK_COUNT') ? whole(env.SLURM_ARRAY_TASK_COUNT!, 'SLURM_ARRAY_TASK_COUNT') : undefined;
    out.push({ source: 'SLURM_ARRAY_TASK_ID', index: id - min, count });
  }
  if (has('AWS_BATCH_JOB_ARRAY_INDEX'))
    out.push({ source: 'AWS_BATCH_JOB_ARRAY_INDEX', index: whole(env.AWS_BATCH_JOB_ARRAY_INDEX!, 'AWS_BATCH_JOB_ARRAY_INDEX') });
  if (has('CLOUD_RUN_TASK_INDEX')) {
    const count = has('CLOUD_RUN_TASK_COUNT') ? whole(env.CLOUD_RUN_TASK_COUNT!, 'CLOUD_RUN_TASK_COUNT') : undefined;
    out.push({ source: 'CLOUD_RUN_TASK_INDEX', index: whole(env.CLOUD_RUN_TASK_INDEX!, 'CLOUD_RUN_TASK_INDEX'), count });
  }
  if (has('BATCH_TASK_INDEX')) {
    const count = has('BATCH_TASK_COUNT') ? whole(env.BATCH_TASK_COUNT!, 'BATCH_TASK_COUNT') : undefined;
    out.push({ source: 'BATCH_TASK_INDEX', index: whole(env.BATCH_TASK_INDEX!, 'BATCH_TASK_INDEX'), count });
  }
  return out;
}

/**
 * This process's shard from `--shard i/n` (flag), `--shards n` (shards) and the environment. Every error is a
 * one-line `UsageError` (exit 2): no index anywhere, no count, an index out of range, sources that disagree.
 */
export function resolveShardIndex(flag: string | undefined, shards: string | undefined, env: Env): ShardIndex {
  const total = shards === undefined ? undefined : whole(shards, '--shards');
  if (total !== undefined && total < 1) throw new UsageError('--shards must be at least 1.');
  const candidates: ShardIndex[] = [];
  const given = flag === undefined ? undefined : parseShardFlag(flag);
  if (given) {
    if (total !== undefined && total !== given.count) throw new UsageError(`--shard ${flag} and --shards ${total} disagree on the number of shards.`);
    candidates.push({ ...given, source: '--shard' });
  }
  for (const e of engineSources(env)) {
    if (e.count !== undefined && total !== undefined && e.count !== total) {
      throw new UsageError(`${e.source} says ${e.count} shards but --shards says ${total}.`);
    }
    const count = e.count ?? total ?? given?.count;
    if (count === undefined) throw new UsageError(`${e.source} gives the shard's index but not the number of shards: add --shards n.`);
    candidates.push({ index: e.index, count, source: e.source });
  }
  if (candidates.length === 0) {
    throw new UsageError(
      'No shard index: give --shard i/n, or run as an array job (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX, CLOUD_RUN_TASK_INDEX or BATCH_TASK_INDEX).',
    );
  }
  const first = candidates[0];
  const other = candidates.find((c) => c.index !== first.index || c.count !== first.count);
  if (other) {
    throw new UsageError(
      `Conflicting shard indices: ${first.source} gives ${first.index}/${first.count} but ${other.source} gives ${other.index}/${other.count}.`,
    );
  }
  if (first.count < 1) throw new UsageError(`The number of shards must be at least 1 (${first.source}).`);
  if (first.count > CONFIG_LIMITS.shards)
    throw new UsageError(
      `The number of shards must be at most ${grouped(CONFIG_LIMITS.shards)} (${first.source} gives ${first.count > 1e15 ? 'more' : first.count}).`,
    );
  if (first.index >= first.count) {
    throw new UsageError(`Shard index ${first.index} (${first.source}) is out of range: with ${first.count} shards the indices are 0..${first.count - 1}.`);
  }
  return first;
}
