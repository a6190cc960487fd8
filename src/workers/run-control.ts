/**
 * Pause / resume / cancel of the run in flight, as every training worker exposes them (comlink calls from the
 * lab's runner; no effect without a run). `current` reads the worker's RunControl of the run in flight.
 */
import type { RunControl } from '../engine/control';

export function controlMethods(current: () => RunControl | null | undefined): {
  pause(): void;
  resume(): void;
  cancel(): void;
  pauseAfter(n: number): void;
} {
  return {
    pause: () => current()?.pause(),
    resume: () => current()?.resume(),
    cancel: () => current()?.cancel(),
    // teaching mode's Step: the run pauses itself after n more results (RunControl.pauseAfter)
    pauseAfter: (n) => current()?.pauseAfter(n),
  };
}
