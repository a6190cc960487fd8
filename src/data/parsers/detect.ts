/**
 * Guessing what the user dropped, from file names and first bytes, and dispatching to the right parser.
 *
 * Order of the checks: gzip (1f 8b: a .tar.gz CIFAR archive or a gzipped IDX file — we peek at the first
 * decompressed bytes), zip ("PK\x03\x04": an image-folder zip), tar (valid ustar header), IDX magic (2051/2049),
 * CIFAR file names (data_batch_N.bin, test_batch.bin, train.bin, test.bin, the names .txt files), and finally
 * CIFAR record-size divisibility (3073 or 3074 bytes per record) with every label byte in range.
 */
import { type CifarFileRole, type CifarVariant, CIFAR_RECORD_BYTES, cifarFileRole, parseCifarArchive, parseCifarFiles } from './cifar';
import { gunzipHead, isGzip } from './gzip';
import { IDX_IMAGES_MAGIC, IDX_LABELS_MAGIC, describeMagic, parseIdxFiles } from './idx';
import { type DecodeImage, isZip, parseImageFolderZip } from './image-folder-zip';
import { isParquet, parquetSplitOf, parseCifarParquet } from './parquet-cifar';
import { looksLikeTar } from './tar';
import { classNamesOfFolders } from './class-folders';
import { DataFormatError, type NamedFile, type ParsedDataset, type ProgressCallback, baseName, bytesText } from './types';

/** What a file looks like. */
export type DetectedFormat =
  | { kind: 'idx-images' | 'idx-labels'; gzipped: boolean }
  | { kind: 'cifar-bin'; variant: CifarVariant; split: 'train' | 'test'; byName: boolean }
  | { kind: 'cifar-names'; variant: CifarVariant }
  | { kind: 'cifar-archive'; gzipped: boolean }
  | { kind: 'image-folder-zip' }
  | { kind: 'parquet' }
  | { kind: 'unknown'; reason: string };

/** Every CIFAR record's label byte(s) in range? (coarse < 20 and fine < 100 for CIFAR-100; < 10 for CIFAR-10.) */
function cifarLabelsPlausible(b: Uint8Array, variant: CifarVariant): boolean {
  const rec = CIFAR_RECORD_BYTES[variant];
  if (b.length === 0 || b.length % rec !== 0) return false;
  for (let at = 0; at < b.length; at += rec) {
    if (variant === 'cifar10' ? b[at] >= 10 : b[at] >= 20 || b[at + 1] >= 100) return false;
  }
  return true;
}

/** Names MNIST gives its files ("train-images-idx3-ubyte", "t10k-labels.idx1-ubyte"). */
const IDX_NAME = /idx\d|ubyte/i;

/**
 * A file named like an IDX file whose magic number is wrong still goes to the IDX parser, so the user reads
 * "bad magic number …" rather than "cannot tell what this file is".
 */
function idxByName(lower: string, gzipped: boolean): DetectedFormat | null {
  if (!IDX_NAME.test(lower)) return null;
  return { kind: /labels|idx1/.test(lower) ? 'idx-labels' : 'idx-images', gzipped };
}

/** Guesses the format of one file from its name and first bytes. */
export function detectFormat(file: NamedFile): DetectedFormat {
  const { name, bytes } = file;
  const lower = baseName(name).toLowerCase();
  if (isGzip(bytes)) {
    if (/\.(tar\.gz|tgz)$/.test(lower)) return { kind: 'cifar-archive', gzipped: true };
    const head = gunzipHead(bytes, 512, name);
    if (looksLikeTar(head)) return { kind: 'cifar-archive', gzipped: true };
    const magic = head.length >= 4 ? ((head[0] << 24) | (head[1] << 16) | (head[2] << 8) | head[3]) >>> 0 : -1;
    if (magic === IDX_IMAGES_MAGIC) return { kind: 'idx-images', gzipped: true };
    if (magic === IDX_LABELS_MAGIC) return { kind: 'idx-labels', gzipped: true };
    const named = idxByName(lower, true);
    if (named) return named;
    return { kind: 'unknown', reason: `gzip file whose content starts with ${describeMagic(head)}, neither IDX nor tar` };
  }
  if (isZip(bytes)) return { kind: 'image-folder-zip' };
  if (isParquet(bytes)) return { kind: 'parquet' };
  if (looksLikeTar(bytes)) return { kind: 'cifar-archive', gzipped: false };
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 8) {
    if (bytes[3] === 3) return { kind: 'idx-images', gzipped: false };
    if (bytes[3] === 1) return { kind: 'idx-labels', gzipped: false };
  }
  const named = idxByName(lower, false);
  if (named) return named;
  const role = cifarFileRole(name);
  if (role?.kind === 'names') return { kind: 'cifar-names', variant: role.variant };
  if (role?.kind === 'batch') return { kind: 'cifar-bin', variant: role.variant, split: role.split, byName: true };
  const split = /test/i.test(lower) ? 'test' : 'train';
  const as10 = cifarLabelsPlausible(bytes, 'cifar10');
  const as100 = cifarLabelsPlausible(bytes, 'cifar100');
  if (as10 !== as100) return { kind: 'cifar-bin', variant: as10 ? 'cifar10' : 'cifar100', split, byName: false };
  if (as10 && as100) {
    return { kind: 'unknown', reason: 'could be CIFAR-10 or CIFAR-100 records; name it data_batch_N.bin/test_batch.bin or train.bin/test.bin' };
  }
  return {
    kind: 'unknown',
    reason: `${bytesText(bytes.length)} starting with ${describeMagic(bytes)}: not gzip, zip, tar, IDX (magic 2051/2049) or whole CIFAR records (3,073 or 3,074 bytes each)`,
  };
}

/** What parseUserFiles found. */
export interface UserDataset extends ParsedDataset {
  format: 'idx' | 'cifar10' | 'cifar100' | 'cifar100-parquet' | 'image-folder';
  /** Files or archive members that were left out, with the reason (image-folder zips). */
  skipped?: { path: string; reason: string }[];
}

/** Options of parseUserFiles. */
export interface UserFilesOptions {
  onProgress?: ProgressCallback;
  /** Class names for IDX files, which carry none (e.g. Fashion-MNIST's). */
  classNames?: string[];
  /** Needed for a .zip of images: decodes one image to RGBA (browser: createImageBitmap). */
  decodeImage?: DecodeImage;
  /** Size [height, width] the images of a .zip are resized to. Default [32, 32]. */
  imageSize?: readonly [number, number];
  /** Background for transparent pixels of zipped images (default: alpha dropped). */
  background?: readonly [number, number, number];
}

/**
 * Parses whatever the user dropped: IDX files (raw or .gz, images + labels, train and/or test), CIFAR .bin
 * files (+ names), one CIFAR .tar.gz/.tar archive, or one .zip of class folders. Files of different kinds
 * together are rejected.
 */
export async function parseUserFiles(files: NamedFile[], opts: UserFilesOptions = {}): Promise<UserDataset> {
  if (files.length === 0) throw new DataFormatError('no files given');
  const detected = files.map((f) => ({ file: f, format: detectFormat(f) }));
  const unknown = detected.find((d) => d.format.kind === 'unknown');
  if (unknown && unknown.format.kind === 'unknown') {
    throw new DataFormatError(
      `cannot tell what this file is: ${unknown.format.reason}. Expected MNIST-style IDX files (.gz or raw), CIFAR binary files (.bin or the .tar.gz), CIFAR-100's parquet files from the Hugging Face hub, or a .zip with one folder of images per class`,
      unknown.file.name,
    );
  }
  const family = (k: DetectedFormat['kind']) =>
    k === 'idx-images' || k === 'idx-labels'
      ? 'IDX'
      : k === 'cifar-bin' || k === 'cifar-names'
        ? 'CIFAR .bin'
        : k === 'cifar-archive'
          ? 'archive'
          : k === 'parquet'
            ? 'parquet'
            : 'zip';
  const families = new Set(detected.map((d) => family(d.format.kind)));
  if (families.size > 1 || ((families.has('archive') || families.has('zip')) && files.length > 1)) {
    throw new DataFormatError(
      `give one kind of data at a time (IDX files, CIFAR .bin files, one archive, or one zip); got ${detected
        .map((d) => `${d.file.name} (${family(d.format.kind)})`)
        .join(', ')}`,
    );
  }
  const kind = detected[0].format.kind;
  if (kind === 'idx-images' || kind === 'idx-labels') {
    return { format: 'idx', ...parseIdxFiles(files, { classNames: opts.classNames, onProgress: opts.onProgress }) };
  }
  if (kind === 'cifar-bin' || kind === 'cifar-names') {
    const guessed = new Map<NamedFile, CifarFileRole>();
    for (const d of detected) {
      if (d.format.kind === 'cifar-bin' && !d.format.byName) {
        guessed.set(d.file, { kind: 'batch', variant: d.format.variant, split: d.format.split, order: guessed.size + 1 });
      }
    }
    const r = parseCifarFiles(files, { onProgress: opts.onProgress, roleOf: (f) => guessed.get(f) ?? null });
    return { format: r.variant, train: r.train, ...(r.test ? { test: r.test } : {}) };
  }
  if (kind === 'parquet') return parseParquetFiles(files, opts.onProgress);
  if (kind === 'cifar-archive') {
    const r = parseCifarArchive(files[0].bytes, { fileName: files[0].name, onProgress: opts.onProgress });
    return { format: r.variant, train: r.train, ...(r.test ? { test: r.test } : {}) };
  }
  if (!opts.decodeImage) {
    throw new TypeError('a .zip of images needs options.decodeImage to turn image files into pixels (createImageBitmap in the browser)');
  }
  const r = await parseImageFolderZip(files[0].bytes, {
    decodeImage: opts.decodeImage,
    size: opts.imageSize ?? [32, 32],
    background: opts.background,
    fileName: files[0].name,
    onProgress: opts.onProgress,
  });
  const { skipped, test, ...train } = r;
  // ImageNet-R's folders by WordNet id and CUB-200's numbered folders, named as the app's class lists name them
  const named = classNamesOfFolders(train.classNames ?? []);
  const withNames = <T extends { classNames?: string[] }>(p: T): T => (named ? { ...p, classNames: named.names } : p);
  return { format: 'image-folder', train: withNames(train), ...(test ? { test: withNames(test) } : {}), skipped };
}

/** CIFAR-100's parquet files (the hub's train and/or test file, split by name): at most one of each. */
async function parseParquetFiles(files: NamedFile[], onProgress?: ProgressCallback): Promise<UserDataset> {
  const bySplit = new Map<'train' | 'test', NamedFile>();
  for (const f of files) {
    const split = parquetSplitOf(f.name);
    if (bySplit.has(split))
      throw new DataFormatError(`two parquet files of the ${split} split (${bySplit.get(split)!.name}, ${f.name}): give one train and one test file`);
    bySplit.set(split, f);
  }
  const total = files.reduce((n, f) => n + f.bytes.length, 0);
  let before = 0;
  const parse = async (f: NamedFile) => {
    const at = before;
    before += f.bytes.length;
    return parseCifarParquet(f.bytes, { fileName: f.name, onProgress: (x) => onProgress?.((at + x * f.bytes.length) / total) });
  };
  const train = bySplit.get('train');
  const test = bySplit.get('test');
  if (!train) {
    // a test file alone: its images are the training split (as a single CIFAR .bin is)
    return { format: 'cifar100-parquet', train: await parse(test!) };
  }
  return { format: 'cifar100-parquet', train: await parse(train), ...(test ? { test: await parse(test) } : {}) };
}
