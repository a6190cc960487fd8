/**
 * A .zip of images with one folder per class (torchvision's ImageFolder layout, zipped):
 *
 *   my-data.zip
 *   └── my-data/            ← optional wrapper folders shared by every image are stripped
 *       ├── cat/  1.png 2.jpg …
 *       └── dog/  a.png sub/b.png …   (images in sub-folders count for the class folder, as in ImageFolder)
 *
 * Classes are the folder names sorted by code point (Python's `sorted`, as ImageFolder), so label k here is
 * label k in the user's PyTorch run. `__MACOSX/`, dotfiles (`.DS_Store`, `._x.png`), Thumbs.db and desktop.ini
 * are ignored; other non-image files are skipped and listed. A name that several entries of the zip share (a zip
 * appended to, or made by a tool that does not check) is skipped and listed once: its contents cannot be told apart,
 * since an archive is read by name. Decoding pixels needs a DOM (`createImageBitmap`)
 * in the browser, so this module only lists and validates entries; `parseImageFolderZip` takes the decoder
 * from its caller and resizes with `resizeToRgb`, a pure resampler.
 */
import { grouped } from '../../core/config/limits';
import { DataFormatError, type ParsedImages, type ProgressCallback, subProgress } from './types';
import { compressionName, readZipDirectory, zipEntryBytes, type ZipEntry } from './zip';

/**
 * What a zip may ask of the tab (which Chromium kills a little past 4 GB; src/core/config/limits.ts): the bytes its
 * images inflate to, as their headers declare them (all are held at once before decoding; no member inflates past
 * its declared size, ./zip.ts, so the declared sizes bound the memory and the work even when a header lies), and
 * the bytes of the decoded, resized images. Checked from the central directory, before anything is inflated: a zip
 * bomb (one member inflating to gigabytes, or many entries sharing one compressed stream) is refused with the bound.
 */
export const ZIP_LIMITS = {
  inflatedBytes: 1_000_000_000,
  decodedBytes: 1_000_000_000,
} as const;

/** Throws when `n` images of `imageBytes` bytes each (decoded and resized) are more than the tab may hold. */
function tooManyDecodedBytes(n: number, imageBytes: number, fileName: string | undefined): void {
  if (n * imageBytes <= ZIP_LIMITS.decodedBytes) return;
  throw new DataFormatError(
    `${grouped(n)} images of ${grouped(imageBytes)} bytes each (decoded and resized) need ${grouped(n * imageBytes)} bytes; at most ${grouped(ZIP_LIMITS.decodedBytes)} bytes can be held in the tab: zip fewer images`,
    fileName,
  );
}

/** Extensions accepted as images (lower case). */
export const IMAGE_EXTENSIONS: readonly string[] = ['png', 'jpg', 'jpeg', 'webp', 'gif', 'bmp'];

/** One image of the archive. */
export interface ImageFolderEntry {
  className: string;
  /** Index of className in the sorted class list. */
  label: number;
  /** Base name, e.g. "1.png". */
  fileName: string;
  /** Full path inside the zip. */
  path: string;
  bytes: Uint8Array;
  /** with `splitFolders`: the split the zip puts it in (train/ and test/ or val/ folders, or CUB's train_test_split.txt) */
  split?: 'train' | 'test';
}

/** A file that was left out, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** The validated content of an image-folder zip. */
export interface ImageFolderListing {
  classNames: string[];
  /** Grouped by class (label order), sorted by path inside a class. */
  entries: ImageFolderEntry[];
  skipped: SkippedFile[];
}

function isIgnored(path: string): boolean {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '__MACOSX' || p.startsWith('.'))) return true;
  const base = (parts[parts.length - 1] ?? '').toLowerCase();
  return base === 'thumbs.db' || base === 'desktop.ini';
}

function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The image type the bytes start with, or null (PNG, JPEG, GIF, BMP, WebP signatures). */
export function sniffImageType(b: Uint8Array): 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp' | null {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return 'gif';
  if (b.length >= 14 && b[0] === 0x42 && b[1] === 0x4d) return 'bmp';
  if (
    b.length >= 12 &&
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  ) {
    return 'webp';
  }
  return null;
}

/** True when the bytes start with a zip signature (local file header, or an empty archive's end record). */
export function isZip(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));
}

/** Options of listImageFolderZip. */
export interface ListOptions {
  onProgress?: ProgressCallback;
  fileName?: string;
  /** bytes of one decoded, resized image (checked against ZIP_LIMITS.decodedBytes before inflating) */
  imageBytes?: number;
  /**
   * The folder that holds the class folders ("your-classes"), when the caller knows it (the folder of a samples
   * zip's classes.txt); images outside it are skipped and listed. Without it, the wrapper folders every image shares
   * are stripped as long as each image keeps one folder.
   */
  root?: string;
  /** The fewest class folders accepted (default 2: a class-incremental dataset). */
  minClasses?: number;
  /**
   * Read a split from the layout: train/ and test/ (or val/) folders above the class folders (torchvision's and PILOT's
   * ImageNet-R and CUB layout), or CUB-200-2011's images.txt and train_test_split.txt beside its images.
   */
  splitFolders?: boolean;
}

/**
 * Lists and validates the images of an image-folder zip: at least 2 class folders (`minClasses`), each with at least
 * one image (by extension and by content signature). Inflates member by member, none past its declared size, so
 * `onProgress` moves.
 */
export function listImageFolderZip(bytes: Uint8Array, opts: ListOptions = {}): ImageFolderListing {
  const { fileName } = opts;
  if (!isZip(bytes)) {
    const head = Array.from(bytes.subarray(0, 4), (v) => v.toString(16).padStart(2, '0')).join(' ');
    throw new DataFormatError(`not a zip archive: expected it to start with 50 4b 03 04 ("PK\\x03\\x04") but found ${head || 'nothing'}`, fileName);
  }
  // Pass 1: the central directory only (nothing is inflated).
  const infos = readZipDirectory(bytes, fileName);
  const skipped: SkippedFile[] = [];
  const dirs: string[] = [];
  const images: ZipEntry[] = [];
  const others: string[] = [];
  const copies = new Map<string, number>();
  for (const info of infos) {
    const path = info.name.replace(/\\/g, '/');
    copies.set(path, (copies.get(path) ?? 0) + 1);
  }
  for (const info of infos) {
    const path = info.name.replace(/\\/g, '/');
    if (isIgnored(path)) continue;
    if (path.endsWith('/')) {
      dirs.push(path.replace(/\/+$/, ''));
      continue;
    }
    const n = copies.get(path) ?? 1;
    if (n !== 1) {
      // every copy is left out, and the name listed once (copies then holds 0: already listed)
      if (n > 1)
        skipped.push({ path, reason: `${n} entries of the zip have this name, so none of them is used (which is which cannot be told): re-zip the folder` });
      copies.set(path, 0);
      continue;
    }
    const ext = extensionOf(path);
    if (!IMAGE_EXTENSIONS.includes(ext)) {
      skipped.push({ path, reason: ext ? `not a supported image type (.${ext})` : 'no file extension' });
      others.push(path);
      continue;
    }
    if (info.method !== 0 && info.method !== 8) {
      throw new DataFormatError(
        `zip member "${path}" is compressed with ${compressionName(info.method)}; only stored and deflate zips can be read — re-zip the folder with standard settings`,
        fileName,
      );
    }
    if (info.encrypted) throw new DataFormatError(`zip member "${path}" is encrypted; zip the folder again without a password`, fileName);
    images.push(info);
  }
  if (images.length === 0) {
    throw new DataFormatError(
      `no images (${IMAGE_EXTENSIONS.join(', ')}) found in the zip${others.length ? ` (found: ${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''})` : ''}`,
      fileName,
    );
  }

  const declared = images.reduce((s, i) => s + i.size, 0);
  if (declared > ZIP_LIMITS.inflatedBytes) {
    throw new DataFormatError(
      `the zip's ${grouped(images.length)} images inflate to ${grouped(declared)} bytes (as its headers say); at most ${grouped(ZIP_LIMITS.inflatedBytes)} bytes can be read in the tab — a zip bomb, or too big a folder: zip fewer or smaller images`,
      fileName,
    );
  }

  if (opts.imageBytes) tooManyDecodedBytes(images.length, opts.imageBytes, fileName); // before the slow part: inflating them

  // Class folders: the given root's, or strip the wrapper folders every image shares, as long as each image keeps one folder.
  const split = (p: string) => p.split('/').filter((s) => s !== '');
  const rootParts = opts.root === undefined ? null : split(opts.root);
  let imageDirs = images.map((i) => split(i.name.replace(/\\/g, '/')).slice(0, -1));
  if (rootParts) {
    const inside = (d: string[]) => d.length > rootParts.length && rootParts.every((p, k) => d[k] === p);
    const kept = images.filter((_, k) => inside(imageDirs[k]));
    images.forEach((info, k) => {
      if (!inside(imageDirs[k])) skipped.push({ path: info.name, reason: `not inside a class folder of "${opts.root}/"` });
    });
    if (kept.length === 0) throw new DataFormatError(`no images inside the class folders of "${opts.root}/"`, fileName);
    imageDirs = imageDirs.filter(inside);
    images.splice(0, images.length, ...kept);
  }
  const atRoot = images.find((_, k) => imageDirs[k].length === 0);
  if (atRoot) {
    throw new DataFormatError(
      `"${atRoot.name}" is at the top of the zip, not inside a class folder: put each class's images in a folder named after the class`,
      fileName,
    );
  }
  let strip: number;
  if (rootParts) strip = rootParts.length;
  else {
    strip = imageDirs.reduce((m, d) => Math.min(m, d.length - 1), Infinity); // not Math.min(...): 10^5 arguments overflow the stack
    for (let level = 0; level < strip; level++) {
      const name = imageDirs[0][level];
      if (imageDirs.some((d) => d[level] !== name)) {
        strip = level;
        break;
      }
    }
  }
  const prefix = imageDirs[0].slice(0, strip);
  const underPrefix = (parts: string[]) => prefix.every((p, k) => parts[k] === p);
  // split folders (torchvision's and PILOT's train/ and test/ — or val/ — each holding the class folders): the class is
  // one level further down, the split the folder above it
  const splitOfFolder = (name: string | undefined): 'train' | 'test' | null =>
    name === undefined ? null : /^train$/i.test(name) ? 'train' : /^(test|val)$/i.test(name) ? 'test' : null;
  const bySplitFolder =
    !!opts.splitFolders &&
    imageDirs.every((d) => d.length > strip + 1 && splitOfFolder(d[strip]) !== null) &&
    imageDirs.some((d) => splitOfFolder(d[strip]) === 'train') &&
    imageDirs.some((d) => splitOfFolder(d[strip]) === 'test');
  const level = bySplitFolder ? strip + 1 : strip;

  const byClass = new Map<string, ZipEntry[]>();
  images.forEach((info, k) => {
    const cls = imageDirs[k][level];
    if (!byClass.has(cls)) byClass.set(cls, []);
    byClass.get(cls)!.push(info);
  });
  // Folders (explicit directory entries, or holding only non-image files) that would be classes without images.
  for (const d of [...dirs.map(split), ...others.map((o) => split(o).slice(0, -1))]) {
    if (d.length > level && underPrefix(d) && (!bySplitFolder || splitOfFolder(d[strip]) !== null) && !byClass.has(d[level])) {
      throw new DataFormatError(
        `class folder "${d[level]}" contains no images (${IMAGE_EXTENSIONS.join(', ')}): every class folder needs at least one`,
        fileName,
      );
    }
  }
  // CUB-200-2011's own split: images.txt ("id path") and train_test_split.txt ("id is_training") beside the images
  const listFile = (base: string) => infos.find((i) => i.name.replace(/\\/g, '/').split('/').pop() === base && i.size <= 5_000_000 && !isIgnored(i.name));
  const cubImages = opts.splitFolders && !bySplitFolder ? listFile('images.txt') : undefined;
  const cubSplit = cubImages ? listFile('train_test_split.txt') : undefined;
  const cubSplitOf = cubImages && cubSplit ? cubSplits(zipEntryBytes(bytes, cubImages, fileName), zipEntryBytes(bytes, cubSplit, fileName)) : null;
  const splitOfEntry = (path: string): 'train' | 'test' | undefined => {
    if (bySplitFolder) return splitOfFolder(split(path)[strip]) ?? undefined;
    if (cubSplitOf) return cubSplitOf.get(split(path).slice(-2).join('/'));
    return undefined;
  };
  const classNames = [...byClass.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const minClasses = opts.minClasses ?? 2;
  if (classNames.length < minClasses) {
    throw new DataFormatError(`found ${classNames.length} class folder ("${classNames[0]}"); need at least ${minClasses} — one folder per class`, fileName);
  }

  // Pass 2: the images, member by member (none past its declared size), progress every ~2% of the compressed size.
  // An exception from onProgress (a cancelled load) goes through as it is.
  const total = images.reduce((s, i) => s + i.compressedSize, 0) || 1;
  let done = 0;
  let next = total / 50;
  const entries: ImageFolderEntry[] = [];
  classNames.forEach((className, label) => {
    const members = byClass
      .get(className)!
      .slice()
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let kept = 0;
    for (const info of members) {
      const path = info.name.replace(/\\/g, '/');
      const b = zipEntryBytes(bytes, info, fileName);
      done += info.compressedSize;
      if (done >= next) {
        next = done + total / 50;
        opts.onProgress?.(done / total);
      }
      if (!sniffImageType(b)) {
        skipped.push({ path, reason: b.length === 0 ? 'empty file' : `not an image despite its .${extensionOf(path)} name` });
        continue;
      }
      const which = splitOfEntry(path);
      entries.push({ className, label, fileName: path.slice(path.lastIndexOf('/') + 1), path, bytes: b, ...(which ? { split: which } : {}) });
      kept++;
    }
    if (kept === 0) {
      throw new DataFormatError(`class folder "${className}" contains no readable images`, fileName);
    }
  });
  if (cubSplitOf && entries.some((e) => e.split === undefined)) {
    const lost = entries.find((e) => e.split === undefined)!;
    throw new DataFormatError(`"${lost.path}" is not listed in images.txt and train_test_split.txt: the CUB lists and the images do not match`, fileName);
  }
  opts.onProgress?.(1);
  return { classNames, entries, skipped };
}

/** CUB-200-2011's lists as a map from "class folder/file" to its split (images.txt: "id path"; train_test_split.txt: "id 1|0"). */
function cubSplits(images: Uint8Array, split: Uint8Array): Map<string, 'train' | 'test'> | null {
  const lines = (b: Uint8Array) =>
    new TextDecoder()
      .decode(b)
      .split(/\r?\n/)
      .map((l) => l.trim().split(/\s+/))
      .filter((p) => p.length === 2);
  const training = new Map(lines(split).map(([id, t]) => [id, t === '1']));
  const out = new Map<string, 'train' | 'test'>();
  for (const [id, path] of lines(images)) {
    const t = training.get(id);
    if (t === undefined) continue;
    out.set(path.split('/').slice(-2).join('/'), t ? 'train' : 'test');
  }
  return out.size > 0 ? out : null;
}

/** RGBA pixels of a decoded image (`ImageData`-like: 4 bytes per pixel, row-major). */
export interface DecodedImage {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

/** Turns an image file's bytes into RGBA pixels (browser: createImageBitmap + OffscreenCanvas). */
export type DecodeImage = (bytes: Uint8Array, entry: ImageFolderEntry) => Promise<DecodedImage> | DecodedImage;

/** Options of parseImageFolderZip. */
export interface ImageFolderZipOptions {
  decodeImage: DecodeImage;
  /** Output size [height, width]; every image is resized to it. */
  size: readonly [number, number];
  onProgress?: ProgressCallback;
  fileName?: string;
  /** Composite transparent pixels over this colour; default: drop alpha as PIL's convert('RGB') does. */
  background?: readonly [number, number, number];
  /** Leave out images the decoder rejects (listed in `skipped`) instead of failing. Default false. */
  skipUndecodable?: boolean;
}

/**
 * Lists the zip (0–20% of the bar), then decodes and resizes every image to `size` RGB (20–100%).
 * Labels are Uint8Array up to 256 classes, else Int32Array.
 */
export async function parseImageFolderZip(
  bytes: Uint8Array,
  opts: ImageFolderZipOptions,
): Promise<ParsedImages & { skipped: SkippedFile[]; test?: ParsedImages }> {
  const [height, width] = opts.size;
  if (!(Number.isInteger(height) && Number.isInteger(width) && height > 0 && width > 0)) {
    throw new RangeError(`image size must be two positive integers [height, width], got [${height}, ${width}]`);
  }
  const listing = listImageFolderZip(bytes, {
    fileName: opts.fileName,
    onProgress: subProgress(opts.onProgress, 0, 0.2),
    imageBytes: height * width * 3,
    splitFolders: true,
  });
  const n = listing.entries.length;
  const per = height * width * 3;
  const images = new Uint8Array(n * per);
  const labels = listing.classNames.length <= 256 ? new Uint8Array(n) : new Int32Array(n);
  const skipped = listing.skipped.slice();
  const splits: ('train' | 'test' | undefined)[] = [];
  let count = 0;
  for (let k = 0; k < n; k++) {
    const entry = listing.entries[k];
    let decoded: DecodedImage;
    try {
      decoded = await opts.decodeImage(entry.bytes, entry);
      if (decoded.data.length !== decoded.width * decoded.height * 4) {
        throw new Error(`decoder returned ${decoded.data.length} bytes for ${decoded.width}×${decoded.height} RGBA`);
      }
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (opts.skipUndecodable) {
        skipped.push({ path: entry.path, reason: `cannot decode: ${why}` });
        continue;
      }
      throw new DataFormatError(`cannot decode "${entry.path}": ${why}`, opts.fileName);
    }
    images.set(resizeToRgb(decoded.data, decoded.width, decoded.height, [height, width], { background: opts.background }), count * per);
    labels[count] = entry.label;
    splits[count] = entry.split;
    count++;
    opts.onProgress?.(0.2 + (0.8 * (k + 1)) / n);
  }
  const perClass = new Int32Array(listing.classNames.length);
  for (let k = 0; k < count; k++) perClass[labels[k]]++;
  const lost = perClass.findIndex((c) => c === 0);
  if (lost >= 0) throw new DataFormatError(`class folder "${listing.classNames[lost]}" has no image that could be decoded`, opts.fileName);
  opts.onProgress?.(1);
  const all = { images: count === n ? images : images.slice(0, count * per), labels: count === n ? labels : labels.slice(0, count) };
  if (!splits.some((x) => x === 'test')) return { ...all, shape: [height, width, 3], classNames: listing.classNames, skipped };
  // train/ and test/ folders, or CUB's lists: two splits over one class list
  const part = (which: 'train' | 'test'): ParsedImages => {
    const idx = splits.flatMap((x, k) => (x === which ? [k] : []));
    const out = new Uint8Array(idx.length * per);
    idx.forEach((k, j) => out.set(all.images.subarray(k * per, (k + 1) * per), j * per));
    const lab = listing.classNames.length <= 256 ? new Uint8Array(idx.length) : new Int32Array(idx.length);
    idx.forEach((k, j) => (lab[j] = all.labels[k]));
    return { images: out, labels: lab, shape: [height, width, 3], classNames: listing.classNames };
  };
  return { ...part('train'), skipped, test: part('test') };
}

/** Source taps and weights of one output coordinate along one axis. */
interface AxisTaps {
  /** start[o]..start[o+1] index into idx/weight. */
  start: Int32Array;
  idx: Int32Array;
  weight: Float64Array;
}

/**
 * Resampling weights along one axis: box (area averaging, exact fractional coverage) when shrinking,
 * bilinear with half-pixel centres (OpenCV/PIL/tf `half_pixel_centers`) when enlarging or keeping the size
 * (where it is the identity).
 */
function axisTaps(src: number, dst: number): AxisTaps {
  const start = new Int32Array(dst + 1);
  const idx: number[] = [];
  const weight: number[] = [];
  const scale = src / dst;
  for (let o = 0; o < dst; o++) {
    start[o] = idx.length;
    if (dst < src) {
      const lo = o * scale;
      const hi = (o + 1) * scale;
      for (let s = Math.floor(lo); s < Math.min(src, Math.ceil(hi)); s++) {
        const w = (Math.min(hi, s + 1) - Math.max(lo, s)) / scale;
        if (w > 0) {
          idx.push(s);
          weight.push(w);
        }
      }
    } else {
      const c = Math.min(src - 1, Math.max(0, (o + 0.5) * scale - 0.5));
      const s0 = Math.floor(c);
      const f = c - s0;
      idx.push(s0);
      weight.push(1 - f);
      if (f > 0) {
        idx.push(Math.min(src - 1, s0 + 1));
        weight.push(f);
      }
    }
  }
  start[dst] = idx.length;
  return { start, idx: Int32Array.from(idx), weight: Float64Array.from(weight) };
}

/**
 * Resizes RGBA pixels (`width`×`height`, 4 bytes per pixel) to `target` = [height, width] RGB, H×W×3 bytes.
 * Separable: box filter when shrinking an axis, bilinear when enlarging it; rounding to nearest at the end.
 * Alpha is dropped (PIL's convert('RGB')) unless `background` is given, then pixels are composited over it.
 */
export function resizeToRgb(
  pixels: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  target: readonly [number, number],
  opts: { background?: readonly [number, number, number] } = {},
): Uint8Array {
  const [th, tw] = target;
  if (!(width > 0 && height > 0 && Number.isInteger(width) && Number.isInteger(height))) {
    throw new RangeError(`source size must be positive integers, got ${width}×${height}`);
  }
  if (!(tw > 0 && th > 0 && Number.isInteger(tw) && Number.isInteger(th))) {
    throw new RangeError(`target size must be positive integers [height, width], got [${th}, ${tw}]`);
  }
  if (pixels.length !== width * height * 4) {
    throw new RangeError(`expected ${width}×${height}×4 = ${width * height * 4} RGBA bytes, got ${pixels.length}`);
  }
  const bg = opts.background;
  // Source as float RGB (composited over the background when asked).
  const rgb = new Float64Array(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    const a = bg ? pixels[4 * p + 3] / 255 : 1;
    for (let c = 0; c < 3; c++) rgb[3 * p + c] = bg ? pixels[4 * p + c] * a + bg[c] * (1 - a) : pixels[4 * p + c];
  }
  const xs = axisTaps(width, tw);
  const ys = axisTaps(height, th);
  // Horizontal pass: height × tw × 3.
  const mid = new Float64Array(height * tw * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < tw; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let t = xs.start[x]; t < xs.start[x + 1]; t++) {
        const s = 3 * (y * width + xs.idx[t]);
        const w = xs.weight[t];
        r += rgb[s] * w;
        g += rgb[s + 1] * w;
        b += rgb[s + 2] * w;
      }
      const o = 3 * (y * tw + x);
      mid[o] = r;
      mid[o + 1] = g;
      mid[o + 2] = b;
    }
  }
  // Vertical pass: th × tw × 3.
  const out = new Uint8Array(th * tw * 3);
  for (let y = 0; y < th; y++) {
    for (let x = 0; x < tw; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let t = ys.start[y]; t < ys.start[y + 1]; t++) {
        const s = 3 * (ys.idx[t] * tw + x);
        const w = ys.weight[t];
        r += mid[s] * w;
        g += mid[s + 1] * w;
        b += mid[s + 2] * w;
      }
      const o = 3 * (y * tw + x);
      out[o] = clampByte(r);
      out[o + 1] = clampByte(g);
      out[o + 2] = clampByte(b);
    }
  }
  return out;
}

function clampByte(v: number): number {
  // 1e-9 keeps exact halves from float error (127.49999999) rounding the wrong way.
  return Math.max(0, Math.min(255, Math.round(v + 1e-9)));
}
