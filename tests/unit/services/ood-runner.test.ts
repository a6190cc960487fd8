import { describe, expect, it } from 'vitest';
import { OPEN_WORLD_PRESETS } from '../../../src/core/ood/config';
import type { OpenWorldStep } from '../../../src/engine/ood/run';
import { createOodRunner, type OodRemote, type OodRunnerState } from '../../../src/services/ood-runner';
import type { OodRunResult } from '../../../src/workers/ood.worker';

const step = (t: number): OpenWorldStep => ({ step: t, steps: 2, accuracy: 0.5, row: [], results: [], confidence: { tasks: [], ood: {} }, assignment: {}, samples: [], detectorSeconds: {}, setup: { newCount: 0, oldCount: 0 } });

function fake(opts: { fail?: string } = {}) {
  const calls: string[] = [];
  let finish: (() => void) | null = null;
  const remote: OodRemote = {
    run: (_s, onStep, onActivity) =>
      new Promise<OodRunResult>((resolve, reject) => {
        onActivity?.({ phase: 'detector', step: 0, detector: 'msp' });
        onStep(step(0));
        finish = () => {
          if (opts.fail) return reject(Object.assign(new Error(opts.fail), { name: opts.fail === 'cancelled' ? 'RunCancelledError' : 'Error' }));
          onStep(step(1));
          resolve({ steps: [step(0), step(1)] } as unknown as OodRunResult);
        };
      }),
    pause: () => void calls.push('pause'),
    resume: () => void calls.push('resume'),
    cancel: () => void calls.push('cancel'),
  };
  return { make: () => ({ remote, dispose: () => calls.push('dispose') }), calls, finish: () => finish?.() };
}

describe('ood-runner', () => {
  it('shows each step as it finishes, then the result; pause and resume reach the worker', async () => {
    const f = fake();
    const runner = createOodRunner(f.make);
    const seen: OodRunnerState[] = [];
    runner.subscribe((s) => seen.push(s));
    const done = runner.run(OPEN_WORLD_PRESETS.quick);
    await Promise.resolve();
    expect(runner.state.status).toBe('running');
    expect(runner.state.steps.map((s) => s.step)).toEqual([0]);
    expect(runner.state.activity).toBe('step 1: msp');
    await runner.pause();
    expect(runner.state.status).toBe('paused');
    await runner.resume();
    f.finish();
    await done;
    expect(runner.state.status).toBe('done');
    expect(runner.state.steps.map((s) => s.step)).toEqual([0, 1]);
    expect(f.calls).toEqual(['pause', 'resume']);
    expect(seen[0].status).toBe('idle');
    runner.dispose();
    expect(f.calls).toContain('dispose');
  });
  it('invalid settings never reach the worker; errors and cancels are states', async () => {
    const f = fake({ fail: 'backend lost' });
    const runner = createOodRunner(f.make);
    await runner.run({ ...OPEN_WORLD_PRESETS.quick, detectors: [] });
    expect(runner.state.status).toBe('error');
    expect(runner.state.error).toMatch(/at least one detector/);
    const p = runner.run(OPEN_WORLD_PRESETS.quick);
    await Promise.resolve();
    f.finish();
    await p;
    expect(runner.state).toMatchObject({ status: 'error', error: 'backend lost' });
    const c = fake({ fail: 'cancelled' });
    const r2 = createOodRunner(c.make);
    const p2 = r2.run(OPEN_WORLD_PRESETS.quick);
    await Promise.resolve();
    c.finish();
    await p2;
    expect(r2.state.status).toBe('cancelled');
  });
});
