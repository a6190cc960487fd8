import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../../../../src/core/config/schema';
import { forgettingExperimentOf, forgettingJobsOf, forgettingProblem, groupOf, jobConfig, jobKey } from '../../../../src/core/forgetting/from-config';
import { configTasks } from '../../../../src/core/forgetting/lab-classes';
import { paperTasks, presetJobs } from '../../../../src/core/forgetting/setup';
import { forgettingChange, forgettingTabStart, type ForgettingSettings } from '../../../../src/core/labs/forgetting/binding';

const paper = paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
const configOf = (over: Partial<ForgettingSettings> = {}, tasks = paper) =>
  forgettingExperimentOf(defaultConfig(), forgettingChange({ ...forgettingTabStart(), ...over }, tasks)).config!;

describe('Forgetting runs from the experiment config', () => {
  it('one run: the config’s ordering, strategy, epochs, calibration and data', () => {
    const tasks = [[9, 8, 7, 6, 5], [0], [1], [2], [3], [4]];
    const [job] = forgettingJobsOf(
      configOf(
        {
          datasetId: 'emoji',
          strategy: 'ewc',
          ewcMode: 'multi',
          ewcLambda: 300,
          epochs: 2,
          firstTaskEpochs: 5,
          calibrationRatio: 0.2,
          trainPerClass: 40,
          testPerClass: 10,
          seed: 7,
          lr: 1e-3,
        },
        tasks,
      ),
    );
    expect(job).toMatchObject({
      dataset: 'emoji',
      tasks: [[5, 6, 7, 8, 9], [0], [1], [2], [3], [4]],
      strategy: 'ewc',
      ewcMode: 'multi',
      ewcLambda: 300,
      epochs: 2,
      firstTaskEpochs: 5,
      calibrationRatio: 0.2,
      trainPerClass: 40,
      testPerClass: 10,
      seed: 7,
      lr: 1e-3,
      head: 'all',
    });
  });

  it('a preset: its runs on the config’s dataset, data, seed and learning rate', () => {
    const config = configOf({ preset: 'grid', datasetId: 'fashion-mnist', trainPerClass: 30, testPerClass: 10, seed: 3, presetLr: 1e-3 });
    const jobs = forgettingJobsOf(config);
    expect(jobs.map(jobKey)).toEqual(presetJobs('grid', { dataset: 'fashion-mnist', lr: 1e-3, seed: 3, trainPerClass: 30, testPerClass: 10 }).map(jobKey));
    expect(() => forgettingJobsOf(configOf({ preset: 'edge' }))).toThrow(/EDGE orderings/);
    expect(forgettingJobsOf(configOf({ preset: 'edge' }), { edgeOrderings: [{ label: 'EDGE hard', tasks: paper }] })).toHaveLength(1);
  });

  it('the paper presets validate as configs, keep their regime whatever the config’s data, and each run’s config is valid', () => {
    for (const id of ['digits', 'fashion', 'fashion-paper'] as const) {
      const config = configOf({ preset: id, datasetId: 'emoji', trainPerClass: 30, testPerClass: 10, seed: 2 });
      expect(validateConfig(config).errors).toEqual([]);
      const jobs = forgettingJobsOf(config);
      expect(jobs.map(jobKey)).toEqual(presetJobs(id, { dataset: 'emoji', lr: config.training.lr, seed: 2 }).map(jobKey));
      expect(jobs.map((j) => j.seed)).toEqual([2, 3, 4, 5, 6, 2, 3, 4, 5, 6]);
      expect(jobs[0].dataset).toBe(id === 'digits' ? 'digits' : 'fashion-mnist');
      for (const job of [jobs[0], jobs[9]]) expect(validateConfig(jobConfig({ ...config, forgetting: { preset: null } }, job)).errors).toEqual([]);
    }
    expect(validateConfig({ ...configOf(), forgetting: { preset: 'fashion-full' } }).errors[0]?.message).toMatch(/fashion-paper/);
  });

  it('jobConfig gives back the job: the config of a run describes that run', () => {
    const config = configOf({ preset: 'ewc-variants' });
    for (const job of forgettingJobsOf(config)) {
      const one = jobConfig({ ...config, forgetting: { preset: null } }, job);
      expect(validateConfig(one).errors).toEqual([]);
      expect(jobKey(forgettingJobsOf(one)[0])).toBe(jobKey(job));
      expect(configTasks(one)).toEqual(job.tasks);
    }
  });

  it('the group of a setup does not depend on α or the score; a config the lab cannot train says why', () => {
    const a = configOf({ alpha: 0.05, score: 'lac' });
    const b = configOf({ alpha: 0.2 });
    expect(groupOf(null, forgettingJobsOf(a))).toBe(groupOf(null, forgettingJobsOf(b)));
    expect(groupOf(null, forgettingJobsOf(configOf({ seed: 1 })))).not.toBe(groupOf(null, forgettingJobsOf(b)));
    const cifar = { ...defaultConfig(), dataset: { id: 'cifar10' as const } };
    expect(forgettingProblem(cifar)).toMatch(/cifar10/);
    expect(() => forgettingJobsOf(cifar)).toThrow(/Forgetting lab trains digits/);
  });
});
