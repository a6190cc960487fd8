/**
 * The Open-world lab's job (docs/science.md §5): `runOpenWorld` on the lab's settings, each finished step sent with
 * the trainer's checkpoint after it (the lab stores both at once; a stored checkpoint comes back as `resumeFrom`).
 */
import type { OpenWorldSettings } from '../../core/labs/open-world/settings';
import type { ProgressEvent, RunCheckpoint } from '../types';
import type { Job } from '../jobs/job';
import { datasetsNeeded, openWorldInput } from './from-settings';
import { runOpenWorld, type OpenWorldResult, type OpenWorldStep } from './run';

export interface OodJobInput {
  settings: OpenWorldSettings;
  /** a stored checkpoint and the steps before it: continue after its last step */
  resumeFrom?: { checkpoint: RunCheckpoint; steps: OpenWorldStep[] };
  /** teaching mode's Step: pause after this many steps (RunControl.pauseAfter; absent or 0: play on) */
  pauseAfter?: number;
}

export type OodJobEvent =
  | { kind: 'step'; step: OpenWorldStep; checkpoint: RunCheckpoint }
  | { kind: 'train'; progress: ProgressEvent }
  | { kind: 'detector'; step: number; detector: string };

/** What the lab keeps of a finished run (the training result without its recorded softmax outputs). */
export type OodRunResult = Omit<OpenWorldResult, 'train'> & { train: Omit<OpenWorldResult['train'], 'probs'> };

/** Training progress crosses to the page at most this often. */
const PROGRESS_MS = 250;

export const oodJob: Job<OodJobInput, OodRunResult, OodJobEvent> = async ({ settings, resumeFrom, pauseAfter }, ctx, emit) => {
  if (pauseAfter) ctx.control.pauseAfter(pauseAfter);
  const loaded = new Map<string, Awaited<ReturnType<typeof ctx.builtin>>>();
  for (const id of datasetsNeeded(settings)) loaded.set(id, await ctx.builtin(id));
  const { dataset, config } = openWorldInput(settings, (id) => loaded.get(id)!);
  let last = -Infinity;
  const r = await runOpenWorld(dataset, config, {
    control: ctx.control,
    onCheckpoint: (checkpoint, step) => {
      emit({ kind: 'step', step, checkpoint });
      // the step is a result: a Step's budget spent pauses before the next task trains
      ctx.control.resultDone();
    },
    ...(resumeFrom ? { resumeFrom } : {}),
    onProgress: (progress) => {
      const now = performance.now();
      if (now - last < PROGRESS_MS) return;
      last = now;
      emit({ kind: 'train', progress });
    },
    onDetector: (e) => emit({ kind: 'detector', step: e.step, detector: e.detector }),
  });
  const { probs: _probs, ...train } = r.train;
  return { ...r, train };
};
