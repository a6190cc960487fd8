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
  /** the final accuracy of each ordering trained, in the order of `indices` (all orderings: enumeration order) */
  finals: number[];
  orderings: number;
}

/** Every ordering of the config, in enumeration order (the same list on every worker). */
export function peerOrderings(cfg: PeerBenchConfig): number[][][] {
  const sizes = Array.from({ length: cfg.tasks }, () => cfg.classes / cfg.tasks);
  return Array.from(enumerateOrderings(sizes), (o) => o.map((t) => [...t]));
}

/**
 * The orderings' indices grouped by their first task, groups in order of first appearance: the units a pool of
 * workers pulls, as the Ground-truth lab's workers do (a group is one subtree of the prefix trie, so no task is
 * trained twice across workers).
 */
export function firstTaskGroups(orderings: number[][][]): number[][] {
  const groups = new Map<string, number[]>();
  orderings.forEach((o, i) => {
    const key = [...o[0]].sort((a, b) => a - b).join(',');
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  return [...groups.values()];
}

/** `indices`: only these orderings (one worker's share of a pool); default all. */
export async function peerBench(fashion: ImageDataset, cfg: PeerBenchConfig, indices?: number[]): Promise<PeerBenchResult> {
  const ds = subsetPerClass(
    {
      shape: fashion.shape,
      classNames: fashion.classNames.slice(0, cfg.classes),
      train: keepClasses(fashion.train, cfg.classes),
      test: keepClasses(fashion.test, cfg.classes),
    },
    { trainPerClass: cfg.trainPerClass, testPerClass: cfg.testPerClass },
  );
  const all = peerOrderings(cfg);
  const orderings = indices ? indices.map((i) => all[i]) : all;
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
  const results = await trainShared(
    ds,
    configs,
    { population: 'auto' },
    { onRunDone: () => (first = Number.isNaN(first) ? (performance.now() - t0) / 1000 : first) },
  );
  const seconds = (performance.now() - t0) / 1000;
  const stepsPerTask = cfg.epochs * Math.ceil((cfg.trainPerClass * (cfg.classes / cfg.tasks)) / cfg.batchSize);
  return {
    seconds,
    firstResultSeconds: first,
    steps: planPrefixes(orderings).sharedTasks * stepsPerTask,
    finals: results.map(finalAccuracy),
    orderings: configs.length,
  };
}
