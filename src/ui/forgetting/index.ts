/**
 * The Forgetting lab's client half (docs/science.md §3; the CPCF paper): train one class-incremental run (or a
 * preset's runs) with softmax outputs recorded, then show CPCF (conformal prediction-set size on earlier tasks) beside
 * a_prev / a_new, the set-size distributions, coverage vs 1 − α, the Ω table and, for presets, the paper's tables with
 * our numbers beside the paper's. The charts grow task by task while a run trains.
 *
 * The lab kit mounts it (src/ui/common/lab/lab-client.ts): state and effects in ./forgetting-lab.svelte.ts, the panel
 * ./ForgettingControls.svelte, the canvas ./ForgettingResults.svelte; training in src/services/forgetting-runner.ts on
 * a worker of the shared pool. The state writes the experiment itself (a tab with a setup of its own that takes the
 * experiment over when the user acts on it, part by part: ./lab-inputs.svelte.ts), so `saved` is always null.
 */
import { forgettingLab } from '../../core/labs/forgetting';
import { forgettingObservation } from '../../core/lessons/observations';
import { openForgettingStore } from '../../services/forgetting-store';
import { createForgettingRunner } from '../../services/forgetting-runner';
import { sharedTrainPool, webLocksCoordinator } from '../../services/lab-kit';
import { createOrderingsClient } from '../../services/orderings-client';
import { shareLink } from '../../services/share-link.svelte';
import { downloadBlob, exportFileName, toCsv } from '../common/chart-export';
import { kitLab, type ExportButton } from '../common/lab/lab-client';
import { ForgettingLab } from './forgetting-lab.svelte';
import ForgettingControls from './ForgettingControls.svelte';
import ForgettingResults from './ForgettingResults.svelte';
import { groupJson, groupTable } from './results';

/** The selected group's finished runs as CSV or JSON (disabled until a group is shown). */
function exportsOf(lab: ForgettingLab): ExportButton[] {
  const group = lab.group;
  const save = (format: 'csv' | 'json') => {
    if (!group) return;
    const name = exportFileName(`forgetting-${group.id}`, format);
    const finished = lab.finishedSummaries();
    if (format === 'csv') downloadBlob(toCsv(groupTable(finished, lab.conformal.alpha, lab.conformal.score)), name, 'text/csv;charset=utf-8');
    else downloadBlob(groupJson(group, finished, lab.conformal.alpha, lab.conformal.score), name, 'application/json');
  };
  return [
    { label: 'runs (CSV)', testid: 'fg-export-csv', disabled: !group, onclick: () => save('csv') },
    { label: 'runs (JSON)', testid: 'fg-export-json', disabled: !group, onclick: () => save('json') },
  ];
}

/** The step in flight: task, epoch, step and loss of the run training. */
function liveLine(lab: ForgettingLab): string {
  const e = lab.runnerState.current?.progress;
  if (!e || !lab.active) return '';
  return `task ${e.task + 1}/${e.tasks} · epoch ${e.epoch + 1}/${e.epochs} · step ${e.step}/${e.steps} · loss ${e.loss.toFixed(3)}`;
}

/** The runner's notice (a backend fallback, another tab training this setup) and the store's (runs kept in memory only). */
function noticeOf(lab: ForgettingLab): string | null {
  const rs = lab.runnerState;
  const store = lab.store && !lab.store.persistent ? lab.store.notice : null;
  const run = rs.notice && rs.notice !== lab.store?.notice ? rs.notice : null;
  return [run, store].filter((n) => n).join(' ') || null;
}

export default kitLab({
  entry: forgettingLab,
  title: 'Forgetting: CPCF vs accuracy',
  testid: 'fg',
  // what the lab needs once its store is open: the runner on that store, and the orderings worker (RS / EDGE)
  runner: () => ({
    orderings: createOrderingsClient(),
    openStore: () => openForgettingStore(),
    // one tab trains a setup, another on the same setup follows its stored runs
    createRunner: (store: Parameters<typeof createForgettingRunner>[0]['store']) =>
      createForgettingRunner({ store, pool: sharedTrainPool(), coordinator: webLocksCoordinator('forgetting') }),
  }),
  // the state reads the link itself (a Forgetting link's setup, else the tab's own), and writes it
  state: (deps) => new ForgettingLab({ ...deps, link: shareLink() }),
  Controls: ForgettingControls,
  Results: ForgettingResults,
  saved: () => null,
  progress: (lab) => {
    const rs = lab.runnerState;
    return {
      status: rs.status,
      done: rs.done + (rs.current?.fraction ?? 0),
      total: rs.total,
      unit: 'runs',
      text: lab.progressText,
      // a paused start resumes (Play) whatever the controls say now
      disabled: !lab.active && !lab.canRun,
      reason: lab.runRefusal,
    };
  },
  lines: (lab) => ({
    backend: lab.runnerState.backendInfo?.name ?? (lab.runnerState.backend || 'chosen when training starts'),
    live: liveLine(lab),
    error: lab.runnerState.error ?? lab.startError,
    notice: noticeOf(lab),
  }),
  exports: exportsOf,
  play: {
    label: 'Play: train run after run',
    stepTitle: 'Train exactly one more run, then pause',
    // before a start the runner knows no total: the one-run setup's seeds
    view: (lab) => {
      const rs = lab.runnerState;
      const line = lab.progressText || 'Play trains the runs of this setup one after another; Step one run at a time.';
      if (rs.total > 0) return { done: rs.done, total: rs.total, head: `${rs.done} of ${rs.total} runs trained`, line };
      return { done: 0, total: lab.seeds, head: `${lab.seeds} run${lab.seeds === 1 ? '' : 's'} to train`, line };
    },
  },
  // the shown run's CPCF and a_prev once every task has trained
  observation: (lab) => {
    const run = lab.shownRun;
    const report = lab.report;
    if (!run || !report || report instanceof Error) return null;
    return forgettingObservation(run.matrix.length >= run.job.tasks.length ? [{ seed: run.job.seed, report }] : [], 1);
  },
});
