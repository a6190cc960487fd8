/**
 * Drill: the broken-upload corpus (broken-upload-corpus.ts: zip bombs, lying headers, duplicate names,
 * path traversal, truncated archives, fake images, huge declared images, lying .npy headers, a CSV of 10^6 columns,
 * UTF-16, binary garbage, JSON nested 10^5 deep …) through the parsers the app and the CLI use:
 * - Data page: parseUserFiles (src/data/parsers), with a PNG decoder standing in for the browser's createImageBitmap;
 * - similarity file: parseSimilarityUpload (src/core/similarity);
 * - results file: importResults (src/core/results-import), given the text as the browser's File.text() reads it.
 * Every broken file must end in the parser's own error (DataFormatError / SimilarityError) or an import result with
 * an error — one line that says what is wrong — never a TypeError, RangeError, stack overflow or hang; the zip
 * bombs must be refused from their headers, before anything is inflated or decoded. Valid-but-odd files must load.
 * Prints one line per file: outcome, milliseconds, memory held afterwards, message.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { DataFormatError, listImageFolderZip, parseUserFiles, ZIP_LIMITS, type DecodedImage } from '../../../src/data/parsers';
import { importResults } from '../../../src/core/results-import/import-results';
import { parseSimilarityUpload } from '../../../src/core/similarity/parse-upload';
import { SimilarityError } from '../../../src/core/similarity/validate';
import { brokenUploadCorpus, rawZip, solidPng, zeroBomb, type CorpusCase } from './broken-upload-corpus';

/** A PNG decoder for Node (the browser's is createImageBitmap); counts its calls. */
let decodes = 0;
function decodePng(bytes: Uint8Array): DecodedImage {
  decodes++;
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength), width: png.width, height: png.height };
}

type Outcome = { ok: true; note: string } | { ok: false; message: string; kind: string };

async function run(c: CorpusCase): Promise<Outcome> {
  try {
    if (c.target === 'data') {
      const r = await parseUserFiles(c.files, { decodeImage: decodePng }); // 32×32, as the data worker
      return {
        ok: true,
        note: `${r.format}: ${r.train.labels.length} images, ${r.train.classNames?.length ?? '?'} classes${r.skipped?.length ? `, ${r.skipped.length} skipped` : ''}`,
      };
    }
    if (c.target === 'similarity') {
      const r = parseSimilarityUpload(c.files[0].name, c.files[0].bytes, ['a', 'b']);
      return { ok: true, note: `${r.kind}, classes ${r.classNames?.join(', ')}` };
    }
    const textOf = new TextDecoder().decode(c.files[0].bytes); // as File.text(): UTF-8, invalid bytes replaced
    const r = importResults(textOf, c.files[0].name, { classNames: ['0', '1'], taskSizes: [1, 1] });
    if (r.error) return { ok: false, message: r.error, kind: 'ImportResult.error' };
    return { ok: true, note: `${r.runs.length} runs, ${r.skipped.length} skipped` };
  } catch (e) {
    const err = e as Error;
    return { ok: false, message: err?.message ?? String(e), kind: err?.name ?? typeof e };
  }
}

const OWN_ERRORS = ['DataFormatError', 'SimilarityError', 'ImportResult.error'];

describe('drill: broken-upload corpus', () => {
  const corpus = brokenUploadCorpus();

  it(`gives every one of the ${corpus.length} files a message (or loads it, when valid), with no exception of the wrong kind`, async () => {
    const lines: string[] = [];
    const bad: string[] = [];
    let maxMs = 0;
    for (const c of corpus) {
      decodes = 0;
      const t0 = performance.now();
      const out = await run(c);
      const ms = performance.now() - t0;
      maxMs = Math.max(maxMs, ms);
      const mem = process.memoryUsage();
      const held = `${Math.round((mem.heapUsed + mem.arrayBuffers) / 1e6)} MB`;
      const size = c.files.reduce((s, f) => s + f.bytes.length, 0);
      if (out.ok) {
        lines.push(
          `  ${c.id.padEnd(26)} ${c.target.padEnd(10)} ${String(size).padStart(9)} B ${ms.toFixed(0).padStart(6)} ms ${held.padStart(7)}  loaded: ${out.note}`,
        );
        if (c.message) bad.push(`${c.id}: loaded (${out.note}) but should have been refused`);
      } else {
        const msg = out.message.replace(/\s+/g, ' ');
        lines.push(
          `  ${c.id.padEnd(26)} ${c.target.padEnd(10)} ${String(size).padStart(9)} B ${ms.toFixed(0).padStart(6)} ms ${held.padStart(7)}  ${out.kind}: ${msg.slice(0, 150)}`,
        );
        if (!c.message) bad.push(`${c.id}: valid file refused: ${out.kind}: ${msg}`);
        else {
          if (!OWN_ERRORS.includes(out.kind)) bad.push(`${c.id}: ${out.kind} (not the parser's own error): ${msg}`);
          if (!c.message.test(out.message)) bad.push(`${c.id}: message ${JSON.stringify(msg.slice(0, 200))} does not match ${c.message}`);
          if (/call stack|out of memory|allocation failed|is not a function|undefined|\[object /i.test(msg))
            bad.push(`${c.id}: an internal error shown as the message: ${msg.slice(0, 200)}`);
          if (msg.trim() === '' || msg.length > 600) bad.push(`${c.id}: message empty or too long (${msg.length} characters)`);
        }
      }
      if (/bomb|lies-high/.test(c.id) && decodes > 0) bad.push(`${c.id}: ${decodes} images decoded before the bomb was refused`);
    }
    console.log(`broken-upload drill (parsers): ${corpus.length} files, slowest ${maxMs.toFixed(0)} ms\n${lines.join('\n')}`);
    expect(bad).toEqual([]);
  }, 600_000);

  it('refuses the zip bombs from their headers, naming the bound', async () => {
    for (const id of ['zip-bomb-one-entry', 'zip-bomb-overlapping', 'zip-size-lies-high', 'zip-decoded-bomb']) {
      const c = corpus.find((x) => x.id === id)!;
      const out = await run(c);
      expect(out.ok).toBe(false);
      if (!out.ok) {
        expect(out.kind).toBe('DataFormatError');
        expect(out.message).toMatch(/at most 1 000 000 000 bytes/);
      }
    }
  });

  it('a zip whose end record claims 2^32 − 1 entries (zip64) is refused, not walked', async () => {
    const c = corpus.find((x) => x.id === 'zip64-count-lies')!;
    const out = await run(c);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.message).toMatch(/says it has 4 294 967 295 entries, but its central directory has room for at most 2$/);
  });

  it('DataFormatError and SimilarityError are what the page shows (sanity: the classes exist)', () => {
    expect(new DataFormatError('x').name).toBe('DataFormatError');
    expect(new SimilarityError('x').name).toBe('SimilarityError');
  });
});

describe('regressions found by the drill', () => {
  it('a zip of 150 000 images is listed (the wrapper-folder depth is not Math.min(...150 000 arguments), which overflowed the stack past ~130 000 in Node 20)', () => {
    const png = solidPng(2, 2);
    const zip = rawZip(
      [
        { name: 'w/a/0.png', data: png, method: 0, size: png.length },
        ...Array.from({ length: 149_999 }, (_, i) => ({
          name: `w/${i % 2 ? 'a' : 'b'}/${i + 1}.png`,
          data: png,
          method: 0 as const,
          size: png.length,
          sameDataAs: 0,
        })),
      ],
      { zip64Count: 150_000 },
    );
    const l = listImageFolderZip(zip);
    expect(l.classNames).toEqual(['a', 'b']);
    expect(l.entries.length).toBe(150_000);
  });

  it('the declared inflated size is checked before inflating: just above the bound is refused, at the bound is not (ZIP_LIMITS)', () => {
    const png = solidPng(2, 2);
    const at = (declared: number) =>
      rawZip([
        { name: 'a/1.png', data: png, method: 0, size: png.length },
        { name: 'b/1.png', data: zeroBomb(1).data, method: 8, size: declared - png.length },
      ]);
    expect(() => listImageFolderZip(at(ZIP_LIMITS.inflatedBytes + 1))).toThrow(/inflate to 1 000 000 001 bytes .*at most 1 000 000 000 bytes/);
    // at the bound the zip is inflated (here into a 1 GB buffer of its declared size, then found not to be an image)
    expect(ZIP_LIMITS.inflatedBytes).toBe(1_000_000_000);
  });

  it('the decoded size is checked from the entry count before any image is inflated or decoded', async () => {
    const png = solidPng(2, 2);
    const n = Math.floor(ZIP_LIMITS.decodedBytes / (64 * 64 * 3)) + 1;
    const zip = rawZip(
      [
        { name: 'a/0.png', data: png, method: 0, size: png.length },
        ...Array.from({ length: n - 1 }, (_, i) => ({
          name: `${i % 2 ? 'a' : 'b'}/${i + 1}.png`,
          data: png,
          method: 0 as const,
          size: png.length,
          sameDataAs: 0,
        })),
      ],
      { zip64Count: n },
    );
    let calls = 0;
    await expect(parseUserFiles([{ name: 'z.zip', bytes: zip }], { decodeImage: (b) => (calls++, decodePng(b)), imageSize: [64, 64] })).rejects.toThrow(
      `z.zip: ${n.toLocaleString('en-US').replace(/,/g, ' ')} images of 12 288 bytes each (decoded and resized) need`,
    );
    expect(calls).toBe(0);
  });

  it('an end record claiming more entries than its central directory holds is refused (65 535 in a 2-entry zip)', () => {
    const png = solidPng(2, 2);
    const two = [
      { name: 'a/1.png', data: png, method: 0 as const, size: png.length },
      { name: 'b/1.png', data: png, method: 0 as const, size: png.length },
    ];
    expect(() => listImageFolderZip(rawZip(two, { count: 65_535 }))).toThrow(
      /end record says it has 65 535 entries, but its central directory has room for at most 2$/,
    );
    expect(listImageFolderZip(rawZip(two)).entries.length).toBe(2);
  });
});

describe('regressions found by the drill: results import', () => {
  it('a CSV header of 10^6 columns is named by its first 12 and its count, not all of them (the message was 8.9 MB)', () => {
    const header = Array.from({ length: 1000 }, (_, i) => `c${i}`).join(',');
    const r = importResults(`${header}\n${Array(1000).fill('1').join(',')}\n`, 'wide.csv', { classNames: ['0', '1'], taskSizes: [1, 1] });
    expect(r.error).toBe(
      'Nothing to import: the header (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, … 1000 columns in all) lacks an order column ("order" or "tasks") and an accuracy column ("final_accuracy"); expected columns: method, order, final_accuracy [, aia] [, seed] [, matrix].',
    );
  });

  it('a JSON run whose order is a list nested 10^5 deep is a reason, not a stack overflow', () => {
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    for (const order of [deep, `[${deep}]`, `[[1], ${deep}]`]) {
      const r = importResults(`[{"method":"x","acc":0.5,"order":${order}}]`, 'deep.json', { classNames: ['0', '1'], taskSizes: [1, 1] });
      expect(r.error).toMatch(/^Nothing to import: the order .{0,60} is neither a list of classes nor a list of task lists\.$/);
    }
  });
});
