/**
 * Every lab's default numbers, computed the way the app's training worker computes them (the same core and engine
 * entry points and job kinds, src/engine/jobs, on tfjs's wasm backend in Node), so a restructuring of the lab layer
 * can show that it changed no number.
 *
 *   npx tsx scripts/lab-defaults.ts [--labs orderings,time] [--write | --check]
 *
 * A lab's default is the experiment a link holding only `{"lab": "<id>"}` opens. --write stores the numbers in
 * tests/fixtures/lab-defaults.json; --check compares with that file and exits 1 on any difference, or when a lab of
 * the registry has no numbers there. Takes minutes (the Open-world default trains on all of Fashion-MNIST's six
 * classes).
 *
 * The labs below have a function of their own here (the numbers of the app's own entry points, written before the
 * labs had commands that take a link). Any other lab of the registry, a new one included, is measured through its
 * entry's `configCommand` run on the default link (`cil-lab <command> --link …`: the CLI prints the lab's numbers),
 * its JSON kept whole but its timings (`seconds`); `--via-command` measures the named labs that way too (to look at
 * that path; their recorded numbers are their functions').
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { validateConfig, type ExperimentConfig, type LabId } from '../src/core/config/schema';
import { encodeConfigToHash } from '../src/core/config/url-codec';
import { LAB_IDS, labEntry } from '../src/core/labs';
import { curriculumLab } from '../src/core/labs/curriculum';
import { openWorldLab } from '../src/core/labs/open-world';
import { timeLab } from '../src/core/labs/time';
import { ownClassesOf } from '../src/core/labs/own-classes/section';
import { experimentClassNames, protocolOptionsOf } from '../src/core/config/derived';
import { computeOrderingsView } from '../src/core/protocols/orderings-view';
import { planGroundTruth } from '../src/core/ground-truth/plan';
import { sampleOrder } from '../src/core/ground-truth/schedule';
import { matrixFromRows, matrixToRows } from '../src/core/orderings/matrix';
import { resolveSimilarity } from '../src/core/similarity/resolve';
import { wordnetPinsFor, wordnetPinsOf } from '../src/core/config/wordnet-pins';
import { getClassList } from '../src/core/classes/builtin';
import { datasetClassListId } from '../src/core/config/defaults';
import type { WordnetGraph } from '../src/core/similarity/wordnet-synsets';
import { loadBuiltinDataset } from '../src/data/registry';
import { fromDecodedDataset, RunControl, selectBackend, subsetPerClass, trainRun, trainShared, type ImageDataset } from '../src/engine/index';
import { JOBS, jobContext } from '../src/engine/jobs';
import { trainRunConfigOf } from '../src/engine/run-config';
import { forgettingRunConfigs } from '../src/services/forgetting-runner';
import { forgettingLab } from '../src/core/labs/forgetting';
import { forgettingChange } from '../src/core/labs/forgetting/binding';
import { forgettingExperimentOf } from '../src/core/forgetting/from-config';
import { FORGETTING_CLASSES } from '../src/core/forgetting/lab-classes';
import { paperTasks } from '../src/core/forgetting/setup';
import { allOrders } from '../src/core/curriculum/orders';

const root = join(import.meta.dirname, '..');
const FIXTURE = join(root, 'tests', 'fixtures', 'lab-defaults.json');

const cache = new Map<string, ImageDataset>();
async function builtin(id: string): Promise<ImageDataset> {
  if (!cache.has(id)) cache.set(id, fromDecodedDataset(await loadBuiltinDataset(id, async (p) => new Uint8Array(await readFile(join(root, 'public', p))))));
  return cache.get(id)!;
}
let wordnet: WordnetGraph | null = null;
const loadWordnet = (): WordnetGraph => wordnet!;

const defaultOf = (lab: LabId): ExperimentConfig => validateConfig({ lab }).config;
/** numbers rounded to 1e-9 (the fixture compares what the labs show, not float noise of the last bit) */
const r = (x: number): number => Math.round(x * 1e9) / 1e9;
const rows = (m: number[][]): number[][] => m.map((row) => row.map(r));
/** WordNet as every surface resolves it: the config's pins by name, else the built-in list's own synsets */
function wordnetOf(c: ExperimentConfig): { kind: 'wordnet'; pins: (string | undefined)[] } {
  const list = c.dataset.id === 'custom' ? null : getClassList(datasetClassListId(c.dataset.id));
  return { kind: 'wordnet', pins: wordnetPinsFor(wordnetPinsOf(c), experimentClassNames(c), list ? c.classes.map((i) => list.synsets[i]) : []) };
}

async function orderings(): Promise<unknown> {
  const c = defaultOf('orderings');
  const view = computeOrderingsView(
    {
      classes: experimentClassNames(c),
      taskSizes: c.taskSizes,
      similarity: wordnetOf(c),
      options: protocolOptionsOf(c),
    },
    { wordnet: loadWordnet },
  );
  return { sequences: view.sequences.map((s) => ({ label: s.label, order: s.order, score: r(s.score) })) };
}

async function groundTruth(): Promise<unknown> {
  const c = defaultOf('ground-truth');
  const names = experimentClassNames(c);
  const sim = resolveSimilarity(wordnetOf(c), names, { wordnet: loadWordnet });
  const plan = planGroundTruth({
    classes: c.classes,
    taskSizes: c.taskSizes,
    similarity: matrixFromRows(matrixToRows(sim.matrix)),
    protocolOptions: { protocols: ['rs', 'edge'], rsSeeds: c.protocols.rsSeeds, medianSeed: c.protocols.medianSeed },
    strategies: c.strategies.map((s) => s.id),
    seeds: c.seeds,
    budget: c.groundTruth.budget,
    sampleSeed: c.groundTruth.sampleSeed,
  });
  const ds = subsetPerClass(await builtin(c.dataset.id), { trainPerClass: c.data.trainPerClass ?? undefined, testPerClass: c.data.testPerClass ?? undefined });
  const order = sampleOrder(plan, c.groundTruth.sampleSeed);
  const rank = new Map(order.map((k, i) => [k, i]));
  const jobs = [...plan.jobs];
  const configs = jobs.map((j) => trainRunConfigOf(c, j));
  const results = await trainShared(ds, configs, {
    population: 1,
    order: jobs.map((_, i) => i).sort((a, b) => (rank.get(jobs[a].orderingKey) ?? 0) - (rank.get(jobs[b].orderingKey) ?? 0)),
  });
  return {
    jobs: jobs
      .map((j, i) => ({ ordering: j.orderingKey, strategy: j.strategy, seed: j.seed, matrix: rows(results[i].matrix) }))
      .sort((a, b) => (a.ordering < b.ordering ? -1 : 1)),
  };
}

async function forgetting(): Promise<unknown> {
  // the tab's settings for the link (the lab entry's view, src/core/labs/forgetting/binding.ts), on the paper's
  // ordering of classes 0–9
  const link = defaultOf('forgetting');
  const c = forgettingExperimentOf(link, forgettingChange(forgettingLab.view(link), paperTasks([...FORGETTING_CLASSES]))).config!;
  const runs = forgettingRunConfigs(c);
  const out = [];
  for (const { job, config } of runs) {
    const ds = subsetPerClass(await builtin(job.dataset), { trainPerClass: job.trainPerClass ?? undefined, testPerClass: job.testPerClass ?? undefined });
    const result = await trainRun(ds, config);
    out.push({
      label: job.label,
      matrix: rows(result.matrix),
      probs: (result.probs ?? []).map((p) => ({ afterTask: p.afterTask, sum: r(p.probs.reduce((a, b) => a + b, 0)), n: p.labels.length })),
    });
  }
  return { runs: out };
}

/** The context the training worker gives every job: one dataset cache, a run control. */
const ctx = jobContext(builtin, new RunControl());

async function openWorld(): Promise<unknown> {
  const settings = openWorldLab.view(defaultOf('open-world'));
  const res = await JOBS.ood({ settings }, ctx, () => {});
  return {
    matrix: rows(res.train.matrix),
    results: res.results.map((x) => ({
      step: x.step,
      detector: x.detector,
      oodSet: x.oodSet,
      auroc: r(x.auroc),
      fpr95: r(x.fpr95),
      auprIn: r(x.auprIn),
      auprOut: r(x.auprOut),
    })),
  };
}

async function time(): Promise<unknown> {
  const config = timeLab.view(defaultOf('time'));
  const out: Record<string, unknown> = {};
  for (const protocol of config.protocols) {
    const res = await JOBS.stream({ config, protocol, resumeFrom: null }, ctx, () => {});
    out[protocol] = {
      matrix: rows(res.matrix),
      metrics: Object.fromEntries(Object.entries(res.metrics).map(([k, v]) => [k, v === null ? null : r(v as number)])),
    };
  }
  return out;
}

async function curriculum(): Promise<unknown> {
  const x = curriculumLab.view(defaultOf('curriculum'));
  // the lab's run settings (src/ui/curriculum/curriculum-lab.svelte.ts settingsOf)
  const data = { datasets: x.datasets, trainPerClass: x.trainPerClass, testPerClass: x.testPerClass };
  const settings = { model: { kind: 'mlp' as const, hidden: [x.hidden] }, epochs: x.epochs, augment: x.datasets.some((d) => d.startsWith('emoji')) };
  const isolated: number[] = [];
  for (let p = 0; p < x.datasets.length; p++) isolated.push(r(await JOBS['curriculum-isolated']({ data, settings, position: p, seed: x.seed }, ctx, () => {})));
  const orders = [];
  for (const strategy of x.strategies) {
    for (const order of allOrders(x.datasets.length)) {
      const run = await JOBS['curriculum-order']({ data, settings, order, strategy, seed: x.seed }, ctx, () => {});
      orders.push({ strategy, order, cil: rows(run.cil), til: rows(run.til) });
    }
  }
  return { isolated, orders };
}

// the Your-classes lab trains on the visitor's own samples: its default has no classes, so no numbers
async function ownClasses(): Promise<unknown> {
  return { classes: ownClassesOf(defaultOf('own-classes')).classes };
}

/** A lab's numbers as its command prints them for the default link, its timings (`seconds`) left out. */
async function viaCommand(lab: LabId): Promise<unknown> {
  const command = labEntry(lab).configCommand;
  if (!command) throw new Error(`the ${lab} lab names no configCommand: give it one, or a function in scripts/lab-defaults.ts`);
  const link = `http://localhost/${encodeConfigToHash(defaultOf(lab))}`;
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'bin', 'cil-lab.mjs'), command, '--link', link], {
    cwd: root,
    maxBuffer: 1 << 28,
  });
  const timeless = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(timeless)
      : x && typeof x === 'object'
        ? Object.fromEntries(Object.entries(x).flatMap(([k, v]) => (k === 'seconds' ? [] : [[k, timeless(v)]])))
        : x;
  return timeless(JSON.parse(stdout));
}

const OWN: Partial<Record<LabId, () => Promise<unknown>>> = {
  orderings,
  'ground-truth': groundTruth,
  forgetting,
  'open-world': openWorld,
  time,
  curriculum,
  'own-classes': ownClasses,
};

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const pick = args.includes('--labs') ? args[args.indexOf('--labs') + 1].split(',') : [...LAB_IDS];
  const unknown = pick.filter((id) => !(LAB_IDS as readonly string[]).includes(id));
  if (unknown.length) throw new Error(`no lab ${unknown.join(', ')}: the labs are ${LAB_IDS.join(', ')}`);
  const viaCommandOnly = args.includes('--via-command');
  if (viaCommandOnly && (args.includes('--write') || args.includes('--check')))
    throw new Error("--via-command prints the numbers only: the recorded ones are each lab's own function's");
  wordnet = JSON.parse(await readFile(join(root, 'public', 'data', 'wordnet-nouns.json'), 'utf8')) as WordnetGraph;
  await selectBackend('wasm', { strict: true });
  const out: Record<string, unknown> = {};
  for (const id of pick) {
    const t0 = performance.now();
    const own = OWN[id as LabId];
    out[id] = own && !viaCommandOnly ? await own() : await viaCommand(id as LabId);
    process.stderr.write(`${id}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  if (args.includes('--write')) {
    let fixture: Record<string, unknown> = {};
    try {
      fixture = JSON.parse(await readFile(FIXTURE, 'utf8'));
    } catch {
      /* a new fixture */
    }
    fixture._note = 'Every lab default numbers (a link holding only {"lab": id}) on tfjs wasm in Node, made by npx tsx scripts/lab-defaults.ts --write.';
    Object.assign(fixture, out);
    await writeFile(FIXTURE, `${JSON.stringify(fixture)}\n`);
    return 0;
  }
  if (args.includes('--check')) {
    const fixture = JSON.parse(await readFile(FIXTURE, 'utf8')) as Record<string, unknown>;
    let bad = 0;
    for (const id of pick) {
      const same = fixture[id] !== undefined && JSON.stringify(fixture[id]) === JSON.stringify(out[id]);
      process.stdout.write(`${id}: ${fixture[id] === undefined ? 'NO NUMBERS RECORDED (run --write)' : same ? 'same numbers' : 'DIFFERENT'}\n`);
      if (!same) bad++;
    }
    return bad ? 1 : 0;
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
  return 0;
}

process.exitCode = await main().catch((e: unknown) => {
  process.stderr.write(`lab-defaults: ${e instanceof Error ? e.message : String(e)}\n`);
  return 2;
});
