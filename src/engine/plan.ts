/**
 * The data plan of one run: which examples each task trains, calibrates and tests on, and which output unit
 * stands for which class.
 *
 * Output units follow the ordering: unit u is the u-th class of the tasks concatenated (each task sorted), so the
 * classes seen after task t are units 0..seen_t−1 — a prefix (models.ts). Two orderings that share a prefix of
 * tasks map those classes to the same units, which together with the per-task seeds keeps the prefix rule
 * (training-seeds.ts): a shared prefix trains identically.
 *
 * Calibration split (docs/science.md §3): each class of task t gives round(r·n_c) of its n_c training images, chosen
 * by a permutation from the task's seed, to calibration; the model never trains on them.
 */
import { taskTrainingSeed } from '../core/orderings/training-seeds';
import { indicesByClass } from './dataset';
import { concatExamples as concat } from './strategies/concat';
import { streamRng } from './seeds';
import type { TrainDataset, ResolvedTrainConfig } from './types';
import { TrainConfigError } from './config';

export interface TaskPlan {
  /** dataset labels of the task, ascending */
  classes: number[];
  /** first output unit of the task (= output units seen before it) */
  firstUnit: number;
  /** taskTrainingSeed(seed, tasks, t) */
  seed: number;
  /** training examples (indices into dataset.train) without the calibration ones, class by class, ascending */
  train: Int32Array;
  calibration: Int32Array;
  /** test examples (indices into dataset.test), class by class, ascending */
  test: Int32Array;
}

export interface RunPlan {
  tasks: TaskPlan[];
  /** dataset label of each output unit */
  classOrder: number[];
  /** output unit of each dataset label (−1: not in the run) */
  unitOfClass: Int32Array;
  outputs: number;
}

/**
 * The examples of each class of a split, computed once per labels array: a ground truth plans every ordering over
 * the same dataset (90 plans on the default, in every worker). Callers only read the lists.
 */
const byClassCache = new WeakMap<object, Map<number, Int32Array[]>>();
function byClass(labels: ArrayLike<number> & object, nClasses: number): Int32Array[] {
  let m = byClassCache.get(labels);
  if (!m) byClassCache.set(labels, (m = new Map()));
  let out = m.get(nClasses);
  if (!out) m.set(nClasses, (out = indicesByClass(labels, nClasses)));
  return out;
}

export function planRun(ds: TrainDataset, cfg: ResolvedTrainConfig): RunPlan {
  const nClasses = ds.classNames.length;
  const trainBy = byClass(ds.train.labels, nClasses);
  const testBy = byClass(ds.test.labels, nClasses);
  const classOrder = cfg.tasks.flat();
  const unitOfClass = new Int32Array(nClasses).fill(-1);
  for (const c of classOrder) {
    if (c >= nClasses) throw new TrainConfigError(`Class ${c} does not exist: the dataset has classes 0..${nClasses - 1}.`);
    if (trainBy[c].length === 0) throw new TrainConfigError(`Class ${c} ("${ds.classNames[c]}") has no training images.`);
    if (testBy[c].length === 0) throw new TrainConfigError(`Class ${c} ("${ds.classNames[c]}") has no test images.`);
  }
  classOrder.forEach((c, u) => (unitOfClass[c] = u));
  const ratio = cfg.probs?.calibrationRatio ?? 0;
  let firstUnit = 0;
  const tasks = cfg.tasks.map((classes, t) => {
    const seed = taskTrainingSeed(cfg.seed, cfg.tasks, t);
    const train: Int32Array[] = [];
    const calibration: Int32Array[] = [];
    const rng = ratio > 0 ? streamRng(seed, 'calibration') : null;
    for (const c of classes) {
      const idx = trainBy[c];
      const nCal = ratio > 0 ? Math.round(ratio * idx.length) : 0;
      if (nCal === 0) {
        train.push(idx);
        calibration.push(new Int32Array(0));
        continue;
      }
      if (nCal >= idx.length) throw new TrainConfigError(`Class ${c} has ${idx.length} training images: too few to hold out a calibration ratio of ${ratio}.`);
      const perm = rng!.permutation(idx.length);
      calibration.push(Int32Array.from(perm.slice(0, nCal).map((k) => idx[k])).sort());
      train.push(Int32Array.from(perm.slice(nCal).map((k) => idx[k])).sort());
    }
    const plan: TaskPlan = {
      classes,
      firstUnit,
      seed,
      train: concat(...train),
      calibration: concat(...calibration),
      test: concat(...classes.map((c) => testBy[c])),
    };
    firstUnit += classes.length;
    return plan;
  });
  return { tasks, classOrder, unitOfClass, outputs: Math.max(classOrder.length, cfg.outputUnits ?? 0) };
}
