/**
 * Derived seeds for the engine's random streams.
 *
 * docs/science.md conventions: "every random choice takes an explicit seed". The prefix rule (training-seeds.ts)
 * gives one 32-bit seed per training task; inside a task several independent streams are needed (batch order,
 * calibration split, memory selection, Fisher samples, …). Each stream gets its own seed, derived from the task
 * seed and a fixed purpose number, so adding draws to one stream never shifts another (e.g. turning on the
 * calibration split does not change the batch order of the examples that remain).
 */
import { createDefaultRng, type DefaultRng } from '../core/random/default-rng';
import { fmix32 } from '../core/random/fmix32';

/** The random streams of one task, by purpose. The numbers are part of the results: never renumber them. */
export const STREAM = {
  init: 1,
  batches: 2,
  calibration: 3,
  memory: 4,
  fisher: 5,
  reinit: 6,
  agemReference: 7,
  /** the embedded backbone's pre-training batch order (features/backbone.ts) */
  backbone: 8,
  /** the first-session layer's batch order (features/first-session.ts) */
  firstSession: 9,
} as const;

export type StreamName = keyof typeof STREAM;

/** A 32-bit seed from a base seed (any safe integer, negative allowed) and a purpose number. */
export function deriveSeed(base: number, purpose: number): number {
  if (!Number.isSafeInteger(base)) throw new RangeError(`A seed must be a safe integer; got ${base}.`);
  const lo = base >>> 0;
  const hi = Math.floor(base / 2 ** 32) >>> 0;
  let h = fmix32(lo ^ 0x9e3779b9);
  h = fmix32(h ^ Math.imul(hi, 0x85ebca6b) ^ 0x27d4eb2f);
  h = fmix32((h + Math.imul(purpose >>> 0, 0xc2b2ae35)) >>> 0);
  return h;
}

/** A numpy-compatible generator (`default_rng`) for one purpose under `base`. */
export function streamRng(base: number, purpose: StreamName): DefaultRng {
  return createDefaultRng(deriveSeed(base, STREAM[purpose]));
}
