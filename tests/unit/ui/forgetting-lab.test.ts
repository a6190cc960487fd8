/**
 * The Forgetting lab's state module (src/ui/forgetting/forgetting-lab.svelte.ts) without a browser: a share-link store
 * on a fake window (with history entries), a fake orderings worker, a fake pooled training worker and the in-memory
 * store. The effects `attach()` wires are called by hand (pushToLink is what runs while the tab is shown).
 * Showing the tab never overwrites the experiment the user made.
 */
import { describe, expect, it, vi } from 'vitest';
import { canonicalJson, defaultConfig, validateConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../src/core/config/url-codec';
import { paperTasks } from '../../../src/core/forgetting/setup';
import type { TrainRunConfig, TrainRunResult } from '../../../src/engine/index';
import { memoryForgettingStore } from '../../../src/services/forgetting-store';
import { createForgettingRunner, forgettingRunConfigs } from '../../../src/services/forgetting-runner';
import { HASH_WRITE_DELAY_MS, ShareLinkStore, type LinkEnv } from '../../../src/services/share-link.svelte';
import type { TaskResult } from '../../../src/workers/train-api';
import { ForgettingLab, type LabOrderings } from '../../../src/ui/forgetting/forgetting-lab.svelte';
import { forgettingExperimentOf } from '../../../src/core/forgetting/from-config';
import { forgettingChange, forgettingTabStart } from '../../../src/core/labs/forgetting/binding';
import { groupRuns } from '../../../src/ui/forgetting/results';

/** A window whose history keeps entries: replaceState rewrites the current one, pushState adds one. */
function env(hash: string) {
  const entries = [hash];
  let at = 0;
  let onHash: () => void = () => {};
  const set = (url: string | URL | null | undefined) => new URL(String(url), 'http://x').hash;
  const e: LinkEnv & { entries: string[]; back(): void } = {
    location: { hash, search: '', pathname: '/', origin: 'http://x', href: `http://x/${hash}` },
    history: {
      state: null,
      replaceState(_d, _u, url) {
        entries[at] = e.location.hash = set(url);
      },
      pushState(_d, _u, url) {
        entries.splice(at + 1);
        entries.push((e.location.hash = set(url)));
        at++;
      },
    },
    addEventListener(_t, fn) {
      onHash = fn;
    },
    entries,
    back() {
      at--;
      e.location.hash = entries[at];
      onHash();
    },
  };
  return e;
}

class FakeOrderings implements LabOrderings {
  async compute() {
    const t = paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    return {
      sequences: [
        { protocol: 'rs', tasks: t, score: 0 },
        { protocol: 'edge', aim: 'hard', tasks: t, score: 1 },
        { protocol: 'edge', aim: 'easy', tasks: t, score: 2 },
      ],
    };
  }
  dispose() {}
}

class FakeWorker {
  runs: TrainRunConfig[] = [];
  async selectBackend() {
    return { name: 'wasm' } as never;
  }
  async loadDataset() {}
  dispose() {}
  pause() {}
  resume() {}
  cancel() {}
  async run(config: TrainRunConfig, _p?: unknown, _n?: unknown, onTask?: (t: TaskResult) => void) {
    this.runs.push(config);
    const K = config.tasks.length;
    const matrix = Array.from({ length: K }, (_, t) => Array.from({ length: K }, (_, j) => (j <= t ? 0.8 : 0)));
    matrix.forEach((row, t) => onTask?.({ task: t, tasks: K, row, probs: [] }));
    return {
      matrix,
      testCounts: new Array(K).fill(1),
      trainCounts: [],
      calibrationCounts: [],
      classOrder: [],
      probs: [],
      backend: 'wasm',
      backends: ['wasm'],
      seconds: 1,
      untrained: [],
      tasks: config.tasks,
      config: {},
    } as unknown as TrainRunResult & { backend: string };
  }
}

/** The lab on a link, its store open (what the lab kit mounts: afresh when a link is opened from outside). */
async function labOn(link: ShareLinkStore, worker = new FakeWorker()) {
  const pool = { lease: async () => ({ main: worker, helpers: [], backend: { name: 'wasm' } as never, release() {} }) };
  const lab = new ForgettingLab({
    link,
    orderings: new FakeOrderings(),
    openStore: async () => memoryForgettingStore(),
    createRunner: (store) => createForgettingRunner({ store, pool }),
  });
  await lab.mount();
  return lab;
}

async function makeLab(config: ExperimentConfig, opened = true) {
  const win = env(encodeConfigToHash(config));
  const link = new ShareLinkStore(win);
  if (!opened) link.openedLab = null;
  const worker = new FakeWorker();
  const lab = await labOn(link, worker);
  return { lab, link, win, worker };
}

const wait = () => new Promise((r) => setTimeout(r, HASH_WRITE_DELAY_MS + 20));

const custom = (): ExperimentConfig => {
  const r = validateConfig({
    ...defaultConfig(),
    dataset: { id: 'custom', classNames: ['cat', 'dog', 'owl', 'emu', 'yak', 'ant'] },
    classes: [0, 1, 2, 3, 4, 5],
    taskSizes: [2, 2, 2],
  });
  expect(r.errors).toEqual([]);
  return r.config;
};
const cifar = (): ExperimentConfig => {
  const r = validateConfig({
    ...defaultConfig(),
    lab: 'orderings',
    dataset: { id: 'cifar10' },
    classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    taskSizes: [2, 2, 2, 2, 2],
  });
  expect(r.errors).toEqual([]);
  return r.config;
};

describe('ForgettingLab: the experiment is never overwritten by showing the tab', () => {
  for (const [name, make] of [
    ['custom classes', custom],
    ['CIFAR-10', cifar],
  ] as const) {
    it(`${name}: showing the tab keeps the experiment and the URL; the tab shows its own setup`, async () => {
      const config = make();
      const { lab, link, win } = await makeLab(config);
      const hash = win.location.hash;
      lab.pushToLink(); // what the tab does while shown
      await wait();
      expect(canonicalJson(link.config)).toBe(canonicalJson(config));
      expect(win.location.hash).toBe(hash);
      expect(win.entries).toEqual([hash]);
      expect(lab.owns).toBe(false);
      expect(lab.datasetId).toBe('digits'); // its own setup, shown
    });
  }

  it('acting on the tab makes its setup the experiment as a new history entry; Back gives the experiment before it and the tab, mounted afresh, its own setup', async () => {
    const config = custom();
    const { lab, link, win } = await makeLab(config);
    const before = win.location.hash;
    lab.epochs = 2;
    lab.editedByHand(null);
    await wait();
    expect(link.config.lab).toBe('forgetting');
    expect(link.config.training.epochs).toBe(2);
    expect(win.entries).toHaveLength(2);
    expect(win.entries[0]).toBe(before);
    lab.epochs = 4; // later edits replace the tab's own entry
    lab.pushToLink();
    await wait();
    expect(win.entries).toHaveLength(2);
    win.back();
    expect(canonicalJson(link.config)).toBe(canonicalJson(config));
    // Back opens the experiment before it from outside: the lab kit mounts the tab afresh on it; the state going
    // away writes nothing, though its focused input still sends "change" as the page is taken down
    lab.editedByHand(null);
    await wait();
    expect(canonicalJson(link.config)).toBe(canonicalJson(config));
    lab.dispose();
    const again = await labOn(link);
    expect(again.owns).toBe(false);
    expect(again.datasetId).toBe('digits');
    again.pushToLink();
    await wait();
    expect(win.location.hash).toBe(before);
    const decoded = decodeConfigFromHash(win.location.hash);
    expect(decoded.ok && decoded.config.dataset.id).toBe('custom');
  });

  it('a link made on the tab opens its setup, and is not rewritten', async () => {
    const config = forgettingExperimentOf(
      defaultConfig(),
      forgettingChange({ ...forgettingTabStart(), strategy: 'ewc', ewcMode: 'multi', epochs: 2 }, paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    ).config!;
    const { lab, link, win } = await makeLab(config);
    expect(lab.owns).toBe(true);
    expect([lab.strategy, lab.ewcMode, lab.epochs]).toEqual(['ewc', 'multi', 2]);
    const hash = win.location.hash;
    lab.pushToLink();
    await wait();
    expect(win.location.hash).toBe(hash);
    expect(canonicalJson(link.config)).toBe(canonicalJson(config));
  });
});

describe('ForgettingLab: runs train from the experiment config', () => {
  it('Run trains the config the controls describe (as the CLI and other labs map it), stores it and selects it', async () => {
    const { lab, link, worker } = await makeLab(cifar());
    lab.strategy = 'ewc';
    lab.seed = 3;
    lab.seeds = 1;
    lab.trainPerClass = 20;
    await lab.runSingle();
    expect(lab.status).toBe('done');
    expect(link.config.lab).toBe('forgetting');
    expect(worker.runs).toEqual(forgettingRunConfigs(link.config).map((r) => r.config));
    expect(worker.runs[0]).toMatchObject({ strategy: 'ewc', seed: 3, probs: { calibrationRatio: 0.1, softmax: 'all' } });
    expect(lab.groups).toHaveLength(1);
    expect(lab.shownRun?.matrix).toHaveLength(6);
    expect(lab.progressText).toMatch(/^done: 1 run in/);
    // the same setup again: nothing to train (the stored run is found)
    await lab.runSingle();
    expect(worker.runs).toHaveLength(1);
    expect(lab.runnerState.skipped).toBe(1);
  });

  it("teaching mode's Step from idle trains one run of the setup and pauses; Step again trains the next", async () => {
    const { lab, worker } = await makeLab(cifar());
    lab.seeds = 3;
    lab.step();
    await vi.waitFor(() => expect(lab.status).toBe('paused'));
    expect(lab.runnerState.done).toBe(1);
    expect(worker.runs).toHaveLength(1);
    lab.step();
    await vi.waitFor(() => expect(lab.runnerState.done).toBe(2));
    await vi.waitFor(() => expect(lab.status).toBe('paused'));
    lab.resume();
    await vi.waitFor(() => expect(lab.status).toBe('done'));
    expect(worker.runs).toHaveLength(3);
  });

  it('a setting that would change the run refuses to train instead of training another', async () => {
    const { lab, worker } = await makeLab(cifar());
    lab.trainPerClass = 5;
    lab.calibrationRatio = 0.01; // holds out no image of 5
    await lab.runSingle();
    expect(worker.runs).toHaveLength(0);
    expect(lab.startError).toMatch(/calibration ratio/);
  });

  it('groups runs once each, in order', () => {
    const r = (id: string, group: string) => ({ id, group, preset: null, createdAt: 1 }) as never;
    expect(groupRuns([r('a', 'g1'), r('b', 'g2'), r('a', 'g1'), r('c', 'g1')]).map((g) => [g.id, g.runs.length])).toEqual([
      ['g1', 2],
      ['g2', 1],
    ]);
  });
});

describe('what the CPCF report reads', () => {
  it("a link's RAPS λ and k_reg (no control shows them) are the report's, under the controls' α and score", async () => {
    const base = defaultConfig();
    const r = validateConfig({ ...base, lab: 'forgetting', conformal: { ...base.conformal, score: 'raps', raps: { lambda: 0.05, kReg: 2 } } });
    expect(r.errors).toEqual([]);
    const { lab } = await makeLab(r.config);
    expect(lab.reportSettings()).toEqual({ alpha: 0.1, score: 'raps', raps: { lambda: 0.05, kReg: 2 } });
    lab.conformal.alpha = 0.2;
    lab.conformal.score = 'aps';
    expect(lab.reportSettings()).toEqual({ alpha: 0.2, score: 'aps', raps: { lambda: 0.05, kReg: 2 } });
  });
});
