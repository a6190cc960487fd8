/**
 * CIFAR-100 as the Hugging Face hub's dataset files hold it (the `uoft-cs/cifar100` repository's
 * `cifar100/{train,test}-00000-of-00001.parquet`): one row per image with `img` (a struct of the PNG file's `bytes` and
 * its `path`), `fine_label` (0–99, CIFAR-100's fine classes in their label order) and `coarse_label` (0–19). Read with
 * hyparquet (pure JavaScript, no dependencies; snappy built in), each PNG decoded by ./png.ts to 32×32 RGB.
 *
 * A file is the train or the test split by its name ("test" in it: test). Every malformed input is a DataFormatError.
 */
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { getClassList } from '../../core/classes/builtin';
import { decodePng } from './png';
import { DataFormatError, type ParsedImages, type ProgressCallback, baseName } from './types';

/** The bytes every parquet file starts and ends with. */
export function isParquet(b: Uint8Array): boolean {
  const magic = (at: number) => b[at] === 0x50 && b[at + 1] === 0x41 && b[at + 2] === 0x52 && b[at + 3] === 0x31;
  return b.length >= 12 && magic(0) && magic(b.length - 4);
}

/** At most this many rows per file (CIFAR-100's train split has 50,000). */
export const PARQUET_MAX_ROWS = 100_000;

/** CIFAR-100's 32×32 RGB images. */
const SIDE = 32;

/** The split a hub file name says: "…test-00000-of-00001.parquet" is the test split, anything else the training split. */
export function parquetSplitOf(name: string): 'train' | 'test' {
  return /test/i.test(baseName(name)) ? 'test' : 'train';
}

/**
 * The images of one CIFAR-100 parquet file (train or test): uint8 N×32×32×3 and the fine labels, with the fine and
 * coarse class names. Yields to the caller's progress every 500 images.
 */
export async function parseCifarParquet(bytes: Uint8Array, opts: { fileName?: string; onProgress?: ProgressCallback } = {}): Promise<ParsedImages> {
  const { fileName } = opts;
  const fail = (m: string): never => {
    throw new DataFormatError(m, fileName);
  };
  if (!isParquet(bytes)) fail('not a parquet file (it does not start and end with "PAR1")');
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let metadata: ReturnType<typeof parquetMetadata>;
  try {
    metadata = parquetMetadata(buffer);
  } catch (e) {
    return fail(`the parquet file's metadata cannot be read (${(e as Error).message})`);
  }
  const rows = Number(metadata.num_rows);
  if (!Number.isSafeInteger(rows) || rows < 1) fail(`the parquet file says it has ${String(metadata.num_rows)} rows`);
  if (rows > PARQUET_MAX_ROWS) fail(`the parquet file has ${rows} rows; at most ${PARQUET_MAX_ROWS} images can be read from one file`);
  const top = parquetSchema(metadata).children.map((c) => c.element.name);
  const img = parquetSchema(metadata).children.find((c) => c.element.name === 'img');
  if (!img || !img.children.some((c) => c.element.name === 'bytes') || !top.includes('fine_label'))
    fail(
      `expected CIFAR-100's columns img (a struct with the PNG's bytes) and fine_label, as the Hugging Face hub's cifar100 files have them; this file has ${top.join(', ')}`,
    );
  let objects: Record<string, unknown>[];
  try {
    objects = (await parquetReadObjects({
      file: buffer,
      metadata,
      columns: ['img', 'fine_label', 'coarse_label'].filter((c) => top.includes(c)),
      utf8: false,
    })) as Record<string, unknown>[];
  } catch (e) {
    return fail(`the parquet file's data cannot be read (${(e as Error).message})`);
  }
  const images = new Uint8Array(rows * SIDE * SIDE * 3);
  const labels = new Uint8Array(rows);
  const coarse = top.includes('coarse_label') ? new Uint8Array(rows) : undefined;
  for (let i = 0; i < rows; i++) {
    const o = objects[i];
    const label = Number(o.fine_label);
    if (!Number.isInteger(label) || label < 0 || label >= 100) fail(`row ${i} has fine_label ${String(o.fine_label)}; CIFAR-100's are 0–99`);
    const png = (o.img as { bytes?: unknown } | null)?.bytes;
    if (!(png instanceof Uint8Array)) fail(`row ${i} has no image bytes in img.bytes`);
    const d = decodePng(png as Uint8Array, `${fileName ?? 'parquet'} row ${i}`);
    if (d.width !== SIDE || d.height !== SIDE) fail(`row ${i}'s image is ${d.width}×${d.height}; CIFAR-100's are 32×32`);
    for (let p = 0; p < SIDE * SIDE; p++) for (let c = 0; c < 3; c++) images[(i * SIDE * SIDE + p) * 3 + c] = d.data[p * 4 + c];
    labels[i] = label;
    if (coarse) {
      const k = Number(o.coarse_label);
      if (!Number.isInteger(k) || k < 0 || k >= 20) fail(`row ${i} has coarse_label ${String(o.coarse_label)}; CIFAR-100's are 0–19`);
      coarse[i] = k;
    }
    if (i % 500 === 499) {
      opts.onProgress?.((i + 1) / rows);
      await Promise.resolve();
    }
  }
  opts.onProgress?.(1);
  return {
    images,
    labels,
    shape: [SIDE, SIDE, 3],
    classNames: getClassList('cifar100').classes.slice(),
    ...(coarse ? { coarseLabels: coarse } : {}),
  };
}
