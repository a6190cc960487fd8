/**
 * The Orderings lab's "prototypes of the feature source" (services/feature-source.ts featurePrototypesFor) equal
 * `cil-lab similarity --source features --features backbone` — the same matrix `cil-lab orders --similarity features`
 * orders by — on the default experiment (Fashion-MNIST 0–5, the embedded backbone, every training image of those
 * classes). The feature job runs in this process as the training worker would run it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/schema';
import type { ExperimentConfig } from '../../../src/core/config/types';
import { cosineSimilarity } from '../../../src/core/similarity/cosine';
import { loadBuiltinDataset } from '../../../src/data/registry';
import { RunControl } from '../../../src/engine/control';
import { fromDecodedDataset } from '../../../src/engine/dataset';
import { featureJob, featureKeyJob, type FeatureJobInput } from '../../../src/engine/features/job';
import { jobContext } from '../../../src/engine/jobs/job';
import { FEATURE_DB, featureCacheOver } from '../../../src/services/feature-cache';
import { featurePrototypesFor } from '../../../src/services/feature-source';
import { memoryStore } from '../../../src/services/store';

const prepared = existsSync(join('public', 'data', 'fashion-mnist', 'meta.json'));

describe.skipIf(!prepared)('prototypes of the feature source', () => {
  it('give the CLI’s similarity matrix on the embedded backbone', { timeout: 120_000 }, async () => {
    const ctx = jobContext(
      async (id) => fromDecodedDataset(await loadBuiltinDataset(id, async (p) => new Uint8Array(await readFile(join('public', p))))),
      new RunControl(),
    );
    const main = {
      loadDataset: async () => ({}),
      job: (kind: string, input: FeatureJobInput) => (kind === 'features-key' ? featureKeyJob(input, ctx, () => {}) : featureJob(input, ctx, () => {})),
      pause: async () => {},
      resume: async () => {},
      cancel: async () => {},
    };
    const config = {
      ...defaultConfig(),
      features: { source: 'backbone', seed: 0 },
      model: { kind: 'head', hidden: [] },
      similarity: { kind: 'features' },
    } as ExperimentConfig;
    const app = await featurePrototypesFor(config, config.classes, {
      lease: async () => ({ main, helpers: [], backend: {} as never, release() {} }) as never,
      cache: async () => featureCacheOver(memoryStore(FEATURE_DB)),
    });
    expect(app.label).toBe('class prototypes of stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)');
    expect(app.counts).toEqual([6000, 6000, 6000, 6000, 6000, 6000]);
    const cli = JSON.parse(
      execFileSync(
        process.execPath,
        ['bin/cil-lab.mjs', 'similarity', '--source', 'features', '--features', 'backbone', '--dataset', 'fashion-mnist', '--subset', '0-5'],
        {
          encoding: 'utf8',
        },
      ),
    ) as { matrix: number[][]; source: string };
    expect(cli.source).toBe(`cosine similarity of ${app.label}`);
    const mine = cosineSimilarity(app.rows);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(mine.data[i * 6 + j]).toBeCloseTo(cli.matrix[i][j], 12);
  });
});
