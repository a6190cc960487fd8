/**
 * Lessons (issue 17; docs/design.md "Lessons"): short guided experiments for a class, each a share link (an
 * experiment config in teaching mode) with two or three sentences and a question for students. The built-in ones are
 * below; a teacher's own lessons are the same three texts plus the link they were saved from (stored by
 * src/ui/lessons/lesson-store.ts).
 *
 * A lesson link is the app's URL with `?lesson=<id>` (a built-in lesson) or `?lesson=u.<base64url JSON>` (a teacher's
 * lesson, its texts carried in the link so it opens anywhere) in front of the experiment's `#v1.…` hash. The page
 * shows the lesson's texts in a banner while the lesson is open.
 *
 * The configs are small on purpose: each runs in a minute or two on a laptop's CPU (digits, small MLPs, few epochs).
 * Every built-in config validates (tests/unit/core/lessons.test.ts).
 *
 * Layering: pure TS, imports only src/core.
 */
import { decodeConfigFromHash, encodeConfigToHash, fromBase64Url, toBase64Url } from './config/url-codec';
import { validateConfig } from './config/validate';
import type { ExperimentConfig, LabId } from './config/types';

export interface LessonTexts {
  title: string;
  /** Two or three sentences: what the experiment is and what to do. */
  text: string;
  /** The question for the students. */
  question: string;
}

export interface Lesson extends LessonTexts {
  id: string;
  lab: LabId;
  /** What to press, in a few words ("Press Play"). */
  action: string;
  /** Rough time on a laptop's CPU, for the gallery ("about 1 min"). */
  time: string;
  /** The experiment, as a partial config over the defaults (validated by lessonConfig). */
  config: Record<string, unknown>;
}

/**
 * Digits (8×8 images), 6 classes in 3 tasks: all 90 orderings train in about a minute on wasm. lr 0.01: with 80
 * images per class a task is only 9 Adam steps, and at 1e-3 the model barely learns (final accuracies 11–23 % with
 * fine-tuning, below the 33 % of a model that knows its last task); at 0.01 fine-tuning lands at 29–33 % (it keeps
 * only the last task) and replay at 92–98 % (`cil-lab run --dataset digits --classes 0-5 --tasks 3 --hidden 64
 * --epochs 3 --lr 0.01 --train-per-class 80 --test-per-class 30 --orderings 12`).
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
    time: 'about 1 min',
    text:
      'Papers usually train a few class orders drawn with random seeds (often 0, 42 and 1993) and report their average. ' +
      'Here every one of the 90 orders of six digit classes in three tasks is trained with replay, one grey block each, so you see the whole spread. ' +
      'The blue marks are the three seeded orders (RS).',
    question: 'If a paper had trained only seed 0’s order, how far from the middle of the histogram could its accuracy be? Do three seeds show the spread?',
    config: { ...SMALL_DIGITS, lab: 'ground-truth', strategies: [{ id: 'replay', options: { memory: 200, selection: 'reservoir' } }] },
  },
  {
    id: 'similar-classes',
    title: 'Similar classes in one task',
    lab: 'orderings',
    action: 'Click the rows of the table',
    time: 'instant',
    text:
      'CIFAR-10’s ten classes in five tasks of two, with WordNet’s similarity of every pair in the heat map. ' +
      'EDGE’s hard order keeps similar classes (cat and dog, automobile and truck) together in one task, so neighbouring tasks differ; its easy order spreads them out. ' +
      'Click a row of the orderings table to mark its tasks on the heat map.',
    question: 'Where do cat and dog go in EDGE hard, and where in EDGE easy? Why would an order whose neighbouring tasks are alike be expected to be easier?',
    config: { lab: 'orderings', dataset: { id: 'cifar10' }, classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], taskSizes: [2, 2, 2, 2, 2] },
  },
  {
    id: 'replay-hard-order',
    title: 'Does replay change which order is hard?',
    lab: 'ground-truth',
    action: 'Press Play',
    time: 'about 2 min',
    text:
      'The same 90 orders of six digit classes, each trained twice: with plain fine-tuning, which forgets, and with replay, which keeps 200 old images in memory. ' +
      'Each strategy gets its own histogram. Click the worst and best block of each to see the order and its accuracy matrix.',
    question:
      'Is the hardest order under fine-tuning also the hardest under replay? Why is fine-tuning’s histogram so narrow: what does it still know at the end?',
    config: {
      ...SMALL_DIGITS,
      lab: 'ground-truth',
      strategies: [
        { id: 'finetune', options: {} },
        { id: 'replay', options: { memory: 200, selection: 'reservoir' } },
      ],
    },
  },
  {
    id: 'cpcf-vs-accuracy',
    title: 'What does CPCF see that accuracy does not?',
    lab: 'forgetting',
    action: 'Press Run ▶',
    time: 'under 1 min',
    text:
      'A small network learns digits 0–4, then one new digit per task, forgetting as it goes. ' +
      'After every task, conformal prediction gives each old test image a set of classes that should contain the true one 90 % of the time; CPCF is the average set size. ' +
      'The chart puts CPCF beside a_prev, the accuracy on the old digits.',
    question: 'When a_prev falls, does CPCF rise at the same step? What does a set of size 3 tell you about an image that a wrong answer does not?',
    config: {
      lab: 'forgetting',
      dataset: { id: 'digits' },
      classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      taskSizes: [5, 1, 1, 1, 1, 1],
      strategies: [{ id: 'finetune', options: {} }],
      training: { epochs: 3, firstTaskEpochs: 8, lr: 1e-3, head: 'all' },
      data: { trainPerClass: null, testPerClass: null },
      conformal: { alpha: 0.1, calibrationRatio: 0.1, score: 'aps', softmax: 'all' },
      seeds: [0],
    },
  },
  {
    id: 'tomorrow',
    title: 'Tested on tomorrow',
    lab: 'time',
    action: 'Press Run ▶',
    time: 'about 1 min',
    text:
      'Clothing images whose look drifts from one time bucket to the next (rotated, bolder, on a brighter background). ' +
      'The iid protocol tests on held-out images of the bucket just trained; the streaming protocol trains on today’s bucket and tests on tomorrow’s.',
    question: 'Which is lower: in-domain or next-domain accuracy? Which of the two would you report for a model that will be used tomorrow?',
    // 60 images per class and bucket, 5 epochs: iid in-domain 68 %, next-domain 36 %; streaming next-domain 35 %
    // (`cil-lab stream --protocol iid|streaming --buckets 4 --per-class 60 --epochs 5`; with 30 and 2 epochs the
    // model barely learns, 26 %)
    config: {
      lab: 'time',
      time: { buckets: 4, perClass: 60, epochs: 5, k: 420 },
    },
  },
];

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
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(lesson.config)) {
    const b = base[key];
    merged[key] =
      value && typeof value === 'object' && !Array.isArray(value) && b && typeof b === 'object' && !Array.isArray(b) && key !== 'dataset'
        ? { ...b, ...value }
        : value;
  }
  merged.ui = { ...(base.ui as object), teaching: true };
  // the Time lab's section is optional (absent = its defaults): given in part, it is completed by its own defaults
  if (lesson.config.time && !base.time) merged.time = lesson.config.time;
  const r = validateConfig(merged);
  if (r.errors.length > 0) throw new Error(`Lesson "${lesson.id}" has an invalid config: ${r.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return r.config;
}

/** `?lesson=…` for a built-in lesson's id or a teacher's lesson's texts. */
export function lessonParam(lesson: { id: string } | LessonTexts): string {
  if ('id' in lesson && lessonById(lesson.id)) return lesson.id;
  const t = lesson as LessonTexts;
  const json = JSON.stringify({ title: t.title, text: t.text, question: t.question });
  return `u.${toBase64Url(new TextEncoder().encode(json))}`;
}

/** Longest text of a teacher's lesson field (a link must stay a link). */
export const LESSON_TEXT_MAX = 600;

/** The lesson of a `?lesson=` value: a built-in lesson's texts, a teacher's lesson decoded, or null (unknown, damaged). */
export function lessonFromParam(param: string | null): (LessonTexts & { id: string | null }) | null {
  if (!param) return null;
  const builtin = lessonById(param);
  if (builtin) return { id: builtin.id, title: builtin.title, text: builtin.text, question: builtin.question };
  if (!param.startsWith('u.')) return null;
  const bytes = fromBase64Url(param.slice(2));
  if (!bytes) return null;
  try {
    const v: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (!v || typeof v !== 'object') return null;
    const o = v as Record<string, unknown>;
    const field = (k: string) => (typeof o[k] === 'string' ? (o[k] as string).slice(0, LESSON_TEXT_MAX) : '');
    const title = field('title').trim();
    if (!title) return null;
    return { id: null, title, text: field('text'), question: field('question') };
  } catch {
    return null;
  }
}

/** The search part (`?lesson=…`, keeping the page's other query parameters but `teach`) and hash of a lesson's link. */
export function lessonLink(lesson: Lesson, search = ''): { search: string; hash: string } {
  return { search: withLessonParam(search, lessonParam(lesson)), hash: encodeConfigToHash(lessonConfig(lesson)) };
}

/** `search` with `lesson` set to `param` (null: removed); other parameters kept as they are. */
export function withLessonParam(search: string, param: string | null): string {
  const p = new URLSearchParams(search);
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
