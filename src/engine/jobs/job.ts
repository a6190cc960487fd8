/**
 * A job kind the training worker runs (./index.ts lists them): a function of its input, the worker's context and an
 * event callback. The worker holds the context (one dataset cache, one run control); the job holds the logic, so
 * the worker stays a thin facade and the unit tests call jobs directly.
 */
import type { RunControl } from '../control';
import type { ImageDataset } from '../types';

export interface JobContext {
  /** a full built-in dataset, loaded once per worker and shared by every job kind */
  builtin(id: string): Promise<ImageDataset>;
  /**
   * A dataset made from built-in ones (a cut stream, a joined curriculum), kept in `slot` while `key` stays the same:
   * the next job on the same settings reuses it.
   */
  derived<T>(slot: string, key: string, make: () => Promise<T>): Promise<T>;
  /** the dataset the worker holds for runs (the Data tab's, handed over by loadDataset), if any */
  held?(): ImageDataset | null;
  /** pause / resume / cancel of this job */
  control: RunControl;
}

export type Job<I, O, E = never> = (input: I, ctx: JobContext, emit: (event: E) => void) => Promise<O>;

/** A context for Node and the tests: datasets from `load`, the derived ones kept as the worker keeps them. */
export function jobContext(load: (id: string) => Promise<ImageDataset>, control: RunControl): JobContext {
  const cache = new Map<string, Promise<ImageDataset>>();
  const slots = new Map<string, { key: string; value: Promise<unknown> }>();
  return {
    builtin(id) {
      if (!cache.has(id)) {
        const p = load(id);
        cache.set(id, p);
        p.catch(() => cache.delete(id)); // try again next time
      }
      return cache.get(id)!;
    },
    derived<T>(slot: string, key: string, make: () => Promise<T>): Promise<T> {
      const held = slots.get(slot);
      if (held?.key === key) return held.value as Promise<T>;
      const value = make();
      slots.set(slot, { key, value });
      value.catch(() => slots.get(slot)?.value === value && slots.delete(slot));
      return value;
    },
    control,
  };
}
