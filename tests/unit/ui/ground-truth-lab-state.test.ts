/**
 * The Ground-truth lab's state module (src/ui/ground-truth/lab-state.svelte.ts) without a browser: a share-link
 * store on a fake window, a fake orderings worker (a similarity matrix), a fake training worker (an accuracy matrix
 * that depends on the ordering) and the in-memory results store. The effects the page wires with `attach()` are
 * called here by hand (syncFromLink, pushToLink, loadSimilarity, loadStoredRuns).
 */
import { describe, expect, it } from 'vitest';
import { V1_FILL, defaultConfig, validateConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { encodeConfigToHash } from '../../../src/core/config/url-codec';
import { createMemoryResultsStore, type ResultsStore } from '../../../src/services/results-store';
import { ShareLinkStore, type LinkEnv } from '../../../src/services/share-link.svelte';
import type { BackendInfo, TrainRunConfig } from '../../../src/services/train-client';
import { GroundTruthLab, type LabOrderingsClient, type LabTrainClient } from '../../../src/ui/ground-truth/lab-state.svelte';
import { trainConfigFor } from '../../../src/services/ground-truth-runner';

function env(hash: string, search = ''): LinkEnv {
  const e: LinkEnv = {
    location: { hash, search, pathname: '/', origin: 'http://x', href: `http://x/${search}${hash}` },
    history: {
      state: null,
      replaceState(_d, _u, url) {
        const u = new URL(String(url), 'http://x');
        e.location.hash = u.hash;
      },
    },
    addEventListener() {},
  };
  return e;
}

/** digits 0–3 in two tasks of two: |Ω| = 6 orderings; finetune, one seed. */
function tinyConfig(extra: Partial<ExperimentConfig> = {}): ExperimentConfig {
  const r = validateConfig({
    ...defaultConfig(),
    lab: 'ground-truth',
    dataset: { id: 'digits' },
    classes: [0, 1, 2, 3],
    taskSizes: [2, 2],
    strategies: [{ id: 'finetune', options: {} }],
    seeds: [0],
    groundTruth: { budget: 100, sampleSeed: 0 },
    model: { kind: 'mlp', hidden: [8] },
    training: { ...V1_FILL.training, epochs: 1, firstTaskEpochs: 1 },
    backend: { train: 'wasm', embed: 'auto' },
    ...extra,
  });
  expect(r.errors).toEqual([]);
  return r.config;
}

class FakeOrderings implements LabOrderingsClient {
  calls = 0;
  disposed = false;
  async compute(req: { classes: string[] }) {
    this.calls++;
    const n = req.classes.length;
    // a varied similarity, so S differs between orderings
    return { matrix: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0.2 + 0.1 * ((i * 3 + j * 5) % 4)))) };
  }
  dispose() {
    this.disposed = true;
  }
}

class FakeTrainer implements LabTrainClient {
  runs: TrainRunConfig[] = [];
  datasets: unknown[] = [];
  disposed = false;
  constructor(private backendName = 'wasm') {}
  async selectBackend(): Promise<BackendInfo> {
    return { name: this.backendName, probeMs: 1, tried: [{ name: this.backendName }] } as unknown as BackendInfo;
  }
  async loadDataset(spec: unknown) {
    this.datasets.push(spec);
    return {};
  }
  async run(config: TrainRunConfig) {
    this.runs.push(config);
    const first = config.tasks[0][0];
    return {
      matrix: [
        [0.9, 0],
        [0.1 * (first + 1), 0.95],
      ],
      untrained: [0, 0],
      testCounts: [20, 20],
      backend: this.backendName,
      seconds: 0.1,
    };
  }
  pause() {}
  resume() {}
  cancel() {}
  dispose() {
    this.disposed = true;
  }
}

async function makeLab(config = tinyConfig(), store: ResultsStore = createMemoryResultsStore()) {
  const link = new ShareLinkStore(env(encodeConfigToHash(config)));
  const orderings = new FakeOrderings();
  const trainers: FakeTrainer[] = [];
  const lab = new GroundTruthLab({
    link,
    orderings,
    createTrainClient: () => {
      const t = new FakeTrainer();
      trainers.push(t);
      return t;
    },
    openStore: async () => store,
    cores: 1,
  });
  await lab.mount();
  await lab.loadSimilarity();
  await lab.loadStoredRuns();
  return { lab, link, orderings, trainers, store };
}

describe('GroundTruthLab: inputs ⇄ the experiment', () => {
  it('starts from the link’s experiment and writes its own edits back (only the valid parts)', async () => {
    const { lab, link } = await makeLab();
    expect(lab.datasetId).toBe('digits');
    expect(lab.classIdx).toEqual([0, 1, 2, 3]);
    expect(lab.strategyIds).toEqual(['finetune']);
    expect(lab.hiddenText).toBe('8');

    lab.epochs = 3;
    lab.seedsText = '0, x'; // invalid: the link keeps its seeds, the error is shown at the control
    lab.pushToLink();
    expect(link.config.training.epochs).toBe(3);
    expect(link.config.seeds).toEqual([0]);
    expect(lab.parsed.errors.seeds).toMatch(/Seed "x"/);
    expect(lab.checked.hash).toBeNull();
    expect(lab.canStart).toBe(false);
  });

  it('re-reads the inputs when another lab changes the experiment, not after its own writes', async () => {
    const { lab, link } = await makeLab();
    lab.budget = 7;
    lab.pushToLink();
    lab.budget = 9; // typed, not pushed yet: its own write above must not undo it
    lab.syncFromLink();
    expect(lab.budget).toBe(9);
    link.update((c) => void (c.training.lr = 0.05));
    lab.syncFromLink();
    expect(lab.lr).toBe(0.05);
    expect(lab.budget).toBe(7); // the experiment's value, re-read with the rest
  });

  it('shows each config error at its control (errorAt) and refuses no strategy', async () => {
    const { lab } = await makeLab();
    lab.chosen.finetune = false;
    expect(lab.errorAt('strategies')).toBe('Choose at least one strategy.');
    expect(lab.plan).toBeNull();
    lab.chosen.finetune = true;
    lab.epochs = -1;
    expect(lab.errorAt('training')).not.toBe('');
    expect(lab.checked.hash).toBeNull();
  });

  it('picking a dataset selects its first classes; a names-only dataset is reported, not trained', async () => {
    const { lab } = await makeLab(tinyConfig({ lab: 'orderings', dataset: { id: 'cifar100' } as ExperimentConfig['dataset'], classes: [0, 1, 2, 3] }));
    expect(lab.foreignDataset).toBe('cifar100');
    expect(lab.foreignName).toMatch(/CIFAR/i);
    expect(lab.checked.hash).toBeNull();
    lab.pickDataset('digits');
    expect(lab.foreignDataset).toBeNull();
    expect(lab.selected).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('GroundTruthLab: plan, runs and the store', () => {
  it('plans all 6 orderings from the similarity, trains them all, stores them, and a new lab resumes from the store', async () => {
    const store = createMemoryResultsStore();
    const { lab, trainers, orderings } = await makeLab(tinyConfig(), store);
    expect(orderings.calls).toBe(1);
    expect(lab.plan?.omega).toBe('6');
    expect(lab.jobsTotal).toBeGreaterThanOrEqual(6);
    expect(lab.storedForPlan).toBe(0);
    expect(lab.canStart).toBe(true);

    await lab.run();
    expect(lab.status).toBe('done');
    expect(trainers[0].runs.length).toBe(lab.jobsTotal);
    expect(trainers[0].datasets).toHaveLength(1);
    expect(trainers[0].datasets[0]).toMatchObject({ kind: 'builtin', id: 'digits', seed: 0 });
    expect(lab.storedForPlan).toBe(lab.jobsTotal);
    expect(lab.stats?.strategies[0].truth.evaluated).toBe(6);
    expect(lab.lastRunSeconds).not.toBeNull();

    // a reload: a fresh lab on the same store finds every run and trains nothing
    const again = await makeLab(tinyConfig(), store);
    expect(again.lab.storedForPlan).toBe(again.lab.jobsTotal);
    await again.lab.run();
    expect(again.trainers[0].runs.length).toBe(0);
    expect(again.lab.runnerState?.skipped).toBe(again.lab.jobsTotal);
  });

  it('Step trains exactly one ordering and pauses; Play trains the rest; teaching mode reads the readout', async () => {
    const link = await makeLab(tinyConfig({ ui: { ...V1_FILL.ui, teaching: true } }));
    const { lab, trainers } = link;
    expect(lab.teaching).toBe(true);
    expect(lab.byOrdering).toMatchObject({ done: 0, total: 6 });
    expect(lab.canPlay).toBe(true);
    lab.step();
    await until(() => lab.status === 'paused' && lab.byOrdering?.done === 1);
    expect(trainers[0].runs.length).toBe(1);
    expect(lab.canPlay).toBe(true);
    // Play on a paused run (the lab kit's Play bar): resume
    lab.resume();
    await until(() => lab.status === 'done');
    expect(lab.byOrdering).toMatchObject({ done: 6, total: 6, next: null });
    // every ordering trained: nothing left to play or step
    expect(lab.canPlay).toBe(false);
  });

  it('the page going away mid-run (a link opened from outside) stops the run; the store closes after the start returns', async () => {
    // the store refuses every call after close, as IndexedDB does ("The database connection is closing")
    const base = createMemoryResultsStore();
    let closed = false;
    const store = new Proxy(base, {
      get(t, k) {
        const v = Reflect.get(t, k) as unknown;
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          if (closed) throw new Error(`${String(k)} after close`);
          if (k === 'close') closed = true;
          return (v as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    }) as ResultsStore;
    const { lab, orderings } = await makeLab(tinyConfig(), store);
    const started = lab.run(1);
    await until(() => lab.status === 'paused');
    lab.dispose();
    expect(closed).toBe(false);
    expect(orderings.disposed).toBe(true);
    await started;
    // (the page no longer follows the runner's state: read the runner's own)
    expect(lab.runner!.state.status).toBe('cancelled');
    expect(closed).toBe(true);
    // the finished ordering stays stored: the page mounted afresh on the same experiment finds it
    const again = await makeLab(tinyConfig(), base);
    expect(again.lab.storedForPlan).toBe(1);
  });

  it('deletes the stored runs of the experiment (forget) and clears the selection', async () => {
    const { lab, store } = await makeLab();
    await lab.run();
    const key = lab.plan!.orderings[0].key;
    lab.select(key, 'finetune');
    expect(lab.selectedRun?.orderingKey).toBe(key);
    expect(lab.selectedPoint?.key).toBe(key);
    await lab.forget();
    expect(lab.runs).toEqual([]);
    expect(lab.selection).toBeNull();
    expect(await store.getAll(lab.checked.hash!)).toEqual([]);
  });

  it('exports the runs (CSV with S per ordering, JSON with the experiment) and the statistics', async () => {
    const { lab } = await makeLab();
    await lab.run();
    const csv = lab.runsExport('csv').split('\n');
    expect(csv[0]).toMatch(/^ordering,strategy,seed,S,final_accuracy/);
    expect(csv.filter((l) => l.trim()).length).toBe(1 + lab.jobsTotal);
    const json = JSON.parse(lab.runsExport('json'));
    expect(json.configHash).toBe(lab.checked.hash);
    expect(json.runs).toHaveLength(lab.jobsTotal);
    expect(JSON.parse(lab.statsExport('json')).plan.omega).toBe('6');
  });

  it('says when the preferred backend is not the one training', async () => {
    const { lab } = await makeLab();
    lab.backendPref = 'webgpu';
    await lab.run();
    expect(lab.selectionNotice).toBe('webgpu is not available here; training on wasm instead.');
  });
});

describe('GroundTruthLab: auto by measurement and the warm-up', () => {
  /** A worker that can measure (its WebGPU adapter is SwiftShader's) and warm up. */
  class MeasuringTrainer extends FakeTrainer {
    measured: unknown[] = [];
    warmed: unknown[] = [];
    async gpuAdapter() {
      return { vendor: 'google', architecture: 'swiftshader', device: '', description: '', software: true };
    }
    async measureBackends(workload: unknown, cpuWorkers: number) {
      this.measured.push({ workload, cpuWorkers });
      return {
        choice: 'wasm' as const,
        adapter: { vendor: 'google', architecture: 'swiftshader', device: '', description: '', software: true },
        timings: [],
        reason:
          'wasm runs, the fastest measured: wasm 0.90 ms a model-step (fused step 1.80 ms on each of 2 workers) against webgpu: no level-step within 4 s.',
      };
    }
    async warmUp(workload: unknown) {
      this.warmed.push(workload);
      return 5;
    }
  }

  it('hands the pool the experiment’s workload; with auto the backend is measured once and the lab says why', async () => {
    const config = tinyConfig({ backend: { train: 'auto', embed: 'auto' } });
    const link = new ShareLinkStore(env(encodeConfigToHash(config)));
    const trainers: MeasuringTrainer[] = [];
    const lab = new GroundTruthLab({
      link,
      orderings: new FakeOrderings(),
      createTrainClient: () => (trainers.push(new MeasuringTrainer()), trainers.at(-1)!),
      openStore: async () => createMemoryResultsStore(),
      cores: 2,
    });
    await lab.mount();
    await lab.loadSimilarity();
    // digits 0–3 in two tasks of two: 6 first tasks, 6 orderings; an MLP 64-8-4, every strategy the plain loss
    expect(lab.workload).toEqual({
      spec: { kind: 'mlp', inputShape: [8, 8, 1], outputs: 4, hidden: [8] },
      batchSize: 64,
      models: 6,
      plain: true,
      bytes: true,
    });
    await lab.warmUp();
    expect(trainers[0].measured).toEqual([{ workload: lab.workload, cpuWorkers: 2 }]);
    expect(trainers.map((t) => t.warmed.length)).toEqual([1, 1]);
    expect(lab.backendInfo?.measured).toMatchObject({ choice: 'wasm', cached: false });
    expect(lab.backendWhy).toBe(
      'wasm runs, the fastest measured: wasm 0.90 ms a model-step (fused step 1.80 ms on each of 2 workers) against webgpu: no level-step within 4 s.',
    );
    await lab.run();
    expect(lab.status).toBe('done');
    // measured and warmed once: the lease finds the workers ready
    expect(trainers[0].measured).toHaveLength(1);
    expect(trainers.map((t) => t.warmed.length)).toEqual([1, 1]);
  });

  it('a strategy with its own loss makes the workload not plain; a backend chosen in the settings is said so', async () => {
    const { lab } = await makeLab(
      tinyConfig({
        strategies: [
          { id: 'finetune', options: {} },
          { id: 'ewc', options: { lambda: 1000, mode: 'multi', fisherSamples: 200 } },
        ],
      }),
    );
    expect(lab.workload?.plain).toBe(false);
    await lab.run();
    expect(lab.backendWhy).toBe('wasm: chosen in the settings.');
  });
});

describe('GroundTruthLab: workers from the pool, the sample order', () => {
  it('warmUp prepares the pool’s worker once; Run leases it without loading again and gives it back', async () => {
    const { lab, trainers } = await makeLab();
    await lab.warmUp();
    expect(lab.warm).toMatchObject({ state: 'ready', backend: 'wasm', workers: 1 });
    expect(trainers).toHaveLength(1);
    await lab.warmUp(); // same inputs: nothing to do
    await lab.run();
    expect(lab.status).toBe('done');
    expect(trainers).toHaveLength(1);
    expect(trainers[0].datasets).toHaveLength(1);
    await lab.run(); // a second start reuses the same idle worker
    expect(trainers).toHaveLength(1);
  });
  it('partialSample: the finished truth orderings are a sample when they are the first n of the seeded order', async () => {
    const { lab } = await makeLab();
    const keys = lab.sampleKeys!;
    const truth = keys.filter((k) => lab.plan!.orderings.find((o) => o.key === k)!.roles.includes('truth'));
    expect(lab.scheduleMode).toBe('sample');
    expect(lab.partialSample).toMatchObject({ n: 0, total: 6, uniform: true });
    const runOf = (k: string) => ({ orderingKey: k, strategy: 'finetune', seed: 0 }) as never;
    lab.storedRuns = truth.slice(0, 2).map(runOf);
    expect(lab.partialSample).toMatchObject({ n: 2, total: 6, uniform: true, byStrategy: { finetune: { n: 2, uniform: true } } });
    // the first and the last of the order: not the first two (one worker, no slack)
    lab.storedRuns = [truth[0], truth[5]].map(runOf);
    expect(lab.partialSample).toMatchObject({ n: 2, uniform: false });
  });
});

describe('trainConfigFor', () => {
  it('gives each job the experiment’s training options and its own strategy’s options', () => {
    const c = tinyConfig({
      strategies: [
        { id: 'finetune', options: {} },
        { id: 'replay', options: { memory: 50, selection: 'herding' } },
      ],
    } as Partial<ExperimentConfig>);
    const f = trainConfigFor(c);
    const r = f({
      orderingKey: '0,1|2,3',
      tasks: [
        [0, 1],
        [2, 3],
      ],
      strategy: 'replay',
      seed: 4,
    } as never);
    expect(r).toMatchObject({
      strategy: 'replay',
      strategyOptions: { memory: 50, selection: 'herding' },
      tasks: [
        [0, 1],
        [2, 3],
      ],
      seed: 4,
      epochs: 1,
    });
  });
});

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('GroundTruthLab: each run is keyed by what determines it (regression)', () => {
  it('adding a strategy to a finished ground truth trains only the new strategy’s runs', async () => {
    const { lab, trainers } = await makeLab();
    await lab.run();
    const finetuneRuns = trainers[0].runs.length;
    expect(finetuneRuns).toBe(lab.jobsTotal);
    const before = lab.checked.hash;

    lab.chosen.replay = true;
    await lab.loadStoredRuns(); // what the page's effect does when the experiment changes
    expect(lab.checked.hash).not.toBe(before);
    expect(lab.jobsTotal).toBe(2 * finetuneRuns);
    expect(lab.storedForPlan).toBe(finetuneRuns);

    await lab.run();
    const trained = trainers[0].runs.slice(finetuneRuns);
    expect(trained.length).toBe(finetuneRuns);
    expect(new Set(trained.map((r) => r.strategy))).toEqual(new Set(['replay']));
    expect(lab.storedForPlan).toBe(lab.jobsTotal);

    // and removing it again shows the finetune runs as they were, nothing to train
    lab.chosen.replay = false;
    await lab.loadStoredRuns();
    expect(lab.storedForPlan).toBe(lab.jobsTotal);
  });
});

describe('GroundTruthLab on features', () => {
  it('"Train on" the backbone: the label, the head, the pre-trained methods, the link and the worker’s dataset spec', async () => {
    const { lab, link, trainers } = await makeLab(tinyConfig({ dataset: { id: 'digits' } }));
    lab.setFeatureSource('backbone');
    expect(lab.onFeatures).toBe(true);
    expect(lab.featuresLabel).toBe('stand-in backbone trained on four, five, six, seven, eight and nine (seed 0)');
    lab.chosen = { ...lab.chosen, simplecil: true };
    expect(lab.strategyIds).toEqual(['finetune', 'simplecil']);
    expect(lab.checked.errors).toEqual([]);
    lab.pushToLink();
    expect(link.config.features).toEqual({ source: 'backbone', seed: 0 });
    expect(link.config.model).toEqual({ kind: 'head', hidden: [] });
    expect(link.config.strategies.map((s) => s.id)).toEqual(['finetune', 'simplecil']);
    lab.syncFromLink();
    expect(lab.features).toEqual({ source: 'backbone', seed: 0 });
    await lab.warmUp();
    expect(trainers[0]?.datasets.at(-1)).toMatchObject({
      kind: 'builtin',
      id: 'digits',
      features: { source: { source: 'backbone', seed: 0 }, classes: [0, 1, 2, 3] },
    });
    // back to pixels: the pre-trained method is no longer among the strategies
    lab.setFeatureSource('pixels');
    expect(lab.strategyIds).toEqual(['finetune']);
    lab.pushToLink();
    expect(link.config.features).toBeUndefined();
    expect(link.config.model.kind).toBe('mlp');
  });
});
