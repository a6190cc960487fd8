/**
 * The committed kernel module (src/engine/kernels/mlp-step.wasm.ts) is what scripts/build-kernels.mjs makes from
 * wasm/mlp-step.ts today: the source and the bytes the engine runs cannot drift apart.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { compileKernels, moduleText, TARGET } from '../../../scripts/build-kernels.mjs';

describe('the fused kernels module', () => {
  it('is the AssemblyScript compiler’s output for wasm/mlp-step.ts (run `npm run build:kernels` after changing it)', async () => {
    const bytes = await compileKernels();
    expect(WebAssembly.validate(bytes)).toBe(true);
    const committed = await readFile(TARGET, 'utf8');
    expect(committed).toBe(moduleText(bytes));
  }, 60_000);
});
