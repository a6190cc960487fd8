/**
 * Seeds for training (docs/science.md "every random choice takes a seed"; the prefix rule of the data issue):
 * the randomness of training task t of ordering O depends only on (experiment seed, tasks 1..t of O).
 * Two orderings that share a prefix of tasks therefore train that prefix identically, which is what lets a
 * later issue train shared prefixes once. Order *inside* a task does not matter (tasks are canonicalised).
 *
 * The seed is a 32-bit unsigned integer: FNV-1a over the canonical prefix key, mixed with the experiment
 * seed and finalised with murmur3's fmix32 so nearby prefixes give unrelated seeds.
 */
import { fmix32 } from '../random/fmix32';
import { canonicalOrdering } from './key';
import type { Ordering } from './types';

function fnv1a(h: number, value: number): number {
  // feed the 32-bit value byte by byte
  for (let s = 0; s < 32; s += 8) {
    h ^= (value >>> s) & 0xff;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Seed for training task t (0-based) of `tasks` under the experiment seed. */
export function taskTrainingSeed(experimentSeed: number, tasks: Ordering, t: number): number {
  if (!Number.isInteger(experimentSeed)) throw new RangeError(`The experiment seed must be an integer; got ${experimentSeed}.`);
  if (t < 0 || t >= tasks.length) throw new RangeError(`Task index ${t} is out of range 0..${tasks.length - 1}.`);
  const canon = canonicalOrdering(tasks.slice(0, t + 1));
  let h = fnv1a(0x811c9dc5, experimentSeed >>> 0);
  h = fnv1a(h, Math.floor(experimentSeed / 2 ** 32) >>> 0);
  for (const task of canon) {
    h = fnv1a(h, 0xffffffff); // task separator: [0,1][2] ≠ [0][1,2]
    for (const c of task) h = fnv1a(h, c);
  }
  return fmix32(h);
}

/** Seeds for every task of an ordering. */
export function orderingTrainingSeeds(experimentSeed: number, tasks: Ordering): number[] {
  return tasks.map((_, t) => taskTrainingSeed(experimentSeed, tasks, t));
}
