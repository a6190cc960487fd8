/**
 * The Ground-truth lab's "Every ordering, exactly" panel (src/ui/ground-truth/whole-distribution.svelte.ts) without a
 * browser: the lab on a features config with a fake training worker whose `distribution` runs the real job
 * (engine/features/distribution-job.ts) on synthetic features; RS and EDGE come from the lab's plan; an order written
 * and a PyCIL log's orders are placed in the kept distribution.
 */
import { describe, expect, it } from 'vitest';
import { V1_FILL, defaultConfig, validateConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { encodeConfigToHash } from '../../../src/core/config/url-codec';
import { importResults } from '../../../src/core/results-import/import-results';
import { syntheticFeatures } from '../../../src/core/ptm/synthetic';
import { RunControl } from '../../../src/engine/control';
import { distributionJob } from '../../../src/engine/features/distribution-job';
import { jobContext } from '../../../src/engine/jobs/job';
import { createMemoryResultsStore } from '../../../src/services/results-store';
import { ShareLinkStore, type LinkEnv } from '../../../src/services/share-link.svelte';
import type { BackendInfo, DistributionJobEvent, DistributionJobInput } from '../../../src/services/train-client';
import { GroundTruthLab, type LabTrainClient } from '../../../src/ui/ground-truth/lab-state.svelte';

function env(hash: string): LinkEnv {
  const e: LinkEnv = {
    location: { hash, search: '', pathname: '/', origin: 'http://x', href: `http://x/${hash}` },
    history: { state: null, replaceState: (_d, _u, url) => void (e.location.hash = new URL(String(url), 'http://x').hash) },
    addEventListener() {},
  };
  return e;
}

/** digits 0–7 on the embedded backbone's features, 4 tasks: 2 520 orderings; SimpleCIL and a head. */
function config(): ExperimentConfig {
  const r = validateConfig({
    ...defaultConfig(),
    lab: 'ground-truth',
    dataset: { id: 'digits' },
    classes: [0, 1, 2, 3, 4, 5, 6, 7],
    taskSizes: [2, 2, 2, 2],
    features: { source: 'backbone', seed: 0 },
    model: { kind: 'head', hidden: [] },
    strategies: [
      { id: 'finetune', options: {} },
      { id: 'simplecil', options: { metric: 'cosine' } },
    ],
    seeds: [0],
    training: { ...V1_FILL.training, epochs: 1, firstTaskEpochs: 1 },
    backend: { train: 'wasm', embed: 'auto' },
  });
  expect(r.errors).toEqual([]);
  return r.config;
}

const set = syntheticFeatures({ classes: 10, dims: 8, trainPerClass: 10, testPerClass: 6, separation: 0.5, seed: 4 });

class FakeWorker implements LabTrainClient {
  inputs: DistributionJobInput[] = [];
  private readonly ctx = jobContext(async () => {
    throw new Error('no images here');
  }, new RunControl());
  async selectBackend(): Promise<BackendInfo> {
    return { name: 'wasm', probeMs: 1, tried: [{ name: 'wasm' }] } as unknown as BackendInfo;
  }
  async loadDataset() {
    return {};
  }
  async run(): Promise<never> {
    throw new Error('not used');
  }
  async distribution(input: DistributionJobInput, onEvent: (e: DistributionJobEvent) => void) {
    this.inputs.push(input);
    // the backbone's features stand in as cached synthetic ones (the feature seam is tested on its own)
    return distributionJob({ ...input, features: { source: 'cached', key: 'synthetic', set } }, this.ctx, onEvent);
  }
  pause() {}
  resume() {}
  cancel() {}
  dispose() {}
}

async function makeLab() {
  const worker = new FakeWorker();
  const lab = new GroundTruthLab({
    link: new ShareLinkStore(env(encodeConfigToHash(config()))),
    orderings: {
      async compute(req: { classes: string[] }) {
        const n = req.classes.length;
        return { matrix: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0.2 + 0.1 * ((i * 3 + j * 5) % 4)))) };
      },
      dispose() {},
    },
    createTrainClient: () => worker,
    openStore: async () => createMemoryResultsStore(),
    cores: 1,
  });
  await lab.mount();
  await lab.loadSimilarity();
  return { lab, worker };
}

describe('the whole distribution in the Ground-truth lab', () => {
  it('computes every ordering in the worker with RS’s and EDGE’s orderings of the plan, and places written orders in it', async () => {
    const { lab, worker } = await makeLab();
    const w = lab.whole;
    expect(w.available).toBe(true);
    expect(w.methods).toEqual(['simplecil']);
    expect(w.coverage).toEqual({ kind: 'all', omega: 2520n });
    expect(w.coverageText).toBe('all 2\u2009520 orderings');
    expect(w.blocked).toBe('');
    await w.run();
    expect(w.status).toBe('done');
    expect(w.error).toBe('');
    const report = w.report!;
    expect(report.summary).toMatchObject({ orderings: 2520, exact: true });
    expect(report.rs!.orderings.map((o) => o.label)).toEqual(lab.parsed.rsSeeds.map((s) => `RS seed ${s}`));
    expect(report.edge!.orderings.map((o) => o.label)).toEqual(['EDGE hard', 'EDGE easy', 'EDGE median (seed 0)']);
    expect(worker.inputs[0]).toMatchObject({ classes: [0, 1, 2, 3, 4, 5, 6, 7], taskSizes: [2, 2, 2, 2], orderings: { kind: 'all' }, seed: 0 });
    expect(worker.inputs[0].features).toEqual({ source: 'backbone', seed: 0 });

    await w.placeText('7 6 5 4 3 2 1 0');
    expect(w.placeError).toBe('');
    expect(w.current!.reused).toBe(true);
    // the worker's seconds of the distribution shown stay with it
    expect(w.computedSeconds!.orderings).toBeGreaterThan(0);
    expect(w.placed).toHaveLength(1);
    expect(w.placed[0].placed.tasks).toEqual([
      [6, 7],
      [4, 5],
      [2, 3],
      [0, 1],
    ]);
    expect(w.placed[0].sentences[0].text).toMatch(/^Your order .* exact over all 2\u2009520 orderings/);

    await w.placeText('0 1');
    expect(w.placeError).toMatch(/^This order cannot be placed: the order has 2 classes; the experiment has 8/);
    expect(w.placed).toHaveLength(1);
  });

  it('places a PyCIL log’s order, the log’s accuracies as the log’s', async () => {
    const { lab } = await makeLab();
    const w = lab.whole;
    await w.run();
    const log = [
      'x [trainer.py] => init_cls: 2',
      'x [trainer.py] => increment: 2',
      'x [trainer.py] => seed: 1993',
      'x [data_manager.py] => [3, 1, 0, 2, 5, 4, 7, 6]',
      'x [trainer.py] => CNN top1 curve: [99.0, 90.0, 80.0, 70.0]',
    ].join('\n');
    const imported = importResults(log, 'run.log', { classNames: lab.classNames, datasetClasses: lab.classIdx, taskSizes: lab.sizesInput.sizes });
    await w.placeImported(imported.runs, true);
    expect(w.placed).toHaveLength(1);
    const [p] = w.placed;
    expect(p.order.logged!.aia).toBeCloseTo(0.8475, 12);
    expect(p.order.logged!.final).toBeCloseTo(0.7, 12);
    expect(p.sentences.map((s) => s.id)).toEqual(['place:aia', 'place:final', 'place:logged']);
    expect(p.sentences[0].text).toMatch(/^Your seed-1993 order /);
    expect(p.placed.tasks).toEqual([
      [1, 3],
      [0, 2],
      [4, 5],
      [6, 7],
    ]);
    w.clearOrders();
    expect(w.placed).toEqual([]);
  });

  it('a result is of its settings: another task count hides it until computed again', async () => {
    const { lab } = await makeLab();
    await lab.whole.run();
    expect(lab.whole.report).not.toBeNull();
    lab.tasks = 2;
    lab.sizesText = '';
    expect(lab.whole.report).toBeNull();
    expect(lab.whole.coverage).toEqual({ kind: 'all', omega: 70n });
  });
});
