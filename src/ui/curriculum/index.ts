/**
 * The Curriculum lab's client half (docs/science.md §8): whole datasets as tasks, ordered easy-first (M2I) or
 * hard-first (I2M) or every way, read as CIL and TIL from the same model, with the artefact baseline ACC₀ beside ACC.
 * The lab kit mounts it (src/ui/common/lab/lab-client.ts); state in ./curriculum-lab.svelte.ts, the panel
 * ./CurriculumControls.svelte, the canvas ./CurriculumResults.svelte; training and the store in
 * src/services/curriculum-runner.ts.
 */
import { curriculumLab } from '../../core/labs/curriculum';
import { createCurriculumRunner } from '../../services/curriculum-runner';
import { labWorkers } from '../../services/lab-kit';
import { jsonExport, kitLab } from '../common/lab/lab-client';
import { CurriculumLab } from './curriculum-lab.svelte';
import CurriculumControls from './CurriculumControls.svelte';
import CurriculumResults from './CurriculumResults.svelte';

/** The model in flight (seed, label, task, epoch), or what finished. */
function progressLine(lab: CurriculumLab): string {
  const c = lab.state.current;
  if (c)
    return `${lab.seedNow !== null ? `seed ${lab.seedNow}: ` : ''}${c.label}${c.progress ? `: task ${c.progress.task + 1}, epoch ${c.progress.epoch + 1}` : ''}`;
  return lab.status === 'done' ? `done: ${lab.state.done} models (${lab.state.skipped} read from the store)` : '';
}

export default kitLab({
  entry: curriculumLab,
  title: 'Curriculum: easy first or hard first?',
  testid: 'cu',
  runner: () => createCurriculumRunner(labWorkers('curriculum')),
  state: (runner, settings) => new CurriculumLab(runner, settings),
  Controls: CurriculumControls,
  Results: CurriculumResults,
  saved: (lab) => (lab.problem === null ? lab.section : null),
  progress: (lab) => ({
    status: lab.status,
    done: lab.modelsDone,
    total: lab.modelsPlanned,
    unit: 'models',
    eta: lab.state.etaSeconds,
    text: progressLine(lab),
    disabled: lab.problem !== null,
    reason: lab.problem ?? '',
  }),
  lines: (lab) => ({ backend: lab.state.backend, error: lab.state.error ?? '', notice: lab.state.notice }),
  exports: (lab) => [jsonExport('cu-export-json', 'curriculum-lab-results.json', lab.points.length === 0, () => lab.exportJson())],
  play: {
    label: 'Play: train model after model',
    stepTitle: 'Train exactly one more model, then pause',
    idle: 'Play trains each dataset alone, then the orders; Step one model at a time.',
  },
  // M2I against I2M over the seeds, once every seed trained every order
  observation: (lab) => lab.observation,
});
