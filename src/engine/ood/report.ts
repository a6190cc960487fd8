/**
 * What `cil-lab ood` prints for a finished Open-world run (docs/science.md §5), as one function: the CLI prints it
 * and the lab's "results (JSON)" export writes it ("app and CLI give the same numbers"), so both have the
 * same fields in the same order. Pure: no tensors, no I/O.
 */
import { HEAD_DEFAULTS, type HeadSettings } from '../../core/ood/detectors';
import { summarizeResults, type DetectorSummary, type StepResult } from '../../core/ood/schedule';
import { openWorldVerdict, openWorldVerdictInput, readOpenWorld } from '../../core/verdict/open-world';
import type { VerdictSentence } from '../../core/verdict/types';
import type { TrainRunResult } from '../types';
import type { OpenWorldStep } from './run';

/** What the report needs of a run besides its steps (what the lab stores once a run has finished). */
export interface OodRunMeta {
  oodSets: { name: string; kind: 'near' | 'far'; count: number }[];
  train: Pick<TrainRunResult, 'tasks' | 'matrix' | 'backend' | 'seconds' | 'config'>;
  seconds: { total: number; detectors: Record<string, number> };
}

export interface OodReport {
  results: StepResult[];
  accuracy: number[];
  summary: DetectorSummary[];
  steps: Pick<OpenWorldStep, 'step' | 'accuracy' | 'confidence' | 'assignment' | 'setup' | 'detectorSeconds'>[];
  oodSets: OodRunMeta['oodSets'];
  dataset: string;
  order: number[];
  tasks: TrainRunResult['tasks'];
  matrix: number[][];
  backend: string;
  seconds: { total: number; training: number; detectors: Record<string, number> };
  head: HeadSettings;
  config: TrainRunResult['config'];
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** The report of a run: its steps (in order) and the rest of its result. */
export function oodReport(steps: readonly OpenWorldStep[], meta: OodRunMeta, o: { dataset: string; head?: Partial<HeadSettings> }): OodReport {
  const results = steps.flatMap((s) => s.results);
  return {
    results,
    accuracy: steps.map((s) => s.accuracy),
    summary: summarizeResults(results),
    steps: steps.map((s) => ({
      step: s.step,
      accuracy: s.accuracy,
      confidence: s.confidence,
      assignment: s.assignment,
      setup: s.setup,
      detectorSeconds: s.detectorSeconds,
    })),
    oodSets: meta.oodSets,
    dataset: o.dataset,
    order: meta.train.tasks.flat(),
    tasks: meta.train.tasks,
    matrix: meta.train.matrix,
    backend: meta.train.backend,
    seconds: {
      total: round(meta.seconds.total),
      training: round(meta.train.seconds),
      detectors: Object.fromEntries(Object.entries(meta.seconds.detectors).map(([k, s]) => [k, round(s)])),
    },
    head: { ...HEAD_DEFAULTS, ...(o.head ?? {}) },
    config: meta.train.config,
  };
}

/**
 * What `cil-lab ood` prints for one or several seeds' reports (the lab's JSON export writes the same): one seed, its
 * report with the verdict; several, every run, the reading over seeds and the verdict.
 */
export function oodSeedsOutput(
  reports: readonly OodReport[],
): (OodReport & { headline: string; verdict: VerdictSentence[] }) | { runs: OodReport[]; summary: object; headline: string; verdict: VerdictSentence[] } {
  const input = openWorldVerdictInput(reports);
  const v = openWorldVerdict(input);
  const verdict = v.sentences;
  if (reports.length === 1) return { ...reports[0], headline: v.headline, verdict };
  return { runs: [...reports], summary: { seeds: input.runs.map((r) => r.seed), ...readOpenWorld(input) }, headline: v.headline, verdict };
}
