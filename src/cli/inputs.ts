/**
 * What the CLI reads and writes, with bounds and one-line messages (issue 16, items 5, 8, 9): input files are regular
 * files of at most `MAX_INPUT_BYTES` (never `/dev/zero`, a fifo or a folder), text files are text (a binary file is
 * named in one line, not printed), `--out` names a folder that exists, and the class list resolves WordNet pins the
 * way the app does (core/config/wordnet-pins.ts).
 */
import { closeSync, fstatSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { getClassList } from '../core/classes/builtin';
import { parseClassNames, validateClassNames } from '../core/classes/validate';
import { wordnetPinsFor } from '../core/config/wordnet-pins';
import type { SimilaritySpec } from '../core/similarity/resolve';
import { UsageError, rangeListArg } from './args';

type Values = Record<string, string | boolean | undefined>;

/** Largest input file read (similarity matrices and embeddings, class lists, configs, results): 256 MiB. */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

const sizeText = (n: number) => (n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : `${n} bytes`);

/**
 * The bytes of a regular file, at most `maxBytes`. Refuses devices, fifos, sockets and folders (`/dev/zero` would
 * otherwise be read forever) and stops reading past the bound even when the size the file system reports is wrong.
 */
export function readInput(path: string, what: string, maxBytes = MAX_INPUT_BYTES): Uint8Array {
  let fd: number;
  try {
    fd = openSync(resolve(path), 'r');
  } catch (e) {
    throw new UsageError(`Cannot read ${what} "${path}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      const kind = st.isDirectory() ? 'a folder' : st.isFIFO() ? 'a pipe' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : 'not a regular file';
      throw new UsageError(`Cannot read ${what} "${path}": it is ${kind}; give a regular file.`);
    }
    const tooBig = () => new UsageError(`Cannot read ${what} "${path}": it is larger than ${sizeText(maxBytes)}, the most cil-lab reads from one file.`);
    if (st.size > maxBytes) throw tooBig();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const buf = new Uint8Array(Math.min(Math.max(st.size - total, 0) + 1, 1 << 20));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooBig();
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    }
    if (chunks.length === 1) return chunks[0];
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`Cannot read ${what} "${path}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  } finally {
    closeSync(fd);
  }
}

/** A text file's contents (UTF-8). A binary file (a NUL byte, or bytes that are not UTF-8) is refused in one line. */
export function readTextInput(path: string, what: string, maxBytes = MAX_INPUT_BYTES): string {
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

/** Write `--out` (text, or bytes such as an .npz): a missing folder or an unwritable path is one clear line, not a raw ENOENT. */
export function writeOutput(path: string, text: string | Uint8Array): string {
  const full = resolve(path);
  const folder = dirname(full);
  let isDir = false;
  try {
    isDir = statSync(folder).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`Cannot write --out "${path}": the folder "${folder}" does not exist (create it first).`);
  try {
    writeFileSync(full, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? (e as Error).message);
    throw new UsageError(`Cannot write --out "${path}": ${why}.`);
  }
  return full;
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
    let list;
    try {
      list = getClassList(v.dataset);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    let idx = list.classes.map((_, i) => i);
    if (typeof v.subset === 'string') {
      idx = rangeListArg(v.subset, 'subset');
      const bad = idx.find((i) => i >= list.classes.length);
      if (bad !== undefined) throw new UsageError(`--subset: class ${bad} does not exist; ${list.id} has classes 0..${list.classes.length - 1}.`);
      if (new Set(idx).size < 2)
        throw atLeastTwo(
          idx.map((i) => list.classes[i]),
          '--subset',
        );
    }
    const names = idx.map((i) => list.classes[i]);
    return {
      names,
      pins: wordnetPinsFor(
        pins,
        names,
        idx.map((i) => list.synsets[i]),
      ),
      dataset: list.id,
    };
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
