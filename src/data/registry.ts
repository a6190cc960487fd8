/**
 * The built-in datasets (prepared offline by scripts/prepare-data.mjs into public/data/<id>/, format in
 * ./format.ts) and one loader that works in the browser and in Node: the caller injects how to read bytes.
 *
 *   browser: loadBuiltinDataset('digits', (p) => fetch(import.meta.env.BASE_URL + p).then(…bytes…))
 *   Node:    loadBuiltinDataset('digits', (p) => fs.readFile(path.join('public', p)).then((b) => new Uint8Array(b)))
 *
 * Paths handed to the reader are relative to the public/ root: "data/<id>/meta.json", "data/<id>/train-images.u8"…
 */
import { getClassList, type BuiltinClassListId } from '../core/classes/builtin';
import { datasetFiles, decodeDataset, DatasetFormatError, parseDatasetMeta, type DecodedDataset } from './format';

export type BuiltinDatasetId = 'fashion-mnist' | 'digits' | 'emoji';

export interface BuiltinDataset {
  id: BuiltinDatasetId;
  name: string;
  /** the class list in src/core/classes/builtin.ts that names these classes (and pins their WordNet synsets) */
  classListId: BuiltinClassListId;
  /** [height, width, channels] */
  shape: [number, number, number];
  description: string;
}

export const BUILTIN_DATASETS: readonly BuiltinDataset[] = [
  {
    id: 'digits',
    name: 'Digits (8×8)',
    classListId: 'mnist',
    shape: [8, 8, 1],
    description: '1,797 handwritten digits, 8×8 grey (UCI, via scikit-learn); seeded stratified 80/20 split',
  },
  {
    id: 'fashion-mnist',
    name: 'Fashion-MNIST',
    classListId: 'fashion-mnist',
    shape: [28, 28, 1],
    description: '70,000 Zalando article images, 28×28 grey, 10 classes; the original 60,000/10,000 split',
  },
  {
    id: 'emoji',
    name: 'Emoji objects',
    classListId: 'emoji',
    shape: [32, 32, 3],
    description: 'emoji concepts drawn by several artists, 32×32 RGB on white; test images come from test-only styles',
  },
];

export const BUILTIN_DATASET_IDS: readonly BuiltinDatasetId[] = BUILTIN_DATASETS.map((d) => d.id);

/** The registry entry for `id`; throws listing the valid ids for an unknown one. */
export function getBuiltinDataset(id: string): BuiltinDataset {
  const found = BUILTIN_DATASETS.find((d) => d.id === id);
  if (!found) throw new Error(`Unknown built-in dataset "${id}". Built-in datasets: ${BUILTIN_DATASET_IDS.join(', ')}.`);
  return found;
}

/** Path (relative to the public/ root) of a file of a built-in dataset. */
export function builtinDatasetPath(id: BuiltinDatasetId, file: string): string {
  return `data/${id}/${file}`;
}

/**
 * Reads a file under public/. `retry` is set on a second or later try: the reader then bypasses the HTTP cache
 * (fetch's `cache: 'no-store'`), where the first try's failure came from.
 */
export type FetchBytes = (path: string, options?: { retry?: boolean }) => Promise<Uint8Array>;

const PREPARE_HINT = 'run "node scripts/prepare-data.mjs" (or "npm start") to prepare the built-in data';

/**
 * Tries at reading one file of a built-in dataset. A fetch fails now and then when two workers read the same file
 * at once (Chromium's HTTP cache gives the second net::ERR_CACHE_WRITE_FAILURE, seen by fetch as a TypeError): the
 * Data tab's worker and a training worker both load the dataset a lab is about to train on. Such a failure is tried
 * again, past the HTTP cache (FetchBytes' `retry`); an HTTP error or a cancelled load (AbortError) is not.
 */
export const READ_ATTEMPTS = 3;
const RETRY_DELAY_MS = 250;

/** fetch's network failure (a TypeError), as opposed to a cancel (DOMException AbortError) or our own errors. */
function isNetworkError(e: unknown): boolean {
  return e instanceof TypeError;
}

/**
 * Load and validate a built-in dataset. `fetchBytes(path)` reads a file under public/ (see the header).
 * Checks that meta.json is the dataset asked for, with the registry's shape and the class list's names.
 */
export async function loadBuiltinDataset(id: string, fetchBytes: FetchBytes): Promise<DecodedDataset> {
  const entry = getBuiltinDataset(id);
  const read = async (file: string): Promise<Uint8Array> => {
    const path = builtinDatasetPath(entry.id, file);
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetchBytes(path, attempt > 1 ? { retry: true } : undefined);
      } catch (e) {
        if (isNetworkError(e) && attempt < READ_ATTEMPTS) {
          await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * attempt));
          continue;
        }
        const why = e instanceof Error ? e.message : String(e);
        throw new Error(`Built-in dataset "${entry.id}": cannot read ${path} (${why}); ${PREPARE_HINT}.`);
      }
    }
  };
  let json: unknown;
  const metaBytes = await read('meta.json');
  try {
    json = JSON.parse(new TextDecoder().decode(metaBytes));
  } catch (e) {
    throw new DatasetFormatError(`Built-in dataset "${entry.id}": meta.json is not valid JSON (${(e as Error).message}); ${PREPARE_HINT}.`);
  }
  const meta = parseDatasetMeta(json, `data/${entry.id}/meta.json`);
  if (meta.id !== entry.id) throw new DatasetFormatError(`data/${entry.id}/meta.json describes dataset "${meta.id}", not "${entry.id}"`);
  if (meta.classListId !== entry.classListId) {
    throw new DatasetFormatError(`data/${entry.id}/meta.json: class list "${meta.classListId}", expected "${entry.classListId}"`);
  }
  if (meta.shape.join('×') !== entry.shape.join('×')) {
    throw new DatasetFormatError(`data/${entry.id}/meta.json: shape ${meta.shape.join('×')}, expected ${entry.shape.join('×')}`);
  }
  const list = getClassList(entry.classListId);
  meta.classInfo.forEach((ci, i) => {
    if (list.classes[ci.classListIndex] !== ci.name) {
      throw new DatasetFormatError(
        `data/${entry.id}/meta.json: class ${i} "${ci.name}" is not entry ${ci.classListIndex} of the "${list.id}" class list ` +
          `("${String(list.classes[ci.classListIndex])}"); ${PREPARE_HINT} again`,
      );
    }
  });
  const files = datasetFiles(meta);
  const bytes = await Promise.all(files.map(read));
  const buffers: Record<string, Uint8Array> = {};
  files.forEach((f, i) => (buffers[f] = bytes[i]));
  return decodeDataset(meta, buffers);
}
