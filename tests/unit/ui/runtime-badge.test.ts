import { describe, expect, it } from 'vitest';
import { wasmRuntime } from '../../../src/ui/common/runtime-badge';

describe('runtime badge wording', () => {
  it('says threaded with the core count when isolated with SharedArrayBuffer', () => {
    const r = wasmRuntime({ isolated: true, sharedArrayBuffer: true, cores: 2 });
    expect(r).toMatchObject({ threaded: true, threads: 2, text: 'wasm · 2 threads, cross-origin isolated' });
    expect(wasmRuntime({ isolated: true, sharedArrayBuffer: true, cores: 1 }).text).toBe('wasm · 1 thread, cross-origin isolated');
  });
  it('says single-threaded and where to look when not isolated (or without SharedArrayBuffer)', () => {
    for (const env of [
      { isolated: false, sharedArrayBuffer: true, cores: 8 },
      { isolated: true, sharedArrayBuffer: false, cores: 8 },
    ]) {
      const r = wasmRuntime(env);
      expect(r).toMatchObject({ threaded: false, threads: 1, text: 'wasm · 1 thread (not isolated: see README Deploy)' });
    }
  });
  it('treats an unknown core count as 1', () => {
    expect(wasmRuntime({ isolated: true, sharedArrayBuffer: true, cores: undefined }).threads).toBe(1);
  });
});
