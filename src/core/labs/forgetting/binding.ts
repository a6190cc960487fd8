/**
 * The Forgetting lab's binding (its entry's `view` and `apply`, ./forgetting.ts): the tab's settings ⇄ the app's one
 * experiment config (src/core/config/schema.ts), both ways, pure (tested in
 * tests/unit/core/labs/forgetting-binding.test.ts). While the Forgetting tab owns the experiment its setup is applied
 * to it, so a link copied there opens the same setup on that tab (and the runs this browser stored for it:
 * src/core/forgetting/stored-runs.ts).
 *
 * What maps where:
 * - dataset → `dataset.id` (digits, fashion-mnist, emoji), the lab's 10 classes → `classes` 0–9;
 * - the ordering (paper / RS / EDGE hard / EDGE easy / hand-made) → `ui.selectedOrdering` (tasks as sets, each
 *   ascending: the engine trains each task's classes in ascending order anyway) and `taskSizes`; a link gives the
 *   ordering itself, and the tab names it again (paper, or RS/EDGE when it equals the protocol's ordering);
 * - strategy → `strategies` ([finetune] or [ewc with λ and single/multi]); epochs, first-task epochs, lr, head →
 *   `training`; images per class → `data`; seed → `seeds[0]`; backend → `backend.train`;
 * - calibration ratio, α, score → `conformal` (softmax over the head the model uses);
 * - a preset → `forgetting.preset` (added to the v1 schema for this); its runs are the preset's, on this config's
 *   dataset, images per class and seed, with `training.lr` as the preset's learning rate.
 * `apply` takes the change the controls hand back, part by part (`ForgettingChange`): the ordering resolved (null
 * while it is invalid or not computed yet); a null part is left as the config has it. What the change does not change
 * is left as the config says it: `apply(config, the change of view(config))` is `config` (old links open unchanged).
 * Unchecked (the config's checkers sit below the lab registry, so this module never imports them): the tab writes
 * the link a part at a time (`forgettingSteps` through `foldValidSteps`, src/core/config/fold-valid.ts), so a part
 * invalid right now (a half-typed epoch count, a calibration ratio that holds out no image) stays as it was and the
 * link always opens.
 */
import { STRATEGY_OPTION_FILL } from '../../config/defaults';
import { settingsValue, settingsView } from '../../config/settings-table';
import type { ExperimentConfig } from '../../config/types';
import { CONFORMAL_SETTINGS, CONFORMAL_UNSHOWN, FORGETTING_SETTINGS, type ConformalSettings, type ForgettingRuns } from './settings';
import { FORGETTING_CLASSES, configTasks, isForgettingDataset } from '../../forgetting/lab-classes';
import { FORGETTING_START, PAPER_LR, orderingText, paperTasks, parseOrdering, type ForgettingDataset } from '../../forgetting/setup';
import { canonicalOrdering, orderingKey } from '../../orderings/key';

export type OrderingKind = 'paper' | 'rs' | 'edge-hard' | 'edge-easy' | 'manual';
export type TrainBackend = ExperimentConfig['backend']['train'];

/** The conformal settings the lab's controls set (its table's fields but RAPS's and the softmax: α, calibration ratio, score, …). */
export type ConformalShown = Omit<Required<ConformalSettings>, (typeof CONFORMAL_UNSHOWN)[number]>;
const SHOWN_KEYS = Object.keys(CONFORMAL_SETTINGS).filter((k) => !(CONFORMAL_UNSHOWN as readonly string[]).includes(k)) as (keyof ConformalShown)[];

/** The fields of `x` named by `keys`. */
function pick<T, K extends keyof T>(x: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, x[k]])) as Pick<T, K>;
}

/** The conformal settings the controls set, of `x` (the controls' settings, or a config's conformal section seen whole). */
export const conformalShown = (x: ConformalShown): ConformalShown => pick(x, SHOWN_KEYS);

/** The keys of the controls' settings that the lab's own tables declare (the conformal ones it sets, its runs'). */
export const OWN_SETTING_KEYS: readonly string[] = [...SHOWN_KEYS, ...Object.keys(FORGETTING_SETTINGS)];

/**
 * The lab's settings as its controls show them (`view`). Its own sections' fields come from their tables
 * (src/core/labs/forgetting/settings.ts): the conformal ones it sets (`ConformalShown`), and its runs (`preset`: the preset
 * whose runs are shown and shared, or null for one run; `seeds`: runs of the one-run setup, at seed, seed + 1, …; a
 * preset has its own seeds).
 */
export interface ForgettingSettings extends ConformalShown, Required<ForgettingRuns> {
  datasetId: ForgettingDataset;
  orderingKind: OrderingKind;
  manualText: string;
  strategy: 'finetune' | 'ewc';
  ewcMode: 'single' | 'multi';
  ewcLambda: number;
  firstTaskEpochs: number;
  epochs: number;
  lr: number;
  head: 'all' | 'seen';
  trainPerClass: number | null;
  testPerClass: number | null;
  backendPref: TrainBackend;
  seed: number;
  presetLr: number;
}

/**
 * What the controls hand `apply`, part by part as the config takes them: a null part leaves the config's as it was
 * (the tab writes one part per step, `forgettingSteps`, so a part invalid right now is the only one left out).
 */
export interface ForgettingChange {
  /** the dataset and the ordering resolved (the paper's, the protocol's RS / EDGE, the hand-made text parsed), as
   * sets; `tasks` null while it is invalid or not computed yet (the config then keeps its ordering when it fits) */
  setup: { datasetId: ForgettingDataset; tasks: readonly (readonly number[])[] | null } | null;
  strategy: Pick<ForgettingSettings, 'strategy' | 'ewcMode' | 'ewcLambda'> | null;
  /** the output head, the model's and the conformal softmax's (written when it changes: a link's own stay as they are) */
  head: ForgettingSettings['head'] | null;
  /** `lr`: what the runs train at (a preset's rate for a preset, else the one-run rate) */
  training: { epochs: number; firstTaskEpochs: number; lr: number } | null;
  data: Pick<ForgettingSettings, 'trainPerClass' | 'testPerClass'> | null;
  seed: number | null;
  conformal: ConformalShown | null;
  runs: Required<ForgettingRuns> | null;
  backend: TrainBackend | null;
}

/** The parts of a change, in the order `apply` writes them (each may be null). */
const CHANGE_PARTS = ['setup', 'strategy', 'head', 'training', 'data', 'seed', 'conformal', 'runs', 'backend'] as const;

/** The RS / EDGE orderings of the dataset's classes (computed by the orderings worker). */
export interface ProtocolTasks {
  rs: number[][];
  hard: number[][];
  easy: number[][];
}

/**
 * The tab's own start, used when no link was made on it: FORGETTING_START (docs/science.md §3 "The lab's default,
 * measured"), the paper's setup on digits in the paper's step count (300 epochs on the base task, 85 per later task,
 * all images), at 3 seeds: its base task learns and CPCF rises as a_prev falls in every seed.
 */
export function forgettingTabStart(): ForgettingSettings {
  return {
    datasetId: 'digits',
    orderingKind: 'paper',
    manualText: '0 1 2 3 4 | 9 | 8 | 7 | 6 | 5',
    strategy: 'finetune',
    ewcMode: 'single',
    ewcLambda: 1000,
    ...pick(settingsView(CONFORMAL_SETTINGS, {}), SHOWN_KEYS),
    firstTaskEpochs: FORGETTING_START.firstTaskEpochs,
    epochs: FORGETTING_START.epochs,
    lr: FORGETTING_START.lr,
    head: FORGETTING_START.head,
    trainPerClass: FORGETTING_START.trainPerClass,
    testPerClass: FORGETTING_START.testPerClass,
    backendPref: 'auto',
    seed: 0,
    ...settingsView(FORGETTING_SETTINGS, { seeds: FORGETTING_START.seeds }),
    presetLr: PAPER_LR,
  };
}

const PAPER_TASKS = paperTasks([...FORGETTING_CLASSES]);
const PAPER_KEY = orderingKey(PAPER_TASKS);

/** The ordering's name for its tasks: the paper's, one of the protocol orderings given, or hand-made. */
export function orderingKindOf(tasks: readonly (readonly number[])[], protocol: ProtocolTasks | null): OrderingKind {
  const k = orderingKey(tasks as number[][]);
  if (k === PAPER_KEY) return 'paper';
  if (protocol) {
    if (orderingKey(protocol.rs) === k) return 'rs';
    if (orderingKey(protocol.hard) === k) return 'edge-hard';
    if (orderingKey(protocol.easy) === k) return 'edge-easy';
  }
  return 'manual';
}

/**
 * The ordering the controls describe, as sets, with its label, or why there is none (a hand-made text that does not
 * parse). RS / EDGE need the protocol's orderings: null while they are not computed (no tasks, no message).
 */
export function resolveOrdering(
  kind: OrderingKind,
  manualText: string,
  protocol: ProtocolTasks | null,
): { tasks: number[][] | null; label: string; error: string } {
  try {
    if (kind === 'paper') return { tasks: canonicalOrdering(PAPER_TASKS), label: 'paper: base task 0–4, then one class per task', error: '' };
    if (kind === 'manual') return { tasks: canonicalOrdering(parseOrdering(manualText, FORGETTING_CLASSES.length)), label: 'hand-made', error: '' };
    if (!protocol) return { tasks: null, label: '', error: '' };
    return {
      tasks: canonicalOrdering(kind === 'rs' ? protocol.rs : kind === 'edge-hard' ? protocol.hard : protocol.easy),
      label: kind === 'rs' ? 'RS seed 0' : kind === 'edge-hard' ? 'EDGE hard' : 'EDGE easy',
      error: '',
    };
  } catch (e) {
    return { tasks: null, label: '', error: (e as Error).message };
  }
}

/** The change the controls hand back for their settings and the ordering they resolve, every part in (unchecked). */
export function forgettingChange(s: ForgettingSettings, tasks: readonly (readonly number[])[] | null): ForgettingChange {
  return {
    setup: { datasetId: s.datasetId, tasks },
    strategy: { strategy: s.strategy, ewcMode: s.ewcMode, ewcLambda: s.ewcLambda },
    head: s.head,
    training: { epochs: s.epochs, firstTaskEpochs: s.firstTaskEpochs, lr: s.preset ? s.presetLr : s.lr },
    data: { trainPerClass: s.trainPerClass, testPerClass: s.testPerClass },
    seed: s.seed,
    conformal: pick(s, SHOWN_KEYS),
    runs: settingsView(FORGETTING_SETTINGS, s),
    backend: s.backendPref,
  };
}

const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The lab's settings as `config` says them (a link made on the Forgetting tab). What the config cannot say for this
 * lab (a dataset without images, other classes than 0–9, a strategy other than fine-tuning / EWC; the one-run
 * learning rate of a preset's config, the preset rate of a one-run config; the text of an ordering that is not
 * hand-made) keeps `current`'s (the controls' now; the tab's start by default).
 */
export function forgettingView(config: ExperimentConfig, current: ForgettingSettings = forgettingTabStart()): ForgettingSettings {
  const next: ForgettingSettings = { ...current };
  if (config.dataset.id !== 'custom' && isForgettingDataset(config.dataset.id)) next.datasetId = config.dataset.id;
  if (sameList(config.classes, FORGETTING_CLASSES)) {
    const tasks = configTasks(config);
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
  Object.assign(next, pick(settingsView(CONFORMAL_SETTINGS, config.conformal), SHOWN_KEYS));
  next.firstTaskEpochs = config.training.firstTaskEpochs;
  next.epochs = config.training.epochs;
  next.head = config.training.head;
  next.trainPerClass = config.data.trainPerClass;
  next.testPerClass = config.data.testPerClass;
  next.seed = config.seeds[0] ?? current.seed;
  next.backendPref = config.backend.train;
  Object.assign(next, settingsView(FORGETTING_SETTINGS, config.forgetting));
  if (next.preset) next.presetLr = config.training.lr;
  else next.lr = config.training.lr;
  return next;
}

/**
 * `config` with the change the controls hand back, as the lab's experiment (pure, unchecked: validateConfig checks
 * it). A null part leaves the config's as it was; the lab's network (the paper's MLP) is always written.
 */
export function applyForgetting(config: ExperimentConfig, change: ForgettingChange): ExperimentConfig {
  const c = structuredClone(config);
  const { setup, strategy, head, training, data, seed, conformal, runs, backend } = change;
  if (setup) {
    c.lab = 'forgetting';
    c.dataset = { id: setup.datasetId };
    const tasks = setup.tasks as number[][] | null;
    const fits = sameList(c.classes, FORGETTING_CLASSES) && c.taskSizes.reduce((a, b) => a + b, 0) === FORGETTING_CLASSES.length;
    // the config's own ordering is left as the config says it (a link made before `ui.selectedOrdering` stays as it is)
    const same = fits && tasks !== null && orderingKey(tasks) === orderingKey(configTasks(c));
    c.classes = [...FORGETTING_CLASSES];
    if (tasks && !same) {
      c.taskSizes = tasks.map((t) => t.length);
      c.ui = { ...c.ui, selectedOrdering: orderingKey(tasks) };
    } else if (!fits) {
      c.taskSizes = PAPER_TASKS.map((t) => t.length);
      c.ui = { ...c.ui, selectedOrdering: PAPER_KEY };
    }
  }
  c.model = { kind: 'mlp', hidden: [256, 128] };
  if (strategy) {
    const prev = c.strategies.find((x) => x.id === 'ewc');
    const fisherSamples = prev?.id === 'ewc' ? prev.options.fisherSamples : STRATEGY_OPTION_FILL.ewc.fisherSamples;
    c.strategies =
      strategy.strategy === 'ewc'
        ? [{ id: 'ewc', options: { lambda: strategy.ewcLambda, mode: strategy.ewcMode, fisherSamples } }]
        : [{ id: 'finetune', options: {} }];
  }
  if (head !== null && head !== c.training.head) {
    c.training = { ...c.training, head };
    c.conformal = { ...c.conformal, softmax: head };
  }
  if (training) c.training = { ...c.training, ...training, batchSize: 64 };
  if (data) c.data = { ...data };
  if (seed !== null) c.seeds = [seed];
  if (conformal) c.conformal = settingsValue(CONFORMAL_SETTINGS, { ...c.conformal, ...conformal });
  if (runs) c.forgetting = settingsValue(FORGETTING_SETTINGS, runs);
  if (backend !== null) c.backend = { ...c.backend, train: backend };
  return c;
}

/** The change as steps, one per part in `apply`'s order, for `foldValidSteps`: each part written only where the config stays valid. */
export function forgettingSteps(change: ForgettingChange): ((c: ExperimentConfig) => ExperimentConfig)[] {
  const none = Object.fromEntries(CHANGE_PARTS.map((p) => [p, null])) as unknown as ForgettingChange;
  return CHANGE_PARTS.map((part) => (c: ExperimentConfig) => (change[part] === null ? c : applyForgetting(c, { ...none, [part]: change[part] })));
}
