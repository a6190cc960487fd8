/**
 * The glossary ("every term has a hover/tap explanation"): what each symbol and word on the labs' pages
 * means, in a sentence or two a student can follow, with where the full definition is (docs/science.md §…).
 * The UI shows an entry with <Term key="…"> (src/ui/common/Term.svelte) and lists them all in the glossary drawer
 * (src/shell/GlossaryDrawer.svelte). Every key used by a <Term> in src/ must be here (tests/unit/core/glossary.test.ts).
 *
 * Each explanation was checked against docs/science.md; when the two disagree, science.md is right.
 *
 * Layering: pure data; lab ids are the lab registry's (src/core/labs).
 */
import type { LabId } from './config/types';

export interface GlossaryEntry {
  /** The term as the pages write it ("Ω", "EDGE+", "a_prev / a_new"). */
  term: string;
  /** Its name in words, when the term is a symbol ("the set of all orderings"). */
  name: string;
  /** One to three sentences a student understands. Plain text (never rendered as HTML). */
  explain: string;
  /** Where the full definition is: "docs/science.md §1". */
  ref: string;
  /** The lab(s) that use it, for the drawer's filter (empty: all). */
  labs?: readonly LabId[];
}

const E = (term: string, name: string, explain: string, ref: string, labs?: readonly LabId[]): GlossaryEntry => ({ term, name, explain, ref, labs });

/** term key → entry. Keys are lowercase ASCII words and hyphens, stable (pages refer to them). */
export const GLOSSARY = {
  // --- orderings (science.md §1) ---
  ordering: E(
    'ordering',
    'class ordering',
    'How the classes are split into tasks and in which order the tasks are trained. Class-incremental learning trains task 1, then task 2, … and never goes back.',
    'docs/science.md, Conventions',
  ),
  task: E(
    'task',
    'task',
    'A group of classes the model learns together, in one training step. The order of classes inside a task does not matter; the order of the tasks does.',
    'docs/science.md, Conventions',
  ),
  omega: E(
    'Ω',
    'the set of all orderings',
    'Every possible way to split the classes into tasks of the given sizes and order them. |Ω| = N! / (m₁!·…·m_K!): 90 for 6 classes in 3 tasks, about 2.4·10⁹² for CIFAR-100 in 10 tasks.',
    'docs/science.md §1, Counting',
    ['orderings', 'ground-truth'],
  ),
  'omega-below': E(
    'Ω below',
    'share of Ω with a lower S',
    'The share of all orderings (or of a uniform sample of them) whose S is lower than this ordering’s. 0 % = the hardest ordering by S, 100 % = the easiest.',
    'docs/science.md §1, The similarity score S',
    ['orderings'],
  ),
  s: E(
    'S',
    'the similarity score of an ordering',
    'Adds up how similar the classes in neighbouring tasks are (EDGE paper, Eq. 5). High S: adjacent tasks look alike, which the paper expects to be easier; low S: expected harder.',
    'docs/science.md §1, The similarity score S',
    ['orderings', 'ground-truth'],
  ),
  gap: E(
    'Gap',
    'distance to the exact extreme',
    'How far an ordering’s S is from the best possible one it aims at: S − min S for a hard ordering, max S − S for an easy one. 0 means it found the exact extreme.',
    'docs/science.md §1, EDGE+ and exact extremes',
    ['orderings'],
  ),
  similarity: E(
    'similarity',
    'class similarity Sim',
    'A number for every pair of classes saying how alike they are (1 = the same). Here it comes from WordNet, CLIP text embeddings, the images themselves, or a file you upload.',
    'docs/science.md §6',
    ['orderings'],
  ),
  wordnet: E(
    'WordNet',
    'Wu–Palmer similarity',
    'Similarity from the WordNet dictionary’s tree of meanings: two classes are alike when their common ancestor (e.g. “mammal”) is deep in the tree. Works offline.',
    'docs/science.md §6, WordNet',
    ['orderings'],
  ),
  clip: E(
    'CLIP',
    'CLIP text embeddings',
    'A neural network that maps text to vectors; the similarity of two class names is the cosine of their vectors. The EDGE paper’s choice; the model is downloaded once.',
    'docs/science.md §6, CLIP text',
    ['orderings'],
  ),
  dendrogram: E(
    'dendrogram',
    'clustering tree',
    'The tree EDGE builds by repeatedly merging the two most similar groups of classes (complete linkage). Classes joined low in the tree are very similar.',
    'docs/science.md §1, EDGE',
    ['orderings'],
  ),
  rs: E(
    'RS',
    'random seeds protocol',
    'The community’s usual evaluation: shuffle the classes with numpy seeds 0, 42 and 1993 and report the average. Three random orderings out of Ω.',
    'docs/science.md §1, RS protocol',
    ['orderings', 'ground-truth'],
  ),
  edge: E(
    'EDGE',
    'the EDGE protocol',
    'The EDGE paper’s three orderings built from class similarity: a hard one (similar classes kept together, low S), an easy one (similar classes spread out, high S) and a random “median” one. Together they should show the spread of results.',
    'docs/science.md §1, EDGE',
    ['orderings', 'ground-truth'],
  ),
  'edge-plus': E(
    'EDGE+',
    'EDGE with local search (ours)',
    'Our extension: starting from EDGE’s orderings, swap classes between tasks while S keeps improving. Not in the paper; it repairs cases where EDGE’s greedy construction misses.',
    'docs/science.md §1, EDGE+ and exact extremes',
    ['orderings'],
  ),
  exact: E(
    'exact',
    'exact extremes of S',
    'When Ω is small enough (≤ 10⁶ orderings), every ordering is scored and the true lowest and highest S are shown, to check the other protocols against.',
    'docs/science.md §1, EDGE+ and exact extremes',
    ['orderings'],
  ),
  'as-ms': E(
    'AS / MS',
    'adversarial and max-cover sampling',
    'Two baselines from the EDGE paper. AS builds the class sequence greedily from the least (hard) or most (easy) similar class; MS draws 200 random orderings and keeps the lowest and highest S.',
    'docs/science.md §1, Other baselines',
    ['orderings'],
  ),
  median: E(
    'median',
    'EDGE’s random ordering',
    'EDGE’s third ordering: simply a seeded random ordering (numpy default_rng(0)), meant to sit in the middle.',
    'docs/science.md §1, Random/median ordering',
    ['orderings', 'ground-truth'],
  ),
  csg: E(
    'CSG',
    'class-split agreement',
    'When two similarity sources are compared: the share of classes that land in the same task when EDGE runs on each (tasks matched one-to-one). 1 = identical splits.',
    'docs/science.md §6, Agreement between two sources',
    ['orderings'],
  ),
  mae: E(
    'MAE',
    'mean absolute error',
    'The average difference between two similarity matrices over all pairs of classes (the diagonal left out).',
    'docs/science.md §6, Agreement between two sources',
    ['orderings'],
  ),
  spearman: E(
    'Spearman ρ',
    'rank correlation',
    'How well two lists agree on the order of their values (1 = same order, 0 = unrelated), ignoring the values themselves.',
    'docs/science.md §6, Agreement between two sources',
    ['orderings'],
  ),
  'sample-size': E(
    'sample size L',
    'orderings needed',
    'How many random orderings you must evaluate so their mean accuracy is within ε of the mean over all of Ω with probability 1 − δ (EDGE paper, Theorems 1 and 2).',
    'docs/science.md §1, Sample-size bounds',
    ['orderings'],
  ),
  // --- ground truth (science.md §2) ---
  'ground-truth': E(
    'ground truth',
    'the real distribution',
    'The accuracy of every ordering in Ω (or of a uniform random sample when Ω is large), actually trained. The protocols’ estimates are judged against it.',
    'docs/science.md §2, Ground truth',
    ['ground-truth'],
  ),
  'a-of-o': E(
    'A(O)',
    'accuracy of an ordering',
    'The number studied for each ordering O: its final accuracy (default) or its average incremental accuracy (AIA), averaged over the training seeds.',
    'docs/science.md §2, The variable A(O)',
    ['ground-truth'],
  ),
  'final-accuracy': E(
    'final accuracy',
    'accuracy after the last task',
    'The accuracy on the test images of all classes after the model has learned every task.',
    'docs/science.md §2, The variable A(O)',
  ),
  aia: E(
    'AIA',
    'average incremental accuracy',
    'The accuracy on the classes seen so far, measured after every task and averaged over the tasks. Rewards a model that was good along the way, not only at the end.',
    'docs/science.md §2, The variable A(O)',
  ),
  estimate: E(
    'estimate',
    'a protocol’s Gaussian',
    'A bell curve fitted to a protocol’s few accuracies (3 for RS or EDGE): its guess of the whole distribution over Ω.',
    'docs/science.md §2, Estimates',
    ['ground-truth'],
  ),
  jsd: E(
    'JSD',
    'Jensen–Shannon divergence',
    'How different two distributions are, in bits: 0 = identical, 1 = no overlap. Here: a protocol’s estimate against the ground truth. Lower is better.',
    'docs/science.md §2, Distances',
    ['ground-truth'],
  ),
  w1: E(
    'W1',
    'Wasserstein distance',
    'How far the estimate’s mass must move to match the truth, in accuracy points (“earth mover’s distance”). Lower is better.',
    'docs/science.md §2, Distances',
    ['ground-truth'],
  ),
  pearson: E(
    'Pearson r',
    'linear correlation',
    'How closely two numbers move together on a straight line: +1 perfectly, 0 not at all, −1 in opposite directions. The p-value says how likely so strong an r is by chance alone.',
    'docs/science.md §2, Correlation of S and A',
    ['ground-truth', 'forgetting'],
  ),
  'p-value': E(
    'p',
    'p-value',
    'The chance of seeing a result at least this strong if there were really no effect. Small (say below 0.05) means the effect is unlikely to be luck; it says nothing about how big the effect is.',
    'docs/science.md §2',
  ),
  normality: E(
    'normality',
    'is it a bell curve?',
    'RS and EDGE fit a Gaussian; these tests (Shapiro–Wilk, K², KS, after a Box-Cox transform) check whether the true distribution is close enough to one.',
    'docs/science.md §2, Normality',
    ['ground-truth'],
  ),
  'box-cox': E(
    'Box-Cox λ',
    'power transform',
    'A transform x → (x^λ − 1)/λ chosen to make data look as normal as possible; the normality tests run on the transformed values.',
    'docs/science.md §2, Normality',
    ['ground-truth'],
  ),
  rankings: E(
    'rankings',
    'ranking of strategies',
    'With several strategies, each is ranked by its worst, best and spread of accuracy, under the truth and under each protocol. A ranking error counts how far a protocol’s ranks are from the truth’s.',
    'docs/science.md §2, Rankings',
    ['ground-truth'],
  ),
  'sample-count': E(
    'sample-count study',
    'more orderings, better estimate?',
    'How the estimate’s JSD and W1 improve as more orderings L are evaluated, averaged over many random draws: L random orderings against EDGE’s three plus L − 3 random ones.',
    'docs/science.md §2, Sample-count study',
    ['ground-truth'],
  ),
  'accuracy-matrix': E(
    'R',
    'accuracy matrix',
    'A K×K table: R[i][j] is the accuracy on task j’s test images after training tasks 1..i. Rows are training steps, columns test tasks.',
    'docs/science.md, Conventions',
  ),
  strategy: E(
    'strategy',
    'CIL strategy',
    'How the model fights forgetting: finetune (nothing, the lower bound), replay (keep a small memory of old images), EWC (protect important weights), LwF, iCaRL, … and joint (all data so far, the upper bound).',
    'docs/science.md, appendix A, Strategies',
  ),
  finetune: E(
    'finetune',
    'plain fine-tuning',
    'Train on each new task’s data only, with no protection for old classes: the model forgets the most. The lower bound.',
    'docs/science.md, appendix A, Strategies',
  ),
  replay: E(
    'replay',
    'experience replay',
    'Keep a small memory of old training images (200 by default) and mix them into every new task’s training.',
    'docs/science.md, appendix A, Strategies',
  ),
  ewc: E(
    'EWC',
    'elastic weight consolidation',
    'Adds a penalty that keeps the weights that mattered for earlier tasks close to their old values (Kirkpatrick et al., 2017).',
    'docs/science.md, appendix A, Strategies',
  ),
  seed: E(
    'seed',
    'random seed',
    'The number that fixes every random choice (initial weights, batch order, …). The same seed gives the same numbers; different seeds show how much is luck.',
    'docs/science.md, Conventions',
  ),
  'prefix-sharing': E(
    'prefix sharing',
    'train shared beginnings once',
    'Orderings that start with the same tasks train those tasks identically, so the lab trains each shared beginning once: 195 tasks instead of 270 for the 90 orderings of 6 classes in 3 tasks.',
    'docs/science.md, appendix A, Prefix sharing',
    ['ground-truth'],
  ),
  // --- forgetting (science.md §3) ---
  cpcf: E(
    'CPCF',
    'conformal prediction for catastrophic forgetting',
    'After each new task, the average size of the conformal prediction sets on the earlier tasks’ test images. A model that forgets becomes unsure, so its sets grow: CPCF rises.',
    'docs/science.md §3, The CPCF series',
    ['forgetting'],
  ),
  conformal: E(
    'conformal prediction',
    'prediction sets with a guarantee',
    'Instead of one answer, the model gives a set of classes that contains the true class with probability about 1 − α, calibrated on held-out images.',
    'docs/science.md §3, Conformal scores and sets',
    ['forgetting'],
  ),
  'set-size': E(
    'set size',
    'size of a prediction set',
    'How many classes the conformal set contains for one image: 1 = the model is sure, many = unsure.',
    'docs/science.md §3, Conformal scores and sets',
    ['forgetting'],
  ),
  coverage: E(
    'coverage',
    'empirical coverage',
    'The share of test images whose prediction set contains the true class. Conformal prediction promises about 1 − α; this checks it.',
    'docs/science.md §3, Beyond the paper',
    ['forgetting'],
  ),
  alpha: E(
    'α',
    'miscoverage level',
    'The error rate conformal sets allow: with α = 0.1 the sets aim to contain the true class 90 % of the time.',
    'docs/science.md §3, Conformal scores and sets',
    ['forgetting'],
  ),
  'calibration-ratio': E(
    'calibration ratio',
    'share held out for calibration',
    'The share r of each task’s training images kept aside (never trained on) to calibrate the conformal threshold. Default 0.1.',
    'docs/science.md §3, Data',
    ['forgetting'],
  ),
  aps: E(
    'APS',
    'adaptive prediction sets',
    'The conformal score used by the CPCF paper: add up class probabilities from the most likely down to the true class.',
    'docs/science.md §3, Conformal scores and sets',
    ['forgetting'],
  ),
  'a-prev-new': E(
    'a_prev / a_new',
    'accuracy on old / new tasks',
    'After training task j: a_prev is the mean accuracy on tasks 1..j−1 (what may be forgotten), a_new the accuracy on task j just learned.',
    'docs/science.md §3, The CPCF series',
    ['forgetting'],
  ),
  'omega-prev': E(
    'Ω_prev',
    'the CPCF paper’s retention score',
    'The mean over steps of a_prev divided by α_ideal: 1 means the old tasks are remembered as well as right after base training. Kemker’s Ω_base, Ω_new and Ω_all are its siblings.',
    "docs/science.md §3, Kemker's Ω and the paper's Ω_prev",
    ['forgetting'],
  ),
  'alpha-ideal': E(
    'α_ideal',
    'ideal base accuracy',
    'The base task’s accuracy right after it was learned (R[1][1]); the Ω scores divide by it.',
    "docs/science.md §3, Kemker's Ω and the paper's Ω_prev",
    ['forgetting'],
  ),
  dcor: E(
    'dCor',
    'distance correlation',
    'Like a correlation, but catches any dependence, not only straight lines: 0 = independent, 1 = fully dependent. Here: between the CPCF series and a_prev.',
    'docs/science.md §3, Correlations',
    ['forgetting'],
  ),
  bwt: E('BWT', 'backward transfer', 'How much learning later tasks changed the accuracy on earlier ones. Negative means forgetting.', 'docs/science.md §4'),
  fwt: E('FWT', 'forward transfer', 'How much earlier tasks help a task before it is trained, compared with an untrained model.', 'docs/science.md §4'),
  forgetting: E(
    'forgetting',
    'catastrophic forgetting',
    'A network trained on new classes loses what it knew about old ones, because the same weights are overwritten.',
    'docs/science.md §3',
  ),
  // --- open world (science.md §5) ---
  'id-ood': E(
    'ID / OOD',
    'in- / out-of-distribution',
    'ID images belong to classes the model has learned; OOD images do not. Near OOD: held-out classes of the same dataset; far OOD: another dataset.',
    'docs/science.md §5',
    ['open-world'],
  ),
  detector: E(
    'detector',
    'OOD detector',
    'A score that says how much an image looks in-distribution (higher = more ID), e.g. MSP (the top softmax probability), Energy, or BER (a head trained to separate them).',
    'docs/science.md §5, Post-hoc detectors',
    ['open-world'],
  ),
  auroc: E(
    'AUROC',
    'area under the ROC curve',
    'The chance that a random ID image scores higher than a random OOD image: 100 % = perfect separation, 50 % = a coin flip. Higher is better.',
    'docs/science.md §5, Metrics',
    ['open-world'],
  ),
  fpr95: E(
    'FPR@95',
    'false-positive rate at 95 % recall',
    'The share of OOD images still accepted as ID when the threshold keeps 95 % of ID images. Lower is better.',
    'docs/science.md §5, Metrics',
    ['open-world'],
  ),
  msp: E('MSP', 'maximum softmax probability', 'The simplest detector: the model’s confidence in its top class.', 'docs/science.md §5, Post-hoc detectors', [
    'open-world',
  ]),
  energy: E(
    'Energy',
    'energy score',
    'logsumexp of the logits: like MSP but uses the raw outputs, so it does not saturate.',
    'docs/science.md §5, Post-hoc detectors',
    ['open-world'],
  ),
  ber: E(
    'BER',
    'bi-directional energy regularisation',
    'The OpenCIL paper’s method: after each task, a small head is trained to give ID images low energy and mixed pseudo-OOD images high energy.',
    'docs/science.md §5, Fine-tuning detectors',
    ['open-world'],
  ),
  // --- time (science.md §7) ---
  bucket: E(
    'bucket',
    'a slice of time',
    'One period of the stream (a year in the CLEAR benchmark). Here: Fashion-MNIST redrawn in a look that drifts from bucket to bucket.',
    'docs/science.md §7, The stream',
    ['time'],
  ),
  'iid-protocol': E(
    'iid protocol',
    'train/test split inside each bucket',
    'Each bucket is split 70/30 into training and test images; the model is tested on held-out images of every bucket.',
    'docs/science.md §7, Protocols',
    ['time'],
  ),
  'streaming-protocol': E(
    'streaming protocol',
    'test on tomorrow',
    'Train on all of today’s bucket and test on the next one: today’s test set is tomorrow’s training set (the CLEAR paper’s proposal).',
    'docs/science.md §7, Protocols',
    ['time'],
  ),
  'in-domain': E(
    'in-domain',
    'tested on the bucket just trained',
    'The mean of R’s diagonal: accuracy on the bucket the model has just learned.',
    'docs/science.md §7, Metrics',
    ['time'],
  ),
  'next-domain': E(
    'next-domain',
    'tested on the next bucket',
    'The mean of R’s super-diagonal: accuracy on the bucket that comes next, which the model has not seen. What a deployed model faces.',
    'docs/science.md §7, Metrics',
    ['time'],
  ),
  reservoir: E(
    'reservoir',
    'biased reservoir sampling',
    'A training buffer of k images; each new image may replace an old one. α above 1 favours recent images (CLEAR supplement, Alg. 1).',
    'docs/science.md §7, Training and buffers',
    ['time'],
  ),
  drift: E(
    'drift',
    'distribution shift over time',
    'The images change look from bucket to bucket (rotation, stroke, contrast, background) while the classes stay the same.',
    'docs/science.md §7, The stream',
    ['time'],
  ),
  // --- curriculum (science.md §8) ---
  m2i: E(
    'M2I / I2M',
    'easy first / hard first',
    'M2I trains whole datasets from the easiest (e.g. MNIST) to the hardest; I2M is exactly the reverse.',
    'docs/science.md §8',
    ['curriculum'],
  ),
  acc0: E(
    'ACC₀',
    'the weighting artefact',
    'The ACC a model with no transfer and no forgetting would get in this order. Early tasks count more in ACC, so easy-first wins ACC even with no real benefit; ACC − ACC₀ is what the order itself did.',
    'docs/science.md §8',
    ['curriculum'],
  ),
  acc: E('ACC', 'average accuracy over R', 'The mean of R’s diagonal and everything below it (the M2I paper’s Eq. 1).', 'docs/science.md §4', ['curriculum']),
  'cil-til': E(
    'CIL / TIL',
    'class- / task-incremental',
    'CIL: the model must pick the class among all classes seen so far. TIL: it is told which task (dataset) an image is from and picks among that task’s classes only; easier.',
    'docs/science.md §8',
    ['curriculum'],
  ),
  difficulty: E(
    'difficulty a_j',
    'accuracy when trained alone',
    'A dataset’s test accuracy when the same model is trained on it alone; M2I sorts by it.',
    'docs/science.md §8',
    ['curriculum'],
  ),
  // --- the app ---
  'teaching-mode': E(
    'teaching mode',
    'for a projector',
    'Big type, few controls and Play / Pause / Step: the Ground-truth lab trains the orderings one after another so a class can watch the histogram grow. Turn it on with the Teaching button or ?teach in the URL.',
    'docs/design.md, Teaching mode',
  ),
  'share-link': E(
    'share link',
    'the experiment in a URL',
    'The address bar holds the whole experiment (a versioned, compressed config). Opening the link on another machine reproduces the same numbers.',
    'docs/design.md',
  ),
  lesson: E(
    'lesson',
    'a guided experiment',
    'A ready share link with two or three sentences and a question for students. Teachers can save their own from the current experiment.',
    'docs/design.md, Lessons',
  ),
} as const satisfies Record<string, GlossaryEntry>;

export type GlossaryKey = keyof typeof GLOSSARY;

export const GLOSSARY_KEYS = Object.keys(GLOSSARY) as GlossaryKey[];

/** Whether `key` is a glossary key. */
export function isGlossaryKey(key: string): key is GlossaryKey {
  return Object.prototype.hasOwnProperty.call(GLOSSARY, key);
}

/** The entry of `key`; throws for an unknown key (a programming error the unit test catches first). */
export function glossaryEntry(key: string): GlossaryEntry {
  if (!isGlossaryKey(key)) throw new Error(`Unknown glossary term "${key}"`);
  return GLOSSARY[key];
}

/** Fold case and accents/subscripts for searching ("omega" finds Ω, "a_prev" finds a_prev / a_new). */
function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/Ω/g, 'omega ')
    .replace(/α/g, 'alpha ')
    .replace(/ρ/g, 'rho ')
    .toLowerCase();
}

/**
 * The entries matching a search (every word of the query in the term, its name or its explanation), term matches
 * first, then in glossary order. An empty query gives all entries. With `lab`, only the entries that lab uses (an entry
 * without a lab list belongs to every lab).
 */
export function searchGlossary(query: string, lab: LabId | null = null): Array<{ key: GlossaryKey; entry: GlossaryEntry }> {
  const words = fold(query).split(/\s+/).filter(Boolean);
  const all = GLOSSARY_KEYS.map((key) => ({ key, entry: GLOSSARY[key] as GlossaryEntry })).filter(
    (x) => lab === null || !x.entry.labs || x.entry.labs.includes(lab),
  );
  if (words.length === 0) return all;
  const scored = all
    .map((x) => {
      const head = fold(`${x.entry.term} ${x.entry.name} ${x.key}`);
      const body = fold(x.entry.explain);
      if (!words.every((w) => head.includes(w) || body.includes(w))) return null;
      return { x, score: words.every((w) => head.includes(w)) ? 0 : 1 };
    })
    .filter((v): v is { x: (typeof all)[number]; score: number } => v !== null);
  return scored.sort((a, b) => a.score - b.score).map((v) => v.x);
}
