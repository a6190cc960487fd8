/**
 * A worker's warm-up before the first Run (the lab kit's pool `warm`): a throwaway ground truth of two orderings of
 * the workload's network on a few images of the held dataset, through the very path a Run takes (shared training,
 * the fused step or the level kernels, evaluation, snapshots). The first Run then finds its code compiled, its kernel
 * instance made (kept for the same network and batch size) and tfjs's kernels set up: measured in Node, the first
 * ordering of the Ground-truth default came after 0.40–0.53 CPU-seconds cold and 0.26–0.29 after this warm-up.
 */
import { subsetPerClass } from './dataset';
import type { ProbeWorkload } from './gpu/measure';
import { trainShared } from './shared-train';
import type { TrainDataset, TrainRunConfig } from './types';

/** Train the warm-up; resolves with its milliseconds. Does nothing (0) for a network the dataset does not fit. */
export async function warmTraining(dataset: TrainDataset, w: ProbeWorkload): Promise<number> {
  const classes = w.spec.outputs;
  const fits = w.spec.inputShape.every((v, i) => v === dataset.shape[i]);
  if (!fits || classes < 2 || classes > dataset.classNames.length || w.spec.kind !== 'mlp') return 0;
  const t0 = performance.now();
  const tiny = subsetPerClass(dataset, { trainPerClass: 4, testPerClass: 2 });
  const ids = Array.from({ length: classes }, (_, c) => c);
  const half = Math.ceil(classes / 2);
  const tasks = [ids.slice(0, half), ids.slice(half)];
  const config = (t: number[][]): TrainRunConfig =>
    ({ tasks: t, seed: 0, strategy: 'finetune', model: { kind: 'mlp', hidden: w.spec.hidden ?? [] }, epochs: 1, batchSize: w.batchSize }) as TrainRunConfig;
  // the network and batch size of the real runs: the kernel instance this makes is the one they reuse
  await trainShared(tiny, [config(tasks), config([tasks[1], tasks[0]])]);
  return performance.now() - t0;
}
