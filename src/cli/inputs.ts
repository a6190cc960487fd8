/**
 * What the CLI reads and writes, with bounds and one-line messages. Every file is read through `readInput` (regular
 * files only — never `/dev/zero`, a fifo or a folder — and at most `CONFIG_LIMITS.inputBytes`, datasets at most
 * `datasetBytes`); every output is written to a temporary file beside it and renamed (`writeOutput`), never over a
 * file the command read; built-in datasets and WordNet come through the same reader. The class list resolves dataset
 * ids and WordNet pins the way the app does (core/config/defaults.ts, core/config/wordnet-pins.ts).
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { getClassList } from '../core/classes/builtin';
import { parseClassNames, validateClassNames } from '../core/classes/validate';
import { BUILTIN_DATASET_REFS, datasetClassListId, datasetHasImages } from '../core/config/defaults';
import { CONFIG_LIMITS } from '../core/config/limits';
import type { BuiltinDatasetRef } from '../core/config/types';
import { listClassesWithPins, wordnetPinsFor } from '../core/config/wordnet-pins';
import type { SimilaritySpec } from '../core/similarity/resolve';
import type { WordnetGraph } from '../core/similarity/wordnet-synsets';
import { joinChunks } from '../data/bytes';
import { BUILTIN_DATASET_IDS, loadBuiltinDataset } from '../data/registry';
import { fromDecodedDataset } from '../engine/dataset';
import type { ImageDataset } from '../engine/types';
import { UsageError, rangeListArg } from './args';

type Values = Record<string, string | boolean | undefined>;

/** Largest input file read (similarity matrices and embeddings, class lists, configs, results, shard files). */
export const MAX_INPUT_BYTES = CONFIG_LIMITS.inputBytes;

const sizeText = (n: number) => (n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : `${n} bytes`);

/** The files this process has read (their real paths): an output is never written over one of them. */
const inputsRead = new Set<string>();

/** Forget the inputs read (main() calls it before each command: tests run many commands in one process). */
export function resetInputsRead(): void {
  inputsRead.clear();
}

function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  return st.isDirectory()
    ? 'a folder'
    : st.isFIFO()
      ? 'a pipe'
      : st.isCharacterDevice() || st.isBlockDevice()
        ? 'a device'
        : st.isSocket()
          ? 'a socket'
          : 'not a regular file';
}

const realPath = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/**
 * The bytes of a regular file, at most `maxBytes`. Refuses devices, fifos, sockets and folders before opening them
 * (`/dev/zero` would be read forever, a fifo would block until a writer came), and stops reading past the bound
 * even when the size the file system reports is wrong.
 */
export function readInput(path: string, what: string, maxBytes: number = MAX_INPUT_BYTES): Uint8Array {
  const cannot = (why: string) => new UsageError(`Cannot read ${what} "${path}": ${why}.`);
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw cannot((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  }
  if (!st.isFile()) throw cannot(`it is ${kindOf(st)}; give a regular file`);
  let fd: number;
  try {
    // O_NONBLOCK: should the path have become a fifo since the stat, opening it does not wait for a writer
    fd = openSync(resolve(path), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw cannot((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  }
  try {
    const fst = fstatSync(fd);
    if (!fst.isFile()) throw cannot(`it is ${kindOf(fst)}; give a regular file`);
    const tooBig = () => cannot(`it is larger than ${sizeText(maxBytes)}, the most cil-lab reads from one file`);
    if (fst.size > maxBytes) throw tooBig();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const buf = new Uint8Array(Math.min(Math.max(fst.size - total, 0) + 1, 1 << 20));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooBig();
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    }
    inputsRead.add(realPath(path));
    return chunks.length === 1 ? chunks[0] : joinChunks(chunks, total);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw cannot((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  } finally {
    closeSync(fd);
  }
}

/** A text file's contents (UTF-8). A binary file (a NUL byte, or bytes that are not UTF-8) is refused in one line. */
export function readTextInput(path: string, what: string, maxBytes: number = MAX_INPUT_BYTES): string {
  const bytes = readInput(path, what, maxBytes);
  const nul = bytes.indexOf(0);
  const notText = () =>
    new UsageError(
      `${what[0].toUpperCase()}${what.slice(1)} "${path}" is not a text file (it holds binary data${nul >= 0 ? `, e.g. a zero byte at offset ${nul}` : ' that is not UTF-8'}).`,
    );
  if (nul >= 0) throw notText();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notText();
  }
}

/** The regular files of a folder (sorted), each read with `readInput`; a single file when `path` is one. */
export function readInputFiles(path: string, what: string, maxBytes: number): { name: string; bytes: Uint8Array }[] {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new UsageError(`Cannot read ${what} "${path}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
  if (!st.isDirectory()) return [{ name: basename(path), bytes: readInput(path, what, maxBytes) }];
  const names = readdirSync(path).sort();
  const files = names.filter((n) => {
    try {
      return lstatSync(join(path, n)).isFile();
    } catch {
      return false;
    }
  });
  return files.map((n) => ({ name: n, bytes: readInput(join(path, n), what, maxBytes) }));
}

/**
 * Where `--out` may go: a path in a folder that exists, not a folder, device, fifo or socket itself, and not a file
 * this command read. Returns the absolute path.
 */
export function checkOutputPath(path: string, flag = '--out'): string {
  const full = resolve(path);
  const folder = dirname(full);
  let isDir = false;
  try {
    isDir = statSync(folder).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`Cannot write ${flag} "${path}": the folder "${folder}" does not exist (create it first).`);
  let st;
  try {
    st = statSync(full);
  } catch {
    st = undefined;
  }
  if (st && !st.isFile()) throw new UsageError(`Cannot write ${flag} "${path}": it is ${kindOf(st)}; give the path of a regular file.`);
  if (st && inputsRead.has(realPath(full)))
    throw new UsageError(`Cannot write ${flag} "${path}": it is one of this command's input files; give another path (the input is kept).`);
  return full;
}

/**
 * Write `--out` (text, or bytes such as an .npz): it goes to a temporary file beside it, which is then renamed over the path, so a reader never
 * sees half a file and a failed write leaves the old file as it was. Refuses what `checkOutputPath` refuses.
 */
export function writeOutput(path: string, text: string | Uint8Array, flag = '--out'): string {
  const full = checkOutputPath(path, flag);
  const temp = join(dirname(full), `.${basename(full)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx' });
    renameSync(temp, full);
  } catch (e) {
    rmSync(temp, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'permission denied' : code === 'ENOSPC' ? 'the disk is full' : (code ?? (e as Error).message);
    throw new UsageError(`Cannot write ${flag} "${path}": ${why}.`);
  }
  return full;
}

/**
 * A dataset id of any command: the experiment config's ids (src/core/config/defaults.ts: fashion-mnist, digits,
 * emoji, cifar10, cifar100, mnist, cub200, imagenet-r), so one id means one thing in every command — `digits` is the
 * 8×8 Digits dataset, whose classes are MNIST's ten digits.
 */
export function datasetRef(id: string, flag = '--dataset'): BuiltinDatasetRef {
  const key = id.trim().toLowerCase();
  if (!(BUILTIN_DATASET_REFS as readonly string[]).includes(key))
    throw new UsageError(`Unknown ${flag} "${id.slice(0, 40)}": the built-in datasets are ${BUILTIN_DATASET_REFS.join(', ')}.`);
  return key as BuiltinDatasetRef;
}

/** A built-in image dataset (public/data/<id>/), read through the bounded reader. */
export async function loadBuiltinImages(id: string, root: string, flag = '--dataset'): Promise<ImageDataset> {
  const ref = datasetRef(id, flag);
  if (!datasetHasImages(ref) || !(BUILTIN_DATASET_IDS as readonly string[]).includes(ref))
    throw new UsageError(`${flag} ${ref} is a list of class names without images; the built-in image datasets are ${BUILTIN_DATASET_IDS.join(', ')}.`);
  const file = (p: string): Uint8Array => {
    const full = join(root, 'public', p);
    try {
      statSync(full);
    } catch {
      throw new UsageError(`The built-in dataset "${ref}" is not prepared (${p} is missing): run "npm run prepare-data" first.`);
    }
    return readInput(full, `the built-in dataset file`, CONFIG_LIMITS.datasetBytes);
  };
  return fromDecodedDataset(await loadBuiltinDataset(ref, async (p) => file(p)));
}

/** The prepared WordNet noun graph (public/data/wordnet-nouns.json), read through the bounded reader. */
export function loadWordnetFrom(root: string): WordnetGraph {
  const prepared = join(root, 'public', 'data', 'wordnet-nouns.json');
  try {
    statSync(prepared);
  } catch {
    throw new UsageError('The WordNet data is not prepared yet: run "npm run prepare-data" (or "npm start") once.');
  }
  return JSON.parse(readTextInput(prepared, 'the WordNet data', CONFIG_LIMITS.datasetBytes)) as WordnetGraph;
}

export interface ClassInput {
  names: string[];
  pins?: (string | undefined)[];
  dataset?: string;
}

/** The message for a class list of one (the app's "Select at least two classes."), with what to do about it. */
function atLeastTwo(names: string[], flag: string): UsageError {
  const hint =
    flag === '--classes'
      ? `--classes "${names[0]}" is one class name; separate class names with commas (e.g. --classes cat,dog,car).`
      : `${flag} gives one class ("${names[0]}").`;
  return new UsageError(`Select at least two classes. ${hint}`);
}

/** The experiment's WordNet pins by class name, from --config/--link (config-args.ts puts them under this key). */
export const PINS_KEY = 'wordnet-pins';

function configPins(v: Values): Record<string, string> {
  return typeof v[PINS_KEY] === 'string' ? (JSON.parse(v[PINS_KEY]) as Record<string, string>) : {};
}

/** The classes of --dataset [--subset], --classes-file or --classes (names); undefined for `--classes N` or none. */
export function classInput(v: Values): ClassInput | undefined {
  const pins = configPins(v);
  if (typeof v.dataset === 'string') {
    const ref = datasetRef(v.dataset);
    const list = getClassList(datasetClassListId(ref));
    let idx = list.classes.map((_, i) => i);
    if (typeof v.subset === 'string') {
      idx = rangeListArg(v.subset, 'subset', list.classes.length, ref);
      if (new Set(idx).size < 2)
        throw atLeastTwo(
          idx.map((i) => list.classes[i]),
          '--subset',
        );
    }
    return { ...listClassesWithPins(list, idx, pins), dataset: ref };
  }
  let names: string[] | undefined;
  let flag = '';
  if (typeof v['classes-file'] === 'string') {
    names = validateClassNames(parseClassNames(readTextInput(v['classes-file'], 'the class file')));
    flag = '--classes-file';
  } else if (typeof v.classes === 'string') {
    if (/^\d+$/.test(v.classes.trim())) return undefined; // `count --classes N` handles a number itself
    names = validateClassNames(v.classes.split(',').map((s) => s.trim()));
    flag = '--classes';
  }
  if (!names) return undefined;
  if (names.length < 2) throw atLeastTwo(names, flag);
  return { names, pins: Object.keys(pins).length > 0 ? wordnetPinsFor(pins, names) : undefined };
}

/** The key under which features.ts withFeaturePrototypes passes the prototypes of `--similarity features`. */
export const FEATURE_SIMILARITY_KEY = 'feature-prototypes';

export function similaritySpec(source: string, classes: ClassInput, v: Values = {}): SimilaritySpec {
  if (source === 'wordnet') return { kind: 'wordnet', pins: classes.pins };
  if (source === 'features') {
    const spec = v[FEATURE_SIMILARITY_KEY];
    if (typeof spec !== 'string')
      throw new UsageError('The features similarity needs the feature source: --features F.npz, backbone or encoder:MODEL_ID_OR_FOLDER.');
    return JSON.parse(spec) as SimilaritySpec;
  }
  if (source.startsWith('file:')) {
    const path = source.slice(5);
    if (path.trim() === '') throw new UsageError('--similarity file:PATH needs the path of the file after "file:".');
    return { kind: 'upload', fileName: path, bytes: readInput(path, 'the similarity file') };
  }
  throw new UsageError(`Unknown similarity source "${source}": use wordnet, file:PATH or features (with --features).`);
}
