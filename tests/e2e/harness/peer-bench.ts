/**
 * Our side of `npm run bench:peer` in Chromium (scripts/bench-peer.mjs, issue 19): every ordering of a config
 * (scripts/peer/bench-peer-lib.mjs benchConfig) on our fast path — `trainShared`, prefix sharing with the
 * backend's automatic population — with the options that match PyTorch (full head, `init: 'pytorch'`). Returns the
 * seconds, the seconds until the first ordering's result, the optimiser steps trained and every ordering's final
 * accuracy (sample-weighted, as `cil-lab run` reports it).
 */
import { planPrefixes } from '../../../src/core/ground-truth/prefix-plan';
import { enumerateOrderings } from '../../../src/core/orderings/enumerate';
import { subsetPerClass } from '../../../src/engine/dataset';
import { trainShared } from '../../../src/engine/shared-train';
import type { ImageDataset, TrainRunConfig } from '../../../src/engine/types';
import { finalAccuracy, keepClasses } from './groundtruth-bench';

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
