/**
 * Do the results on screen belong to the inputs on screen? (after a link whose similarity is an
 * upload that is not loaded, the header showed the new experiment while |Ω|, the heat map, the table and the exports
 * were the previous one's.) Every request the Orderings page sends has a key; the result keeps the key of the request
 * that made it, and the page compares it with the key of its current inputs. Pure (tests/unit/ui/orderings-result-status.test.ts).
 */
import type { OrderingsRequest } from '../../core/protocols/orderings-view';

/** A stable number per object (upload bytes, embedding rows): the same loaded file or embeddings keep their number. */
const ids = new WeakMap<object, number>();
let nextId = 1;
function idOf(o: object): number {
  let id = ids.get(o);
  if (id === undefined) {
    id = nextId++;
    ids.set(o, id);
  }
  return id;
}

/**
 * The identity of a request: equal keys ask for the same numbers. Large data (an upload's bytes, embedding rows) is
 * named by the object that holds it, not by its contents, so the key is cheap for a 300 MB upload.
 */
export function requestKey(req: OrderingsRequest): string {
  const s = req.similarity;
  const sim =
    s.kind === 'wordnet'
      ? { kind: s.kind, pins: s.pins ?? null }
      : s.kind === 'upload'
        ? { kind: s.kind, fileName: s.fileName, data: idOf(s.bytes) }
        : s.kind === 'embeddings'
          ? { kind: s.kind, label: s.label, data: idOf(s.rows) }
          : { kind: s.kind, rows: s.rows };
  return JSON.stringify({ classes: req.classes, taskSizes: req.taskSizes, sim, options: req.options });
}

/**
 * - 'none': no result yet;
 * - 'current': the result is the one for the inputs on screen;
 * - 'updating': the inputs changed and their result is on its way (the old one stays, dimmed);
 * - 'stale': the inputs on screen have no result and none is coming (a linked upload not loaded, an input with an
 *   error, a failed computation): the old result is marked as the previous inputs' and cannot be exported.
 */
export type ResultStatus = 'none' | 'current' | 'updating' | 'stale';

export function resultStatus(a: { hasResult: boolean; resultKey: string; wantedKey: string | null; busy: boolean }): ResultStatus {
  if (!a.hasResult) return 'none';
  if (a.wantedKey !== null && a.wantedKey === a.resultKey) return 'current';
  if (a.wantedKey !== null && a.busy) return 'updating';
  return 'stale';
}

/** What the results on screen were made from (their exports, file names and CLI command use this, never the inputs now). */
export interface ResultInputs {
  /** A built-in class list id, or 'custom'. */
  datasetId: string;
  /** The built-in list's name ("CIFAR-10"), or "custom class names". */
  datasetName: string;
  /** Selected indices of the built-in list (sorted), [] for custom names. */
  selected: number[];
  seeds: number[];
  protocols: string[];
  /** The similarity source, in a few words ("WordNet", "upload sim6.json"). */
  source: string;
}

/** "CIFAR-10, 10 classes in 5 tasks, WordNet": the previous inputs, for the stale-results notice. */
export function describeInputs(r: ResultInputs, classCount: number, taskCount: number): string {
  return `${r.datasetName}, ${classCount} classes in ${taskCount} task${taskCount === 1 ? '' : 's'}, ${r.source}`;
}

/** Why the inputs on screen have no result, for the stale-results notice. */
export function staleReason(a: { uploadMissing: string | null; inputError: string; computeError: string }): string {
  if (a.uploadMissing) return `the similarity file ${a.uploadMissing} is not loaded (Similarity → Upload)`;
  if (a.inputError) return 'an input on the left has an error';
  if (a.computeError) return 'computing them failed (see the message above)';
  return 'they are not computed yet';
}
