/**
 * The Your-classes lab's samples as a zip of images per class, in the Data tab's image-folder format
 * (./parsers/image-folder-zip.ts), so a teacher prepares a set once and anyone opens it — in this lab, in the Data
 * tab, or with torchvision's ImageFolder:
 *
 *   your-classes/
 *   ├── classes.txt          the classes in the order they were taught, one per line
 *   ├── mug/train/001.jpg …  the training samples (the first trainPerClass recorded)
 *   └── mug/test/001.jpg …   the test samples
 *
 * Reading takes any image-folder zip: images under a class folder's `test/` are test samples, every other image a
 * training sample; without classes.txt the classes come in the folders' sorted order (ImageFolder's). Pure: bytes
 * in, bytes out (decoding the images needs a DOM and is the caller's).
 */
import { strToU8, strFromU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { listImageFolderZip, sniffImageType } from './parsers/image-folder-zip';
import { DataFormatError } from './parsers/types';

export interface OwnSampleClass {
  name: string;
  /** encoded image files (JPEG or PNG bytes), in recording order */
  train: Uint8Array[];
  test: Uint8Array[];
}

export const SAMPLES_ZIP_FOLDER = 'your-classes';

const ext = (b: Uint8Array): string => {
  const t = sniffImageType(b);
  return t === 'jpeg' ? 'jpg' : (t ?? 'bin');
};
const numbered = (i: number): string => String(i + 1).padStart(3, '0');

/**
 * The zip of the classes' samples (stored, not deflated: JPEGs do not shrink). `mtime`: the files' date (absent:
 * now); a fixed one gives the same bytes for the same samples (the tests' recorded sample set).
 */
export function writeSamplesZip(classes: readonly OwnSampleClass[], opts: { mtime?: Date } = {}): Uint8Array {
  const root: Zippable = { 'classes.txt': strToU8(classes.map((c) => c.name).join('\n') + '\n') };
  for (const c of classes) {
    const folder = (files: Uint8Array[]): Zippable => Object.fromEntries(files.map((b, i) => [`${numbered(i)}.${ext(b)}`, b]));
    root[c.name] = { train: folder(c.train), test: folder(c.test) };
  }
  return zipSync({ [SAMPLES_ZIP_FOLDER]: root }, { level: 0, ...(opts.mtime ? { mtime: opts.mtime } : {}) });
}

/** The classes of a samples zip (or any image-folder zip), in taught order; throws a DataFormatError saying what is wrong. */
export function readSamplesZip(bytes: Uint8Array, fileName?: string): OwnSampleClass[] {
  const listing = listImageFolderZip(bytes, { fileName });
  const byName = new Map(listing.classNames.map((n) => [n, { name: n, train: [] as Uint8Array[], test: [] as Uint8Array[] }]));
  for (const e of listing.entries) {
    const parts = e.path.split('/');
    const inTest = parts.slice(parts.indexOf(e.className) + 1, -1).includes('test');
    byName.get(e.className)![inTest ? 'test' : 'train'].push(e.bytes);
  }
  let order = listing.classNames;
  const lists = unzipSync(bytes, { filter: (f) => /(^|\/)classes\.txt$/.test(f.name) && f.originalSize < 100_000 });
  const text = Object.entries(lists).sort((a, b) => a[0].length - b[0].length)[0]?.[1];
  if (text) {
    const named = strFromU8(text)
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '');
    const same = named.length === order.length && named.every((n) => byName.has(n));
    if (!same)
      throw new DataFormatError(
        `classes.txt lists ${named.length} classes (${named.slice(0, 5).join(', ')}) but the zip has the class folders ${order.join(', ')}: fix the list or remove it`,
        fileName,
      );
    order = named;
  }
  return order.map((n) => byName.get(n)!);
}
