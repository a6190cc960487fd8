/**
 * Which shard of a sweep trains which run (`cil-lab sweep`): a pure, deterministic assignment.
 *
 * A run is known by its key: strategy, seed and canonical ordering key ("finetune/0/0,1|2,3|4,5"). Runs are
 * assigned in units: the unit of a run is its strategy, seed and the first `depth` tasks of its ordering, so the
 * runs of one prefix subtree go to one shard and keep sharing that prefix's training there (prefix sharing,
 * engine/shared-train.ts). `depth` is the shallowest at which the experiment has at least
 * `max(MIN_UNITS, UNITS_PER_SHARD · n)` distinct units, so hashing spreads them evenly; when no depth has that
 * many, the unit is the whole ordering (every run alone).
 *
 * A unit's shard is Lamping & Veach's jump consistent hash of the unit's 64-bit FNV-1a hash: the same unit always
 * goes to the same shard for a given n, and going from n to n + 1 shards moves only the units that now belong to
 * the new shard (about 1/(n + 1) of them). For n ≤ MIN_UNITS / UNITS_PER_SHARD (16) the depth does not depend on n.
 */
import { fnv1a64 } from '../config/url-codec';

/** Fewest units an experiment is split into (when it has that many prefixes at some depth). */
export const MIN_UNITS = 256;
/** Fewest units per shard the depth aims at, for an even spread by hashing. */
export const UNITS_PER_SHARD = 16;

export interface SweepRun {
  tasks: readonly (readonly number[])[];
  strategy: string;
  seed: number;
}

const canonTask = (t: readonly number[]): string => [...t].sort((a, b) => a - b).join(',');

/** The key of a run: strategy/seed/ordering key (tasks' classes ascending, "|" between tasks). */
export function runKey(run: SweepRun): string {
  return `${run.strategy}/${run.seed}/${run.tasks.map(canonTask).join('|')}`;
}

/** The unit of a run at `depth` (its first `depth` tasks; the whole ordering when it has no more). */
export function unitKey(run: SweepRun, depth: number): string {
  return `${run.strategy}/${run.seed}/${run.tasks.slice(0, depth).map(canonTask).join('|')}`;
}

const MASK64 = (1n << 64n) - 1n;

/** 64-bit FNV-1a of the UTF-8 bytes of `text` (the config hash's FNV-1a, url-codec.ts), as a bigint. */
export function hash64(text: string): bigint {
  return BigInt(`0x${fnv1a64(new TextEncoder().encode(text))}`);
}

/** Jump consistent hash (Lamping & Veach 2014): a bucket in [0, n) for a 64-bit key. */
export function jumpHash(key: bigint, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`The number of shards must be a whole number ≥ 1; got ${n}.`);
  let k = key & MASK64;
  let b = -1;
  let j = 0;
  while (j < n) {
    b = j;
    k = (k * 2862933555777941757n + 1n) & MASK64;
    j = Math.floor((b + 1) * (2 ** 31 / Number((k >> 33n) + 1n)));
  }
  return b;
}

/** The unit depth for `runs` split into `n` shards (see the module comment). */
export function unitDepth(runs: readonly SweepRun[], n: number): number {
  const maxDepth = runs.reduce((m, r) => Math.max(m, r.tasks.length), 0);
  const want = Math.max(MIN_UNITS, UNITS_PER_SHARD * n);
  for (let d = 1; d < maxDepth; d++) {
    if (new Set(runs.map((r) => unitKey(r, d))).size >= want) return d;
  }
  return maxDepth;
}

export interface ShardPlan {
  depth: number;
  /** shard of each run, in the order given */
  shardOf: number[];
}

/** The shard of every run of an experiment split into `n` shards. */
export function planShards(runs: readonly SweepRun[], n: number): ShardPlan {
  const depth = unitDepth(runs, n);
  return { depth, shardOf: runs.map((r) => jumpHash(hash64(unitKey(r, depth)), n)) };
}
