/**
 * The worker's warm-up (src/engine/warm.ts): a throwaway two-ordering run of the workload's network on a few images,
 * through the shared path a Run takes; nothing for a network the held dataset does not fit.
 */
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/engine/backend';
import { warmTraining } from '../../../src/engine/warm';
import { syntheticDataset } from './synthetic';

const ds = syntheticDataset({ classes: 6, trainPerClass: 8, testPerClass: 4 });
const workload = {
  spec: { kind: 'mlp' as const, inputShape: [6, 6, 1] as [number, number, number], outputs: 6, hidden: [16, 8] },
  batchSize: 16,
  models: 90,
  plain: true,
  bytes: true,
};

describe('warm-up training', () => {
  it('trains the workload’s network on the held images, and skips one that does not fit them', async () => {
    await selectBackend('wasm', { strict: true });
    expect(await warmTraining(ds, workload)).toBeGreaterThan(0);
    expect(await warmTraining(ds, { ...workload, spec: { ...workload.spec, inputShape: [28, 28, 1] } })).toBe(0);
    expect(await warmTraining(ds, { ...workload, spec: { ...workload.spec, outputs: 12 } })).toBe(0);
    expect(await warmTraining(ds, { ...workload, spec: { ...workload.spec, kind: 'cnn' } })).toBe(0);
  });
});
