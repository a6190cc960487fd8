/**
 * [EDGE] Table 1, pre-trained half, beside ours (docs/science.md §9 "EDGE's Table 1 side by side"): the paper's rows
 * as printed, the preset that sets up the same classes and tasks, and the comparison of each of our methods with the
 * paper's row it can be read against — final accuracy's range over Ω, RS's and EDGE's orderings, JSD and W1 — with
 * average incremental accuracy beside it, and a sentence per row saying where the two differ and why. A row is
 * never called comparable when the backbone, the data or the method differ: it says which.
 *
 * Pure; tested in tests/unit/core/ground-truth/edge-table-1.test.ts.
 */
import { HEAD_TRAINING } from '../config/sections/features';
import type { ExperimentConfig, FeaturesConfig, StrategySetting } from '../config/types';
import type { GroundTruthStats, StrategyStats } from './derive';

/** One method's column of Table 1: final accuracy in % (min/max over Ω, RS's and EDGE's orderings), JSD, W1 in points. */
export interface PaperColumn {
  min: number;
  rsMin: number;
  edgeMin: number;
  max: number;
  rsMax: number;
  edgeMax: number;
  jsdRs: number;
  jsdEdge: number;
  wRs: number;
  wEdge: number;
}

export type Table1Dataset = 'cifar100' | 'imagenet-r';
export type PaperMethod = 'L2P' | 'CODA-Prompt' | 'HidePrompt' | 'EASE' | 'MOS' | 'RanPAC';

/**
 * [EDGE] Table 1 as printed ("Experimental results of pre-trained-based methods on two datasets"): the first six
 * classes of CIFAR-100 and of ImageNet-R in three tasks of two, all 90 orderings; RS with seeds 0, 42, 1993; ViT-B/16
 * pre-trained on ImageNet-21k, PILOT's set-up. Copied from the paper's table by hand (rows min, RS, EDGE, max, RS,
 * EDGE, JSD_RS, JSD_EDGE, W_RS, W_EDGE).
 */
export const EDGE_TABLE_1: Record<Table1Dataset, Record<PaperMethod, PaperColumn>> = {
  cifar100: {
    L2P: { min: 71.83, rsMin: 83.83, edgeMin: 72.83, max: 92.5, rsMax: 87.33, edgeMax: 92.0, jsdRs: 0.44, jsdEdge: 0.3, wRs: 2.81, wEdge: 2.0 },
    'CODA-Prompt': { min: 64.67, rsMin: 76.83, edgeMin: 73.0, max: 87.0, rsMax: 81.83, edgeMax: 84.17, jsdRs: 0.38, jsdEdge: 0.28, wRs: 2.92, wEdge: 2.03 },
    HidePrompt: { min: 72.5, rsMin: 79.67, edgeMin: 73.0, max: 91.17, rsMax: 90.67, edgeMax: 90.75, jsdRs: 0.34, jsdEdge: 0.22, wRs: 3.89, wEdge: 1.42 },
    EASE: { min: 95.33, rsMin: 95.5, edgeMin: 95.33, max: 95.83, rsMax: 95.5, edgeMax: 95.67, jsdRs: 0, jsdEdge: 0, wRs: 0, wEdge: 0 },
    MOS: { min: 92.17, rsMin: 95.33, edgeMin: 93.83, max: 97.67, rsMax: 95.83, edgeMax: 96.67, jsdRs: 0.15, jsdEdge: 0.15, wRs: 0.48, wEdge: 0.22 },
    RanPAC: { min: 98.5, rsMin: 98.67, edgeMin: 98.67, max: 98.83, rsMax: 98.83, edgeMax: 98.83, jsdRs: 0, jsdEdge: 0, wRs: 0, wEdge: 0 },
  },
  'imagenet-r': {
    L2P: { min: 57.75, rsMin: 68.98, edgeMin: 66.31, max: 83.42, rsMax: 75.4, edgeMax: 77.54, jsdRs: 0.23, jsdEdge: 0.21, wRs: 1.59, wEdge: 1.74 },
    'CODA-Prompt': { min: 18.72, rsMin: 39.04, edgeMin: 21.93, max: 57.75, rsMax: 43.85, edgeMax: 45.45, jsdRs: 0.65, jsdEdge: 0.2, wRs: 9.85, wEdge: 2.37 },
    HidePrompt: { min: 65.9, rsMin: 78.34, edgeMin: 71.89, max: 82.95, rsMax: 78.34, edgeMax: 76.04, jsdRs: 0.41, jsdEdge: 0.18, wRs: 2.44, wEdge: 1.11 },
    EASE: { min: 88.24, rsMin: 88.77, edgeMin: 88.24, max: 88.77, rsMax: 88.77, edgeMax: 88.77, jsdRs: 0, jsdEdge: 0, wRs: 0, wEdge: 0 },
    MOS: { min: 85.56, rsMin: 87.17, edgeMin: 86.1, max: 91.98, rsMax: 87.7, edgeMax: 91.44, jsdRs: 0.37, jsdEdge: 0.17, wRs: 1.18, wEdge: 0.77 },
    RanPAC: { min: 90.91, rsMin: 93.05, edgeMin: 93.05, max: 96.26, rsMax: 95.19, edgeMax: 95.19, jsdRs: 0.57, jsdEdge: 0.36, wRs: 2.25, wEdge: 1.07 },
  },
};

/** The papers' backbone, as this app loads it (image-encoder.ts IMAGE_ENCODERS). */
export const TABLE_1_ENCODER = 'Xenova/vit-base-patch16-224-in21k';
/** What the preset sets up: the first six classes (by label) in three tasks of two, every test image. */
export const TABLE_1_CLASSES = [0, 1, 2, 3, 4, 5];
export const TABLE_1_TASKS = [2, 2, 2];
/** The paper's test images of the six classes: CIFAR-100's 100 per class (98.50 % is 591 of 600). */
export const TABLE_1_TEST_IMAGES: Record<Table1Dataset, number | null> = { cifar100: 600, 'imagenet-r': null };
const DATASET_NAMES: Record<Table1Dataset, string> = { cifar100: 'CIFAR-100', 'imagenet-r': 'ImageNet-R' };

/**
 * The experiment of Table 1's pre-trained half on `dataset`: the Ground-truth lab, the first six classes in three tasks
 * of two, every image, RS with the paper's seeds, the pre-trained methods we have (SimpleCIL, FeCAM, RanPAC) beside a
 * trained head (fine-tuning, replay: the order-sensitive contrast standing in for the prompt methods) with the head's
 * settings, on ViT-B/16 ImageNet-21k features — or on the encoder the experiment already uses (its features extracted
 * in the Data tab stay in use).
 */
export function edgeTable1Preset(c: ExperimentConfig, dataset: Table1Dataset): ExperimentConfig {
  const current = c.features;
  const features: FeaturesConfig =
    current && current.source === 'encoder'
      ? structuredClone(current)
      : { source: 'encoder', model: TABLE_1_ENCODER, revision: 'main', precision: 'q8', weights: { kind: 'hub' } };
  const strategies: StrategySetting[] = [
    { id: 'finetune', options: {} },
    { id: 'replay', options: { memory: 200, selection: 'reservoir' } },
    { id: 'simplecil', options: { metric: 'cosine' } },
    { id: 'fecam', options: { shrinkage: 1 } },
    { id: 'ranpac', options: { projection: 2000, lambdaFrom: 'task' } },
  ] as StrategySetting[];
  return {
    ...structuredClone(c),
    lab: 'ground-truth',
    dataset: { id: dataset },
    classes: TABLE_1_CLASSES.slice(),
    taskSizes: TABLE_1_TASKS.slice(),
    features,
    model: { kind: 'head', hidden: [] },
    strategies,
    training: { ...c.training, epochs: HEAD_TRAINING.epochs, firstTaskEpochs: HEAD_TRAINING.epochs, lr: HEAD_TRAINING.lr },
    data: { trainPerClass: null, testPerClass: null },
    protocols: { ...c.protocols, rsSeeds: [0, 42, 1993] },
    groundTruth: { ...c.groundTruth, budget: Math.max(c.groundTruth.budget, 90) },
    seeds: [0],
    ui: { ...c.ui, accuracy: 'final' },
  };
}

/** Which Table-1 dataset a config sets up (its dataset, the first six classes, three tasks of two), else null. */
export function table1DatasetOf(c: Pick<ExperimentConfig, 'dataset' | 'classes' | 'taskSizes'>): Table1Dataset | null {
  const id = c.dataset.id;
  if (id !== 'cifar100' && id !== 'imagenet-r') return null;
  if (c.classes.join(',') !== TABLE_1_CLASSES.join(',') || c.taskSizes.join(',') !== TABLE_1_TASKS.join(',')) return null;
  return id;
}

/** Our numbers of one method, in the table's units (% and points), with AIA's range beside final accuracy's. */
export interface OurColumn {
  min: number;
  max: number;
  rsMin: number | null;
  rsMax: number | null;
  edgeMin: number | null;
  edgeMax: number | null;
  jsdRs: number | null;
  jsdEdge: number | null;
  wRs: number | null;
  wEdge: number | null;
  aiaMin: number | null;
  aiaMax: number | null;
  /** orderings finished of those planned */
  n: number;
  planned: number;
}

export interface Table1Row {
  strategy: string;
  /** our method's name */
  name: string;
  ours: OurColumn;
  /** the paper's row it is read against, and which method that is */
  paper: { method: PaperMethod | 'prompt methods'; column: PaperColumn | null; range?: { min: number; max: number } } | null;
  /** true only when backbone, data and method are the paper's: never here, since no method of Table 1 runs on frozen features */
  comparable: boolean;
  /** what differs, in a sentence */
  differs: string;
}

export interface Table1Comparison {
  dataset: Table1Dataset;
  /** the backbone is the paper's ViT-B/16 ImageNet-21k (else: which it is) */
  sameBackbone: boolean;
  backbone: string;
  /** the test images of the six classes: ours, and the paper's where known */
  testImages: { ours: number | null; paper: number | null };
  rows: Table1Row[];
  /** sentences for the whole table (backbone, data) */
  notes: string[];
}

const pct = (x: number | null | undefined): number | null => (x === null || x === undefined || !Number.isFinite(x) ? null : 100 * x);

function ourColumn(fin: StrategyStats, aia: StrategyStats | undefined): OurColumn {
  const vals = fin.truth.values;
  const range = (s: StrategyStats, p: 'rs' | 'edge') => s.summaries[p].value;
  const aiaVals = aia?.truth.values ?? [];
  return {
    min: 100 * Math.min(...vals),
    max: 100 * Math.max(...vals),
    rsMin: pct(range(fin, 'rs')?.min),
    rsMax: pct(range(fin, 'rs')?.max),
    edgeMin: pct(range(fin, 'edge')?.min),
    edgeMax: pct(range(fin, 'edge')?.max),
    jsdRs: fin.rs.quality.value ? (fin.rs.quality.value.jsd ?? 0) : null,
    jsdEdge: fin.edge.quality.value ? (fin.edge.quality.value.jsd ?? 0) : null,
    wRs: fin.rs.quality.value?.w1 ?? null,
    wEdge: fin.edge.quality.value?.w1 ?? null,
    aiaMin: aiaVals.length ? 100 * Math.min(...aiaVals) : null,
    aiaMax: aiaVals.length ? 100 * Math.max(...aiaVals) : null,
    n: fin.truth.evaluated,
    planned: fin.truth.planned,
  };
}

/** The kind of each of our methods: a prototype method by class set, RanPAC, or a trained head. */
function kindOf(strategy: string): 'ranpac' | 'prototype' | 'head' {
  return strategy === 'ranpac' ? 'ranpac' : strategy === 'simplecil' || strategy === 'fecam' ? 'prototype' : 'head';
}

const num = (x: number, d = 2) => x.toFixed(d);

/**
 * Our ground truth beside Table 1: `final` and `aia` are the lab's statistics of the same runs for the two accuracies
 * (`aia` may be null while it is not derived). `features` and `testImages` say what the runs trained on;
 * `ranpacFirstSession` whether our RanPAC adapted on the first task. `nameOf` names our methods.
 */
export function table1Comparison(input: {
  dataset: Table1Dataset;
  final: GroundTruthStats;
  aia: GroundTruthStats | null;
  features: FeaturesConfig;
  featuresLabel: string;
  testImages: number | null;
  ranpacProjection?: number;
  nameOf?: (strategy: string) => string;
}): Table1Comparison {
  const paper = EDGE_TABLE_1[input.dataset];
  const name = input.nameOf ?? ((s: string) => s);
  const f = input.features;
  const sameBackbone = f.source === 'encoder' && f.model === TABLE_1_ENCODER;
  const backbone = sameBackbone ? 'ViT-B/16 pre-trained on ImageNet-21k (google/vit-base-patch16-224-in21k)' : input.featuresLabel;
  const paperTest = TABLE_1_TEST_IMAGES[input.dataset];
  const notes: string[] = [];
  notes.push(
    sameBackbone
      ? 'Backbone: the papers’ ViT-B/16 ImageNet-21k, frozen, its [CLS] token after the final LayerNorm (Google’s checkpoint; PILOT loads timm’s weights of that name, which may be a later training run).'
      : `Backbone: ${backbone}, not the paper’s ViT-B/16 ImageNet-21k: no number here can be compared with the paper’s; read the shape (which methods move, and by how much), not the level.`,
  );
  if (paperTest !== null && input.testImages !== null && input.testImages !== paperTest)
    notes.push(
      `Data: ${input.testImages} test images of the six classes, where the paper has ${paperTest} (${DATASET_NAMES[input.dataset]}’s full test set): different data, so the accuracies are not the paper’s.`,
    );
  notes.push(
    'Methods: no prompt or adapter method runs here (L2P, CODA-Prompt, HidePrompt, EASE, MOS need gradients through the ViT); the pre-trained methods run on frozen features, and a head trained task after task stands in for the methods whose parameters follow the path of tasks.',
  );
  const rows: Table1Row[] = [];
  for (const s of input.final.strategies) {
    if (s.truth.evaluated === 0) continue;
    const ours = ourColumn(
      s,
      input.aia?.strategies.find((x) => x.strategy === s.strategy),
    );
    const kind = kindOf(s.strategy);
    const spread = ours.max - ours.min;
    const ourRange = ours.max - ours.min < 0.005 ? `one value, ${num(ours.min)} %,` : `${num(ours.min)}–${num(ours.max)} %`;
    // the paper's row this method is read against, and why they differ
    let against: Pick<Table1Row, 'paper' | 'differs'>;
    if (kind === 'ranpac') {
      const p = paper.RanPAC;
      against = {
        paper: { method: 'RanPAC', column: p },
        differs:
          `RanPAC here ${ourRange} over the 90 orderings (${num(spread)} points); the paper’s ${num(p.min)}–${num(p.max)} % (${num(p.max - p.min)} points). ` +
          `Not the same run: the paper’s RanPAC (PILOT) adapts the ViT on the first task (parameter-efficient fine-tuning) with M = 10 000 random features; ours runs on frozen features without that first session, with M = ${input.ranpacProjection ?? 2000}, so its final accuracy moves only with the ridge λ chosen on the last task` +
          (sameBackbone ? '.' : `, on ${backbone}.`),
      };
    } else if (kind === 'prototype') {
      const p = paper.EASE;
      against = {
        paper: { method: 'EASE', column: p },
        differs:
          `${name(s.strategy)} is not in Table 1; the nearest is EASE (a prototype classifier over adapters trained per task), ${num(p.min)}–${num(p.max)} %. ` +
          `Ours ${spread < 0.005 ? `is one value, ${num(ours.min)} %, for every ordering` : `spans ${ourRange}`}: a classifier built from sums over the classes seen has the same final state after the last task whatever the order; EASE’s adapters follow the tasks, so its range is not 0.`,
      };
    } else {
      const methods: PaperMethod[] = ['L2P', 'CODA-Prompt', 'HidePrompt'];
      const lo = Math.min(...methods.map((m) => paper[m].min));
      const hi = Math.max(...methods.map((m) => paper[m].max));
      const widest = Math.max(...methods.map((m) => paper[m].max - paper[m].min));
      against = {
        paper: { method: 'prompt methods', column: null, range: { min: lo, max: hi } },
        differs:
          `${name(s.strategy)} stands in for the prompt methods (L2P, CODA-Prompt, HidePrompt: ${num(lo)}–${num(hi)} % between them, each spreading up to ${num(widest)} points); it is not one of them. ` +
          `Ours spreads ${num(spread)} points: a head trained task after task follows the path of tasks as prompts do, but it cannot change the features, so its level is not theirs.`,
      };
    }
    rows.push({ strategy: s.strategy, name: name(s.strategy), ours, paper: against.paper, comparable: false, differs: against.differs });
  }
  return { dataset: input.dataset, sameBackbone, backbone, testImages: { ours: input.testImages, paper: paperTest }, rows, notes };
}
