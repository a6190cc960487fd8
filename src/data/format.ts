/**
 * The on-disk format of the built-in datasets, "cil-lab/dataset" version 1: written by scripts/prepare-*.mjs (run by
 * `node scripts/prepare-data.mjs`) into `public/data/<id>/` (generated, never committed) and read in the browser and
 * in Node alike through `loadBuiltinDataset` (./registry.ts). Pure (no DOM, no fs): `parseDatasetMeta` validates
 * meta.json, `decodeDataset` checks the buffers against it and returns typed arrays; every error names the dataset
 * and the file that is wrong.
 */

/**
 * One directory per dataset: `meta.json` (DatasetMeta: class names, index = label; shape [h, w, c]; per-split counts
 * and files; the split's seed; sources and licences; emoji's style table), `{train,test}-images.u8` (raw uint8
 * pixels, row-major N × H × W × C, 0 = black, no header, no compression), `{train,test}-labels.u8` (one uint8 label
 * per image) and, emoji only, `{train,test}-styles.u8` (one uint8 per image: the artist whose rendering it is; a style
 * is train-only or test-only). Raw bytes because they are what a training loop wants (one view, no parsing), load
 * in one fetch and are small enough (Fashion-MNIST ≈ 55 MB, digits ≈ 0.1 MB, emoji a few MB); uint8 labels allow
 * at most 256 classes and 256 styles. Pixels: Fashion-MNIST's IDX bytes unchanged (the garment bright on black);
 * digits' 0–16 scaled by floor((v·255 + 8) / 16); emoji RGB alpha-composited on white.
 */
export const DATASET_FORMAT = 'cil-lab/dataset';
export const DATASET_FORMAT_VERSION = 1;

export type SplitName = 'train' | 'test';
export const SPLITS: readonly SplitName[] = ['train', 'test'];

/** One split's entry in meta.json. File names are relative to the dataset's directory. */
export interface SplitMeta {
  count: number;
  images: string;
  labels: string;
  /** emoji: one uint8 per image, index into `DatasetMeta.styles` */
  styles?: string;
  /** images per class (index = label), as written; checked against the labels on decode */
  perClass: number[];
}

/** Where the pixels come from, for the About panel and the README. */
export interface SourceMeta {
  /** what it is, e.g. "Fashion-MNIST (Zalando Research)" */
  name: string;
  /** the package it was taken from: "deb:dataset-fashion-mnist" or "npm:@iconify-json/noto" */
  package: string;
  version: string;
  /** SPDX-style licence id of the pixels we use, e.g. "MIT", "CC-BY-4.0" */
  license: string;
  url?: string;
  note?: string;
}

/** An emoji style: one artist's rendering set. */
export interface StyleMeta {
  /** short id, e.g. "noto" */
  id: string;
  /** display name, e.g. "Google Noto Color Emoji" */
  name: string;
  /** who drew it; two styles by the same artist (Noto and Noto v1) count as one artist */
  artist: string;
  /** "npm:<package>" */
  package: string;
  version: string;
  license: string;
  /** test-only styles are never trained on */
  split: SplitName;
  url?: string;
}

/** Per-class details beyond the name (emoji: code point and Unicode group/subgroup). */
export interface ClassInfo {
  name: string;
  /** index of this class in the built-in class list `classListId` (src/core/classes/builtin.ts) */
  classListIndex: number;
  group?: string;
  subgroup?: string;
  codepoint?: string;
  emoji?: string;
  /** emoji: the icon name used in each style's set (style id → name) */
  icons?: Record<string, string>;
}

export interface SplitInfo {
  /** "original": the dataset's own train/test files; "stratified-random": seeded per-class split;
   *  "by-style": emoji, test images are the renderings of the test-only styles */
  method: 'original' | 'stratified-random' | 'by-style';
  seed?: number;
  testFraction?: number;
  description: string;
}

export interface DatasetMeta {
  format: typeof DATASET_FORMAT;
  version: typeof DATASET_FORMAT_VERSION;
  id: string;
  name: string;
  /** the built-in class list whose names (and WordNet pins) these classes are, e.g. "fashion-mnist" */
  classListId: string;
  /** class names, index = label */
  classes: string[];
  /** one entry per class, same order as `classes` */
  classInfo: ClassInfo[];
  /** [height, width, channels] */
  shape: [number, number, number];
  train: SplitMeta;
  test: SplitMeta;
  split: SplitInfo;
  /** emoji: the style table the *-styles.u8 files index into */
  styles?: StyleMeta[];
  sources: SourceMeta[];
  /** classes of the class list left out, and why (emoji: too few styles) */
  dropped?: { name: string; reason: string }[];
  /** emoji: renderings the rasteriser could not make (left out; their classes keep ≥ 5 artists or are dropped) */
  failedRenderings?: { rendering: string; reason: string }[];
  /** how it was built; `key` lets the prep script skip when nothing changed */
  build: { key: string; script: string; seconds?: number };
}

export interface DecodedSplit {
  count: number;
  /** N × H × W × C, row-major */
  images: Uint8Array;
  labels: Uint8Array;
  styles?: Uint8Array;
}

export interface DecodedDataset {
  meta: DatasetMeta;
  shape: [number, number, number];
  /** H × W × C */
  imageSize: number;
  train: DecodedSplit;
  test: DecodedSplit;
}

/** The bytes of one dataset's files, keyed by the file names in meta.json. */
export type DatasetBuffers = Readonly<Record<string, Uint8Array>>;

export class DatasetFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatasetFormatError';
  }
}

function fail(where: string, msg: string): never {
  throw new DatasetFormatError(`${where}: ${msg}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function str(where: string, o: Record<string, unknown>, key: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') fail(where, `"${key}" must be a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

function fileName(where: string, o: Record<string, unknown>, key: string): string {
  const v = str(where, o, key);
  // Files live beside meta.json: no directories, no "..".
  if (!/^[A-Za-z0-9._-]+$/.test(v) || v.startsWith('.')) fail(where, `"${key}" must be a plain file name, got "${v}"`);
  return v;
}

function parseSplit(where: string, v: unknown, nClasses: number, hasStyles: boolean): SplitMeta {
  if (!isObject(v)) fail(where, 'must be an object with count, images, labels, perClass');
  if (!isCount(v.count)) fail(where, `"count" must be a non-negative integer, got ${JSON.stringify(v.count)}`);
  const images = fileName(where, v, 'images');
  const labels = fileName(where, v, 'labels');
  let styles: string | undefined;
  if (hasStyles) styles = fileName(where, v, 'styles');
  else if (v.styles !== undefined) fail(where, '"styles" file given but meta.json has no style table');
  const perClass = v.perClass;
  if (!Array.isArray(perClass) || perClass.length !== nClasses || !perClass.every(isCount)) {
    fail(where, `"perClass" must be ${nClasses} non-negative integers (one per class)`);
  }
  const sum = (perClass as number[]).reduce((a, b) => a + b, 0);
  if (sum !== v.count) fail(where, `"perClass" sums to ${sum} but "count" is ${v.count}`);
  return { count: v.count, images, labels, ...(styles ? { styles } : {}), perClass: perClass as number[] };
}

/**
 * Validate a parsed meta.json (`JSON.parse` output) and return it typed. Throws DatasetFormatError saying which
 * field is wrong.
 */
export function parseDatasetMeta(json: unknown, where = 'meta.json'): DatasetMeta {
  if (!isObject(json)) fail(where, 'must be a JSON object');
  if (json.format !== DATASET_FORMAT) {
    fail(where, `"format" must be "${DATASET_FORMAT}", got ${JSON.stringify(json.format)}`);
  }
  if (json.version !== DATASET_FORMAT_VERSION) {
    fail(
      where,
      `unsupported version ${JSON.stringify(json.version)} (this app reads version ${DATASET_FORMAT_VERSION}); ` +
        'run "node scripts/prepare-data.mjs --force" to rebuild the data',
    );
  }
  const id = str(where, json, 'id');
  const w = `${where} (${id})`;
  const name = str(w, json, 'name');
  const classListId = str(w, json, 'classListId');
  const classes = json.classes;
  if (!Array.isArray(classes) || classes.length === 0 || !classes.every((c) => typeof c === 'string' && c !== '')) {
    fail(w, '"classes" must be a non-empty array of class names');
  }
  if (classes.length > 256) fail(w, `${classes.length} classes, but uint8 labels allow at most 256`);
  if (new Set(classes).size !== classes.length) fail(w, '"classes" has duplicate names');
  const classInfo = json.classInfo;
  if (!Array.isArray(classInfo) || classInfo.length !== classes.length) {
    fail(w, `"classInfo" must have one entry per class (${classes.length})`);
  }
  classInfo.forEach((ci, i) => {
    if (!isObject(ci) || ci.name !== classes[i] || !isCount(ci.classListIndex)) {
      fail(w, `classInfo[${i}] must be {name: "${String(classes[i])}", classListIndex: integer ≥ 0, …}`);
    }
  });
  const shape = json.shape;
  if (!Array.isArray(shape) || shape.length !== 3 || !shape.every((d) => isCount(d) && d > 0) || !(shape[2] === 1 || shape[2] === 3)) {
    fail(w, `"shape" must be [height, width, channels] with channels 1 or 3, got ${JSON.stringify(shape)}`);
  }
  let styles: StyleMeta[] | undefined;
  if (json.styles !== undefined) {
    if (!Array.isArray(json.styles) || json.styles.length === 0 || json.styles.length > 256) {
      fail(w, '"styles" must be a non-empty array of at most 256 styles');
    }
    styles = json.styles.map((s, i) => {
      const ws = `${w} styles[${i}]`;
      if (!isObject(s)) fail(ws, 'must be an object');
      for (const k of ['id', 'name', 'artist', 'package', 'version', 'license']) str(ws, s, k);
      if (s.split !== 'train' && s.split !== 'test') fail(ws, `"split" must be "train" or "test", got ${JSON.stringify(s.split)}`);
      return s as unknown as StyleMeta;
    });
    if (new Set(styles.map((s) => s.id)).size !== styles.length) fail(w, '"styles" has duplicate ids');
  }
  const train = parseSplit(`${w} train`, json.train, classes.length, styles !== undefined);
  const test = parseSplit(`${w} test`, json.test, classes.length, styles !== undefined);
  const split = json.split;
  if (!isObject(split) || !['original', 'stratified-random', 'by-style'].includes(split.method as string)) {
    fail(w, '"split.method" must be "original", "stratified-random" or "by-style"');
  }
  str(`${w} split`, split, 'description');
  if (!Array.isArray(json.sources) || json.sources.length === 0) fail(w, '"sources" must list where the data comes from');
  json.sources.forEach((s, i) => {
    if (!isObject(s)) fail(`${w} sources[${i}]`, 'must be an object');
    for (const k of ['name', 'package', 'version', 'license']) str(`${w} sources[${i}]`, s, k);
  });
  if (!isObject(json.build) || typeof json.build.key !== 'string') fail(w, '"build.key" must be a string');
  return { ...(json as unknown as DatasetMeta), id, name, classListId };
}

/** The file names of a dataset (besides meta.json), in the order train images, labels, [styles], test … */
export function datasetFiles(meta: DatasetMeta): string[] {
  const out: string[] = [];
  for (const s of SPLITS) {
    const m = meta[s];
    out.push(m.images, m.labels);
    if (m.styles) out.push(m.styles);
  }
  return out;
}

function decodeSplit(meta: DatasetMeta, which: SplitName, buffers: DatasetBuffers, imageSize: number): DecodedSplit {
  const m = meta[which];
  const where = `dataset "${meta.id}", ${which}`;
  const get = (file: string): Uint8Array => {
    const b = buffers[file];
    if (!(b instanceof Uint8Array)) fail(where, `file ${file} is missing`);
    return b;
  };
  const images = get(m.images);
  const expected = m.count * imageSize;
  if (images.length !== expected) {
    const why = images.length < expected ? 'truncated' : 'too long';
    fail(where, `${m.images} has ${images.length} bytes, expected ${expected} (${m.count} images × ${meta.shape.join('×')}): ${why}`);
  }
  const labels = get(m.labels);
  if (labels.length !== m.count) fail(where, `${m.labels} has ${labels.length} labels, expected ${m.count} (one per image)`);
  const nClasses = meta.classes.length;
  const perClass = new Array<number>(nClasses).fill(0);
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i];
    if (y >= nClasses) fail(where, `${m.labels}: label ${y} at image ${i} is out of range (${nClasses} classes: 0–${nClasses - 1})`);
    perClass[y]++;
  }
  for (let c = 0; c < nClasses; c++) {
    if (perClass[c] !== m.perClass[c]) {
      fail(where, `class ${c} ("${meta.classes[c]}") has ${perClass[c]} images in ${m.labels}, meta.json says ${m.perClass[c]}`);
    }
  }
  let styles: Uint8Array | undefined;
  if (m.styles && meta.styles) {
    styles = get(m.styles);
    if (styles.length !== m.count) fail(where, `${m.styles} has ${styles.length} entries, expected ${m.count} (one per image)`);
    const table = meta.styles;
    for (let i = 0; i < styles.length; i++) {
      const s = styles[i];
      if (s >= table.length) fail(where, `${m.styles}: style ${s} at image ${i} is out of range (${table.length} styles)`);
      if (table[s].split !== which) {
        fail(where, `${m.styles}: image ${i} is in style "${table[s].id}", which is a ${table[s].split}-only style`);
      }
    }
  }
  return { count: m.count, images, labels, ...(styles ? { styles } : {}) };
}

/**
 * Check a dataset's buffers against its meta.json and return typed arrays (views on the given buffers, no copy).
 * Throws DatasetFormatError for a wrong size (truncated download), a label ≥ the class count, per-class counts
 * that differ from meta.json, or a style index that is out of range or from the other split.
 */
export function decodeDataset(metaJson: DatasetMeta | unknown, buffers: DatasetBuffers): DecodedDataset {
  const meta = parseDatasetMeta(metaJson);
  const [h, w, c] = meta.shape;
  const imageSize = h * w * c;
  return {
    meta,
    shape: [h, w, c],
    imageSize,
    train: decodeSplit(meta, 'train', buffers, imageSize),
    test: decodeSplit(meta, 'test', buffers, imageSize),
  };
}

/** A view of image `i` of a split (H × W × C bytes). */
export function imageAt(ds: DecodedDataset, which: SplitName, i: number): Uint8Array {
  const s = ds[which];
  if (!Number.isInteger(i) || i < 0 || i >= s.count) throw new RangeError(`image ${i} out of range (0–${s.count - 1})`);
  return s.images.subarray(i * ds.imageSize, (i + 1) * ds.imageSize);
}
