/**
 * The Curriculum lab's training (docs/science.md §8), on the joined dataset of data.ts:
 * - isolated accuracies a_j: the same model and settings trained on dataset j alone (one task, fine-tuning), its
 *   test accuracy — the difficulty of the dataset;
 * - an order's run: one class-incremental run over the datasets in that order (trainer.ts `trainRun`, one head over
 *   every class), read two ways from the same model after every task: CIL = the trainer's R (arg-max over the
 *   classes seen so far), TIL = the full head's outputs masked to each task's classes (src/core/curriculum/til.ts).
 *   TIL ≥ CIL entry by entry by construction.
 *
 * Why not the prefix-shared trainer (shared-train.ts) for the K! orders: TIL needs every task's outputs after every
 * task, which trainRun records (`probs`, softmax over the full head, no calibration hold-out: ratio 0) and trainShared
 * does not support. Each order is therefore its own run (K·K! tasks instead of the trie's Σ_t K!/(K−t)!: 96 vs 64
 * for K = 4), resumable per order through trainRun's checkpoints (`hooks.onCheckpoint` / `resumeFrom`).
 */
import { CLASSES_PER_DATASET } from '../../core/curriculum/catalogue';
import { orderTasks } from '../../core/curriculum/labels';
import { maskedAccuracy, taskUnits } from '../../core/curriculum/til';
import { runConfigOf, type RunSettings } from '../run-config';
import { trainRun, type TrainHooks } from '../trainer';
import type { ImageDataset, TrainRunResult } from '../types';

export interface OrderRun {
  /** positions into the curriculum, in training order */
  order: number[];
  strategy: string;
  seed: number;
  /** R under CIL (the trainer's) and under TIL (masked to each task) */
  cil: number[][];
  til: number[][];
  backend: string;
  seconds: number;
}

/** a_j for the datasets at `positions` of the curriculum (default: all, 0..K−1), each trained alone. */
export async function trainIsolated(
  dataset: ImageDataset,
  settings: RunSettings,
  seed: number,
  hooks: (p: number) => TrainHooks = () => ({}),
  positions?: number[],
): Promise<number[]> {
  const K = dataset.classNames.length / CLASSES_PER_DATASET;
  const out: number[] = [];
  for (const p of positions ?? Array.from({ length: K }, (_, q) => q)) {
    const r = await trainRun(dataset, runConfigOf(settings, { tasks: orderTasks([p]), strategy: 'finetune', seed }), hooks(p));
    out.push(r.matrix[0][0]);
  }
  return out;
}

/** TIL's R from a run's recorded outputs: row i, column j = accuracy on task j's test data masked to its units. */
export function tilMatrix(result: TrainRunResult): number[][] {
  const K = result.tasks.length;
  const sizes = result.tasks.map((t) => t.length);
  const til = Array.from({ length: K }, () => Array<number>(K).fill(0));
  for (const rec of result.probs ?? []) {
    if (rec.split !== 'test') continue;
    til[rec.afterTask][rec.taskIndex] = maskedAccuracy({ scores: rec.probs, width: rec.width }, rec.labels, taskUnits(sizes, rec.taskIndex));
  }
  return til;
}

/** One order's run, CIL and TIL from the same model. */
export async function trainOrder(
  dataset: ImageDataset,
  settings: RunSettings,
  job: { order: number[]; strategy: string; seed: number },
  hooks: TrainHooks = {},
): Promise<OrderRun> {
  const config = runConfigOf(
    { ...settings, probs: { calibrationRatio: 0, softmax: 'all' } },
    { tasks: orderTasks(job.order), strategy: job.strategy, seed: job.seed },
  );
  const result = await trainRun(dataset, config, hooks);
  return {
    order: job.order.slice(),
    strategy: job.strategy,
    seed: job.seed,
    cil: result.matrix.map((r) => r.slice()),
    til: tilMatrix(result),
    backend: result.backend,
    seconds: result.seconds,
  };
}
