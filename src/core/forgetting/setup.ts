/**
 * The Forgetting lab's experiments as plain data (pure; tested in tests/unit/core/forgetting/setup.test.ts):
 * orderings (the paper's base-task setup, a hand-made class order), the one-click presets of the paper's
 * experiments and the jobs (training runs) each preset needs, and the paper-style tables built from finished runs.
 *
 * One job = one training run. α and the conformal score cost no training: every α of a grid is computed from the
 * same recorded softmax outputs (one run per calibration ratio and model).
 */
import { PAPER_GRID_VALUES, gridKey, paperColumnOf, paperDcor, PAPER_TABLE_I, type PaperModel } from './paper';
import { summariseDcor, type DcorSummary, type SeedSeries } from './compare';

export type ForgettingDataset = 'digits' | 'fashion-mnist' | 'emoji';
export type ForgettingStrategy = 'finetune' | 'ewc';

/** What one training run of the lab is (everything needed to train it again). */
export interface ForgettingJob {
  /** short label in tables and legends ("MLP · calib 0.10") */
  label: string;
  dataset: ForgettingDataset;
  /** the ordering over dataset class indices */
  tasks: number[][];
  /** how the ordering was made ("paper base task 0–4", "EDGE hard", …) */
  orderingLabel: string;
  strategy: ForgettingStrategy;
  ewcMode: 'single' | 'multi';
  ewcLambda: number;
  lr: number;
  firstTaskEpochs: number;
  epochs: number;
  calibrationRatio: number;
  /** 'all': the full output head as the paper's MLP; 'seen': masked to the classes seen so far */
  head: 'all' | 'seen';
  hidden: number[];
  batchSize: number;
  trainPerClass: number | null;
  testPerClass: number | null;
  seed: number;
}

export const PAPER_LR = 2e-5;
export const FAST_LR = 1e-3;

/** The paper's setup on N classes: base task = the first `base` classes, then one class per task (5,1,1,1,1,1 on 10). */
export function paperTasks(classes: readonly number[], base = 5): number[][] {
  if (classes.length <= base) throw new RangeError(`the base-task setup needs more than ${base} classes; got ${classes.length}.`);
  return [classes.slice(0, base).map(Number), ...classes.slice(base).map((c) => [c])];
}

/** Task sizes of the paper's setup: [base, 1, 1, …]. */
export function paperTaskSizes(n: number, base = 5): number[] {
  return [base, ...Array.from({ length: n - base }, () => 1)];
}

/** Split a flat class order into tasks of the given sizes. */
export function tasksFromOrder(order: readonly number[], sizes: readonly number[]): number[][] {
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total !== order.length) throw new RangeError(`task sizes sum to ${total} but the order has ${order.length} classes.`);
  const out: number[][] = [];
  let at = 0;
  for (const s of sizes) {
    out.push(order.slice(at, at + s).map(Number));
    at += s;
  }
  return out;
}

/**
 * A hand-made ordering: tasks separated by "|" ("0 1 2 3 4 | 7 | 5 | 9 | 6 | 8"), or a flat order of all N classes
 * ("4,3,2,1,0,9,8,7,6,5") that gets the paper's sizes (first 5 classes = base task, then one class per task).
 */
export function parseOrdering(text: string, n: number, base = 5): number[][] {
  const groups = text.split(/[|;]/).map((g) => g.trim());
  const parseGroup = (g: string) =>
    g
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((x) => {
        const v = Number(x);
        if (!Number.isInteger(v) || v < 0 || v >= n) throw new RangeError(`"${x}" is not a class index 0–${n - 1}.`);
        return v;
      });
  const tasks = groups.length > 1 ? groups.map(parseGroup) : null;
  if (tasks && tasks.some((t) => t.length === 0)) throw new RangeError('a task between "|" is empty.');
  const flat = tasks ? tasks.flat() : parseGroup(groups[0] ?? '');
  const seen = new Set(flat);
  if (seen.size !== flat.length) throw new RangeError('a class appears twice.');
  if (flat.length !== n) {
    const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !seen.has(i));
    throw new RangeError(`list every class 0–${n - 1} once (missing: ${missing.join(', ')}).`);
  }
  return tasks ?? tasksFromOrder(flat, paperTaskSizes(n, base));
}

/** "0–4 | 5 | 6 | …" */
export function orderingText(tasks: readonly (readonly number[])[]): string {
  return tasks.map((t) => t.join(' ')).join(' | ');
}

// --- presets ---

export type PresetId = 'digits' | 'fashion' | 'fashion-paper' | 'grid' | 'ewc-variants' | 'lr' | 'edge';

/** What the result view of a preset shows. */
export type PresetView = 'table-ii-iii' | 'grid' | 'table-i' | 'lr' | 'edge';

/**
 * The training regime of a paper preset (docs/science.md §3 "The paper's set-up as presets"): images per class,
 * epochs (base task, then each later task) and the seeds it trains (seed, seed+1, …). `where`: 'browser' finishes in
 * a few minutes in the app; 'cli' is the paper's full regime, meant for `cil-lab cpcf --preset` (it runs in the app
 * too, slowly).
 */
export interface PresetRegime {
  trainPerClass: number | null;
  testPerClass: number | null;
  firstTaskEpochs: number;
  epochs: number;
  seeds: number;
  where: 'browser' | 'cli';
  /** one line: how this regime relates to the paper's */
  note: string;
}

export interface PresetInfo {
  id: PresetId;
  name: string;
  description: string;
  view: PresetView;
  /** the dataset a paper preset fixes (the others use the chosen one) */
  dataset?: ForgettingDataset;
  /** a paper preset's regime (the others use the subsets of PRESET_SUBSETS, epochs 8/3, one seed) */
  regime?: PresetRegime;
}

/** Seeds a paper preset trains per model (mean ± sd and a permutation p over them). */
export const PAPER_PRESET_SEEDS = 5;

export const PRESETS: readonly PresetInfo[] = [
  {
    id: 'digits',
    name: 'Paper regime · digits (the paper’s step count)',
    description:
      'MLP 64-256-128-10 vs EWC at lr 2e-5, 5 seeds. Digits have ≈130 training images per class, not MNIST’s 6 000, so the epochs are raised to the paper’s number of Adam steps: epochs 300 on the base task 0–4, then 85 per class: 10 runs of about 4 500 Adam steps each (the Run line times them here).',
    view: 'table-ii-iii',
    dataset: 'digits',
    regime: {
      trainPerClass: null,
      testPerClass: null,
      firstTaskEpochs: 300,
      epochs: 85,
      seeds: PAPER_PRESET_SEEDS,
      where: 'browser',
      note: 'all 1 437 training images; epochs 300/85 give the paper’s ≈3 400 base-task and ≈255 per-task Adam steps at batch 64',
    },
  },
  {
    id: 'fashion',
    name: 'Paper setup · Fashion-MNIST (browser variant)',
    description:
      'MLP 784-256-128-10 vs EWC at lr 2e-5, the paper’s 8 / 3 epochs, 5 seeds, on 1 000 training / 500 test images per class: a sixth of the paper’s data and steps.',
    view: 'table-ii-iii',
    dataset: 'fashion-mnist',
    regime: {
      trainPerClass: 1000,
      testPerClass: 500,
      firstTaskEpochs: 8,
      epochs: 3,
      seeds: PAPER_PRESET_SEEDS,
      where: 'browser',
      note: 'the paper’s epochs on a sixth of its data (1 000 of 6 000 training images per class): a sixth of its Adam steps',
    },
  },
  {
    id: 'fashion-paper',
    name: 'Paper regime · Fashion-MNIST, full data (CLI)',
    description:
      'The paper’s regime: all 60 000 training and 10 000 test images, 8 / 3 epochs, lr 2e-5, 5 seeds, MLP and EWC: 10 runs of about 4 700 Adam steps, each over all 60 000 images. Meant for “cil-lab cpcf --preset fashion-paper”; it runs here too, slowly.',
    view: 'table-ii-iii',
    dataset: 'fashion-mnist',
    regime: {
      trainPerClass: null,
      testPerClass: null,
      firstTaskEpochs: 8,
      epochs: 3,
      seeds: PAPER_PRESET_SEEDS,
      where: 'cli',
      note: 'the paper’s regime: full data, 8 / 3 epochs',
    },
  },
  {
    id: 'grid',
    name: 'Calibration ratio × α grid',
    description: 'MLP and EWC at calibration {0.05, 0.10, 0.15, 0.20} (one run each); every α {0.05 … 0.20} from the same outputs (Tables II–III).',
    view: 'grid',
  },
  {
    id: 'ewc-variants',
    name: 'EWC single vs multi',
    description: 'Single-penalisation (last Fisher) vs multi-penalisation (one Fisher per task, λ/2^(t−j−1)): the Ω table (Table I).',
    view: 'table-i',
  },
  { id: 'lr', name: 'Learning rates', description: 'MLP at lr 2e-5, 1e-4, 1e-3, 1e-2: a_prev per task ("learn fast, forget fast", Fig. 2).', view: 'lr' },
  {
    id: 'edge',
    name: 'EDGE hard vs easy (beyond the paper)',
    description: 'CPCF and a_prev under EDGE’s hard and easy orderings (and RS seed 0), sizes 5,1,1,1,1,1.',
    view: 'edge',
  },
];

/** The preset's info. */
export function presetInfo(id: PresetId): PresetInfo {
  const p = PRESETS.find((x) => x.id === id);
  if (!p) throw new RangeError(`unknown preset "${id}".`);
  return p;
}

/** The dataset a preset's runs are on: a paper preset's own, else the chosen one. */
export function presetDatasetOf(id: PresetId, chosen: ForgettingDataset): ForgettingDataset {
  return presetInfo(id).dataset ?? chosen;
}

/** Per-dataset bounds so a preset finishes in about a minute on wasm (subset sizes per class). */
export const PRESET_SUBSETS: Record<ForgettingDataset, { trainPerClass: number | null; testPerClass: number | null }> = {
  digits: { trainPerClass: null, testPerClass: null },
  'fashion-mnist': { trainPerClass: 800, testPerClass: 200 },
  emoji: { trainPerClass: 60, testPerClass: 30 },
};

export interface PresetOptions {
  dataset: ForgettingDataset;
  /** learning rate of the presets that do not vary it (paper 2e-5; "faster" 1e-3) */
  lr: number;
  seed: number;
  /** the orderings of the 'edge' preset (from the orderings worker), dataset class indices */
  edgeOrderings?: { label: string; tasks: number[][] }[];
  /** override the per-class subset sizes */
  trainPerClass?: number | null;
  testPerClass?: number | null;
}

export function baseJob(dataset: ForgettingDataset, overrides: Partial<ForgettingJob> = {}): ForgettingJob {
  const sub = PRESET_SUBSETS[dataset];
  return {
    label: 'MLP',
    dataset,
    tasks: paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
    orderingLabel: 'paper: base task 0–4, then one class per task',
    strategy: 'finetune',
    ewcMode: 'single',
    ewcLambda: 1000,
    lr: PAPER_LR,
    firstTaskEpochs: 8,
    epochs: 3,
    calibrationRatio: 0.1,
    head: 'all',
    hidden: [256, 128],
    batchSize: 64,
    trainPerClass: sub.trainPerClass,
    testPerClass: sub.testPerClass,
    seed: 0,
    ...overrides,
  };
}

/**
 * What a new Forgetting experiment starts with (docs/science.md §3 "The lab's default, measured"): one run of the
 * paper's setup on digits in the paper's step count (the `digits` preset's regime: all images, 300 epochs on the base
 * task and 85 per later task, lr 2e-5, batch 64, full head), fine-tuning, at 3 seeds. Its base task learns (100 %
 * on seeds 0–2) and CPCF rises as a_prev falls in every seed; the 8 / 3 epochs it opened on before learn 31 %.
 */
export const FORGETTING_START: Readonly<Omit<ForgettingJob, 'label' | 'orderingLabel' | 'seed'> & { seeds: number }> = Object.freeze({
  ...baseJobFields('digits'),
  firstTaskEpochs: 300,
  epochs: 85,
  trainPerClass: null,
  testPerClass: null,
  seeds: 3,
});

function baseJobFields(dataset: ForgettingDataset): Omit<ForgettingJob, 'label' | 'orderingLabel' | 'seed'> {
  const { label: _l, orderingLabel: _o, seed: _s, ...rest } = baseJob(dataset);
  return rest;
}

const modelLabel = (s: ForgettingStrategy) => (s === 'ewc' ? 'EWC' : 'MLP');

/** The training runs of a preset (a paper preset: each model at seeds seed, seed+1, …, its regime's count). */
export function presetJobs(id: PresetId, o: PresetOptions): ForgettingJob[] {
  const info = presetInfo(id);
  const dataset: ForgettingDataset = info.dataset ?? o.dataset;
  const sub = {
    trainPerClass: o.trainPerClass !== undefined ? o.trainPerClass : PRESET_SUBSETS[dataset].trainPerClass,
    testPerClass: o.testPerClass !== undefined ? o.testPerClass : PRESET_SUBSETS[dataset].testPerClass,
  };
  const job = (over: Partial<ForgettingJob>) => baseJob(dataset, { lr: o.lr, seed: o.seed, ...sub, ...over });
  if (info.regime) {
    const r = info.regime;
    return (['finetune', 'ewc'] as const).flatMap((s) =>
      Array.from({ length: r.seeds }, (_, k) =>
        job({
          strategy: s,
          label: `${modelLabel(s)} · seed ${o.seed + k}`,
          seed: o.seed + k,
          trainPerClass: r.trainPerClass,
          testPerClass: r.testPerClass,
          firstTaskEpochs: r.firstTaskEpochs,
          epochs: r.epochs,
        }),
      ),
    );
  }
  switch (id) {
    case 'grid':
      return PAPER_GRID_VALUES.flatMap((r) =>
        (['finetune', 'ewc'] as const).map((s) => job({ strategy: s, calibrationRatio: r, label: `${modelLabel(s)} · calib ${gridKey(r)}` })),
      );
    case 'ewc-variants':
      return (['single', 'multi'] as const).map((m) => job({ strategy: 'ewc', ewcMode: m, label: `EWC ${m}` }));
    case 'lr':
      return [2e-5, 1e-4, 1e-3, 1e-2].map((lr) => job({ lr, label: `lr ${lrText(lr)}` }));
    case 'edge': {
      const orderings = o.edgeOrderings ?? [];
      if (orderings.length === 0) throw new RangeError('the EDGE preset needs the EDGE orderings first.');
      return orderings.map((x) => job({ tasks: x.tasks.map((t) => [...t]), orderingLabel: x.label, label: x.label }));
    }
    default:
      throw new RangeError(`preset "${id}" has no runs.`);
  }
}

/** 2e-5 → "2e-5", 0.001 → "1e-3" */
export function lrText(lr: number): string {
  const [m, e] = lr.toExponential().split('e');
  return `${Number(m).toString()}e${Number(e)}`;
}

// --- tables from finished runs ---

/** What a table needs of a finished run: its job, dCor / the series / Ω at a given α, and its base accuracy. */
export interface RunSummary {
  job: ForgettingJob;
  /** dCor(CPCF, a_prev) at α */
  dcor(alpha: number): number;
  /** the CPCF and a_prev series at α (null when the run has no report) */
  series?(alpha: number): { cpcf: number[]; aPrev: number[] } | null;
  /** R[1][1], the base task's accuracy right after training it */
  baseAccuracy?: number;
  omega: { omegaBase: number; omegaNew: number; omegaAll: number; omegaPrev: number };
}

export interface DcorRow {
  /** calibration ratio (Table II) or α (Table III) */
  key: number;
  model: PaperModel;
  paper: number | null;
  /** dCor of the first run (one seed), or the mean over the seeds */
  ours: number | null;
  /** over the seeds: mean ± sd, permutation p, comparability (null without runs or series) */
  summary: DcorSummary | null;
}

/**
 * Table II (vary the calibration ratio at α = 0.1) and Table III (vary α at calibration 0.1) rows for the runs
 * given, with the paper's value for the dataset's column beside ours. A cell gathers every run of its calibration
 * ratio and model (a paper preset has one per seed): `ours` is their mean dCor and `summary` their mean ± sd,
 * pooled permutation p (seeded by the first run's seed) and comparability notes. Rows without a run have null.
 */
export function dcorTables(
  runs: readonly RunSummary[],
  dataset: string,
  o: { resamples?: number } = {},
): { column: string | null; tableII: DcorRow[]; tableIII: DcorRow[] } {
  const column = paperColumnOf(dataset);
  const find = (ratio: number, model: PaperModel) =>
    runs.filter((r) => Math.abs(r.job.calibrationRatio - ratio) < 1e-9 && modelLabel(r.job.strategy) === model && r.job.dataset === dataset);
  const cell = (rs: RunSummary[], alpha: number): Pick<DcorRow, 'ours' | 'summary'> => {
    if (rs.length === 0) return { ours: null, summary: null };
    const series: SeedSeries[] = [];
    for (const r of rs) {
      const x = r.series?.(alpha);
      if (x && x.cpcf.length > 0) series.push({ seed: r.job.seed, cpcf: x.cpcf, aPrev: x.aPrev, baseAccuracy: r.baseAccuracy ?? NaN });
    }
    const j = rs[0].job;
    // a live run has one point after its second task: a permutation test needs two, so no summary yet
    const summary =
      series.length > 0 && series[0].cpcf.length >= 2 && series.every((x) => x.cpcf.length === series[0].cpcf.length)
        ? summariseDcor(
            {
              dataset: j.dataset,
              taskSizes: j.tasks.map((t) => t.length),
              lr: j.lr,
              firstTaskEpochs: j.firstTaskEpochs,
              epochs: j.epochs,
              trainPerClass: j.trainPerClass,
              head: j.head,
              batchSize: j.batchSize,
            },
            series,
            { seed: j.seed, resamples: o.resamples },
          )
        : null;
    const vals = rs.map((r) => r.dcor(alpha)).filter(Number.isFinite);
    return { ours: summary ? summary.dcor.mean : vals.length ? vals.reduce((a, b) => a + b, 0) / vals.length : NaN, summary };
  };
  const tableII: DcorRow[] = [];
  const tableIII: DcorRow[] = [];
  for (const v of PAPER_GRID_VALUES) {
    for (const model of ['MLP', 'EWC'] as const) {
      tableII.push({ key: v, model, paper: paperDcor('II', v, model, column), ...cell(find(v, model), 0.1) });
      tableIII.push({ key: v, model, paper: paperDcor('III', v, model, column), ...cell(find(0.1, model), v) });
    }
  }
  return { column, tableII, tableIII };
}

export interface OmegaRow {
  label: string;
  paper: { omegaBase: number; omegaNew: number; omegaAll: number; omegaPrev: number } | null;
  ours: { omegaBase: number; omegaNew: number; omegaAll: number; omegaPrev: number } | null;
}

/** Table I: single vs multi EWC, the paper's CIFAR-10 numbers beside ours. */
export function tableI(runs: readonly RunSummary[]): OmegaRow[] {
  return PAPER_TABLE_I.map((p) => {
    const r = runs.find((x) => x.job.strategy === 'ewc' && x.job.ewcMode === p.method);
    return { label: p.label, paper: { omegaBase: p.omegaBase, omegaNew: p.omegaNew, omegaAll: p.omegaAll, omegaPrev: p.omegaPrev }, ours: r ? r.omega : null };
  });
}

/** The TrainRunConfig-shaped options of a job (the engine's config; the caller adds nothing else). */
export function trainConfigOf(job: ForgettingJob): {
  tasks: number[][];
  seed: number;
  strategy: ForgettingStrategy;
  strategyOptions?: { mode: 'single' | 'multi'; lambda: number };
  model: { kind: 'mlp'; hidden: number[] };
  lr: number;
  batchSize: number;
  epochs: number;
  firstTaskEpochs: number;
  head: 'all' | 'seen';
  probs: { calibrationRatio: number; softmax: 'all' | 'seen' };
} {
  return {
    tasks: job.tasks.map((t) => [...t]),
    seed: job.seed,
    strategy: job.strategy,
    ...(job.strategy === 'ewc' ? { strategyOptions: { mode: job.ewcMode, lambda: job.ewcLambda } } : {}),
    model: { kind: 'mlp', hidden: [...job.hidden] },
    lr: job.lr,
    batchSize: job.batchSize,
    epochs: job.epochs,
    firstTaskEpochs: job.firstTaskEpochs,
    head: job.head,
    probs: { calibrationRatio: job.calibrationRatio, softmax: job.head },
  };
}

/**
 * Progress through one run as a fraction: each task weighs (its classes × its epochs), i.e. roughly its number of
 * training steps; within a task, epochs and steps advance linearly.
 */
export function runFraction(
  tasks: readonly (readonly number[])[],
  firstTaskEpochs: number,
  epochs: number,
  e: { task: number; epoch: number; step: number; steps: number },
): number {
  const w = tasks.map((t, i) => t.length * (i === 0 ? firstTaskEpochs : epochs));
  const total = w.reduce((a, b) => a + b, 0);
  if (total <= 0) return 0;
  let done = 0;
  for (let i = 0; i < Math.min(e.task, w.length); i++) done += w[i];
  const ep = e.task === 0 ? firstTaskEpochs : epochs;
  const within = ep > 0 ? (e.epoch + (e.steps > 0 ? e.step / e.steps : 0)) / ep : 0;
  done += (w[e.task] ?? 0) * Math.min(1, Math.max(0, within));
  return Math.min(1, done / total);
}
