/**
 * The Forgetting lab's default is in the regime the CPCF paper measures: a new visitor's experiment (the tab's start,
 * on the paper's ordering of digits 0–9, as the lab's entry writes it into the experiment) trains its base task to
 * at least 80 % at each of its seeds (docs/science.md §3 "The lab's default, measured": 100 % on seeds 0–2). The runs
 * are the ones the page trains (the same jobs and engine run configs, on the wasm backend, the browser's), cut after
 * their base task: forgetting comes later, the base task's accuracy right after training it is R[0][0]. The browser
 * shows the verdict over 3 seeds after a shorter run (tests/e2e/lab-verdicts.spec.ts).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/core/config/schema';
import { forgettingExperimentOf } from '../../../src/core/forgetting/from-config';
import { FORGETTING_CLASSES } from '../../../src/core/forgetting/lab-classes';
import { paperTasks } from '../../../src/core/forgetting/setup';
import { forgettingChange, forgettingTabStart } from '../../../src/core/labs/forgetting/binding';
import { loadBuiltinDataset } from '../../../src/data/registry';
import { selectBackend } from '../../../src/engine/backend';
import { fromDecodedDataset, subsetPerClass } from '../../../src/engine/dataset';
import { trainRun } from '../../../src/engine/trainer';
import { forgettingRunConfigs } from '../../../src/services/forgetting-runner';

const have = existsSync(join('public', 'data', 'digits', 'meta.json'));

describe.skipIf(!have)('the Forgetting lab’s default learns its base task at each of its seeds', () => {
  beforeAll(async () => {
    await selectBackend('wasm', { strict: true });
  });

  it('the tab’s start: 3 seeds of fine-tuning on digits, each ≥ 80 % on the base task right after training it', async () => {
    const fresh = validateConfig({}).config;
    const made = forgettingExperimentOf(fresh, forgettingChange(forgettingTabStart(), paperTasks([...FORGETTING_CLASSES])));
    expect(made.error).toBeNull();
    const runs = forgettingRunConfigs(made.config!);
    expect(runs.map((r) => r.job.seed)).toEqual([0, 1, 2]);
    const full = fromDecodedDataset(await loadBuiltinDataset('digits', async (p) => new Uint8Array(await readFile(join('public', p)))));
    for (const { job, config } of runs) {
      expect(job.dataset).toBe('digits');
      expect(job.strategy).toBe('finetune');
      const ds = subsetPerClass(full, { trainPerClass: job.trainPerClass ?? undefined, testPerClass: job.testPerClass ?? undefined });
      const base = await trainRun(ds, { ...config, tasks: config.tasks.slice(0, 1) });
      expect(base.backend).toBe('wasm');
      expect(base.matrix[0][0], `seed ${job.seed}`).toBeGreaterThanOrEqual(0.8);
    }
  }, 180_000);
});
