import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureCli } from '../cli/capture';
import { augmentFor } from '../../../src/cli/run';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { configTasks } from '../../../src/core/forgetting/lab-classes';
import { paperTasks } from '../../../src/core/forgetting/setup';
import { resolveTrainConfig } from '../../../src/engine/config';
import { augmentsByDefault, runConfigOf, runSettingsOf, trainRunConfigOf } from '../../../src/engine/run-config';
import { forgettingRunConfigs } from '../../../src/services/forgetting-runner';
import { trainConfigFor } from '../../../src/services/ground-truth-runner';
import { forgettingExperimentOf } from '../../../src/core/forgetting/from-config';
import { forgettingChange, forgettingTabStart } from '../../../src/core/labs/forgetting/binding';

const cli = captureCli();

/** What `cil-lab <command> --config FILE` trains for a config: the resolved run config it reports. */
async function cliRun(command: 'run' | 'cpcf', config: ExperimentConfig) {
  const dir = mkdtempSync(join(tmpdir(), 'cil-run-config-'));
  const file = join(dir, 'experiment.json');
  writeFileSync(file, JSON.stringify(config));
  const { code, json, err } = await cli(command, '--config', file, '--backend', 'cpu');
  expect(err).not.toMatch(/cil-lab:/);
  expect(code).toBe(0);
  return json.config;
}

function check(input: unknown): ExperimentConfig {
  const r = validateConfig(input);
  expect(r.errors).toEqual([]);
  return r.config;
}

describe('one run config from the experiment config', () => {
  it('Ground-truth lab and `cil-lab run --config` train the same run', async () => {
    const config = check({
      ...defaultConfig(),
      lab: 'ground-truth',
      dataset: { id: 'digits' },
      classes: [0, 1, 2, 3],
      taskSizes: [2, 2],
      strategies: [{ id: 'replay', options: { memory: 12 } }],
      training: { ...defaultConfig().training, epochs: 1, firstTaskEpochs: 1, lr: 0.002, batchSize: 16, head: 'all', init: 'pytorch' },
      data: { trainPerClass: 12, testPerClass: 4 },
      seeds: [3],
    });
    const job = { orderingKey: '0,1|2,3', tasks: configTasks(config), strategy: 'replay', seed: 3 };
    const page = resolveTrainConfig(trainConfigFor(config)(job));
    expect(page).toMatchObject({
      strategy: 'replay',
      lr: 0.002,
      batchSize: 16,
      epochs: 1,
      head: 'all',
      init: 'pytorch',
      seed: 3,
      probs: null,
      augment: null,
      tasks: [
        [0, 1],
        [2, 3],
      ],
    });
    expect(page.strategyOptions.memory).toBe(12);
    expect(await cliRun('run', config)).toEqual(page);
  });

  it('Forgetting lab, the mapping the Ground-truth page uses and `cil-lab cpcf --config` give the same run, softmax outputs included', async () => {
    const inputs = {
      ...forgettingTabStart(),
      strategy: 'ewc' as const,
      ewcLambda: 500,
      epochs: 1,
      firstTaskEpochs: 1,
      trainPerClass: 10,
      testPerClass: 4,
      calibrationRatio: 0.2,
      lr: 1e-3,
      seed: 2,
      seeds: 1,
    };
    const config = forgettingExperimentOf(defaultConfig(), forgettingChange(inputs, paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))).config!;
    expect(config.lab).toBe('forgetting');
    const runs = forgettingRunConfigs(config);
    expect(runs).toHaveLength(1);
    const lab = resolveTrainConfig(runs[0].config);
    const page = resolveTrainConfig(trainConfigFor(config)({ orderingKey: '', tasks: configTasks(config), strategy: 'ewc', seed: 2 }));
    expect(lab).toEqual(page);
    expect(lab).toMatchObject({ strategy: 'ewc', lr: 1e-3, head: 'all', seed: 2, probs: { calibrationRatio: 0.2, softmax: 'all' } });
    expect(lab.strategyOptions).toMatchObject({ lambda: 500, mode: 'single' });
    // the CLI takes EWC's λ and mode from the config (--strategy-options, src/cli/config-args.ts)
    expect(await cliRun('cpcf', config)).toEqual(lab);
    const finetune = forgettingExperimentOf(
      defaultConfig(),
      forgettingChange({ ...inputs, strategy: 'finetune' }, paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    ).config!;
    const [ft] = forgettingRunConfigs(finetune);
    const ftLab = resolveTrainConfig(ft.config);
    expect(ftLab).toEqual(resolveTrainConfig(trainConfigFor(finetune)({ orderingKey: '', tasks: configTasks(finetune), strategy: 'finetune', seed: 2 })));
    expect(await cliRun('cpcf', finetune)).toEqual(ftLab);
  });

  it('the augmentation rule is written once: emoji only, for the app and the CLI', () => {
    expect(augmentsByDefault('emoji')).toBe(true);
    expect(augmentsByDefault('digits')).toBe(false);
    expect(augmentFor({}, 'emoji')).toBe(true);
    expect(augmentFor({}, 'fashion-mnist')).toBe(false);
    const emoji = check({ ...defaultConfig(), lab: 'ground-truth', dataset: { id: 'emoji' }, classes: [0, 1, 2, 3], taskSizes: [2, 2] });
    expect(
      trainRunConfigOf(emoji, {
        tasks: [
          [0, 1],
          [2, 3],
        ],
        strategy: 'finetune',
        seed: 0,
      }).augment,
    ).toBe(true);
    // outside the Forgetting lab nothing is recorded
    expect(runSettingsOf(emoji).probs).toBeUndefined();
  });

  it('runConfigOf copies the job (no shared arrays) and gives each strategy its own options', () => {
    const settings = { model: { kind: 'mlp' as const, hidden: [8] }, strategyOptions: { replay: { memory: 5 } } };
    const tasks = [[1, 0], [2]];
    const a = runConfigOf(settings, { tasks, strategy: 'replay', seed: 1 });
    const b = runConfigOf(settings, { tasks, strategy: 'finetune', seed: 1 });
    expect(a).toEqual({ model: { kind: 'mlp', hidden: [8] }, strategy: 'replay', strategyOptions: { memory: 5 }, tasks: [[1, 0], [2]], seed: 1 });
    expect('strategyOptions' in b).toBe(false);
    a.tasks[0].push(9);
    (a.model as { hidden: number[] }).hidden.push(3);
    expect(tasks[0]).toEqual([1, 0]);
    expect(settings.model.hidden).toEqual([8]);
  });
});

describe("the default init is left out of a run's resolved config", () => {
  it("a config without training.init resolves as before the field (no init key: checkpoints and recorded configs unchanged); 'pytorch' is carried", () => {
    const job = {
      tasks: [
        [0, 1],
        [2, 3],
      ],
      strategy: 'finetune',
      seed: 0,
    };
    const plain = resolveTrainConfig(trainRunConfigOf(defaultConfig(), job));
    expect('init' in plain).toBe(false);
    expect('init' in runSettingsOf(defaultConfig())).toBe(false);
    const pt = defaultConfig();
    pt.training.init = 'pytorch';
    expect(resolveTrainConfig(trainRunConfigOf(pt, job)).init).toBe('pytorch');
    expect(() => resolveTrainConfig({ ...trainRunConfigOf(defaultConfig(), job), init: 'xavier' as never })).toThrow(/init must be/);
  });
});
