/**
 * The pure parts of `npm run bench:gpu` (scripts/bench-gpu-lib.mjs): the adapter's line, the WebGPU-against-wasm
 * comparison (bench:peer's test, and run by run), the table and the last JSON line. The benchmark itself (a browser
 * and a GPU) is not run here.
 */
import { describe, expect, it } from 'vitest';
// prettier-ignore
// @ts-expect-error a plain .mjs script without type declarations
import { compareSides, describeAdapter, extrapolate, formatComparison, formatSides, gpuJson, plannedSteps } from '../../../scripts/bench-gpu-lib.mjs';
// @ts-expect-error a plain .mjs script without type declarations
import { runKey, summarize } from '../../../scripts/peer/bench-peer-lib.mjs';

const side = (backend: string, finals: number[], extra: Record<string, unknown> = {}) => ({
  backend,
  workers: 1,
  population: 1,
  seconds: 10,
  firstResultSeconds: 0.5,
  steps: 5850,
  dist: summarize(finals),
  runs: finals.map((final, i) => ({ key: runKey([[i, 1]]), final })),
  ...extra,
});

describe('bench:gpu, pure parts', () => {
  it('describes the adapter: SwiftShader is said to be software, a GPU hardware, none unavailable', () => {
    const swift = { vendor: 'google', architecture: 'swiftshader', device: '', description: '', software: true };
    expect(describeAdapter(swift)).toBe(
      'vendor "google", architecture "swiftshader", device (empty), description (empty): a software adapter (SwiftShader, WebGPU emulated on the CPU), not a GPU',
    );
    const nvidia = { vendor: 'nvidia', architecture: 'hopper', device: '0x2335', description: 'NVIDIA H200', software: false };
    expect(describeAdapter(nvidia)).toMatch(/vendor "nvidia", architecture "hopper", device "0x2335", description "NVIDIA H200": a hardware GPU$/);
    expect(describeAdapter(null)).toMatch(/no WebGPU adapter/);
  });

  it('compares WebGPU with wasm: the same runs agree; a float apart is still the same run; a shifted distribution differs', () => {
    const finals = [0.3, 0.25, 0.41, 0.28, 0.35, 0.22];
    const wasm = side('wasm', finals);
    const same = compareSides(
      wasm,
      side(
        'webgpu',
        finals.map((x) => x + 1e-7),
      ),
      0.5 / 600,
    );
    expect(same.verdict).toBe('agree');
    expect(same.paired).toMatchObject({ n: 6, same: 6 });
    // numpy: a = [0.3, 0.25, 0.41, 0.28, 0.35, 0.22]; 2 * np.sqrt(2 * np.var(a, ddof=1) / 6) = 0.07980531867544222
    expect(same.twoSE).toBeCloseTo(0.07980531867544222, 6);
    const far = compareSides(
      wasm,
      side(
        'webgpu',
        finals.map((x) => x + 0.1),
      ),
      0.5 / 600,
    );
    expect(far.verdict).toBe('DIFFER');
    expect(far.paired.same).toBe(0);
    expect(far.meanDiff).toBeCloseTo(0.1, 12);
    // 1.5 points apart: outside the 1 point, inside 2 SE (≈ 7.9 points with 6 runs)
    const near = compareSides(
      wasm,
      side(
        'webgpu',
        finals.map((x) => x + 0.015),
      ),
      0.5 / 600,
    );
    expect(near.verdict).toBe('within noise');
    expect(formatComparison(near)).toMatch(/^webgpu vs wasm: mean \+0\.0150 \(2 SE 0\.07\d\d\), sd ×1\.00: within noise; run by run 0\/6 the same/);
    // run by run: one test image (of 600) apart is not the same to half an image, but within one
    const oneImage = compareSides(
      wasm,
      side(
        'webgpu',
        finals.map((x, i) => x + (i < 2 ? 1 / 600 : 0)),
      ),
      0.5 / 600,
    );
    expect(oneImage.paired).toMatchObject({ n: 6, same: 4, withinOne: 6 });
    expect(formatComparison(oneImage)).toMatch(/4\/6 the same to half a test image, 6\/6 within one test image/);
  });

  it('counts the steps a config plans (prefix sharing) and extrapolates a sampled side by them', () => {
    // 15 + 90 + 90 prefixes, 3 epochs of ceil(600 / 64) = 10 batches: 5,850; the quick config 6 + 6 prefixes × 2 batches
    expect(plannedSteps({ classes: 6, tasks: 3, trainPerClass: 300, epochs: 3, batchSize: 64 })).toBe(5850);
    expect(plannedSteps({ classes: 4, tasks: 2, trainPerClass: 60, epochs: 1, batchSize: 64 })).toBe(24);
    expect(extrapolate({ partial: true, steps: 585, dispatches: 1000, readbacks: 30, seconds: 60 }, 5850)).toEqual({
      dispatches: 10000,
      readbacks: 300,
      seconds: 600,
      fromSteps: 585,
      planned: 5850,
    });
    expect(extrapolate({ partial: false, steps: 5850, dispatches: 800, readbacks: 4, seconds: 60 }, 5850)).toBeNull();
  });

  it('prints one row per side and a last line with the adapter, the sides, the comparison and the speed-up', () => {
    const finals = [0.3, 0.25, 0.41];
    const webgpu = side('webgpu', finals, { population: 6, seconds: 4 });
    const wasm = side('wasm', finals, { workers: 2, seconds: 10 });
    const table = formatSides([{ ...webgpu, kernels: 'level', dispatches: 858, readbacks: 4 }, wasm]).split('\n');
    expect(table).toHaveLength(3);
    expect(table[0]).toMatch(/^backend\s+kernels\s+workers\s+population\s+seconds\s+first result s\s+steps\/s\s+dispatches\s+read-backs/);
    expect(table[1]).toMatch(/^webgpu\s+level\s+1\s+6\s+4\.0\s+0\.50\s+1462\.5\s+858\s+4\s+0\.3200/);
    const adapter = { vendor: 'google', architecture: 'swiftshader', device: '', description: '', software: true };
    const sampled = { ...side('webgpu-tfjs', finals), partial: true, steps: 585, dispatches: 1000, readbacks: 30, seconds: 60 };
    const choice = { choice: 'wasm', reason: 'wasm runs, the fastest measured', timings: [] };
    const j = JSON.parse(
      gpuJson(
        adapter,
        'quick',
        [{ ...webgpu, kernels: 'level', dispatches: 858, readbacks: 4 }, sampled, wasm],
        compareSides(wasm, webgpu, 0.001),
        choice,
        5850,
      ),
    );
    expect(Object.keys(j)).toEqual(['adapter', 'config', 'choice', 'sides', 'comparison', 'speedup']);
    expect(j.adapter.software).toBe(true);
    expect(j.config).toBe('quick');
    expect(j.choice).toEqual({ choice: 'wasm', reason: 'wasm runs, the fastest measured' });
    expect(
      j.sides.map((s: { backend: string; population: number; dispatches: number; readbacks: number }) => [s.backend, s.population, s.dispatches, s.readbacks]),
    ).toEqual([
      ['webgpu', 6, 858, 4],
      ['webgpu-tfjs', 1, 1000, 30],
      ['wasm', 1, 0, 0],
    ]);
    expect(j.sides[1]).toMatchObject({ partial: true, estimate: { dispatches: 10000, readbacks: 300, seconds: 600 } });
    expect(j.sides[0].estimate).toBeNull();
    expect(j.comparison).toMatchObject({ verdict: 'agree', pairedSame: 3, pairedWithinOne: 3, pairedRuns: 3 });
    expect(j.speedup).toBe(2.5);
    // without WebGPU: no comparison, no speed-up
    expect(JSON.parse(gpuJson(null, 'default', [wasm], null))).toMatchObject({ adapter: null, choice: null, comparison: null, speedup: null });
  });
});
