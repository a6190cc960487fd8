/**
 * The Open-world lab's CIL run comes from the one run path (src/engine/run-config.ts `trainRunConfigOf` of the lab's
 * experiment), not from a run config the lab builds itself. Two properties:
 * - the lab trains what the same experiment trains in the Ground-truth lab (the link's config through
 *   `trainRunConfigOf` directly), for every strategy the lab offers and every dataset;
 * - the resolved run equals the one the lab trained before its run went through the experiment: its model, epochs,
 *   augmentation and memory set, everything else the engine's default (written out below as that reference), so
 *   stored runs and printed numbers are unchanged.
 */
import { describe, expect, it } from 'vitest';
import { MEMORY_STRATEGY_IDS, STRATEGY_IDS } from '../../../src/core/config/defaults';
import { validateConfig } from '../../../src/core/config/validate';
import { OPEN_WORLD_DATASETS, OPEN_WORLD_PRESETS, type OpenWorldSettings } from '../../../src/core/labs/open-world/settings';
import { foldOpenWorld } from '../../../src/core/ood/experiment';
import { defaultConfig } from '../../../src/core/config/validate';
import { openWorldLab } from '../../../src/core/labs/open-world';
import { splitIntoTasks } from '../../../src/core/orderings/key';
import { resolveTaskSizes } from '../../../src/core/orderings/task-sizes';
import { rsClassOrder } from '../../../src/core/protocols/rs';
import { resolveTrainConfig } from '../../../src/engine/config';
import { openWorldTrainConfig } from '../../../src/engine/ood/from-settings';
import { runConfigOf, trainRunConfigOf } from '../../../src/engine/run-config';

/** What the lab built by hand before: model, epochs, augmentation (emoji only) and memory; the rest engine defaults. */
function handBuilt(s: OpenWorldSettings) {
  const order = s.orderSeed === null ? s.classes.slice() : rsClassOrder(s.orderSeed, s.classes.length).map((i) => s.classes[i]);
  const withMemory = (MEMORY_STRATEGY_IDS as readonly string[]).includes(s.strategy);
  return runConfigOf(
    {
      model: { kind: 'mlp', hidden: s.hidden.slice() },
      epochs: s.epochs,
      augment: s.dataset === 'emoji',
      ...(withMemory ? { strategyOptions: { [s.strategy]: { memory: s.memory } } } : {}),
    },
    { tasks: splitIntoTasks(order, resolveTaskSizes(s.classes.length, { tasks: s.tasks })), strategy: s.strategy, seed: s.seed },
  );
}

const cases: OpenWorldSettings[] = [];
for (const strategy of STRATEGY_IDS)
  for (const dataset of OPEN_WORLD_DATASETS)
    cases.push({
      ...OPEN_WORLD_PRESETS.default,
      dataset,
      strategy,
      // a memory of its own where the strategy has one (the link keeps no memory for one without)
      memory: (MEMORY_STRATEGY_IDS as readonly string[]).includes(strategy) ? 120 : OPEN_WORLD_PRESETS.default.memory,
      epochs: 2,
      hidden: [64],
      seed: 7,
      orderSeed: 3,
    });
cases.push(OPEN_WORLD_PRESETS.quick, { ...OPEN_WORLD_PRESETS['near-far'], classes: [4, 5, 0, 1, 2, 3] });

describe("the Open-world lab's run config", () => {
  it('covers every strategy the lab offers on every dataset', () => {
    expect(cases.length).toBe(STRATEGY_IDS.length * OPEN_WORLD_DATASETS.length + 2);
    expect(STRATEGY_IDS.length).toBeGreaterThan(4);
  });

  it.each(cases.map((s) => [`${s.strategy} on ${s.dataset}`, s] as const))('%s resolves to the run the lab trained by hand before', (_, s) => {
    expect(resolveTrainConfig(openWorldTrainConfig(s))).toEqual(resolveTrainConfig(handBuilt(s)));
  });

  it.each(cases.map((s) => [`${s.strategy} on ${s.dataset}`, s] as const))("%s is the link's experiment through trainRunConfigOf", (_, s) => {
    // the experiment the lab writes into the link, read back from the link as any lab would
    const { config, errors } = validateConfig(JSON.parse(JSON.stringify(foldOpenWorld(defaultConfig(), s))));
    expect(errors).toEqual([]);
    const settings = openWorldLab.view(config);
    expect(settings).toEqual(s);
    const order = s.orderSeed === null ? s.classes.slice() : rsClassOrder(s.orderSeed, s.classes.length).map((i) => s.classes[i]);
    const job = { tasks: splitIntoTasks(order, resolveTaskSizes(s.classes.length, { tasks: s.tasks })), strategy: s.strategy, seed: s.seed };
    expect(openWorldTrainConfig(settings)).toEqual(trainRunConfigOf(config, job));
  });
});
