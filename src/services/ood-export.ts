/**
 * The Open-world lab's exports ("exported like the other labs"): the run as JSON — exactly what
 * `cil-lab ood` prints for the same settings (src/engine/ood/report.ts), every seed's run when it trained several —
 * the results rows as CSV (a seed column then), and the
 * `npx cil-lab ood …` command the lab shows for its settings. That command names every setting, so the CLI runs it
 * through the lab's own `openWorldInput` (src/cli/ood.ts `oodLabSettings`): app and CLI give the same numbers.
 */
import { settingArgs } from '../core/config/settings-table';
import { OPEN_WORLD_SETTINGS, oodKind, type OpenWorldSettings } from '../core/labs/open-world/settings';
import { oodReport, oodSeedsOutput, type OodReport, type OodRunMeta } from '../engine/ood/report';

export type { OodReport };
import type { OpenWorldStep } from '../engine/ood/run';

/** `cil-lab ood`'s arguments for the settings (after the command name): each setting's flag (its table's, OPEN_WORLD_SETTINGS). */
export function oodCommandArgs(s: OpenWorldSettings): string[] {
  return settingArgs(OPEN_WORLD_SETTINGS, s);
}

/** The command line shown under the lab's Run button. */
export function oodCommandLine(s: OpenWorldSettings): string {
  return ['npx cil-lab ood', ...oodCommandArgs(s)].join(' ');
}

/** The run's JSON export: `cil-lab ood`'s output for these settings. */
export function oodExportJson(s: OpenWorldSettings, steps: readonly OpenWorldStep[], meta: OodRunMeta): OodReport {
  return oodReport(steps, meta, { dataset: s.dataset, head: { epochs: s.headEpochs, marginIn: s.marginIn, marginOut: s.marginOut } });
}

/**
 * Every seed's finished run (the lab's `seedReports`, seed order) as JSON: what `cil-lab ood --seeds …` prints — the
 * runs, the reading over seeds and the verdict (one seed: its report with the verdict).
 */
export function oodSeedsExportJson(reports: readonly OodReport[]): ReturnType<typeof oodSeedsOutput> {
  return oodSeedsOutput(reports);
}

/** Every seed's results rows as one CSV table: `oodResultsTable`'s columns after a `seed` column. */
export function oodSeedsResultsTable(s: OpenWorldSettings, reports: readonly OodReport[]): { columns: string[]; rows: (string | number)[][] } {
  const columns = ['seed', ...RESULT_COLUMNS];
  const rows = reports.flatMap((r) => {
    const seed = r.config.seed;
    return r.results.map((x) => [seed, ...resultRow(s, x, r.accuracy[x.step])]);
  });
  return { columns, rows };
}

const RESULT_COLUMNS = [
  'step',
  'detector',
  'ood_set',
  'near_or_far',
  'auroc_pct',
  'fpr95_pct',
  'aupr_in_pct',
  'aupr_out_pct',
  'id_count',
  'ood_count',
  'accuracy_pct',
];

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

function resultRow(s: OpenWorldSettings, r: OpenWorldStep['results'][number], accuracy: number): (string | number)[] {
  return [
    r.step + 1,
    r.detector,
    r.oodSet,
    oodKind(s, r.oodSet),
    r3(100 * r.auroc),
    r3(100 * r.fpr95),
    r3(100 * r.auprIn),
    r3(100 * r.auprOut),
    r.idCount,
    r.oodCount,
    r3(100 * accuracy),
  ];
}

/** The results rows (one per step × detector × OOD set) as a CSV table; metrics (stored as 0..1) in %, steps counted from 1. */
export function oodResultsTable(s: OpenWorldSettings, steps: readonly OpenWorldStep[]): { columns: string[]; rows: (string | number)[][] } {
  return { columns: [...RESULT_COLUMNS], rows: steps.flatMap((st) => st.results.map((r) => resultRow(s, r, st.accuracy))) };
}
