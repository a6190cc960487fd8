import { describe, expect, it } from 'vitest';
import { wasmThreadsPerWorker } from '../../../src/engine/backend';

describe('wasmThreadsPerWorker: workers share the cores instead of each taking all of them', () => {
  it('gives ⌊cores / workers⌋, at least 1', () => {
    expect(wasmThreadsPerWorker(1, 8)).toBe(8);
    expect(wasmThreadsPerWorker(2, 8)).toBe(4);
    expect(wasmThreadsPerWorker(3, 8)).toBe(2);
    expect(wasmThreadsPerWorker(2, 2)).toBe(1);
    expect(wasmThreadsPerWorker(4, 2)).toBe(1);
  });
  it('reads nonsense as 1', () => {
    expect(wasmThreadsPerWorker(0, 8)).toBe(8);
    expect(wasmThreadsPerWorker(Number.NaN, 4)).toBe(4);
    expect(wasmThreadsPerWorker(2, Number.NaN)).toBe(1);
  });
});
