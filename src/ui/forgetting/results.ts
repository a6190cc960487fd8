/**
 * What the Forgetting lab shows of stored and live runs, pure (tested in tests/unit/ui/forgetting-lab.test.ts):
 * runs gathered into groups (a preset's runs, or one run), the CPCF report of a run at the experiment's report
 * settings (α, score, RAPS; cached: they cost no training, docs/science.md §3), the per-run summaries the paper tables read, and the CSV / JSON
 * export of a group.
 */
import { cpcfFromRun, type CpcfReport } from '../../core/conformal/from-run';
import type { ScoreName } from '../../core/conformal/scores';
import type { ReportSettings } from '../../core/labs/forgetting/settings';
import { gridKey } from '../../core/forgetting/paper';
import { PRESETS, orderingText, type RunSummary } from '../../core/forgetting/setup';
import type { CompareSetup } from '../../core/forgetting/compare';
import { forgettingVerdict } from '../../core/verdict/forgetting';
import type { Verdict } from '../../core/verdict/types';
import type { ForgettingRun } from '../../services/forgetting-store';

export interface RunGroup {
  id: string;
  runs: ForgettingRun[];
  preset: string | null;
  createdAt: number;
}

/** Runs by group, in the order their groups first appear; a run given twice (stored and in the runner) once. */
export function groupRuns(runs: readonly ForgettingRun[]): RunGroup[] {
  const m = new Map<string, ForgettingRun[]>();
  const seen = new Set<string>();
  for (const r of runs) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    m.set(r.group, [...(m.get(r.group) ?? []), r]);
  }
  return [...m.entries()].map(([id, rs]) => ({ id, runs: rs, preset: rs[0].preset, createdAt: rs[0].createdAt }));
}

/** CPCF reports by (run, tasks so far, report settings); an Error when a run cannot give one. */
export function createReportCache() {
  const cache = new Map<string, CpcfReport | Error>();
  return (r: ForgettingRun, settings: ReportSettings): CpcfReport | Error => {
    // a run in training grows: its tasks so far are part of the key
    const key = `${r.id}|${r.createdAt}|${r.matrix.length}|${JSON.stringify(settings)}`;
    let v = cache.get(key);
    if (!v) {
      try {
        v = cpcfFromRun({ matrix: r.matrix, testCounts: r.testCounts, probs: r.probs }, settings);
      } catch (e) {
        v = e instanceof Error ? e : new Error(String(e));
      }
      cache.set(key, v);
    }
    return v;
  };
}

export type Summary = RunSummary & { run: ForgettingRun; report: CpcfReport | null };

export function summariesOf(runs: readonly ForgettingRun[], settings: ReportSettings, reportOf: ReturnType<typeof createReportCache>): Summary[] {
  return runs.map((r) => {
    const rep = reportOf(r, settings);
    const good = rep instanceof Error ? null : rep;
    return {
      run: r,
      job: r.job,
      report: good,
      dcor: (a: number) => {
        const x = reportOf(r, { ...settings, alpha: a });
        return x instanceof Error ? NaN : x.dcor;
      },
      series: (a: number) => {
        const x = reportOf(r, { ...settings, alpha: a });
        return x instanceof Error ? null : { cpcf: x.cpcf, aPrev: x.aPrev };
      },
      baseAccuracy: r.matrix[0]?.[0] ?? NaN,
      omega: good ? good.omega : { omegaBase: NaN, omegaNew: NaN, omegaAll: NaN, omegaPrev: NaN },
    };
  });
}

const series = (xs: number[] | undefined) => (xs ? xs.map((v) => v.toFixed(4)).join(' ') : '');

/** The CSV table of a group's finished runs. */
export function groupTable(summaries: readonly Summary[], alpha: number, score: ScoreName) {
  return {
    columns: [
      'run',
      'dataset',
      'ordering',
      'strategy',
      'ewc_mode',
      'lr',
      'calibration_ratio',
      'alpha',
      'score',
      'dcor',
      'pearson',
      'omega_base',
      'omega_new',
      'omega_all',
      'omega_prev',
      'cpcf',
      'a_prev',
      'a_new',
      'coverage',
      'seconds',
      'backend',
    ],
    rows: summaries.map((s) => [
      s.job.label,
      s.job.dataset,
      orderingText(s.job.tasks),
      s.job.strategy,
      s.job.strategy === 'ewc' ? s.job.ewcMode : '',
      s.job.lr,
      s.job.calibrationRatio,
      alpha,
      score,
      s.report?.dcor ?? null,
      s.report?.pearson ?? null,
      s.omega.omegaBase,
      s.omega.omegaNew,
      s.omega.omegaAll,
      s.omega.omegaPrev,
      series(s.report?.cpcf),
      series(s.report?.aPrev),
      series(s.report?.aNew),
      series(s.report?.coverage),
      s.run.seconds,
      s.run.backend,
    ]),
  };
}

/** The JSON export of a group's finished runs (infinite thresholds as null: JSON has no Infinity). */
export function groupJson(group: { id: string; preset: string | null }, summaries: readonly Summary[], alpha: number, score: ScoreName): string {
  const finite = (v: number) => (Number.isFinite(v) ? v : null);
  const body = summaries.map((s) => ({
    job: s.job,
    matrix: s.run.matrix,
    testCounts: s.run.testCounts,
    calibrationCounts: s.run.calibrationCounts,
    backend: s.run.backend,
    seconds: s.run.seconds,
    report: s.report ? { ...s.report, q: s.report.q.map(finite), steps: s.report.steps.map((st) => ({ ...st, q: finite(st.q) })) } : null,
  }));
  return JSON.stringify({ group: group.id, preset: group.preset, alpha, score, runs: body }, null, 1);
}

/** File stem of a run's charts. */
export function chartStem(run: ForgettingRun | null, alpha: number, score: ScoreName): string {
  return run ? `forgetting-${run.job.dataset}-${run.job.label.replace(/[^a-z0-9.]+/gi, '-')}-a${gridKey(alpha)}-${score}` : 'forgetting';
}

/**
 * What a group's finished runs show, in words (docs/verdicts.md §Forgetting): one run at several seeds, or a paper
 * preset's MLP and EWC at their seeds — the sentences `cil-lab cpcf` prints for the same runs (its summary's
 * `verdict`). Runs grouped by model, each in seed order. null for a preset whose runs vary a setting (the grid, the
 * learning rates, EDGE's orderings, EWC's variants: not seeds of one setup) and before any run has finished.
 * `planned`: runs per model (fewer finished: provisional).
 */
export function forgettingVerdictOf(group: RunGroup | null, finished: readonly Summary[], o: { alpha: number; planned: number }): Verdict | null {
  if (!group) return null;
  if (group.preset !== null && !PRESETS.find((p) => p.id === group.preset)?.regime) return null;
  const done = finished.filter((s) => s.report !== null);
  if (done.length === 0) return null;
  const job = done[0].job;
  const strategies = [...new Set(group.runs.map((r) => r.job.strategy))];
  const setup: CompareSetup = {
    dataset: job.dataset,
    taskSizes: job.tasks.map((t) => t.length),
    lr: job.lr,
    firstTaskEpochs: job.firstTaskEpochs,
    epochs: job.epochs,
    trainPerClass: job.trainPerClass,
    head: job.head,
    batchSize: job.batchSize,
  };
  return forgettingVerdict({
    setup,
    alpha: o.alpha,
    calibrationRatio: job.calibrationRatio,
    groups: strategies.map((strategy) => {
      const runs = done.filter((s) => s.job.strategy === strategy).sort((a, b) => a.job.seed - b.job.seed);
      return {
        strategy,
        ewcLambda: strategy === 'ewc' ? (runs[0]?.job.ewcLambda ?? group.runs.find((r) => r.job.strategy === 'ewc')?.job.ewcLambda) : undefined,
        planned: o.planned,
        runs: runs.map((s) => ({ seed: s.job.seed, cpcf: s.report!.cpcf, aPrev: s.report!.aPrev, baseAccuracy: s.run.matrix[0][0] })),
      };
    }),
  });
}
