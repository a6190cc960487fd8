/**
 * Imported runs in the results store (src/services/results-store.ts; the type is ../ground-truth/stored-run.ts StoredRun): what is written, what it would replace,
 * and which methods the lab then shows.
 *
 *   - An imported run is a StoredRun with `imported: true`, backend "imported", no test counts (so the lab's
 *     statistics use the file's accuracies as given, not a value recomputed from R with guessed counts — see
 *     ground-truth/derive.ts runValue), R when the file gave one (else []), and `aia` NaN when the file has none.
 *   - "Nothing already stored is overwritten without asking": `importConflicts` lists the runs of the file whose
 *     (ordering, method, seed) is already stored under the config; the caller asks, then writes all or only the new.
 *   - Methods: imported method names need not be the app's strategy ids ("der", "memo"); `strategiesShown` is the
 *     list the lab reports: the checked strategies, then every other method of the imported runs. Once imported
 *     runs are there, checked strategies without a single run are left out (else the rankings would wait forever
 *     for a strategy nobody trains), unless a training run is in progress.
 */
import type { StoredRun } from '../ground-truth/stored-run';
import type { ImportedRun } from './types';

/** An imported run: a StoredRun (../ground-truth/stored-run.ts) marked `imported`. */
export type ImportedStoredRun = StoredRun & { imported: true };

export function toStoredRuns(runs: readonly ImportedRun[], configHash: string, createdAt: number = Date.now()): ImportedStoredRun[] {
  return runs.map((r) => ({
    configHash,
    orderingKey: r.orderingKey,
    tasks: r.tasks.map((t) => t.slice()),
    strategy: r.method,
    seed: r.seed,
    matrix: r.matrix ? r.matrix.map((row) => row.slice()) : [],
    untrained: [],
    testCounts: [],
    finalAccuracy: r.finalAccuracy,
    aia: r.aia ?? Number.NaN,
    backend: 'imported',
    seconds: 0,
    imported: true,
    createdAt,
  }));
}

export interface ImportConflict {
  orderingKey: string;
  strategy: string;
  seed: number;
  /** whether the stored run was itself imported (else trained here) */
  storedImported: boolean;
}

type RunId = { orderingKey: string; strategy: string; seed: number };
const idOf = (r: RunId) => JSON.stringify([r.orderingKey, r.strategy, r.seed]);

/** Runs of `incoming` whose (ordering, method, seed) is already in `stored`. */
export function importConflicts(incoming: readonly RunId[], stored: readonly (RunId & { imported?: boolean })[]): ImportConflict[] {
  const have = new Map(stored.map((r) => [idOf(r), r]));
  const out: ImportConflict[] = [];
  for (const r of incoming) {
    const s = have.get(idOf(r));
    if (s) out.push({ orderingKey: r.orderingKey, strategy: r.strategy, seed: r.seed, storedImported: !!s.imported });
  }
  return out;
}

/** `incoming` without the runs that conflict (for "keep the stored ones"). */
export function withoutConflicts<T extends RunId>(incoming: readonly T[], stored: readonly RunId[]): T[] {
  const have = new Set(stored.map(idOf));
  return incoming.filter((r) => !have.has(idOf(r)));
}

/** The methods the lab reports (see the header). */
export function strategiesShown(checked: readonly string[], runs: readonly { strategy: string; imported?: boolean }[], training = false): string[] {
  const imported = [...new Set(runs.filter((r) => r.imported).map((r) => r.strategy))];
  if (imported.length === 0) return [...checked];
  const withRuns = new Set(runs.map((r) => r.strategy));
  const kept = training ? [...checked] : checked.filter((s) => withRuns.has(s));
  return [...kept, ...imported.filter((s) => !kept.includes(s))];
}

/** How many runs are of orderings outside a plan (they are stored but feed no statistic). */
export function outsidePlan(runs: readonly { orderingKey: string }[], plannedKeys: ReadonlySet<string>): number {
  return runs.filter((r) => !plannedKeys.has(r.orderingKey)).length;
}
