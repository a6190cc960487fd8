/**
 * `cil-lab lesson --list | ID [--control] [--backend wasm|cpu]`: a built-in lesson played headless (docs/design.md
 * "Lessons"), so a teacher can check a course's lessons before class. The lesson's experiment (or, with --control,
 * its control: the same experiment with the one change its question is about) runs through the lab's own CLI command
 * or engine job, its results are reduced to the lesson's observation (src/core/lessons/observations.ts), and the
 * lesson's check says whether its finding is seen. Prints `{"id", "control", "seen": true|false, "check", "numbers",
 * "change", "seconds"}` and exits 0 either way; an unknown id is a usage error (exit 2, one line).
 *
 * `playLesson` is the same play as a function (tests/unit/core/lessons-play.test.ts plays lessons and controls with it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timeLab } from '../core/labs/time';
import { ownClassesOf } from '../core/labs/own-classes/section';
import type { ExperimentConfig } from '../core/config/types';
import {
  LESSONS,
  checkAll,
  controlExpectations,
  describeExpectation,
  lessonById,
  lessonConfig,
  lessonControlConfig,
  forgettingObservation,
  openWorldObservation,
  orderingsObservation,
  timeObservation,
  type Expectation,
  type Lesson,
  type LessonObservation,
  type NamedOrdering,
} from '../core/lessons';
import { canonicalOrdering } from '../core/orderings/key';
import { rsClassOrder } from '../core/protocols/rs';
import { bucketTrainingSize } from '../core/labs/time/settings';
import { formatAlpha } from '../core/stream/reservoir';
import { OWN_SAMPLE_SIZE, ownFeatureSet, ownSampleList } from '../core/own-classes/settings';
import { encodeConfigToHash } from '../core/config/url-codec';
import { readSamplesZip } from '../data/own-samples-zip';
import { decodePng } from '../data/parsers/png';
import { resizeToRgb } from '../data/parsers/image-folder-zip';
import { selectBackend } from '../engine/backend';
import { RunControl } from '../engine/control';
import { jobContext } from '../engine/jobs/job';
import { ownEncodeJob, ownTrainJob } from '../engine/own-classes/job';
import { reservoirSweepJob, streamJob } from '../engine/stream/job';
import { UsageError } from './args';
import { configToFlags } from './config-args';
import { withoutUnreadFlags } from './flags';
import { loadBuiltinImages } from './inputs';

type Values = Record<string, string | boolean | undefined>;

export const LESSON_HELP = `  cil-lab lesson --list   → every built-in lesson: id, title, lab, question, and its control's one change
  cil-lab lesson ID [--control] [--backend wasm|cpu]   → plays the lesson (or its control) headless:
                 {"id", "control", "seen": true|false, "check", "numbers", "change", "seconds"}; exit 0 either way`;

/** How a play reaches the other commands: the CLI's own dispatcher (main.ts), JSON text out. */
export type CliRunner = (argv: string[]) => Promise<string>;

export interface LessonPlay {
  id: string;
  control: boolean;
  seen: boolean;
  /** what the lesson's check asks, in words (each expectation) */
  check: string[];
  /** what was seen, with the numbers (each expectation's detail) */
  numbers: string[];
  /** the control's one change ('' for the lesson itself) */
  change: string;
  observation: LessonObservation;
  seconds: number;
}

const flagsOf = (v: Values) => Object.entries(v).flatMap(([k, x]) => (x === undefined || x === false ? [] : x === true ? [`--${k}`] : [`--${k}`, x]));
const key = (tasks: readonly (readonly number[])[]) =>
  canonicalOrdering(tasks.map((t) => [...t]))
    .map((t) => t.join(','))
    .join('|');

/** The experiment a play runs and the checks it asks: the lesson's, or its control's. */
export function playSpec(lesson: Lesson, control: boolean): { config: ExperimentConfig; expect: readonly Expectation[]; change: string } {
  if (!control) return { config: lessonConfig(lesson), expect: lesson.expect, change: '' };
  return { config: lessonControlConfig(lesson), expect: controlExpectations(lesson), change: lesson.control.change };
}

/** Play a lesson (or its control) headless, and check it. */
export async function playLesson(lesson: Lesson, o: { control?: boolean; root: string; cli: CliRunner; backend?: 'wasm' | 'cpu' }): Promise<LessonPlay> {
  const started = performance.now();
  const control = o.control === true;
  const { config, expect, change } = playSpec(lesson, control);
  const observation = await observe(lesson, config, expect, o);
  const result = checkAll(expect, observation);
  return {
    id: lesson.id,
    control,
    seen: result.status === 'holds',
    check: expect.map(describeExpectation),
    numbers: result.checks.map((c) => c.detail),
    change,
    observation,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** The lesson's run, reduced as the app reduces it once finished. */
async function observe(
  lesson: Lesson,
  config: ExperimentConfig,
  expect: readonly Expectation[],
  o: { root: string; cli: CliRunner; backend?: 'wasm' | 'cpu' },
): Promise<LessonObservation> {
  const backend = o.backend ?? 'wasm';
  const hash = encodeConfigToHash(config);
  const cli = async (...argv: string[]) => JSON.parse(await o.cli(argv));
  const ctxOf = () => jobContext((id) => loadBuiltinImages(id, o.root), new RunControl());
  switch (lesson.lab) {
    case 'ground-truth': {
      // every ordering per strategy, on the fast path (the lab's Play trains the same runs); RS draws as the plan draws them
      const strategies = [];
      const aia = config.ui.accuracy === 'aia';
      for (const s of config.strategies) {
        // a pre-trained method reads no training flags (the CLI refuses them typed): only what its mode reads
        const flags = withoutUnreadFlags('run', { ...configToFlags({ ...config, strategies: [s] }, 'run'), orderings: 'all', backend });
        const out = await cli('run', ...flagsOf(flags));
        const valueOf = (r: { final_accuracy: number; aia: number }) => (aia ? r.aia : r.final_accuracy);
        const byKey = new Map<string, number>(out.runs.map((r: { tasks: number[][]; final_accuracy: number; aia: number }) => [key(r.tasks), valueOf(r)]));
        const draws = config.protocols.rsSeeds.map((seed) => {
          const order = rsClassOrder(seed, config.classes.length).map((p) => config.classes[p]);
          const tasks: number[][] = [];
          let at = 0;
          for (const m of config.taskSizes) tasks.push(order.slice(at, (at += m)));
          return { label: `RS seed ${seed}`, value: byKey.get(key(tasks)) ?? null };
        });
        const runs = out.runs as { tasks: number[][]; final_accuracy: number; aia: number }[];
        strategies.push({ strategy: s.id, truth: runs.map(valueOf), keys: runs.map((r) => key(r.tasks)), planned: runs.length, draws });
      }
      return { lab: 'ground-truth', strategies };
    }
    case 'orderings': {
      const out = (await cli('orders', '--link', hash)) as { classes: string[]; sequences: NamedOrdering[] };
      return orderingsObservation(out);
    }
    case 'forgetting': {
      const seeds = config.forgetting.seeds ?? 1;
      const out = await cli(
        'cpcf',
        '--link',
        hash,
        '--backend',
        backend,
        ...(seeds > 1 ? ['--seeds', `${config.seeds[0]}-${config.seeds[0] + seeds - 1}`] : []),
      );
      const runs = (out.runs ?? [out]).map((r: { seed?: number; cpcf: number[]; aPrev: number[] }, k: number) => ({
        seed: r.seed ?? config.seeds[0] + k,
        report: r,
      }));
      return forgettingObservation(runs, seeds);
    }
    case 'time': {
      // the Time lab's own job (the lab trains one run per protocol at its seed)
      const t = timeLab.view(config);
      // "Every α": Alg. 1 alone on one bucket's training part per bucket, as the lab's sweep button runs it
      const size = bucketTrainingSize(t, t.protocols[0] ?? 'iid', 10);
      const entries = await reservoirSweepJob(
        { sizes: Array.from({ length: t.buckets }, () => size), k: t.buffer === 'reservoir' ? t.k : size, trials: 200, seed: t.seed },
        ctxOf(),
        () => {},
      );
      const sweep = entries.map((e) => ({ alpha: formatAlpha(e.alpha), last: e.composition[e.composition.length - 1] }));
      if (expect.every((e) => e.kind === 'reservoir-share')) return timeObservation([], 0, sweep);
      await selectBackend(backend, { strict: true });
      const ctx = ctxOf();
      const runs = [];
      for (const protocol of t.protocols) {
        const r = await streamJob({ config: t, protocol, resumeFrom: null }, ctx, () => {});
        runs.push({ seed: t.seed, protocol, metrics: r.metrics });
      }
      return timeObservation(runs, t.protocols.length, sweep);
    }
    case 'open-world': {
      const out = await cli('ood', '--link', hash, '--backend', backend);
      const reports = out.runs ?? [out];
      const runs = reports.map((r: { config?: { seed: number }; steps: { assignment: Record<string, number[]> }[] }, k: number) => ({
        seed: r.config?.seed ?? k,
        steps: r.steps,
      }));
      return openWorldObservation(runs, reports.length);
    }
    case 'curriculum': {
      const out = await cli('curriculum', '--link', hash, '--backend', backend);
      const pairs = out.summary.pairs.map((p: { strategy: string; scenario: 'cil' | 'til'; deltaAcc: { mean: number }; deltaAcc0: { mean: number } }) => ({
        strategy: p.strategy,
        scenario: p.scenario,
        deltaAcc: p.deltaAcc.mean,
        deltaAcc0: p.deltaAcc0.mean,
      }));
      return { lab: 'curriculum', pairs, complete: true };
    }
    case 'own-classes': {
      // the lesson's recorded sample set, imported as the lab's Import zip does, through the lab's own jobs: the
      // features of every sample, then the teaching order trained with each strategy the check names. The encoder is
      // the tiny CLIP vision fixture (offline, as every test), in place of the lesson's CLIP.
      const oc = ownClassesOf(config);
      const zip = readSamplesZip(readFileSync(join(o.root, 'tests/fixtures/own-classes/four-things.zip')), 'four-things.zip');
      const encoder = {
        ...oc.encoder,
        model: 'clip-vision-tiny',
        precision: 'fp32' as const,
        weights: { kind: 'self-hosted' as const, path: join(o.root, 'tests/fixtures') },
      };
      const side = OWN_SAMPLE_SIZE * OWN_SAMPLE_SIZE * 3;
      const classes = [];
      for (const c of zip) {
        const list = ownSampleList(c.train, c.test, oc.trainPerClass, oc.testPerClass);
        const images = new Uint8Array(list.length * side);
        list.forEach((b, i) => {
          const img = decodePng(b);
          images.set(resizeToRgb(img.data, img.width, img.height, [OWN_SAMPLE_SIZE, OWN_SAMPLE_SIZE]), i * side);
        });
        const out = await ownEncodeJob({ encoder, images, shape: [OWN_SAMPLE_SIZE, OWN_SAMPLE_SIZE, 3], count: list.length, device: 'cpu' }, ctxOf(), () => {});
        classes.push({ name: c.name, rows: out.features, train: oc.trainPerClass, dim: out.dim });
      }
      const set = ownFeatureSet(classes, classes[0].dim);
      await selectBackend(backend, { strict: true });
      const strategies = [...new Set(expect.flatMap((e) => (e.kind === 'class-forgotten' ? [e.strategy] : [])))];
      const runs = [];
      for (const strategy of strategies) {
        const r = await ownTrainJob({ set, strategy: strategy as 'finetune' | 'simplecil', seed: oc.seed }, ctxOf(), () => {});
        runs.push({ strategy, classes: set.classNames, matrix: r.matrix });
      }
      return { lab: 'own-classes', runs };
    }
    default:
      throw new Error(`No player for the ${lesson.lab} lab.`);
  }
}

export async function lessonCommand(v: Values, positionals: string[], o: { root: string; cli: CliRunner }): Promise<string> {
  if (v.list === true) {
    if (positionals.length > 0 || v.control === true) throw new UsageError('--list takes no lesson id and no --control.');
    return JSON.stringify(
      LESSONS.map((l) => ({ id: l.id, title: l.title, lab: l.lab, question: l.question, check: l.expect.map(describeExpectation), control: l.control.change })),
    );
  }
  if (positionals.length !== 1) throw new UsageError(`Give one lesson id (cil-lab lesson --list lists them): ${LESSONS.map((l) => l.id).join(', ')}.`);
  const id = positionals[0];
  const lesson = lessonById(id);
  if (!lesson) throw new UsageError(`Unknown lesson "${id.slice(0, 40)}": use one of ${LESSONS.map((l) => l.id).join(', ')}.`);
  const backend = v.backend === undefined ? 'wasm' : v.backend;
  if (backend !== 'wasm' && backend !== 'cpu')
    throw new UsageError(`--backend of cil-lab lesson is wasm or cpu (headless); got "${String(backend).slice(0, 40)}".`);
  const play = await playLesson(lesson, { control: v.control === true, root: o.root, cli: o.cli, backend });
  return JSON.stringify({
    id: play.id,
    control: play.control,
    seen: play.seen,
    check: play.check.join(' '),
    numbers: play.numbers,
    change: play.change || null,
    seconds: play.seconds,
  });
}
