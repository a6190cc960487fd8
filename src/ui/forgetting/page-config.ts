/**
 * The Forgetting page's inputs ⇄ the app's experiment config (src/core/config/schema.ts), both ways, pure (tested in
 * tests/unit/ui/forgetting-page-config.test.ts). The app has one experiment (src/services/share-link.svelte.ts); while the
 * Forgetting tab is shown, its setup is folded into it, so a link copied there opens the same setup on that tab, and
 * the runs this browser stored for it (IndexedDB, src/services/forgetting-store.ts) are shown again (`findStoredRuns`).
 *
 * What maps where:
 * - dataset → `dataset.id` (digits, fashion-mnist, emoji), the page's 10 classes → `classes` 0–9;
 * - the ordering (paper / RS / EDGE hard / EDGE easy / hand-made) → `ui.selectedOrdering` (tasks as sets, each
 *   ascending: the engine trains each task's classes in ascending order anyway) and `taskSizes`; a link gives the
 *   ordering itself, and the page names it again (paper, or RS/EDGE when it equals the protocol's ordering);
 * - strategy → `strategies` ([finetune] or [ewc with λ and single/multi]); epochs, first-task epochs, lr, head →
 *   `training`; images per class → `data`; seed → `seeds[0]`; backend → `backend.train`;
 * - calibration ratio, α, score → `conformal` (softmax over the head the model uses);
 * - a preset → `forgetting.preset` (added to the v1 schema for this); its runs are the preset's, on this config's
 *   dataset, images per class and seed, with `training.lr` as the preset's learning rate.
 * A part that is invalid right now (a half-typed number) is left as it was, so the link always opens.
 */
import { STRATEGY_OPTION_FILL, formatIssues, validateConfig, type ExperimentConfig } from '../../core/config/schema';
import type { ScoreName } from '../../core/conformal/scores';
import {
  FORGETTING_START,
  PAPER_LR,
  PRESETS,
  orderingText,
  paperTasks,
  type ForgettingDataset,
  type ForgettingJob,
  type PresetId,
} from '../../core/forgetting/setup';
import { FORGETTING_CLASSES, isForgettingDataset, jobKey, presetDataset } from '../../core/forgetting/from-config';

export type OrderingKind = 'paper' | 'rs' | 'edge-hard' | 'edge-easy' | 'manual';
export type TrainBackend = ExperimentConfig['backend']['train'];

export { FORGETTING_CLASSES, FORGETTING_DATASETS, jobKey, presetDataset } from '../../core/forgetting/from-config';

/** The page's controls. */
export interface ForgettingInputs {
  datasetId: ForgettingDataset;
  orderingKind: OrderingKind;
  manualText: string;
  strategy: 'finetune' | 'ewc';
  ewcMode: 'single' | 'multi';
  ewcLambda: number;
  calibrationRatio: number;
  alpha: number;
  score: ScoreName;
  firstTaskEpochs: number;
  epochs: number;
  lr: number;
  head: 'all' | 'seen';
  trainPerClass: number | null;
  testPerClass: number | null;
  backendPref: TrainBackend;
  seed: number;
  /** runs of the one-run setup, at seed, seed + 1, … (`forgetting.seeds`; a preset has its own seeds) */
  seeds: number;
  /** the preset whose runs are shown (and shared), or null for one run */
  preset: PresetId | null;
  presetLr: number;
}

/**
 * The page's own start, used when no link was made on this tab: FORGETTING_START (docs/science.md §3 "The lab's
 * default, measured"), the paper's setup on digits in the paper's step count (300 epochs on the base task, 85 per
 * later task, all images), at 3 seeds: its base task learns and CPCF rises as a_prev falls in every seed.
 */
export function defaultForgettingInputs(): ForgettingInputs {
  return {
    datasetId: 'digits',
    orderingKind: 'paper',
    manualText: '0 1 2 3 4 | 9 | 8 | 7 | 6 | 5',
    strategy: 'finetune',
    ewcMode: 'single',
    ewcLambda: 1000,
    calibrationRatio: 0.1,
    alpha: 0.1,
    score: 'aps',
    firstTaskEpochs: FORGETTING_START.firstTaskEpochs,
    epochs: FORGETTING_START.epochs,
    lr: FORGETTING_START.lr,
    head: FORGETTING_START.head,
    trainPerClass: FORGETTING_START.trainPerClass,
    testPerClass: FORGETTING_START.testPerClass,
    backendPref: 'auto',
    seed: 0,
    seeds: FORGETTING_START.seeds,
    preset: null,
    presetLr: PAPER_LR,
  };
}

/** Tasks as sets: each ascending. */
export function canonicalTasks(tasks: readonly (readonly number[])[]): number[][] {
  return tasks.map((t) => [...t].sort((a, b) => a - b));
}

/** The ordering key of the schema (`ui.selectedOrdering`): "0,1,2,3,4|5|6|7|8|9". */
export function orderingKey(tasks: readonly (readonly number[])[]): string {
  return canonicalTasks(tasks)
    .map((t) => t.join(','))
    .join('|');
}

export function tasksOfKey(key: string): number[][] {
  return key.split('|').map((t) => t.split(',').map(Number));
}

const PAPER_KEY = orderingKey(paperTasks([...FORGETTING_CLASSES]));

/** The ordering's name for its tasks: the paper's, one of the protocol orderings given, or hand-made. */
export function orderingKindOf(tasks: readonly (readonly number[])[], protocol: { rs: number[][]; hard: number[][]; easy: number[][] } | null): OrderingKind {
  const k = orderingKey(tasks);
  if (k === PAPER_KEY) return 'paper';
  if (protocol) {
    if (orderingKey(protocol.rs) === k) return 'rs';
    if (orderingKey(protocol.hard) === k) return 'edge-hard';
    if (orderingKey(protocol.easy) === k) return 'edge-easy';
  }
  return 'manual';
}

const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The page's controls for a config (a link made on the Forgetting tab). What the config cannot say for this page
 * (a dataset without images, other classes than 0–9, a strategy other than fine-tuning / EWC) keeps `current`.
 */
export function inputsFromConfig(config: ExperimentConfig, current: ForgettingInputs): ForgettingInputs {
  const next: ForgettingInputs = { ...current };
  if (config.dataset.id !== 'custom' && isForgettingDataset(config.dataset.id)) next.datasetId = config.dataset.id;
  if (sameList(config.classes, FORGETTING_CLASSES)) {
    const key = config.ui.selectedOrdering;
    let tasks: number[][] = [];
    if (key) tasks = tasksOfKey(key);
    else {
      let at = 0;
      for (const m of config.taskSizes) {
        tasks.push(config.classes.slice(at, at + m));
        at += m;
      }
    }
    next.orderingKind = orderingKindOf(tasks, null);
    if (next.orderingKind === 'manual') next.manualText = orderingText(tasks);
  }
  const s = config.strategies.find((x) => x.id === 'finetune' || x.id === 'ewc');
  if (s?.id === 'finetune') next.strategy = 'finetune';
  else if (s?.id === 'ewc') {
    next.strategy = 'ewc';
    next.ewcMode = s.options.mode;
    next.ewcLambda = s.options.lambda;
  }
  next.calibrationRatio = config.conformal.calibrationRatio;
  next.alpha = config.conformal.alpha;
  next.score = config.conformal.score;
  next.firstTaskEpochs = config.training.firstTaskEpochs;
  next.epochs = config.training.epochs;
  next.head = config.training.head;
  next.trainPerClass = config.data.trainPerClass;
  next.testPerClass = config.data.testPerClass;
  next.seed = config.seeds[0] ?? current.seed;
  next.backendPref = config.backend.train;
  next.preset = config.forgetting.preset;
  next.seeds = config.forgetting.seeds ?? 1;
  if (next.preset) next.presetLr = config.training.lr;
  else next.lr = config.training.lr;
  return next;
}

type Part = (c: ExperimentConfig) => void;

/**
 * The config with the page's inputs folded in, part by part: a part that would make the config invalid (a
 * half-typed epoch count, a calibration ratio that holds out no image) is left as it was. `tasks` is the current
 * ordering, null while it is invalid or not computed yet (then the config keeps its ordering when it still fits).
 */
export function foldForgettingInputs(config: ExperimentConfig, s: ForgettingInputs, tasks: readonly (readonly number[])[] | null): ExperimentConfig {
  let at = structuredClone(config);
  for (const part of partsOf(s, tasks)) {
    const tryIt = structuredClone(at);
    try {
      part(tryIt);
    } catch {
      continue;
    }
    const r = validateConfig(tryIt);
    if (r.errors.length === 0) at = r.config;
  }
  return at;
}

/**
 * The experiment a run of the page's inputs trains (every part folded in at once), or why there is none: a run is
 * never trained on a setting other than the one shown.
 */
export function forgettingConfigOf(
  config: ExperimentConfig,
  s: ForgettingInputs,
  tasks: readonly (readonly number[])[] | null,
): { config: ExperimentConfig; error: null } | { config: null; error: string } {
  if (!tasks) return { config: null, error: 'The ordering is not ready.' };
  const draft = structuredClone(config);
  for (const part of partsOf(s, tasks)) part(draft);
  const r = validateConfig(draft);
  return r.errors.length === 0 ? { config: r.config, error: null } : { config: null, error: formatIssues(r.errors) };
}

function partsOf(s: ForgettingInputs, tasks: readonly (readonly number[])[] | null): Part[] {
  return [
    (c) => {
      c.lab = 'forgetting';
      c.dataset = { id: s.datasetId };
      const fits = sameList(c.classes, FORGETTING_CLASSES) && c.taskSizes.reduce((a, b) => a + b, 0) === FORGETTING_CLASSES.length;
      c.classes = [...FORGETTING_CLASSES];
      if (tasks) {
        c.taskSizes = tasks.map((t) => t.length);
        c.ui.selectedOrdering = orderingKey(tasks);
      } else if (!fits) {
        c.taskSizes = paperTasks([...FORGETTING_CLASSES]).map((t) => t.length);
        c.ui.selectedOrdering = PAPER_KEY;
      }
    },
    (c) => {
      c.model = { kind: 'mlp', hidden: [256, 128] };
    },
    (c) => {
      const prev = c.strategies.find((x) => x.id === 'ewc');
      const fisherSamples = prev?.id === 'ewc' ? prev.options.fisherSamples : STRATEGY_OPTION_FILL.ewc.fisherSamples;
      c.strategies =
        s.strategy === 'ewc' ? [{ id: 'ewc', options: { lambda: s.ewcLambda, mode: s.ewcMode, fisherSamples } }] : [{ id: 'finetune', options: {} }];
    },
    (c) => {
      c.training = { ...c.training, epochs: s.epochs, firstTaskEpochs: s.firstTaskEpochs, lr: s.preset ? s.presetLr : s.lr, head: s.head, batchSize: 64 };
    },
    (c) => {
      c.data = { trainPerClass: s.trainPerClass, testPerClass: s.testPerClass };
    },
    (c) => {
      c.seeds = [s.seed];
    },
    (c) => {
      c.conformal = { ...c.conformal, alpha: s.alpha, calibrationRatio: s.calibrationRatio, score: s.score, softmax: s.head };
    },
    (c) => {
      c.forgetting = s.seeds > 1 ? { preset: s.preset, seeds: s.seeds } : { preset: s.preset };
    },
    (c) => {
      c.backend = { ...c.backend, train: s.backendPref };
    },
  ];
}

/** A stored run, as far as matching needs it. */
export interface StoredRunRef {
  id: string;
  group: string;
  preset: string | null;
  job: ForgettingJob;
}

/**
 * The newest stored runs of a setup: for a preset, its newest group on the same dataset, images per class, seed and
 * learning rate (any lr for the learning-rate preset); for one run, the newest run with the same job key (a run of
 * its own first, else a preset's run that is the same run). Runs are given oldest first. null when none is stored.
 */
export function findStoredRuns(
  runs: readonly StoredRunRef[],
  want: { preset: PresetId | null; presetLr: number; job: ForgettingJob | null },
): { group: string; runId: string | null } | null {
  if (want.preset) {
    const job = want.job;
    for (let i = runs.length - 1; i >= 0; i--) {
      const r = runs[i];
      if (r.preset !== want.preset) continue;
      const first = runs.find((x) => x.group === r.group)!;
      const j = first.job;
      if (job && (j.dataset !== presetDataset(want.preset, job.dataset) || j.seed !== job.seed)) continue;
      if (job && !PRESETS.find((x) => x.id === want.preset)?.regime && (j.trainPerClass !== job.trainPerClass || j.testPerClass !== job.testPerClass)) continue;
      if (want.preset !== 'lr' && j.lr !== want.presetLr) continue;
      return { group: r.group, runId: null };
    }
    return null;
  }
  if (!want.job) return null;
  const key = jobKey(want.job);
  const match = (r: StoredRunRef) => jobKey(r.job) === key;
  for (const own of [true, false]) {
    for (let i = runs.length - 1; i >= 0; i--) {
      const r = runs[i];
      if ((r.preset === null) === own && match(r)) return { group: r.group, runId: r.id };
    }
  }
  return null;
}
