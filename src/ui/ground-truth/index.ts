/**
 * The Ground-truth lab's client half (docs/science.md §2; EDGE paper §5): train every ordering (or a uniform sample)
 * in the training workers, store each run at once (IndexedDB), and show live how well RS and EDGE estimate the
 * distribution of A(O). The lab kit mounts it (src/ui/common/lab/lab-client.ts); state in ./lab-state.svelte.ts, the
 * panel ./GroundTruthControls.svelte, the lines under the Run row ./GroundTruthRunDetails.svelte, the import and the
 * stored runs ./GroundTruthTools.svelte, the canvas ./GroundTruthResults.svelte; training and the store in
 * src/services/ground-truth-runner.ts.
 *
 * The lab writes the experiment itself (`saved` is always null): it shares the experiment with the Orderings lab and
 * follows a change made there in place, folding only the valid parts of its own inputs back (its `attach`,
 * ./lab-inputs.svelte.ts). A link opened from outside mounts the page afresh, as every kit lab's: it shows that
 * link's experiment, and a run in flight stops (its finished runs stay stored) rather than train on under another one.
 */
import { groundTruthLab } from '../../core/labs/ground-truth';
import { groundTruthObservation } from '../../core/lessons';
import { formatIssues } from '../../core/config/schema';
import { shareLink } from '../../services/share-link.svelte';
import { kitLab, type ExportButton, type PlayView, type RunView } from '../common/lab/lab-client';
import { count, progressText } from './format';
import GroundTruthControls from './GroundTruthControls.svelte';
import GroundTruthResults from './GroundTruthResults.svelte';
import GroundTruthRunDetails from './GroundTruthRunDetails.svelte';
import GroundTruthTools from './GroundTruthTools.svelte';
import { GroundTruthLab, type GroundTruthLabDeps } from './lab-state.svelte';

const SUFFIX: Partial<Record<string, string>> = { paused: ' · paused', cancelled: ' · cancelled', done: ' · done' };

/** The Run row: this start's runs while the runner's state is of this experiment, else what is stored of the plan. */
function progress(lab: GroundTruthLab): RunView {
  const st = lab.runnerState;
  const left = lab.jobsTotal - lab.storedForPlan;
  const base = {
    status: lab.status,
    unit: 'orderings',
    runLabel: lab.storedForPlan > 0 && left > 0 ? `Run ▶ (${count(left)} left)` : 'Run ▶',
    // teaching mode's Play and Step also need an ordering left to train (the Run buttons are hidden there)
    disabled: lab.teaching ? !lab.canPlay : !lab.canStart,
    reason: lab.checked.errors.length > 0 ? formatIssues(lab.checked.errors) : !lab.plan ? 'Computing the orderings…' : '',
  };
  if (lab.mine && st) {
    const text = st.total > 0 ? progressText(st.done, st.total, lab.runsPerOrdering, st.etaSeconds) + (SUFFIX[lab.status] ?? '') : '';
    return { ...base, done: st.done, total: st.total, eta: st.etaSeconds, text };
  }
  const text = lab.plan ? `${progressText(lab.storedForPlan, lab.jobsTotal, lab.runsPerOrdering, null)} stored` : '';
  return { ...base, done: lab.storedForPlan, total: lab.jobsTotal, eta: null, text };
}

/** Teaching mode's readout: the orderings one at a time. */
function playView(lab: GroundTruthLab): PlayView {
  const p = lab.byOrdering;
  if (!p) return { done: 0, total: 0, head: 'Preparing the orderings…', line: '' };
  const at = { done: p.done, total: p.total };
  if (lab.status === 'running') {
    const c = lab.current;
    const task = c?.progress ? ` · task ${c.progress.task + 1} of ${c.progress.tasks}` : '';
    return { ...at, head: `Training ordering ${count(p.done + 1)} of ${count(p.total)}`, line: `${c ? lab.describe(c.orderingKey) : ''}${task}` };
  }
  if (p.done === p.total) return { ...at, head: `All ${count(p.total)} orderings trained`, line: 'Click a grey block to see that ordering’s accuracy matrix.' };
  if (lab.status === 'paused')
    return { ...at, head: `Ordering ${count(p.done)} of ${count(p.total)} trained`, line: 'Paused. Step trains the next one; Play plays on.' };
  return {
    ...at,
    head: `${count(p.done)} of ${count(p.total)} orderings trained`,
    line: lab.preparing || 'Play trains them one after another; Step trains one, then pauses.',
  };
}

function exports(lab: GroundTruthLab): ExportButton[] {
  const none = lab.runs.length === 0;
  const noStats = !lab.stats || none;
  return [
    { label: 'Runs CSV', testid: 'gt-export-runs-csv', disabled: none, onclick: () => lab.exportRuns('csv') },
    { label: 'Runs JSON', testid: 'gt-export-runs-json', disabled: none, onclick: () => lab.exportRuns('json') },
    { label: 'Statistics CSV', testid: 'gt-export-stats-csv', disabled: noStats, onclick: () => lab.exportStats('csv') },
    { label: 'Statistics JSON', testid: 'gt-export-stats-json', disabled: noStats, onclick: () => lab.exportStats('json') },
  ];
}

export default kitLab({
  entry: groundTruthLab,
  title: 'Experiment',
  testid: 'gt',
  // the lab's runner is made once its store is open (`attach`): what the kit hands the state is the app's experiment
  runner: (): GroundTruthLabDeps => ({ link: shareLink() }),
  state: (deps) => new GroundTruthLab(deps),
  Controls: GroundTruthControls,
  Results: GroundTruthResults,
  RunDetails: GroundTruthRunDetails,
  Tools: GroundTruthTools,
  saved: () => null,
  progress,
  // the backend, the errors and the notices are the lab's own lines (GroundTruthRunDetails, with their data-testids)
  lines: () => ({ backend: '', error: '', notice: null }),
  exports,
  play: {
    label: 'Play: train the orderings one after another',
    stepTitle: 'Train exactly one more ordering, then pause',
    stopTitle: 'Stop (finished orderings stay stored)',
    readoutTestid: 'gt-ordering-readout',
    view: playView,
  },
  observation: (lab) => (lab.stats && lab.runs.length > 0 ? groundTruthObservation(lab.stats) : null),
});
