/**
 * Lessons (docs/design.md "Lessons"): short guided experiments for a class, each a share link (an experiment config
 * in teaching mode) with two or three sentences, a question for students and what they should see, as expectations
 * the app checks after the run (./expectations.ts). The built-in ones are below; a teacher's own lessons are the same
 * texts (and at most one expectation from the templates) plus the link they were saved from (stored by
 * src/ui/lessons/lesson-store.ts).
 *
 * A lesson link is the app's URL with `?lesson=<id>` (a built-in lesson) or `?lesson=u.<base64url JSON>` (a teacher's
 * lesson, its texts carried in the link so it opens anywhere) in front of the experiment's `#v1.…` hash. The page
 * shows the lesson's texts in a banner while the lesson is open.
 *
 * The configs are small on purpose and chosen by measurement (the comments say how): each runs in under 30 s on a
 * 2-core CPU, and its finding held on every training seed tried. Every built-in config validates
 * (tests/unit/core/lessons.test.ts) and every lesson is played to the end through the engine, its finding checked
 * (tests/unit/core/lessons-play.test.ts).
 *
 * Layering: pure TS, imports only src/core.
 */
import { decodeConfigFromHash, encodeConfigToHash, fromBase64Url, toBase64Url } from '../config/url-codec';
import { validateConfig } from '../config/validate';
import type { ExperimentConfig, LabId } from '../config/types';
import { OPEN_WORLD_PRESETS } from '../labs/open-world/settings';
import { parseExpectation, type Expectation } from './expectations';

export interface LessonTexts {
  title: string;
  /** Two or three sentences: what the experiment is and what to do. */
  text: string;
  /** The question for the students. */
  question: string;
  /** What students should see, checked after the run (a teacher's lesson: none or one template). */
  expect?: readonly Expectation[];
}

export interface Lesson extends LessonTexts {
  id: string;
  lab: LabId;
  /** What to press, in a few words ("Press Play"). */
  action: string;
  /** Its expected finding: every expectation holds once the run is complete. */
  expect: readonly Expectation[];
  /** The chart the lesson is about (its figure's data-testid): kept above the fold, printed on the handout. */
  chart: string;
  /** The experiment, as a partial config over the defaults (validated by lessonConfig). */
  config: Record<string, unknown>;
  /**
   * The control: the same experiment with the one change the lesson's question is about, on which its check must say
   * "not seen" (`cil-lab lesson ID --control`; the lessons' test plays both). `config` is merged over the lesson's
   * (section by section, as lessonConfig merges the lesson's over the defaults); `rename` maps a strategy the checks
   * name to the control's strategy in its place, so the same check reads the control's run.
   */
  control: LessonControl;
}

export interface LessonControl {
  /** The one change, in a few words ("no drift: strength 0"). */
  change: string;
  config: Record<string, unknown>;
  rename?: Readonly<Record<string, string>>;
  /**
   * Where the one change is in how the same runs are read, not in the experiment (easy-first's control reads hard
   * first as the order that leads): the lesson's checks with that change.
   */
  expect?: readonly Expectation[];
}

/**
 * Digits (8×8 images), 6 classes in 3 tasks: all 90 orderings train in 17–24 s on wasm on a loaded 2-core machine.
 * lr 0.01: with 80 images per class a task is only 9 Adam steps, and at 1e-3 the model barely learns; at 0.01
 * fine-tuning lands at 27–33 % (it keeps only the last task) and replay at 89–99 % (`cil-lab run --dataset digits
 * --classes 0-5 --tasks 3 --hidden 64 --epochs 3 --first-epochs 3 --lr 0.01 --train-per-class 80 --test-per-class 30
 * --orderings all --strategy replay|finetune --seed 0|1|2`).
 */
const SMALL_DIGITS = {
  dataset: { id: 'digits' },
  classes: [0, 1, 2, 3, 4, 5],
  taskSizes: [2, 2, 2],
  model: { kind: 'mlp', hidden: [64] },
  training: { epochs: 3, firstTaskEpochs: 3, lr: 0.01 },
  data: { trainPerClass: 80, testPerClass: 30 },
  seeds: [0],
};

export const LESSONS: readonly Lesson[] = [
  {
    id: 'one-seed',
    title: 'Is one seed enough?',
    lab: 'ground-truth',
    action: 'Press Play (or Step)',
    text:
      'Papers usually train a few class orders drawn with random seeds (often 0, 42 and 1993) and report their average. ' +
      'Here every one of the 90 orders of six digit classes in three tasks is trained with replay, one grey block each, so you see the whole spread. ' +
      'In the RS lane, the marks labelled seed 0, seed 42 and seed 1993 are the three seeded orders.',
    question: 'If a paper had trained only seed 0’s order, how far from the middle of the histogram could its accuracy be? Do three seeds show the spread?',
    // over all 90 orderings (training seed 0): replay 91.7–98.9 % (7.2 points), joint training 95.0–98.9 % (3.9)
    expect: [{ kind: 'spread-above', strategy: 'replay', points: 0.05 }],
    chart: 'accuracy-histogram',
    config: { ...SMALL_DIGITS, lab: 'ground-truth', strategies: [{ id: 'replay', options: { memory: 200, selection: 'reservoir' } }] },
    control: {
      change: 'joint training in place of replay: every task trains on all data seen so far, so the order has little to change',
      config: { strategies: [{ id: 'joint', options: {} }] },
      rename: { replay: 'joint' },
    },
  },
  {
    id: 'similar-classes',
    title: 'Similar classes in one task',
    lab: 'orderings',
    action: 'Click the rows of the table',
    text:
      'CIFAR-10’s ten classes in five tasks of two, with WordNet’s similarity of every pair in the heat map. ' +
      'EDGE’s hard order puts similar classes (cat and dog, automobile and truck) in one task, so neighbouring tasks differ; its easy order spreads them apart. ' +
      'EDGE builds its orders greedily, one task at a time, so a random order can score a higher S than EDGE easy: look at the S column.',
    question: 'Where do cat and dog go in EDGE hard, and where in EDGE easy? Which order has the highest S here, and why is it not EDGE easy?',
    // `cil-lab orders --dataset cifar10 --tasks 5 --protocol rs,edge`: EDGE hard 0.8602 (cat and dog in task 4), EDGE
    // easy 1.1234 (cat in task 5, dog in task 4), RS seed 1993 1.2155, EDGE median 1.3237 (no training: no seed)
    expect: [
      { kind: 'pair-task', label: 'EDGE hard', a: 'cat', b: 'dog', together: true },
      { kind: 'pair-task', label: 'EDGE easy', a: 'cat', b: 'dog', together: false },
      { kind: 'score-above', higher: 'EDGE median (seed 0)', lower: 'EDGE easy' },
    ],
    chart: 'similarity-heatmap',
    config: { lab: 'orderings', dataset: { id: 'cifar10' }, classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], taskSizes: [2, 2, 2, 2, 2] },
    // WordNet told that a dog is a truck (its synset pinned to truck's, n04497386): cat and dog are no longer alike
    control: {
      change: 'a similarity in which cat and dog are not alike: WordNet’s “dog” pinned to the synset of “truck”',
      config: { similarity: { kind: 'wordnet', pins: { dog: 'n04497386' } } },
    },
  },
  {
    id: 'replay-hard-order',
    title: 'Does replay change which order is hard?',
    lab: 'ground-truth',
    action: 'Press Play',
    text:
      'The same 90 orders of six digit classes, each trained twice: with plain fine-tuning, which forgets, and with replay, which keeps 200 old images in memory. ' +
      'Each strategy gets its own histogram. Click the worst and best block of each to see the order and its accuracy matrix.',
    question:
      'Is the hardest order under fine-tuning also the hardest under replay? Why is fine-tuning’s histogram so narrow: what does it still know at the end?',
    // means over the 90 orderings at 80 images per class, training seeds 0 / 1: replay 95.5 / 95.5, fine-tuning
    // 32.2 / 31.9; at the 60 used here (a quicker run), seed 0: 94.7 and 31.7 (tests/unit/core/lessons-play.test.ts)
    // the two questions, checked: the orderings' accuracies under the two strategies do not rise and fall together
    // (Spearman's ρ 0.15, p = 0.17, seed 0), and fine-tuning ends near a third (31.7 %): it knows only the last task
    expect: [
      { kind: 'orders-agree', a: 'finetune', b: 'replay', agree: false },
      { kind: 'mean-near', strategy: 'finetune', value: 1 / 3, points: 0.1, why: 'what a model that knows only its last task (2 of 6 classes) scores' },
    ],
    chart: 'accuracy-histogram',
    config: {
      ...SMALL_DIGITS,
      data: { trainPerClass: 60, testPerClass: 30 },
      lab: 'ground-truth',
      strategies: [
        { id: 'finetune', options: {} },
        { id: 'replay', options: { memory: 200, selection: 'reservoir' } },
      ],
    },
    // a strategy that keeps old images (iCaRL, 100 of them) in place of fine-tuning: it no longer ends near a third
    // (measured seed 0: its orders against replay's, Spearman's ρ 0.19, p = 0.078)
    control: {
      change: 'iCaRL (it keeps 100 old images) in place of fine-tuning',
      config: {
        strategies: [
          { id: 'icarl', options: { memory: 100 } },
          { id: 'replay', options: { memory: 200, selection: 'reservoir' } },
        ],
      },
      rename: { finetune: 'icarl' },
    },
  },
  {
    id: 'cpcf-vs-accuracy',
    title: 'What does CPCF see that accuracy does not?',
    lab: 'forgetting',
    action: 'Press Play',
    text:
      'A small network learns digits 0–4, then one new digit per task, forgetting the old ones as it goes. ' +
      'After every task, conformal prediction gives each old test image a set of classes that should contain the true one 90 % of the time; CPCF is the average set size. ' +
      'The chart puts CPCF beside a_prev, the accuracy on the old digits: compare the first new task with the last.',
    question:
      'From the first new task to the last, a_prev falls: what does CPCF do? What does a set of size 5 tell you about an image that a wrong answer does not?',
    // the paper's regime at 5× the learning rate and a fifth of the epochs (lr 1e-4, 60 epochs on the base task, 17
    // per later task, batch 64, MLP 256-128): over seeds 0–4 a_prev falls from 89–99 % after task 2 to 9–17 % after
    // task 6 while CPCF rises (3.1→6.7, 4.3→5.1, 3.4→6.8, 4.3→6.1, 2.5→5.1); in between a_prev is not monotone (the
    // single-class task 5 is barely learned), so the finding compares the ends. 7.5 s a seed on wasm, loaded machine.
    expect: [{ kind: 'cpcf-rises', from: 2, to: 6, drop: 0.3 }],
    chart: 'fg-cpcf-chart',
    config: {
      lab: 'forgetting',
      dataset: { id: 'digits' },
      classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      taskSizes: [5, 1, 1, 1, 1, 1],
      strategies: [{ id: 'finetune', options: {} }],
      model: { kind: 'mlp', hidden: [256, 128] },
      training: { epochs: 17, firstTaskEpochs: 60, lr: 1e-4, batchSize: 64, head: 'all' },
      data: { trainPerClass: null, testPerClass: null },
      conformal: { alpha: 0.1, calibrationRatio: 0.1, score: 'aps', softmax: 'all' },
      seeds: [0],
    },
    // nothing to forget: the Forgetting lab trains fine-tuning or EWC only, and with single-class tasks both forget
    // the old digits whatever the later tasks' epochs, learning rate or EWC's λ (measured, seed 0: one epoch per task
    // 97 → 20 %, lr 1e-5 77 → 15 %, EWC λ 1e7 100 → 20 %); with one epoch on the base task the old digits are never
    // learned (a_prev 0.0 → 1.1 %), so there is no fall for CPCF to follow
    control: {
      change: 'nothing to forget: one epoch on the base task in place of 60, so the old digits are never learned',
      config: { training: { firstTaskEpochs: 1 } },
    },
  },
  {
    id: 'tomorrow',
    title: 'Tested on tomorrow',
    lab: 'time',
    action: 'Press Play',
    text:
      'Clothing images whose look drifts from one time bucket to the next (rotated, bolder, on a brighter background). ' +
      'After each bucket the model is tested twice: on held-out images of the bucket it just trained on (in-domain) and on the next bucket (next-domain, tomorrow’s images).',
    question: 'Which is lower: in-domain or next-domain accuracy? Which of the two would you report for a model that will be used tomorrow?',
    // strength 1 (the strong drift): iid in-domain − next-domain over seeds 0 / 1 / 2: 34.3, 39.7, 31.2 points; its
    // control, no drift: −0.6, −1.4, 3.1 (`cil-lab stream --protocol iid --buckets 3 --per-class 40 --epochs 3
    // --strength 1 --seeds 0-2 --control`); 5–8 s a play on wasm on a loaded 2-core machine
    expect: [{ kind: 'domain-gap', points: 0.1 }],
    chart: 'tm-summary',
    config: { lab: 'time', time: { protocols: ['iid'], buckets: 3, perClass: 40, epochs: 3, k: 280, strength: 1 } },
    control: { change: 'no drift: strength 0, every bucket looks the same', config: { time: { strength: 0 } } },
  },
  {
    id: 'small-memory',
    title: 'What does a small memory keep?',
    lab: 'time',
    action: 'Press “Every α”',
    text:
      'A stream of four buckets of 420 images arrives one bucket at a time, and the model may keep only 420 images: one bucket’s worth. ' +
      'CLEAR’s biased reservoir sampling decides which to keep; its α says how strongly new images are preferred (α = 1 is classic reservoir sampling). ' +
      '“Every α” runs the sampling alone, without training, for each α of the paper, and charts what the memory holds after each bucket.',
    question:
      'After the last bucket, how much of the memory is the first bucket at α = 1, and at α = 2? Which would you choose for a model tested on tomorrow?',
    // Alg. 1 on 4 buckets of 420, k = 420, 200 trials, seed 0: α = 1 keeps 104 / 105 / 105 / 106 of buckets 1–4,
    // α = 2 keeps 0 / 69 / 140 / 211 (no training: instant; the same on every seed tried, 0–2, within 2 samples)
    expect: [
      { kind: 'reservoir-share', alpha: '1', bucket: 1, min: 0.2, max: 0.3 },
      { kind: 'reservoir-share', alpha: '1', bucket: 4, min: 0.2, max: 0.3 },
      { kind: 'reservoir-share', alpha: '2', bucket: 1, min: 0, max: 0.02 },
    ],
    chart: 'tm-sweep',
    config: { lab: 'time', time: { protocols: ['iid'], buckets: 4, perClass: 60, epochs: 5, buffer: 'reservoir', k: 420, strength: 1 } },
    // a memory of all four buckets (4 × 420): nothing has to be dropped, so every α keeps a quarter of each bucket
    control: { change: 'a memory large enough for every bucket (k = 1 680) in place of one bucket’s worth', config: { time: { k: 1680 } } },
  },
  {
    id: 'newest-steals',
    title: 'Does the newest task steal the unknowns?',
    lab: 'open-world',
    action: 'Press Play',
    text:
      'A network learns six digit classes in three tasks (with replay) and is shown images of classes it never learned: the digits 6–9 and clothing. ' +
      'It must still call each of them one of its classes. The stacked chart shows which task’s classes the unknown images are given to after each step.',
    question: 'After each step, which task’s classes take most of the unknown images? Why would the newest task attract them?',
    // measured over seeds 0–2 (`cil-lab lesson newest-steals`): after step 3 the newest task takes 71.1 % of digits 6–9
    // and 76.9 % of Fashion-MNIST; 5–14 s on wasm on a loaded 2-core machine
    expect: [
      { kind: 'newest-takes-ood', set: 'digits:6-9', fromStep: 3 },
      { kind: 'newest-takes-ood', set: 'fashion-mnist', fromStep: 3 },
    ],
    chart: 'ow-assignment',
    config: {
      lab: 'open-world',
      openWorld: { ...OPEN_WORLD_PRESETS.quick, detectors: ['msp', 'energy'], seeds: 3 },
    },
    // GDumb retrains the network from scratch on a class-balanced memory at every step, so the newest task is not
    // favoured (measured over seeds 0–2: the newest task's share at step 3, digits 6–9 37.8 %, Fashion-MNIST 44.1 %,
    // not the largest for both); joint training (39 %, 62 %) and NCM (42 %, 37 %) still gave the newest the most
    control: {
      change: 'GDumb in place of replay: the network is retrained from scratch on a class-balanced memory at every step',
      config: { openWorld: { ...OPEN_WORLD_PRESETS.quick, detectors: ['msp', 'energy'], seeds: 3, strategy: 'gdumb' } },
    },
  },
  {
    id: 'easy-first',
    title: 'Easy first: better learning or better weighting?',
    lab: 'curriculum',
    action: 'Press Play',
    text:
      'Two whole datasets (digits and clothing) are learned one after the other, in both orders. ' +
      'M2I starts with the easiest (the one a network learns best alone) and ends with the hardest; I2M the other way round. ' +
      'ACC₀ is what the final accuracy would be if the network kept each dataset at the accuracy it reaches alone: it changes with the order only because the order decides which dataset is forgotten least.',
    question:
      'ACC₀ says how much easy first should win by the weighting alone. Does M2I beat I2M in final accuracy by more than that? What does that say about “easy first helps learning”?',
    // mean over seeds 0–2 of M2I − I2M: ΔACC −0.9 points, ΔACC₀ +4.9 (this config, 10 s on wasm, loaded machine);
    // on digits, Fashion-MNIST and food emoji at 5 images per class and 30 epochs: −1.6 and +8.7 (78 s: too slow)
    expect: [{ kind: 'within-weighting' }],
    chart: 'cu-lead',
    config: {
      lab: 'curriculum',
      curriculum: {
        datasets: ['digits', 'fashion-mnist'],
        order: 'all',
        scenario: 'cil',
        strategies: ['finetune'],
        epochs: 5,
        hidden: 64,
        trainPerClass: 50,
        testPerClass: 30,
        seed: 0,
        seeds: 3,
      },
    },
    // the one change is which order is read as first: hard first (I2M) against its own weighting. Measured, no strategy
    // of this small curriculum learns better easy-first beyond the weighting (ΔACC − ΔACC₀ over seeds 0–2: fine-tuning
    // −5.9, replay −0.7, LwF −5.7 points, class-incremental), so the control reads the same runs the other way round
    control: {
      change: 'hard first (I2M) in place of easy first (M2I) as the order whose lead is read against its weighting',
      config: {},
      expect: [{ kind: 'within-weighting', first: 'i2m' }],
    },
  },
  {
    id: 'prototypes-order',
    title: 'Why do prototype methods not care about order?',
    lab: 'ground-truth',
    action: 'Press Play',
    text:
      'Six digit classes in three tasks, all 90 orders, on frozen features: a small stand-in network trained on the other four digits (no better than the pixels it reads, but frozen like a real pre-trained encoder) turns each image into a feature vector, and nothing trains it further. ' +
      'Fine-tuning trains a linear head on those features task after task. SimpleCIL keeps one mean feature vector (a prototype) per class and FeCAM a mean and a covariance; neither trains at all.',
    question:
      'Why do SimpleCIL and FeCAM end at the same accuracy in every order, while fine-tuning spreads? What would have to change for a prototype method to care about the order?',
    // `cil-lab run --dataset digits --classes 0-5 --task-sizes 2,2,2 --features backbone --backbone-seed S --model head
    // --hidden '' --epochs 3 --first-epochs 3 --lr 0.01 --train-per-class 80 --test-per-class 30 --seed S --orderings all
    // --backend wasm --strategy finetune|simplecil|fecam`, S = 0 / 1 / 2: SimpleCIL 83.9 / 76.7 / 73.9 % and FeCAM
    // 98.9 / 97.8 / 97.8 % in every ordering (spread 0); fine-tuning spreads 13.3 / 15.6 / 11.1 points; 5–7 s a
    // strategy on a loaded 2-core machine
    expect: [
      { kind: 'spread-below', strategy: 'simplecil', points: 0.001 },
      { kind: 'spread-below', strategy: 'fecam', points: 0.001 },
      { kind: 'narrower', narrow: 'simplecil', wide: 'finetune' },
    ],
    // the question's other half: what would make a prototype method care about the order? Reading the accuracy after
    // every step (AIA) in place of after the last one: the classes seen mid-way differ between orders
    control: {
      change: 'average incremental accuracy (after every step) in place of final accuracy',
      config: { ui: { accuracy: 'aia' } },
    },
    chart: 'accuracy-histogram',
    config: {
      ...SMALL_DIGITS,
      lab: 'ground-truth',
      features: { source: 'backbone', seed: 0 },
      model: { kind: 'head', hidden: [] },
      strategies: [
        { id: 'finetune', options: {} },
        { id: 'simplecil', options: { metric: 'cosine' } },
        { id: 'fecam', options: { shrinkage: 1 } },
      ],
    },
  },
  {
    id: 'three-then-four',
    title: 'Teach it three things, then a fourth',
    lab: 'own-classes',
    action: 'Teach four objects, then press SimpleCIL',
    text:
      'Teach the model three objects from the webcam, one after another (6 pictures to learn from and 3 to test each), then a fourth: each object is a new task. ' +
      'Fine-tune trains a small layer over a frozen image encoder’s features with only the newest object’s pictures; SimpleCIL keeps each object’s mean feature vector (a prototype) and trains nothing. ' +
      'The bars show how well it still recognises each object after the last one.',
    question:
      'When the fourth object arrives, what happens to the first three under fine-tuning, and under SimpleCIL? Why can prototypes not forget what they were taught? ' +
      'Then train every ordering of your four objects: does the order in which you taught them matter, and does EDGE, from how alike they look or from their names, find the hard one?',
    // the recorded sample set tests/fixtures/own-classes/four-things.zip (scripts/make-own-classes-fixture.ts) on the
    // tiny CLIP vision fixture encoder, training seeds 0 / 1 / 2: when the fourth object arrives, fine-tuning drops
    // the third from 100 % to 0 % (the first two were already lost, each as the next object came), SimpleCIL keeps
    // all four at 100 %; well under a second of training (tests/unit/core/lessons-play.test.ts plays it, and
    // `cil-lab own-classes --samples … --encoder …` prints the same R)
    expect: [
      { kind: 'class-forgotten', strategy: 'finetune', at: 4, drop: 0.2, forgets: true },
      { kind: 'class-forgotten', strategy: 'simplecil', at: 4, drop: 0.2, forgets: false },
    ],
    chart: 'oc-bars',
    // 6 + 3 pictures per object: a class is recorded in a few seconds, and the lesson's sample set has as many; the
    // encoder is the lab's default (CLIP ViT-B/32, downloaded once)
    config: { lab: 'own-classes', ownClasses: { classes: [], trainPerClass: 6, testPerClass: 3, strategy: 'finetune', seed: 0 } },
    // the same check read on fine-tuning in place of SimpleCIL: a trained head forgets where prototypes cannot
    control: { change: 'a trained head (fine-tuning) in place of SimpleCIL’s prototypes', config: {}, rename: { simplecil: 'finetune' } },
  },
];

/** A section-by-section merge of a partial config over a full one (a section given in part keeps the rest). */
function mergeSections(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const b = base[key];
    merged[key] =
      value && typeof value === 'object' && !Array.isArray(value) && b && typeof b === 'object' && !Array.isArray(b) && key !== 'dataset'
        ? { ...b, ...value }
        : value;
  }
  return merged;
}

/** A built-in lesson by id, or undefined. */
export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/**
 * The lesson's experiment: its partial config over the defaults, in teaching mode, validated. A section given in part
 * (`training: {epochs}`) is merged over that section's defaults. Throws when invalid (a unit test checks every lesson).
 */
export function lessonConfig(lesson: Lesson): ExperimentConfig {
  const base = validateConfig({ lab: lesson.lab }).config as unknown as Record<string, unknown>;
  const merged = mergeSections(base, lesson.config);
  merged.ui = { ...(base.ui as object), ...(lesson.config.ui as object | undefined), teaching: true };
  // the Time lab's section is optional (absent = its defaults): given in part, it is completed by its own defaults
  if (lesson.config.time && !base.time) merged.time = lesson.config.time;
  const r = validateConfig(merged);
  if (r.errors.length > 0) throw new Error(`Lesson "${lesson.id}" has an invalid config: ${r.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return r.config;
}

/** The lesson's control experiment: the lesson's config with the control's one change, validated (throws when invalid). */
export function lessonControlConfig(lesson: Lesson): ExperimentConfig {
  const own = lessonConfig(lesson) as unknown as Record<string, unknown>;
  const merged = mergeSections(own, lesson.control.config);
  const r = validateConfig(merged);
  if (r.errors.length > 0) throw new Error(`Lesson "${lesson.id}" has an invalid control: ${r.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return r.config;
}

/** The lesson's checks as they read the control's run: every strategy the control renames, renamed. */
export function controlExpectations(lesson: Lesson): Expectation[] {
  if (lesson.control.expect) return lesson.control.expect.slice();
  const rename = lesson.control.rename ?? {};
  const to = (s: string) => rename[s] ?? s;
  return lesson.expect.map((e) => {
    const c = { ...e } as Record<string, unknown>;
    for (const k of ['strategy', 'better', 'worse', 'narrow', 'wide', 'a', 'b'] as const)
      if (typeof c[k] === 'string' && (k !== 'a' && k !== 'b' ? true : e.kind === 'orders-agree')) c[k] = to(c[k] as string);
    return c as unknown as Expectation;
  });
}

/** `?lesson=…` for a built-in lesson's id or a teacher's lesson's texts. */
export function lessonParam(lesson: { id: string } | LessonTexts): string {
  if ('id' in lesson && lessonById(lesson.id)) return lesson.id;
  const t = lesson as LessonTexts;
  const json = JSON.stringify({ title: t.title, text: t.text, question: t.question, ...(t.expect?.length ? { expect: t.expect } : {}) });
  return `u.${toBase64Url(new TextEncoder().encode(json))}`;
}

/** Longest text of a teacher's lesson field (a link must stay a link). */
export const LESSON_TEXT_MAX = 600;

/**
 * A teacher's text as the page shows it: control characters (C0 but the line break, DEL, C1) and the bidirectional
 * overrides and isolates that could reorder what is shown (U+202A–U+202E, U+2066–U+2069) removed, a tab or a
 * carriage return made a space, a lone surrogate (half of a character, e.g. from text cut in the middle) made U+FFFD,
 * and the whole cut to LESSON_TEXT_MAX code units without splitting a character.
 */
export function cleanLessonText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      if (out.length + 2 > LESSON_TEXT_MAX) break;
      out += text[i] + text[i + 1];
      i++;
      continue;
    }
    let ch = text[i];
    if (c >= 0xd800 && c <= 0xdfff) ch = '\ufffd';
    else if (c === 0x09 || c === 0x0d) ch = ' ';
    else if ((c < 0x20 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) continue;
    if (out.length + 1 > LESSON_TEXT_MAX) break;
    out += ch;
  }
  return out;
}

/** The lesson of a `?lesson=` value: a built-in lesson's texts, a teacher's lesson decoded, or null (unknown, damaged). */
export function lessonFromParam(param: string | null): (LessonTexts & { id: string | null }) | null {
  if (!param) return null;
  const builtin = lessonById(param);
  if (builtin) return { id: builtin.id, title: builtin.title, text: builtin.text, question: builtin.question, expect: builtin.expect };
  if (!param.startsWith('u.')) return null;
  const bytes = fromBase64Url(param.slice(2));
  if (!bytes) return null;
  try {
    const v: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (!v || typeof v !== 'object') return null;
    const o = v as Record<string, unknown>;
    const field = (k: string) => (typeof o[k] === 'string' ? cleanLessonText(o[k] as string) : '');
    const title = field('title').trim();
    if (!title) return null;
    // a teacher's expectation: one of the templates, or none (an unknown one from a newer CIL Lab is left out)
    const expect = Array.isArray(o.expect)
      ? o.expect
          .slice(0, 3)
          .map(parseExpectation)
          .filter((e): e is Expectation => e !== null)
      : [];
    return { id: null, title, text: field('text'), question: field('question'), ...(expect.length ? { expect } : {}) };
  } catch {
    return null;
  }
}

/**
 * The search part (`?lesson=…`, keeping the page's other query parameters but `teach`) and hash of a lesson's link;
 * with `control`, of its control (`&control=1` and the control's experiment).
 */
export function lessonLink(lesson: Lesson, search = '', control = false): { search: string; hash: string } {
  const s = withLessonParam(search, lessonParam(lesson));
  const p = new URLSearchParams(s);
  if (control) p.set('control', '1');
  const q = p.toString();
  return { search: q ? `?${q}` : '', hash: encodeConfigToHash(control ? lessonControlConfig(lesson) : lessonConfig(lesson)) };
}

/** Whether a page's search opens a built-in lesson's control (`?lesson=ID&control=1`). */
export function isControlSearch(search: string): boolean {
  const p = new URLSearchParams(search);
  return p.get('control') === '1' && lessonById(p.get('lesson') ?? '') !== undefined;
}

/** `search` with `lesson` set to `param` (null: removed, with its `control`); other parameters kept as they are. */
export function withLessonParam(search: string, param: string | null): string {
  const p = new URLSearchParams(search);
  p.delete('control');
  if (param === null) p.delete('lesson');
  else p.set('lesson', param);
  const q = p.toString();
  return q ? `?${q}` : '';
}

/**
 * The hash of a teacher's lesson: the experiment of `hash` in teaching mode (a lesson is for a projector), or null
 * when `hash` does not open.
 */
export function teachingHash(hash: string): string | null {
  const r = decodeConfigFromHash(hash);
  if (!r.ok) return null;
  return encodeConfigToHash({ ...r.config, ui: { ...r.config.ui, teaching: true } });
}
