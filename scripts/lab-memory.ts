/**
 * The memory drill's probe: one lab's heaviest valid link — every size at its bound in src/core/config/limits.ts,
 * checked by validateConfig as a share link is — trained through the engine path that lab's worker runs, on wasm
 * (the tab's CPU backend), in this Node process. Prints one JSON line: the lab, the settings, the seconds and the
 * peak resident memory (VmHWM of /proc/self/status, the most this process ever held; a worker and its tfjs wasm
 * heap are what grows a tab).
 *
 *   npx tsx scripts/lab-memory.ts open-world|time|curriculum [--short | --full]
 *
 * Time is the one dimension left small: epochs 1, and without --full the training data capped (Open world: 20 train /
 * 100 test images per class; Time: 12 images per class per bucket; Curriculum: 20 / 20), so the drill takes about a
 * minute a lab; the model, the detectors, the OOD sets, the buffers and the orders are the heaviest the link may ask
 * for. --short (`npm test`) caps the data further (10 images per class; Open world 6 classes in 2 steps; Time 4 per
 * class and bucket, the least). --full trains on more data (Open world: 500 train and all test images per class; Time: 600 per class per
 * bucket, the bound; Curriculum: every training image) and takes several minutes a lab. `npm run drills` runs --full.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateConfig } from '../src/core/config/schema';
import { CONFIG_LIMITS, CURRICULUM_LIMITS, TIME_LIMITS } from '../src/core/config/limits';
import { checkCurriculum, CURRICULUM_DATASET_IDS } from '../src/core/curriculum/catalogue';
import { i2mOrder, m2iOrder } from '../src/core/curriculum/orders';
import { OPEN_WORLD_DEFAULTS, type OpenWorldSettings } from '../src/core/labs/open-world/settings';
import { DETECTOR_IDS } from '../src/core/ood/detectors';
import { defaultTimeLabConfig, type TimeLabConfig } from '../src/core/labs/time/settings';
import { loadBuiltinDataset } from '../src/data/registry';
import { selectBackend } from '../src/engine/backend';
import { joinCurriculum } from '../src/engine/curriculum/data';
import { trainIsolated, trainOrder } from '../src/engine/curriculum/run';
import { fromDecodedDataset } from '../src/engine/dataset';
import { datasetsNeeded, openWorldInput } from '../src/engine/ood/from-settings';
import { runOpenWorld } from '../src/engine/ood/run';
import { streamFromPool } from '../src/engine/stream/data';
import { streamRunConfigOf, streamSpecOf } from '../src/engine/stream/lab';
import { trainStream } from '../src/engine/stream/train';
import type { ImageDataset } from '../src/engine/types';

const root = join(import.meta.dirname, '..');
const lab = process.argv[2];
const full = process.argv.includes('--full');
const short = process.argv.includes('--short');

const load = async (id: string): Promise<ImageDataset> =>
  fromDecodedDataset(await loadBuiltinDataset(id, async (p) => new Uint8Array(readFileSync(join(root, 'public', p)))));

/** The most this process has held (kB → MB), and what it holds now. */
function memory(): { peakMb: number; rssMb: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
}

/** A line on stderr with the time and the memory so far (the JSON result is the one line on stdout). */
function progress(what: string): void {
  const m = memory();
  process.stderr.write(`[${Math.round(performance.now() / 1000)} s, ${m.rssMb} MB, peak ${m.peakMb} MB] ${what}\n`);
}

function valid(config: Record<string, unknown>): void {
  const { errors } = validateConfig(config);
  if (errors.length > 0) throw new Error(`not a valid link: ${errors.map((e) => `${e.path}: ${e.message}`).join(' ')}`);
}

async function openWorld(): Promise<unknown> {
  // close to the most weights the lab's bound allows on Fashion-MNIST's 28×28 (7.9 M of 8 M), every detector, three
  // OOD sets, a memory that keeps every example seen
  const s: OpenWorldSettings = {
    ...OPEN_WORLD_DEFAULTS,
    dataset: 'fashion-mnist',
    classes: short ? [0, 1, 2, 3, 4, 5] : [0, 1, 2, 3, 4, 5, 6, 7, 8],
    tasks: short ? 2 : 3,
    strategy: 'replay',
    memory: CONFIG_LIMITS.strategyExamples,
    epochs: 1,
    hidden: [2048, 2048, 1024],
    trainPerClass: full ? 500 : short ? 10 : 20,
    testPerClass: full ? null : short ? 10 : 100,
    detectors: [...DETECTOR_IDS],
    oodSets: ['fashion-mnist:9', 'digits', 'emoji'],
    headEpochs: 1,
  };
  valid({ lab: 'open-world', openWorld: s });
  const data = new Map<string, ImageDataset>();
  for (const id of datasetsNeeded(s)) data.set(id, await load(id));
  const { dataset, config } = openWorldInput(s, (id) => data.get(id) as ImageDataset);
  const checkpoints: unknown[] = [];
  // the worker hands each step's checkpoint to the page, which stores it: keep them, as the tab does until stored
  await runOpenWorld(dataset, config, {
    onCheckpoint: (c) => checkpoints.push(structuredClone(c)),
    onDetector: (e) => progress(`step ${e.step + 1}: ${e.detector}`),
  });
  return { hidden: s.hidden, detectors: s.detectors.length, oodSets: s.oodSets, trainPerClass: s.trainPerClass, testPerClass: s.testPerClass };
}

async function time(): Promise<unknown> {
  const T = TIME_LIMITS;
  const base: TimeLabConfig = {
    ...defaultTimeLabConfig(),
    buckets: T.buckets.max,
    perClass: full ? T.perClass.max : short ? T.perClass.min : 12,
    hidden: Array(T.hiddenLayers).fill(T.width),
    epochs: 1,
    batchSize: T.batchSize.max,
    buffer: 'cumulative',
  };
  const pool = await load('fashion-mnist');
  const out: unknown[] = [];
  // the linear probe keeps every sample's features; finetune the cumulative buffer: each mode at its heaviest
  for (const mode of ['linear', 'finetune'] as const) {
    const c = { ...base, mode };
    valid({ lab: 'time', time: c });
    const { dataset, stream } = streamFromPool(pool, streamSpecOf(c));
    for (const protocol of c.protocols) {
      progress(`${mode}, ${protocol}`);
      await trainStream(dataset, streamRunConfigOf(c, protocol, stream.sizes));
    }
    out.push(mode);
  }
  return { buckets: base.buckets, perClass: base.perClass, hidden: base.hidden, batchSize: base.batchSize, modes: out };
}

async function curriculum(): Promise<unknown> {
  const C = CURRICULUM_LIMITS;
  // seven datasets (the most), the widest hidden layer; M2I and I2M with replay, each model its own run
  const ids = [...CURRICULUM_DATASET_IDS].slice(0, 7);
  const section = {
    datasets: ids,
    order: 'm2i',
    strategies: ['replay'],
    epochs: 1,
    hidden: C.hidden,
    trainPerClass: full ? C.trainPerClass : short ? 10 : 20,
    testPerClass: full ? C.testPerClass : short ? 10 : 20,
  };
  valid({ lab: 'curriculum', curriculum: section });
  const datasets = checkCurriculum(ids);
  const sources: Record<string, ImageDataset> = {};
  for (const src of new Set(datasets.map((d) => d.source))) sources[src] = await load(src);
  const joined = joinCurriculum(datasets, sources as never, { trainPerClass: section.trainPerClass, testPerClass: section.testPerClass });
  const settings = {
    model: { kind: 'mlp' as const, hidden: [C.hidden] },
    epochs: 1,
    augment: true,
    strategyOptions: { replay: { memory: CONFIG_LIMITS.strategyExamples } },
  };
  progress('isolated models');
  const isolated = await trainIsolated(joined, settings, 0);
  for (const order of [m2iOrder(isolated), i2mOrder(isolated)]) {
    progress(`order ${order.join(',')}`);
    await trainOrder(joined, settings, { order, strategy: 'replay', seed: 0 });
  }
  return { datasets: ids.length, hidden: C.hidden, trainPerClass: section.trainPerClass, testPerClass: section.testPerClass };
}

const labs: Record<string, () => Promise<unknown>> = { 'open-world': openWorld, time, curriculum };
if (!labs[lab]) {
  console.error('usage: npx tsx scripts/lab-memory.ts open-world|time|curriculum [--short | --full]');
  process.exit(2);
}
await selectBackend('wasm', { strict: true });
const t0 = performance.now();
const settings = await labs[lab]();
console.log(
  JSON.stringify({ lab, size: full ? 'full' : short ? 'short' : 'default', settings, seconds: Math.round((performance.now() - t0) / 100) / 10, ...memory() }),
);
