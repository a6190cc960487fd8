/**
 * The rate and time left of a job that processes items (images) one batch at a time: images per second since the
 * work began and, at that rate, the seconds left. Pure: times in, numbers out (the feature job reports them).
 */

export interface Throughput {
  done: number;
  total: number;
  /** items per second since `startedMs`; null before the first item or when no time has passed */
  perSecond: number | null;
  /** seconds left at that rate; null while the rate is unknown, 0 when done */
  secondsLeft: number | null;
}

/** Throughput of `done` of `total` items, begun at `startedMs` and measured at `nowMs` (milliseconds). */
export function throughput(done: number, total: number, startedMs: number, nowMs: number): Throughput {
  const elapsed = (nowMs - startedMs) / 1000;
  const perSecond = done > 0 && elapsed > 0 ? done / elapsed : null;
  const left = Math.max(0, total - done);
  return { done, total, perSecond, secondsLeft: left === 0 ? 0 : perSecond === null ? null : left / perSecond };
}
