/**
 * The Open-world lab's client half (docs/science.md §5): class-incremental learning while OOD samples arrive. Pick
 * the ID data, ordering, CIL strategy, detectors and OOD sets; each step's AUROC / FPR@95 curves (with the accuracy
 * beside them), the confidence of each task's classes vs OOD, where OOD samples are assigned, a Table-1 table and, on
 * a click in the table, the ROC curve and score histograms of that detector and set at the chosen step. The lab kit
 * mounts it (src/ui/common/lab/lab-client.ts); state in ./open-world-lab.svelte.ts, the panel
 * ./OpenWorldControls.svelte, the canvas ./OpenWorldResults.svelte.
 *
 * Its settings are the experiment's: the ID data, strategy and training in the common sections, the rest in
 * `openWorld` (the lab's entry, src/core/labs/open-world/index.ts). Stored and resumable (src/services/ood-runner.ts,
 * ood-store.ts): each finished step is stored in IndexedDB at once under `openWorldKey(settings)`; settings on screen
 * whose steps are stored are shown without training; Run continues a stopped run after its last stored step (from the
 * stored checkpoint). Exports: the run as JSON (= `cil-lab ood`'s output), the results as CSV, each chart's ⤓ menu,
 * and the equivalent `npx cil-lab ood …` command (src/services/ood-export.ts). Teaching mode: Step = one more
 * incremental step.
 */
import { openWorldLab } from '../../core/labs/open-world';
import { openWorldObservation } from '../../core/lessons/observations';
import { labWorkers } from '../../services/lab-kit';
import { createOodRunner } from '../../services/ood-runner';
import { openOodStore } from '../../services/ood-store';
import { kitLab } from '../common/lab/lab-client';
import { OpenWorldLab } from './open-world-lab.svelte';
import OpenWorldControls from './OpenWorldControls.svelte';
import OpenWorldResults from './OpenWorldResults.svelte';

/** Teaching mode's line under the Play bar's head. */
function playLine(lab: OpenWorldLab): string {
  const st = lab.st;
  if (st.status === 'running') return st.activity;
  if (st.status === 'paused') return `Paused after step ${st.steps.length}: Step learns task ${st.steps.length + 1} and scores it; Play learns the rest.`;
  return lab.complete
    ? 'All steps done: the charts show each step.'
    : 'Play learns the tasks one after another; Step learns one more task, then the detectors score it.';
}

export default kitLab({
  entry: openWorldLab,
  title: 'Open world',
  testid: 'ow',
  runner: () => createOodRunner({ store: openOodStore(), ...labWorkers('open-world') }),
  state: (runner, settings) => new OpenWorldLab(runner, settings),
  Controls: OpenWorldControls,
  Results: OpenWorldResults,
  saved: (lab) => (lab.errors.length === 0 ? lab.s : null),
  problems: (lab) => lab.errors,
  progress: (lab) => ({
    status: lab.st.status,
    done: lab.st.done,
    total: lab.busy || lab.st.status === 'done' ? lab.st.total : 0,
    unit: 'steps',
    eta: lab.st.etaSeconds,
    text: lab.progressText,
    runLabel: lab.runLabel,
    disabled: lab.errors.length > 0 || lab.complete,
    reason: lab.errors[0] ?? (lab.complete ? 'Every step of these settings is stored: change a setting to train another run.' : ''),
  }),
  lines: (lab, teaching) => ({ store: lab.storeLine(teaching), backend: lab.st.backend, error: lab.st.error ?? '', notice: lab.st.notice }),
  exports: (lab) => [
    {
      label: 'results (JSON)',
      testid: 'ow-export-json',
      disabled: !lab.complete,
      title: lab.complete ? 'What cil-lab ood prints for these settings' : 'After the run has finished',
      onclick: () => lab.exportJson(),
    },
    { label: 'results (CSV)', testid: 'ow-export-csv', disabled: lab.st.steps.length === 0, onclick: () => lab.exportCsv() },
  ],
  command: (lab) => lab.command,
  play: {
    label: 'Play: learn task after task',
    stepTitle: 'Learn exactly one more task (one incremental step), then pause',
    view: (lab) => ({ done: lab.st.done, total: lab.ran.tasks, head: `Step ${lab.st.steps.length} of ${lab.ran.tasks}`, line: playLine(lab) }),
  },
  // the shown run's OOD assignment per step, once every step has run
  observation: (lab) => openWorldObservation(lab.complete ? [{ seed: lab.ran.seed, steps: lab.st.steps }] : [], 1),
});
