/**
 * `cil-lab ood-metrics --id ID.json --ood OOD.json` and `cil-lab ood-scores --logits L.json --detectors …`:
 * the Open-world lab's scores and metrics headless (docs/science.md §5; src/core/ood).
 *
 * - `ood-metrics`: each file is a JSON array of scores (higher = more in-distribution); prints
 *   `{"auroc", "fpr95", "auprIn", "auprOut", "idCount", "oodCount"}` with ID as the positive class.
 * - `ood-scores`: the file is a JSON array of logit rows (number[][]); `--detectors` is a comma list of the scores
 *   that need only logits (msp, maxlogit, energy, gen, odin — ODIN here is its score function on the given logits,
 *   without the input perturbation); prints `{"msp": [...], …}` in the order asked.
 *
 * Bad input (a missing file, a folder or device, not JSON, ragged rows, an unknown detector, an empty list) is a `UsageError`: one line
 * on stderr, exit code 2.
 */
import { oodMetrics } from '../core/ood/metrics';
import { checkRows, checkScores } from '../core/ood/rows';
import { LOGIT_DETECTOR_NAMES, LOGIT_DETECTORS, type LogitDetector } from '../core/ood/scores';
import { UsageError } from './args';
import { readTextInput } from './inputs';

type Values = Record<string, string | boolean | undefined>;

function readJson(path: string, what: string): unknown {
  // the bounded reader (inputs.ts): a folder, a device or a file past the size bound is one clear line
  const text = readTextInput(path, what);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${what} "${path}" is not valid JSON: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Runs a core check; its message becomes a one-line UsageError naming the file. */
function checked<T>(where: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new UsageError(`${where}: ${(e as Error).message}`);
  }
}

function scoreList(path: string, what: string): number[] {
  const data = readJson(path, what);
  if (!Array.isArray(data)) throw new UsageError(`${what} "${path}" must hold a JSON array of scores, e.g. [0.9, 0.4, …].`);
  checked(`${what} "${path}"`, () => checkScores(data as number[], 'the scores'));
  return data as number[];
}

export function oodMetricsCommand(v: Values): string {
  if (typeof v.id !== 'string') throw new UsageError("Give --id F.json, a JSON array of the in-distribution samples' scores (higher = more in-distribution).");
  if (typeof v.ood !== 'string') throw new UsageError("Give --ood F.json, a JSON array of the OOD samples' scores.");
  const id = scoreList(v.id, 'the ID score file');
  const ood = scoreList(v.ood, 'the OOD score file');
  const m = oodMetrics(id, ood);
  return JSON.stringify({ ...m, idCount: id.length, oodCount: ood.length });
}

export function oodScoresCommand(v: Values): string {
  if (typeof v.logits !== 'string') throw new UsageError('Give --logits F.json, a JSON array of logit rows ([[z1, z2, …], …]).');
  const names = ((v.detectors as string | undefined) ?? 'msp,maxlogit,energy,gen')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`--detectors is empty: use some of ${LOGIT_DETECTOR_NAMES.join(', ')}.`);
  for (const n of names) {
    if (!(LOGIT_DETECTOR_NAMES as string[]).includes(n)) {
      throw new UsageError(
        `Unknown detector "${n}" for ood-scores: use ${LOGIT_DETECTOR_NAMES.join(', ')} (the others need features or a model: see "cil-lab ood").`,
      );
    }
  }
  const data = readJson(v.logits, 'the logits file');
  if (!Array.isArray(data)) throw new UsageError(`the logits file "${v.logits}" must hold a JSON array of rows, e.g. [[2.1, -0.3], [0.5, 0.4]].`);
  checked(`the logits file "${v.logits}"`, () => checkRows(data as number[][], 'the logits'));
  const out: Record<string, number[]> = {};
  for (const n of names) out[n] = LOGIT_DETECTORS[n as LogitDetector](data as number[][]);
  return JSON.stringify(out);
}
