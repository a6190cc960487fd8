import { describe, expect, it } from 'vitest';
import { defaultTimeLabConfig } from '../../../src/core/labs/time/settings';
import { streamMetrics } from '../../../src/core/stream/metrics';
import { createTimeRunner, memoryTimeStore, type TimeWorker } from '../../../src/services/time-runner';
import { PRESETS, TimeLab } from '../../../src/ui/time/lab-state.svelte';

const R = [
  [0.9, 0.5, 0.4],
  [0.8, 0.9, 0.6],
  [0.7, 0.8, 0.9],
];

/** A worker whose `stream` job "trains" R row by row, waiting while paused. */
function fakeWorker(log: string[]): TimeWorker {
  let paused = false;
  let wake: (() => void) | null = null;
  const job = async (kind: string, input: { protocol: 'iid' | 'streaming' }, onEvent?: (e: unknown) => void): Promise<unknown> => {
    if (kind === 'stream-preview') return { shape: [2, 2, 1], classNames: ['a'], sizes: [1], levels: [0], rows: [] };
    if (kind === 'reservoir-sweep') return [];
    const p = input.protocol;
    for (let i = 0; i < 3; i++) {
      while (paused) await new Promise<void>((r) => (wake = r));
      onEvent?.({ kind: 'step', end: { step: i, row: R[i], composition: [], numTensors: 0, baselineTensors: 0 } });
      await Promise.resolve();
    }
    return { matrix: R, metrics: streamMetrics(R, p), compositions: [[1, 0, 0]], protocol: p, backend: 'cpu' };
  };
  return {
    job: job as TimeWorker['job'],
    pause: async () => {
      log.push('pause');
      paused = true;
    },
    resume: async () => {
      log.push('resume');
      paused = false;
      wake?.();
    },
    cancel: async () => void log.push('cancel'),
  };
}

function runner(log: string[] = []) {
  const main = fakeWorker(log);
  return createTimeRunner({ lease: async () => ({ main, backend: { name: 'cpu' }, release: () => {} }), store: Promise.resolve(memoryTimeStore()) });
}

describe('TimeLab (page state)', () => {
  it('runs both protocols, collecting rows and CLEAR averages', async () => {
    const lab = new TimeLab(runner(), { ...defaultTimeLabConfig(), buckets: 3 });
    expect(lab.total).toBe(6);
    await lab.run();
    expect(lab.status).toBe('done');
    expect(lab.done).toBe(6);
    expect(lab.metrics.iid?.inDomain).toBeCloseTo(0.9, 12);
    expect(lab.metrics.streaming?.inDomain).toBeNull();
    expect(lab.distances.streaming?.map((d) => d.distance)).toEqual([1, 2]);
    expect(lab.backendName).toBe('cpu');
  });
  it('with several seeds the JSON export holds every seed’s finished protocols and the verdict over them', async () => {
    const lab = new TimeLab(runner(), { ...defaultTimeLabConfig(), buckets: 3, seeds: 2 });
    await lab.run();
    const out = JSON.parse(lab.exportJson());
    expect(out.seedRuns).toHaveLength(4);
    expect(out.seedRuns.map((r: { seed: number; protocol: string }) => `${r.seed}:${r.protocol}`).sort()).toEqual(
      lab.seeds.flatMap((s) => ['iid', 'streaming'].map((p) => `${s}:${p}`)).sort(),
    );
    expect(out.seedRuns[0].settingsKey).toBeUndefined();
    expect(out.verdict.length).toBeGreaterThan(0);
  });
  it('a second run reads both protocols from the store', async () => {
    const log: string[] = [];
    const r = runner(log);
    const lab = new TimeLab(r, { ...defaultTimeLabConfig(), buckets: 3 });
    await lab.run();
    await lab.run();
    expect(lab.state.skipped).toBe(2);
    expect(lab.done).toBe(6);
  });
  it('Step trains one bucket and pauses', async () => {
    const log: string[] = [];
    const lab = new TimeLab(runner(log), { ...defaultTimeLabConfig(), buckets: 3, protocols: ['iid'] });
    lab.step();
    await new Promise((r) => setTimeout(r, 10));
    expect(lab.status).toBe('paused');
    expect(lab.rows.iid).toHaveLength(1);
    expect(log).toEqual(['pause']);
  });
  it('changing a setting or applying a preset clears the results and validates', async () => {
    const lab = new TimeLab(runner(), { ...defaultTimeLabConfig(), buckets: 3 });
    await lab.run();
    lab.set({ buckets: 42 });
    expect(lab.config.buckets).toBe(3); // refused: the old value stays, results too
    expect(lab.inputError).toMatch(/buckets: .*2 to 10/);
    expect(lab.metrics.iid?.inDomain).toBeCloseTo(0.9, 12); // the results stay too, with their values
    lab.set({ buckets: 4 });
    expect(lab.inputError).toBe('');
    expect(lab.results).toEqual({});
    lab.applyPreset(PRESETS.find((p) => p.id === 'abrupt')!);
    expect(lab.config.stream).toBe('abrupt');
    expect(lab.config.buckets).toBe(5);
  });
});
