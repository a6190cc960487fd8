/**
 * Our side of `npm run bench:peer` in Chromium (scripts/bench-peer.mjs, issue 19): every ordering of a config
 * (scripts/peer/bench-peer-lib.mjs benchConfig) on our fast path — `trainShared`, prefix sharing with the
 * backend's automatic population — with the options that match PyTorch (full head, `init: 'pytorch'`). Returns the
 * seconds, the seconds until the first ordering's result, the optimiser steps trained and every ordering's final
 * accuracy (sample-weighted, as `cil-lab run` reports it).
 */
import { planPrefixes } from '../../../src/core/ground-truth/prefix-plan';
import { enumerateOrderings } from '../../../src/core/orderings/enumerate';
import { subsetPerClass, takeSplit } from '../../../src/engine/dataset';
import { trainShared } from '../../../src/engine/shared-train';
import type { ImageDataset, TrainRunConfig, TrainRunResult } from '../../../src/engine/types';

export interface PeerBenchConfig {
  classes: number;
  tasks: number;
  trainPerClass: number;
  testPerClass: number;
  epochs: number;
  batchSize: number;
  lr: number;
  hidden: number[];
  head: 'seen' | 'all';
  init: 'he-glorot' | 'pytorch';
  seed: number;
}

export interface PeerBenchResult {
  seconds: number;
  firstResultSeconds: number;
  steps: number;
  finals: number[];
  orderings: number;
}

function keepClasses(s: ImageDataset['train'], n: number): ImageDataset['train'] {
  const keep: number[] = [];
  for (let i = 0; i < s.labels.length; i++) if (s.labels[i] < n) keep.push(i);
  return takeSplit(s, Int32Array.from(keep), s.images.length / s.labels.length);
}

const finalAccuracy = (r: TrainRunResult): number => {
  const last = r.matrix[r.matrix.length - 1];
  const n = r.testCounts.reduce((a, b) => a + b, 0);
  return last.reduce((a, v, j) => a + v * r.testCounts[j], 0) / n;
};

export async function peerBench(fashion: ImageDataset, cfg: PeerBenchConfig): Promise<PeerBenchResult> {
  const ds = subsetPerClass(
    { shape: fashion.shape, classNames: fashion.classNames.slice(0, cfg.classes), train: keepClasses(fashion.train, cfg.classes), test: keepClasses(fashion.test, cfg.classes) },
    { trainPerClass: cfg.trainPerClass, testPerClass: cfg.testPerClass },
  );
  const sizes = Array.from({ length: cfg.tasks }, () => cfg.classes / cfg.tasks);
  const orderings = Array.from(enumerateOrderings(sizes), (o) => o.map((t) => [...t]));
  const configs: TrainRunConfig[] = orderings.map(
    (tasks) =>
      ({
        tasks,
        seed: cfg.seed,
        strategy: 'finetune',
        model: { kind: 'mlp', hidden: cfg.hidden },
        lr: cfg.lr,
        batchSize: cfg.batchSize,
        epochs: cfg.epochs,
        head: cfg.head,
        init: cfg.init,
      }) as TrainRunConfig,
  );
  const t0 = performance.now();
  let first = NaN;
  const results = await trainShared(ds, configs, { population: 'auto' }, { onRunDone: () => (first = Number.isNaN(first) ? (performance.now() - t0) / 1000 : first) });
  const seconds = (performance.now() - t0) / 1000;
  const stepsPerTask = cfg.epochs * Math.ceil((cfg.trainPerClass * (cfg.classes / cfg.tasks)) / cfg.batchSize);
  return { seconds, firstResultSeconds: first, steps: planPrefixes(orderings).sharedTasks * stepsPerTask, finals: results.map(finalAccuracy), orderings: configs.length };
}
