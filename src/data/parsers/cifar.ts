/**
 * CIFAR-10 and CIFAR-100 "binary version" files (Krizhevsky's page), from the .bin files or the .tar.gz.
 *
 * - CIFAR-10 `data_batch_1..5.bin`, `test_batch.bin`: records of 1 label byte (0–9) + 3072 pixel bytes;
 *   names in `batches.meta.txt` (one per line).
 * - CIFAR-100 `train.bin`, `test.bin`: records of 1 coarse byte (0–19) + 1 fine byte (0–99) + 3072 pixel bytes;
 *   names in `fine_label_names.txt` and `coarse_label_names.txt`.
 *
 * Pixels are stored channel-first (1024 R, 1024 G, 1024 B, each 32×32 row-major); we return HWC (N×32×32×3),
 * as every other parser does. Labels are the fine labels; CIFAR-100's coarse labels come alongside.
 * Without a names file, `classNames` is absent (the caller may fall back on the built-in CIFAR lists).
 */
import { gunzipBytes, isGzip } from './gzip';
import { readTar } from './tar';
import { DataFormatError, type NamedFile, type ParsedDataset, type ParsedImages, type ProgressCallback, baseName, bytesText, subProgress } from './types';

export type CifarVariant = 'cifar10' | 'cifar100';

const SIDE = 32;
const PLANE = SIDE * SIDE; // 1024
const PIXELS = 3 * PLANE; // 3072

/** Bytes per record: label byte(s) + 3072 pixel bytes. */
export const CIFAR_RECORD_BYTES: Readonly<Record<CifarVariant, number>> = { cifar10: 1 + PIXELS, cifar100: 2 + PIXELS };
/** Number of (fine) classes. */
export const CIFAR_CLASS_COUNT: Readonly<Record<CifarVariant, number>> = { cifar10: 10, cifar100: 100 };
const COARSE_COUNT = 20;
const TITLE: Record<CifarVariant, string> = { cifar10: 'CIFAR-10', cifar100: 'CIFAR-100' };

/** Options of the CIFAR parsers. */
export interface CifarOptions {
  onProgress?: ProgressCallback;
  /** Used in error messages. */
  fileName?: string;
  classNames?: string[];
  coarseClassNames?: string[];
}

/** A CIFAR train (and test) set, and which CIFAR it is. */
export interface ParsedCifar extends ParsedDataset {
  variant: CifarVariant;
}

/** Number of whole records, or a DataFormatError for an empty or truncated batch. */
function recordCount(bytes: Uint8Array, variant: CifarVariant, fileName?: string): number {
  const rec = CIFAR_RECORD_BYTES[variant];
  const layout = variant === 'cifar10' ? '1 label byte + 3,072 pixel bytes' : '1 coarse + 1 fine label byte + 3,072 pixel bytes';
  if (bytes.length === 0) throw new DataFormatError(`empty ${TITLE[variant]} batch file`, fileName);
  if (bytes.length % rec !== 0) {
    const whole = Math.floor(bytes.length / rec);
    throw new DataFormatError(
      `truncated ${TITLE[variant]} batch: ${rec.toLocaleString('en-US')}-byte records (${layout}) need ${bytesText((whole + 1) * rec)} for ${(whole + 1).toLocaleString('en-US')} records, the file has ${bytesText(bytes.length)}`,
      fileName,
    );
  }
  return bytes.length / rec;
}

/**
 * Decodes one or more batches of the same variant into one set (CHW → HWC), checking label ranges.
 * Reports progress per record block.
 */
function decodeBatches(batches: NamedFile[], variant: CifarVariant, opts: CifarOptions): ParsedImages {
  const rec = CIFAR_RECORD_BYTES[variant];
  const counts = batches.map((b) => recordCount(b.bytes, variant, b.name));
  const total = counts.reduce((a, b) => a + b, 0);
  const images = new Uint8Array(total * PIXELS);
  const labels = new Uint8Array(total);
  const coarse = variant === 'cifar100' ? new Uint8Array(total) : undefined;
  const fineMax = CIFAR_CLASS_COUNT[variant];
  let n = 0;
  for (let b = 0; b < batches.length; b++) {
    const src = batches[b].bytes;
    for (let r = 0; r < counts[b]; r++, n++) {
      const base = r * rec;
      let fine: number;
      if (coarse) {
        const c = src[base];
        fine = src[base + 1];
        if (c >= COARSE_COUNT) {
          throw new DataFormatError(`record ${r} has coarse label ${c}; CIFAR-100 coarse labels are 0–19 — is this a CIFAR-10 batch?`, batches[b].name);
        }
        coarse[n] = c;
      } else {
        fine = src[base];
      }
      if (fine >= fineMax) {
        const hint = variant === 'cifar10' ? ' — is this a CIFAR-100 file?' : '';
        throw new DataFormatError(`record ${r} has label ${fine}; ${TITLE[variant]} labels are 0–${fineMax - 1}${hint}`, batches[b].name);
      }
      labels[n] = fine;
      const px = base + rec - PIXELS;
      const out = n * PIXELS;
      for (let p = 0; p < PLANE; p++) {
        images[out + 3 * p] = src[px + p];
        images[out + 3 * p + 1] = src[px + PLANE + p];
        images[out + 3 * p + 2] = src[px + 2 * PLANE + p];
      }
      if ((n & 1023) === 1023) opts.onProgress?.((n + 1) / total);
    }
  }
  opts.onProgress?.(1);
  const result: ParsedImages = { images, labels, shape: [SIDE, SIDE, 3] };
  if (opts.classNames) result.classNames = opts.classNames;
  if (coarse) {
    result.coarseLabels = coarse;
    if (opts.coarseClassNames) result.coarseClassNames = opts.coarseClassNames;
  }
  return result;
}

/** One CIFAR-10 batch (`data_batch_*.bin` or `test_batch.bin`). */
export function parseCifar10Bin(bytes: Uint8Array, opts: CifarOptions = {}): ParsedImages {
  return decodeBatches([{ name: opts.fileName ?? 'CIFAR-10 batch', bytes }], 'cifar10', opts);
}

/** One CIFAR-100 file (`train.bin` or `test.bin`); `coarseLabels` alongside the fine `labels`. */
export function parseCifar100Bin(bytes: Uint8Array, opts: CifarOptions = {}): ParsedImages {
  return decodeBatches([{ name: opts.fileName ?? 'CIFAR-100 file', bytes }], 'cifar100', opts);
}

/** Class names from a names file: one per line, blank lines dropped. */
export function parseLabelNames(text: string | Uint8Array): string[] {
  const s = typeof text === 'string' ? text : new TextDecoder().decode(text);
  return s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** What a CIFAR file is, from its name. */
export type CifarFileRole =
  { kind: 'batch'; variant: CifarVariant; split: 'train' | 'test'; order: number } | { kind: 'names'; variant: CifarVariant; level: 'fine' | 'coarse' };

/** The role of a CIFAR file by its base name, or null when the name is not one of CIFAR's. */
export function cifarFileRole(name: string): CifarFileRole | null {
  const base = baseName(name).toLowerCase();
  const m = /^data_batch_(\d+)\.bin$/.exec(base);
  if (m) return { kind: 'batch', variant: 'cifar10', split: 'train', order: Number(m[1]) };
  if (base === 'test_batch.bin') return { kind: 'batch', variant: 'cifar10', split: 'test', order: 0 };
  if (base === 'train.bin') return { kind: 'batch', variant: 'cifar100', split: 'train', order: 0 };
  if (base === 'test.bin') return { kind: 'batch', variant: 'cifar100', split: 'test', order: 0 };
  if (base === 'batches.meta.txt') return { kind: 'names', variant: 'cifar10', level: 'fine' };
  if (base === 'fine_label_names.txt') return { kind: 'names', variant: 'cifar100', level: 'fine' };
  if (base === 'coarse_label_names.txt') return { kind: 'names', variant: 'cifar100', level: 'coarse' };
  return null;
}

const EXPECTED_NAMES =
  'data_batch_1.bin … data_batch_5.bin, test_batch.bin, batches.meta.txt (CIFAR-10) or train.bin, test.bin, fine_label_names.txt, coarse_label_names.txt (CIFAR-100)';

/** Options of parseCifarFiles. */
export interface CifarFilesOptions {
  onProgress?: ProgressCallback;
  /** Role of a file whose name is not one of CIFAR's (detect.ts guesses it from the content). */
  roleOf?: (file: NamedFile) => CifarFileRole | null;
  /** The files are members of an archive (wording of errors). */
  inArchive?: boolean;
}

/**
 * Assembles a CIFAR data set from its files (the .bin batches, names files optional). Train = the training
 * batches in batch order; test = the test batch when present (a test batch alone becomes the train set).
 * Unknown `.bin` files are rejected; other files (readme.html) are ignored.
 */
export function parseCifarFiles(files: NamedFile[], opts: CifarFilesOptions = {}): ParsedCifar {
  const roleOf = (f: NamedFile) => cifarFileRole(f.name) ?? opts.roleOf?.(f) ?? null;
  const batches: { file: NamedFile; role: Extract<CifarFileRole, { kind: 'batch' }> }[] = [];
  let fine: string[] | undefined;
  let coarse: string[] | undefined;
  let namesVariant: CifarVariant | undefined;
  for (const f of files) {
    const role = roleOf(f);
    if (!role) {
      if (/\.bin$/i.test(f.name)) {
        const what = opts.inArchive ? 'unknown archive member' : 'unknown CIFAR file';
        throw new DataFormatError(`${what} "${f.name}": expected ${EXPECTED_NAMES}`);
      }
      continue;
    }
    if (role.kind === 'batch') batches.push({ file: f, role });
    else {
      namesVariant = role.variant;
      if (role.level === 'fine') fine = parseLabelNames(f.bytes);
      else coarse = parseLabelNames(f.bytes);
    }
  }
  if (batches.length === 0) {
    const found = files.map((f) => f.name).join(', ') || 'nothing';
    throw new DataFormatError(`no CIFAR batch files found (found: ${found}); expected ${EXPECTED_NAMES}`);
  }
  const variants = new Set(batches.map((b) => b.role.variant));
  if (variants.size > 1) {
    throw new DataFormatError(`CIFAR-10 and CIFAR-100 files are mixed: ${batches.map((b) => b.file.name).join(', ')}`);
  }
  const variant = batches[0].role.variant;
  if (namesVariant && namesVariant !== variant) {
    throw new DataFormatError(`the class-name file is ${TITLE[namesVariant]}'s but the batches are ${TITLE[variant]}'s`);
  }
  if (fine && fine.length !== CIFAR_CLASS_COUNT[variant]) {
    const file = variant === 'cifar10' ? 'batches.meta.txt' : 'fine_label_names.txt';
    throw new DataFormatError(`${file} lists ${fine.length} class names; ${TITLE[variant]} has ${CIFAR_CLASS_COUNT[variant]}`);
  }
  if (coarse && coarse.length !== COARSE_COUNT) {
    throw new DataFormatError(`coarse_label_names.txt lists ${coarse.length} names; CIFAR-100 has ${COARSE_COUNT} super-classes`);
  }
  const train = batches.filter((b) => b.role.split === 'train').sort((a, b) => a.role.order - b.role.order);
  const test = batches.filter((b) => b.role.split === 'test');
  const dup = (list: typeof batches) => {
    const seen = new Set<string>();
    for (const b of list) {
      const key = baseName(b.file.name).toLowerCase();
      if (seen.has(key)) throw new DataFormatError(`"${key}" appears twice among the files`);
      seen.add(key);
    }
  };
  dup(batches);
  const trainSet = train.length ? train : test;
  const testSet = train.length ? test : [];
  const size = (l: typeof batches) => l.reduce((s, b) => s + b.file.bytes.length, 0);
  const cut = size(trainSet) / (size(trainSet) + size(testSet) || 1);
  const common = { classNames: fine, coarseClassNames: variant === 'cifar100' ? coarse : undefined };
  const trainImages = decodeBatches(
    trainSet.map((b) => b.file),
    variant,
    { ...common, onProgress: subProgress(opts.onProgress, 0, cut) },
  );
  const result: ParsedCifar = { variant, train: trainImages };
  if (testSet.length) {
    result.test = decodeBatches(
      testSet.map((b) => b.file),
      variant,
      { ...common, onProgress: subProgress(opts.onProgress, cut, 1) },
    );
  }
  opts.onProgress?.(1);
  return result;
}

/**
 * A CIFAR binary archive (`cifar-10-binary.tar.gz`, `cifar-100-binary.tar.gz`, or the plain .tar):
 * gunzip (0–50% of the bar), untar, then parseCifarFiles on the members (50–100%).
 */
export function parseCifarArchive(bytes: Uint8Array, opts: Pick<CifarOptions, 'onProgress' | 'fileName'> = {}): ParsedCifar {
  const tar = isGzip(bytes) ? gunzipBytes(bytes, subProgress(opts.onProgress, 0, 0.5), opts.fileName) : bytes;
  const members = readTar(tar, opts.fileName).filter((e) => e.type === 'file');
  try {
    return parseCifarFiles(
      members.map((m) => ({ name: m.name, bytes: m.bytes })),
      { onProgress: subProgress(opts.onProgress, 0.5, 1), inArchive: true },
    );
  } catch (e) {
    if (e instanceof DataFormatError && !e.fileName && opts.fileName) throw new DataFormatError(e.message, opts.fileName);
    throw e;
  }
}
