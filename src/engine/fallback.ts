/**
 * Backend fallback ("A lost WebGPU device or a failed backend falls back to the next one and continues
 * from the last finished task, with a visible notice").
 *
 * `withFallback(run, onNotice)` runs `run` on the current backend. The run saves a checkpoint after every
 * finished task (`attempt.save`) and calls `attempt.guard()` between steps, which throws once the device is lost
 * (watched through WebGPU's `device.lost` / WebGL's `webglcontextlost`). When the run fails for any reason other
 * than a cancel or a config error, the next backend in the order webgpu → webgl → wasm → cpu that passes the probe
 * takes over, `onNotice` says so, and `run` is called again with the last checkpoint: the run continues from the
 * last finished task. Only when no backend is left does the last error propagate.
 *
 * `trainRunWithFallback` is the trainer wired to it.
 */
import { activeBackend, backendsAfter, probeBackend, watchBackendLoss, type BackendName } from './backend';
import { TrainConfigError } from './config';
import { RunCancelledError } from './control';
import { StrategyConfigError } from './strategies/index';
import { trainShared, type SharedNext, type SharedTrainHooks, type SharedTrainOptions } from './shared-train';
import { trainRun, type TaskEndEvent, type TrainHooks } from './trainer';
import type { TrainDataset, RunCheckpoint, TrainRunConfig, TrainRunResult } from './types';

export class BackendLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackendLostError';
  }
}

export interface FallbackNotice {
  /** the backend that failed */
  from: string;
  /** the backend that continues, null when none is left */
  to: BackendName | null;
  /** why the backend failed */
  reason: string;
  /** the task the run continues from (0 when no task had finished) */
  resumeTask: number;
  /** the text for the app's notice */
  message: string;
}

export interface FallbackAttempt<C> {
  backend: string;
  /** the last checkpoint saved by an earlier attempt */
  checkpoint: C | undefined;
  save(checkpoint: C): void;
  /** throws BackendLostError once the device of this attempt's backend is lost */
  guard(): void;
}

function retriable(e: unknown): boolean {
  return !(e instanceof RunCancelledError || e instanceof TrainConfigError || e instanceof StrategyConfigError);
}

export async function withFallback<T, C extends { nextTask?: number }>(
  run: (attempt: FallbackAttempt<C>) => Promise<T>,
  onNotice: (n: FallbackNotice) => void,
): Promise<T> {
  let checkpoint: C | undefined;
  for (;;) {
    const backend = activeBackend();
    let lost: string | null = null;
    const stopWatching = watchBackendLoss((reason) => (lost = reason));
    try {
      return await run({
        backend,
        checkpoint,
        save: (c) => (checkpoint = c),
        guard: () => {
          if (lost !== null) throw new BackendLostError(lost);
        },
      });
    } catch (e) {
      if (!retriable(e)) throw e;
      const reason = (e as Error).message ?? String(e);
      const resumeTask = checkpoint?.nextTask ?? 0;
      let next: BackendName | null = null;
      for (const candidate of backendsAfter(backend)) {
        try {
          await probeBackend(candidate);
          next = candidate;
          break;
        } catch {
          // try the next one
        }
      }
      onNotice({
        from: backend,
        to: next,
        reason,
        resumeTask,
        message: next
          ? `The ${backend} backend failed (${reason}); continuing on ${next} from task ${resumeTask + 1}.`
          : `The ${backend} backend failed (${reason}) and no other backend is left.`,
      });
      if (!next) throw e;
    } finally {
      stopWatching();
    }
  }
}

/**
 * Exactly-once `onTaskEnd` across fallback attempts: a task's event is held until that task's checkpoint is saved,
 * then delivered. A task that ended on a backend which failed before its checkpoint was saved is trained again by
 * the next attempt (it resumes from the last saved checkpoint), so its first event is dropped and only the event of
 * the attempt that saved it is delivered — the one whose numbers the run's result holds. Tasks before the resume
 * point are never trained (nor delivered) again. One per attempt: `deliverAfterCheckpoint(deliver, after)`.
 */
export function deliverAfterCheckpoint(
  deliver: ((e: TaskEndEvent) => void) | undefined,
  alreadyDelivered: { next: number },
): { onTaskEnd: (e: TaskEndEvent) => void; onSaved: (c: { nextTask: number }) => void } {
  let held: TaskEndEvent | null = null;
  return {
    onTaskEnd: (e) => {
      held = e;
    },
    onSaved: (c) => {
      const e = held;
      held = null;
      if (!e || e.task !== c.nextTask - 1 || e.task < alreadyDelivered.next) return;
      alreadyDelivered.next = e.task + 1;
      deliver?.(e);
    },
  };
}

/**
 * trainRun with the backend fallback: resumes from the last finished task on the next backend. `onTaskEnd` is
 * called once per task, after the task's checkpoint is saved (deliverAfterCheckpoint), never twice for a task.
 */
export function trainRunWithFallback(
  dataset: TrainDataset,
  config: TrainRunConfig,
  hooks: Omit<TrainHooks, 'resumeFrom' | 'guard'> & { onNotice?: (n: FallbackNotice) => void } = {},
): Promise<TrainRunResult> {
  const { onNotice, onTaskEnd, ...rest } = hooks;
  const delivered = { next: 0 };
  return withFallback<TrainRunResult, RunCheckpoint>(
    (attempt) => {
      const tasks = deliverAfterCheckpoint(onTaskEnd, delivered);
      return trainRun(dataset, config, {
        ...rest,
        resumeFrom: attempt.checkpoint,
        guard: attempt.guard,
        onTaskEnd: tasks.onTaskEnd,
        onCheckpoint: (c) => {
          attempt.save(c);
          tasks.onSaved(c);
          rest.onCheckpoint?.(c);
        },
      });
    },
    onNotice ?? (() => {}),
  );
}

/**
 * `trainShared` (shared-train.ts) with the same fallback: when the backend fails, the next one takes over and
 * trains the orderings that had not finished yet (finished ones were already reported through `onRunDone` and are
 * not trained again; the shared prefixes of the rest are trained again on the new backend).
 */
export async function trainSharedWithFallback(
  dataset: TrainDataset,
  configs: TrainRunConfig[],
  options: SharedTrainOptions,
  hooks: SharedTrainHooks & { onNotice?: (n: FallbackNotice) => void },
): Promise<TrainRunResult[]> {
  const results: TrainRunResult[] = new Array(configs.length);
  const finished = new Set<number>();
  // pull mode: what this worker pulled (a retry trains the pulled orderings not finished first) and what went elsewhere
  const pulled: number[] = [];
  const taken: number[] = [];
  // the checkpoint a pulled ordering came with (deal.ts): a retry continues it from the same one
  const fromOf = new Map<number, SharedNext['from']>();
  await withFallback<void, { nextTask?: number }>(
    async (attempt) => {
      const pull = hooks.next;
      const todo = pull ? configs.map((_, i) => i) : configs.map((_, i) => i).filter((i) => !finished.has(i));
      const at = new Map(todo.map((i, k) => [i, k]));
      let redo = pulled.filter((i) => !finished.has(i));
      let toldTaken = false;
      await trainShared(
        dataset,
        todo.map((i) => configs[i]),
        // the order, in the indices of this attempt (finished orderings are not trained again)
        options.order ? { ...options, order: options.order.filter((i) => at.has(i)).map((i) => at.get(i) as number) } : options,
        {
          control: hooks.control,
          onProgress: hooks.onProgress,
          guard: () => {
            attempt.guard();
            hooks.guard?.();
          },
          onRunDone: (k, r) => {
            const i = todo[k];
            finished.add(i);
            fromOf.delete(i);
            results[i] = r;
            hooks.onRunDone?.(i, r);
          },
          ...(hooks.onCheckpoint ? { onCheckpoint: hooks.onCheckpoint } : {}),
          ...(pull
            ? {
                next: async () => {
                  const before = toldTaken ? [] : taken.filter((i) => !pulled.includes(i));
                  toldTaken = true;
                  if (redo.length > 0) {
                    const [index, ...rest] = redo;
                    redo = rest;
                    const from = fromOf.get(index);
                    return { index, taken: before, ...(from ? { from } : {}) };
                  }
                  // finished orderings are never dealt again: the caller deals each once
                  const got = await pull();
                  if (got.index !== null) {
                    pulled.push(got.index);
                    if (got.from) fromOf.set(got.index, got.from);
                  }
                  taken.push(...(got.taken ?? []));
                  return { index: got.index, taken: [...before, ...(got.taken ?? [])], ...(got.from ? { from: got.from } : {}) };
                },
              }
            : {}),
        },
      );
    },
    (n) => {
      const left = configs.length - finished.size;
      hooks.onNotice?.({
        ...n,
        message: n.to
          ? `The ${n.from} backend failed (${n.reason}); continuing on ${n.to} with the ${left} ordering${left === 1 ? '' : 's'} not finished.`
          : n.message,
      });
    },
  );
  return results;
}
