/**
 * The Time and Open-world pages say the CLI's verdict for the same runs: each lab's state trains several seeds through
 * its real runner and store (a worker that replays what `cil-lab stream` / `cil-lab ood` trained, from
 * tests/fixtures/lab-verdicts-cli.json), and its verdict's sentences must be the CLI's, word for word; provisional
 * while seeds are missing.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPEN_WORLD_PRESETS, type OpenWorldSettings } from '../../../src/core/ood/config';
import { TIME_LAB_START } from '../../../src/core/stream/config';
import { createOodRunner, type OodWorker } from '../../../src/services/ood-runner';
import { createMemoryOodStore } from '../../../src/services/ood-store';
import { createTimeRunner, memoryTimeStore, type TimeWorker } from '../../../src/services/time-runner';
import { OpenWorldLab } from '../../../src/ui/open-world/open-world-lab.svelte';
import { TimeLab } from '../../../src/ui/time/lab-state.svelte';

type Sentence = { id: string; kind: string; text: string };
const FIX = JSON.parse(readFileSync(resolve(__dirname, '../../fixtures/lab-verdicts-cli.json'), 'utf8'));

describe('Time lab: the page’s verdict over seeds is cil-lab stream’s', () => {
  const runs = FIX.stream.runs as {
    seed: number;
    protocol: 'iid' | 'streaming';
    matrix: number[][];
    metrics: unknown;
    compositions: number[][];
    backend: string;
  }[];
  const worker: TimeWorker = {
    job: (async (kind: string, input: { config: { seed: number }; protocol: string }, onEvent?: (e: unknown) => void) => {
      if (kind !== 'stream') throw new Error(kind);
      const r = runs.find((x) => x.seed === input.config.seed && x.protocol === input.protocol)!;
      r.matrix.forEach((row, i) => onEvent?.({ kind: 'step', end: { step: i, row, composition: [], numTensors: 0, baselineTensors: 0 } }));
      return { matrix: r.matrix, metrics: r.metrics, compositions: r.compositions, protocol: r.protocol, backend: r.backend };
    }) as TimeWorker['job'],
    pause: async () => {},
    resume: async () => {},
    cancel: async () => {},
  };
  const make = () =>
    new TimeLab(
      createTimeRunner({ lease: async () => ({ main: worker, backend: { name: 'wasm' }, release: () => {} }), store: Promise.resolve(memoryTimeStore()) }),
      { ...TIME_LAB_START, ...FIX.stream.settings },
    );

  it('three seeds trained one after another: the same sentences, not provisional, the first seed shown', async () => {
    const lab = make();
    expect(lab.seeds).toEqual([0, 1, 2]);
    expect(lab.total).toBe(3 * 2 * 3);
    await lab.run();
    const v = lab.verdict!;
    expect(v.provisional).toBe(false);
    expect(v.sentences).toEqual(FIX.stream.verdict as Sentence[]);
    expect(lab.seedShown).toBe(0);
    expect(lab.done).toBe(lab.total);
  });
  it('one seed finished of three: provisional, and says n of N', async () => {
    const lab = make();
    lab.set({ seeds: 1 });
    await lab.run();
    lab.set({ seeds: 3 });
    await lab.loadSeedRuns();
    const v = lab.verdict!;
    expect(v.provisional).toBe(true);
    expect(v.provisionalNote).toBe('Provisional: 2 of 6 runs finished.');
  });
});

describe('Open-world lab: the page’s verdict over seeds is cil-lab ood’s', () => {
  type Report = {
    config: { seed: number };
    steps: { step: number; accuracy: number; confidence: unknown; assignment: unknown; setup: unknown; detectorSeconds: unknown }[];
    results: { step: number }[];
    oodSets: unknown;
    tasks: number[][];
    matrix: number[][];
    backend: string;
    seconds: { total: number; training: number; detectors: Record<string, number> };
  };
  const reports = FIX.ood.runs as Report[];
  const worker: OodWorker = {
    job: (async (kind: string, input: { settings: OpenWorldSettings }, onEvent?: (e: unknown) => void) => {
      if (kind !== 'ood') throw new Error(kind);
      const r = reports.find((x) => Number(x.config.seed) === input.settings.seed)!;
      for (const st of r.steps)
        onEvent?.({
          kind: 'step',
          step: { ...st, steps: r.steps.length, row: r.matrix[st.step], results: r.results.filter((x) => x.step === st.step), samples: [] },
          checkpoint: { nextTask: st.step + 1 },
        });
      return {
        oodSets: r.oodSets,
        train: { tasks: r.tasks, matrix: r.matrix, backend: r.backend, seconds: r.seconds.training, config: r.config },
        seconds: { total: r.seconds.total, detectors: r.seconds.detectors },
      };
    }) as OodWorker['job'],
    pause: async () => {},
    resume: async () => {},
    cancel: async () => {},
  };
  const settings: OpenWorldSettings = { ...OPEN_WORLD_PRESETS.quick, ...FIX.ood.settings };
  delete (settings as { preset?: string }).preset;

  it('two seeds trained one after another: the same sentences; one of two is provisional', async () => {
    const runner = createOodRunner({ store: createMemoryOodStore(), lease: async () => ({ main: worker, backend: { name: 'wasm' }, release: () => {} }) });
    const lab = new OpenWorldLab(runner, { ...settings, seeds: 1 });
    await lab.run();
    await lab.loadSeedReports();
    lab.setSeeds(2);
    await lab.loadSeedReports();
    expect(lab.verdict!.provisional).toBe(true);
    expect(lab.verdict!.provisionalNote).toBe('Provisional: 1 of 2 seeds finished.');
    await lab.run();
    expect(lab.seedReports.map((r) => Number(r.config.seed))).toEqual([0, 1]);
    expect(lab.verdict!.provisional).toBe(false);
    expect(lab.verdict!.sentences).toEqual(FIX.ood.verdict as Sentence[]);
  });
});
