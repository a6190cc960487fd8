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
 * training sample; without classes.txt the classes come in the folders' sorted order (ImageFolder's). The class
 * folders are those beside classes.txt (so a zip of one class, `your-classes/mug/train/…`, reads as the class "mug",
 * not as the classes "train" and "test"); without it, a zip whose every image sits in a `train/` or `test/` folder
 * has its class folders just above those. One class is a samples zip (the lab starts from one); a file named as an
 * image that is not one is refused, not dropped. Pure: bytes in, bytes out (decoding the images needs a DOM and is
 * the caller's).
 */
import { strToU8, strFromU8, zipSync, type Zippable } from 'fflate';
import { isZip, listImageFolderZip, sniffImageType } from './parsers/image-folder-zip';
import { DataFormatError } from './parsers/types';
import { readZipDirectory, zipEntryBytes } from './parsers/zip';

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

/** The longest classes.txt read (bytes). */
const CLASS_LIST_MAX_BYTES = 100_000;

/**
 * The folder holding the class folders: that of the shallowest classes.txt, or (without one) the folder above the
 * class folders when every image is under a `train/` or `test/` folder at one depth; undefined: ImageFolder's rule.
 */
function classRoot(bytes: Uint8Array, fileName?: string): { root?: string; list?: Uint8Array } {
  if (!isZip(bytes)) return {}; // listImageFolderZip says what it is not
  const entries = readZipDirectory(bytes, fileName);
  const lists = entries.filter((e) => /(^|\/)classes\.txt$/.test(e.name)).sort((a, b) => a.name.length - b.name.length);
  if (lists[0]) {
    if (lists[0].size > CLASS_LIST_MAX_BYTES)
      throw new DataFormatError(`classes.txt is ${lists[0].size} bytes long; a list of class names is shorter`, fileName);
    const name = lists[0].name;
    return { root: name.slice(0, Math.max(0, name.lastIndexOf('/'))), list: zipEntryBytes(bytes, lists[0], fileName) };
  }
  const images = entries.filter((e) => !e.name.endsWith('/') && sniffableName(e.name));
  const depths = new Set(images.map((e) => e.name.split('/').findIndex((p, k, all) => k < all.length - 1 && (p === 'train' || p === 'test'))));
  const [depth] = depths;
  if (images.length > 0 && depths.size === 1 && depth >= 1) {
    const roots = new Set(
      images.map((e) =>
        e.name
          .split('/')
          .slice(0, depth - 1)
          .join('/'),
      ),
    );
    if (roots.size === 1) return { root: [...roots][0] };
  }
  return {};
}

const sniffableName = (path: string): boolean =>
  /\.(png|jpe?g|webp|gif|bmp)$/i.test(path) && !path.split('/').some((p) => p === '__MACOSX' || p.startsWith('.'));

/** The classes of a samples zip (or any image-folder zip), in taught order; throws a DataFormatError saying what is wrong. */
export function readSamplesZip(bytes: Uint8Array, fileName?: string): OwnSampleClass[] {
  const { root, list } = classRoot(bytes, fileName);
  const listing = listImageFolderZip(bytes, { fileName, root, minClasses: 1 });
  const broken = listing.skipped.find((f) => /not an image|empty file|entries of the zip have this name/.test(f.reason));
  if (broken)
    throw new DataFormatError(`"${broken.path}": ${broken.reason}; a sample that cannot be read is not left out silently — remove it or replace it`, fileName);
  const byName = new Map(listing.classNames.map((n) => [n, { name: n, train: [] as Uint8Array[], test: [] as Uint8Array[] }]));
  for (const e of listing.entries) {
    const parts = e.path.split('/');
    const inTest = parts.slice(parts.indexOf(e.className) + 1, -1).includes('test');
    byName.get(e.className)![inTest ? 'test' : 'train'].push(e.bytes);
  }
  let order = listing.classNames;
  if (list) {
    const named = strFromU8(list)
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
