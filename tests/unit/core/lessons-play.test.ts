// Every built-in lesson played to the end through the engine (the CLI's commands on the lesson's own link, or the
// lab's engine job where the lab has no command that takes a link), its results reduced to the lesson's observation
// and its expected finding checked: this fails when a lesson's live result stops saying what its text says.
// wasm in Node; each lesson is one small run (the lesson's own config, which runs in under 30 s on a 2-core CPU).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/engine/backend';
import { RunControl } from '../../../src/engine/control';
import { jobContext } from '../../../src/engine/jobs/job';
import { reservoirSweepJob, streamJob } from '../../../src/engine/stream/job';
import { bucketTrainingSize } from '../../../src/core/stream/config';
import { formatAlpha } from '../../../src/core/stream/reservoir';
import { loadBuiltinImages } from '../../../src/cli/inputs';
import { configToFlags } from '../../../src/cli/config-args';
import { timeOf } from '../../../src/core/config/sections/time';
import { canonicalOrdering } from '../../../src/core/orderings/key';
import { rsClassOrder } from '../../../src/core/protocols/rs';
import { LESSONS, checkAll, lessonConfig, lessonLink, type Lesson, type LessonObservation, type NamedOrdering } from '../../../src/core/lessons';
import { ownClassesOf } from '../../../src/core/config/sections/own-classes';
import { OWN_SAMPLE_SIZE, ownFeatureSet, ownSampleList } from '../../../src/core/own-classes/settings';
import { readSamplesZip } from '../../../src/data/own-samples-zip';
import { decodePng } from '../../../src/data/parsers/png';
import { resizeToRgb } from '../../../src/data/parsers/image-folder-zip';
import { ownEncodeJob, ownTrainJob } from '../../../src/engine/own-classes/job';
import { captureCli } from '../cli/capture';

const cli = captureCli();
const root = join(__dirname, '..', '..', '..');
const flagsOf = (v: Record<string, string | boolean | undefined>) =>
  Object.entries(v).flatMap(([k, x]) => (x === undefined || x === false ? [] : x === true ? [`--${k}`] : [`--${k}`, x]));
const key = (tasks: readonly (readonly number[])[]) =>
  canonicalOrdering(tasks.map((t) => [...t]))
    .map((t) => t.join(','))
    .join('|');

async function run(...argv: string[]): Promise<any> {
  const r = await cli(...argv);
  expect(r.code, r.err).toBe(0);
  return r.json;
}

const ctxOf = () => jobContext((id) => loadBuiltinImages(id, root), new RunControl());

/** The lesson's run, as the app would observe it once finished. */
async function play(lesson: Lesson): Promise<LessonObservation> {
  const config = lessonConfig(lesson);
  const { hash } = lessonLink(lesson);
  switch (lesson.lab) {
    case 'ground-truth': {
      // every ordering per strategy, on the fast path (the lab's Play trains the same runs); RS draws as the plan draws them
      const strategies = [];
      for (const s of config.strategies) {
        const out = await run('run', ...flagsOf(configToFlags({ ...config, strategies: [s] }, 'run')), '--orderings', 'all', '--backend', 'wasm');
        const byKey = new Map<string, number>(out.runs.map((r: any) => [key(r.tasks), r.final_accuracy]));
        const draws = config.protocols.rsSeeds.map((seed) => {
          const order = rsClassOrder(seed, config.classes.length).map((p) => config.classes[p]);
          const tasks: number[][] = [];
          let at = 0;
          for (const m of config.taskSizes) tasks.push(order.slice(at, (at += m)));
          return { label: `RS seed ${seed}`, value: byKey.get(key(tasks)) ?? null };
        });
        strategies.push({ strategy: s.id, truth: out.runs.map((r: any) => r.final_accuracy), planned: out.runs.length, draws });
      }
      return { lab: 'ground-truth', strategies };
    }
    case 'orderings': {
      const out = await run('orders', '--link', hash);
      const orderings: NamedOrdering[] = out.sequences.map((s: any) => ({ label: s.label, tasks: s.tasks, score: s.score }));
      return { lab: 'orderings', classNames: Object.fromEntries(out.classes.map((name: string, p: number) => [p, name])), orderings };
    }
    case 'forgetting': {
      const seeds = config.forgetting.seeds ?? 1;
      const out = await run(
        'cpcf',
        '--link',
        hash,
        '--backend',
        'wasm',
        ...(seeds > 1 ? ['--seeds', `${config.seeds[0]}-${config.seeds[0] + seeds - 1}`] : []),
      );
      const runs = (out.runs ?? [out]).map((r: any, k: number) => ({ seed: r.seed ?? config.seeds[0] + k, cpcf: r.cpcf, aPrev: r.aPrev }));
      return { lab: 'forgetting', runs, planned: seeds };
    }
    case 'time': {
      // the Time lab's own job (the lab trains one run per protocol at its seed)
      const t = timeOf(config);
      // "Every α": Alg. 1 alone on one bucket's training part per bucket, as the lab's sweep button runs it
      const size = bucketTrainingSize(t, t.protocols[0] ?? 'iid', 10);
      const entries = await reservoirSweepJob(
        { sizes: Array.from({ length: t.buckets }, () => size), k: t.buffer === 'reservoir' ? t.k : size, trials: 200, seed: t.seed },
        ctxOf(),
        () => {},
      );
      const sweep = entries.map((e) => ({ alpha: formatAlpha(e.alpha), last: e.composition[e.composition.length - 1] }));
      if (lesson.expect.every((e) => e.kind === 'reservoir-share')) return { lab: 'time', runs: [], planned: 0, sweep };
      await selectBackend('wasm', { strict: true });
      const ctx = ctxOf();
      const runs = [];
      for (const protocol of t.protocols) {
        const r = await streamJob({ config: t, protocol, resumeFrom: null }, ctx, () => {});
        runs.push({ seed: t.seed, protocol, inDomain: r.metrics.inDomain ?? null, nextDomain: r.metrics.nextDomain ?? null });
      }
      return { lab: 'time', runs, planned: t.protocols.length, sweep };
    }
    case 'open-world': {
      const out = await run('ood', '--link', hash, '--backend', 'wasm');
      const reports = out.runs ?? [out];
      return {
        lab: 'open-world',
        runs: reports.map((r: any, k: number) => ({ seed: r.config?.seed ?? k, steps: r.steps.map((s: any) => ({ assignment: s.assignment })) })),
        planned: reports.length,
      };
    }
    case 'curriculum': {
      const out = await run('curriculum', '--link', hash, '--backend', 'wasm');
      const pairs = out.summary.pairs.map((p: any) => ({
        strategy: p.strategy,
        scenario: p.scenario,
        deltaAcc: p.deltaAcc.mean,
        deltaAcc0: p.deltaAcc0.mean,
      }));
      return { lab: 'curriculum', pairs, complete: true };
    }
    case 'own-classes': {
      // the lesson's recorded sample set, imported as the lab's Import zip does, through the lab's own jobs: the
      // features of every sample, then the teaching order trained with each strategy the finding names. The
      // encoder is the tiny CLIP vision fixture (tests never reach the hub), in place of the lesson's CLIP.
      const oc = ownClassesOf(config);
      const zip = readSamplesZip(readFileSync(join(root, 'tests/fixtures/own-classes/four-things.zip')), 'four-things.zip');
      const encoder = {
        ...oc.encoder,
        model: 'clip-vision-tiny',
        precision: 'fp32' as const,
        weights: { kind: 'self-hosted' as const, path: join(root, 'tests/fixtures') },
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
      await selectBackend('wasm', { strict: true });
      const strategies = [...new Set(lesson.expect.flatMap((e) => (e.kind === 'class-forgotten' ? [e.strategy] : [])))];
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

describe('every built-in lesson says what its text says', () => {
  let before = 'cpu';
  beforeAll(async () => {
    before = (await import('@tensorflow/tfjs-core')).getBackend() ?? 'cpu';
  });
  afterAll(async () => {
    await selectBackend(before as 'cpu', { strict: false }).catch(() => undefined);
  });

  for (const lesson of LESSONS) {
    it(`${lesson.id} (${lesson.lab}): its expected finding holds`, { timeout: 180_000 }, async () => {
      const started = performance.now();
      const observed = await play(lesson);
      const result = checkAll(lesson.expect, observed);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      // the lesson's run time and what it showed, for the closing note (vitest prints a test's console output)
      console.log(`[lesson] ${lesson.id}: ${result.status} in ${seconds} s — ${result.checks.map((c) => c.detail).join(' ')}`);
      expect(result.status, result.checks.map((c) => c.detail).join(' ')).toBe('holds');
    });
  }
});
