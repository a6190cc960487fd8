/**
 * Drill: the hostile inputs of the surfaces added last (tests/unit/drills/hostile-files.ts makes them, in
 * milliseconds), through the code the app and the CLI share:
 * - PNG bombs (a 1×1 header over 1.5 GB of zeros) through the PNG decoder and a samples zip;
 * - .npz files declaring 800 MB (honest, at the values bound) whose small members are wrong, and zips whose directory
 *   lies about a member's size, through the feature-file reader and the image-folder lister;
 * - the Your-classes samples zip written and read back for 1 to the lab's most classes.
 * Each must end in its parser's one-sentence error (or read back exactly), quickly and without holding the bomb's
 * bytes. `npm test` runs this fast form; `npm run drills` (DRILLS=1) adds the long form: the honest 800 MB and 400 MB
 * files read whole, and every CLI repro run in its own process under /usr/bin/time, its wall time and peak memory
 * printed. Prints one summary line starting "surface drill".
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OWN_LIMITS } from '../../../src/core/labs/own-classes/section';
import { FeatureSetError } from '../../../src/core/features/feature-set';
import { readFeaturesNpz } from '../../../src/data/features/npz';
import { readSamplesZip, writeSamplesZip } from '../../../src/data/own-samples-zip';
import { DataFormatError, listImageFolderZip } from '../../../src/data/parsers';
import { decodePng } from '../../../src/data/parsers/png';
import { solidPng } from './broken-upload-corpus';
import { honestNpz, lyingImageZip, lyingNpz, pngOverZeros } from './hostile-files';

const LONG = Boolean(process.env.DRILLS);
const tmp = mkdtempSync(join(tmpdir(), 'cil-surface-drill-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const heldMb = () => {
  const m = process.memoryUsage();
  return Math.round((m.heapUsed + m.arrayBuffers) / 1e6);
};

interface Case {
  id: string;
  what: string;
  make: () => Uint8Array;
  /** reads the bytes as the app and the CLI do; throws its parser's error */
  read: (b: Uint8Array) => unknown;
  /** the one sentence expected; absent: it must read */
  message?: RegExp;
  errorName?: string;
}

const png = (k: number) => solidPng(8, 8, [30 * k, 200 - 20 * k, 90]);
const samplesWithBomb = () =>
  writeSamplesZip([
    { name: 'a', train: [png(1), png(2)], test: [png(3)] },
    { name: 'b', train: [pngOverZeros(1_500_000_000), png(4)], test: [png(5)] },
  ]);
/** A samples zip read as the CLI reads it: listed, then every PNG decoded. */
const decodeAll = (b: Uint8Array) => readSamplesZip(b, 'bomb.zip').flatMap((c) => [...c.train, ...c.test].map((x) => decodePng(x)));

const CASES: Case[] = [
  {
    id: 'png-bomb',
    what: 'a 1×1 PNG whose image data inflates to 1.5 GB',
    make: () => pngOverZeros(1_500_000_000),
    read: (b) => decodePng(b, 'bomb.png'),
    message: /inflates to more than the 4 bytes its 1×1 header promises/,
    errorName: 'DataFormatError',
  },
  {
    id: 'samples-zip-png-bomb',
    what: 'a samples zip holding the PNG bomb',
    make: samplesWithBomb,
    read: decodeAll,
    message: /inflates to more than the 4 bytes its 1×1 header promises/,
    errorName: 'DataFormatError',
  },
  {
    id: 'image-zip-lying-directory',
    what: 'an image zip whose directory says 1 000 bytes for 1.5 GB',
    make: () => lyingImageZip(1000, 1_500_000_000),
    read: (b) => listImageFolderZip(b, { fileName: 'lie.zip' }),
    message: /inflates to more than the 1,000 bytes its directory declares/,
    errorName: 'DataFormatError',
  },
  ...(['label', 'split', 'labels-short', 'names-duplicate'] as const).map((bad): Case => ({
    id: `npz-800mb-bad-${bad}`,
    what: `10 000 × 10 000 float64 (800 MB declared), its ${bad === 'names-duplicate' ? 'class names' : bad.replace('-short', '')} wrong`,
    make: () => honestNpz(10_000, 10_000, { bad }),
    read: (b) => readFeaturesNpz(b, 'f.npz'),
    message: { label: /Row 9999 has label 15/, split: /Row 3 has split 7/, 'labels-short': /"labels" has shape \(9999,\)/, 'names-duplicate': /appears twice/ }[
      bad
    ],
    errorName: 'FeatureSetError',
  })),
  {
    id: 'npz-800mb-small-members-last',
    what: 'the same with the small members after the features (a label wrong)',
    make: () => honestNpz(10_000, 10_000, { bad: 'label', featuresLast: true }),
    read: (b) => readFeaturesNpz(b, 'f.npz'),
    message: /Row 9999 has label 15/,
    errorName: 'FeatureSetError',
  },
  {
    id: 'npz-lying-directory',
    what: 'features declared 8 MB by the directory, 800 MB by the stream',
    make: () => lyingNpz(),
    read: (b) => readFeaturesNpz(b, 'lying.npz'),
    message: /inflates to more than the 8,000,000 bytes its directory declares|features\.npy is truncated/,
    errorName: 'FeatureSetError',
  },
  {
    id: 'npz-lying-directory-exact',
    what: 'features declared at its header’s 8 MB, the stream going on to 800 MB',
    // the directory says what the array's header needs, the stream holds 10 times more: stopped at the declared size
    make: () => lyingNpz(10_000 * 100 * 8 + 128, 10_000, 100, 800_000_000),
    read: (b) => readFeaturesNpz(b, 'lying.npz'),
    message: /^lying\.npz cannot be read: zip member "features\.npy" inflates to more than the 8,000,128 bytes its directory declares/,
    errorName: 'FeatureSetError',
  },
];

describe('drill: hostile inputs of the new surfaces', () => {
  it(`refuses each of the ${CASES.length} files in one sentence, quickly, without holding its bytes`, () => {
    const lines: string[] = [];
    const bad: string[] = [];
    for (const c of CASES) {
      const bytes = c.make();
      const before = heldMb();
      const t0 = performance.now();
      let outcome: string;
      try {
        c.read(bytes);
        outcome = 'read';
        if (c.message) bad.push(`${c.id}: read, but should have been refused`);
      } catch (e) {
        const err = e as Error;
        outcome = `${err.name}: ${err.message}`;
        if (!c.message) bad.push(`${c.id}: refused: ${outcome}`);
        else {
          if (!c.message.test(err.message)) bad.push(`${c.id}: ${JSON.stringify(err.message)} does not match ${c.message}`);
          if (c.errorName && err.name !== c.errorName) bad.push(`${c.id}: ${err.name}, not ${c.errorName}`);
        }
      }
      const ms = performance.now() - t0;
      const grew = heldMb() - before;
      // a refusal from the headers holds at most a slice's worth past the bound, never the bomb
      if (grew > 300) bad.push(`${c.id}: ${grew} MB held after reading`);
      lines.push(
        `  ${c.id.padEnd(30)} ${String(bytes.length).padStart(9)} B ${ms.toFixed(0).padStart(6)} ms ${String(grew).padStart(5)} MB  ${outcome.slice(0, 130)}`,
      );
    }
    console.log(`surface drill (parsers): ${CASES.length} hostile files\n${lines.join('\n')}`);
    expect(bad).toEqual([]);
  }, 300_000);

  it(`the Your-classes samples zip reads back what it wrote, for 1 to ${OWN_LIMITS.classes} classes`, () => {
    const lines: string[] = [];
    // each image encoded once (the 1 + 2 + … + 128 classes hold 33 024 of them), a fresh copy in each zip's classes
    const pngs = new Map<number, Uint8Array>();
    const image = (k: number) => (pngs.get(k) ?? pngs.set(k, png(k)).get(k)!).slice();
    for (let k = 1; k <= OWN_LIMITS.classes; k++) {
      const classes = Array.from({ length: k }, (_, c) => ({
        name: c === 0 ? 'train' : `thing ${c}`, // a class named like a split folder is still a class
        train: Array.from({ length: 3 }, (_, i) => image(c + i)),
        test: [image(c + 7)],
      }));
      const zip = writeSamplesZip(classes);
      expect(readSamplesZip(zip, `${k}.zip`), `${k} classes`).toEqual(classes);
      lines.push(`${k}: ${zip.length} B`);
    }
    console.log(`surface drill (samples zip round trip): 1–${OWN_LIMITS.classes} classes read back exactly (${lines.join(', ')})`);
  }, 120_000);

  it('the error classes are the ones the page and the CLI show', () => {
    expect(new DataFormatError('x').name).toBe('DataFormatError');
    expect(new FeatureSetError('x').name).toBe('FeatureSetError');
  });
});

/** /usr/bin/time -v's figures of one CLI command in its own process. */
function timed(argv: string[]): { code: number; seconds: number; peakMb: number; line: string } {
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, 'bin/cil-lab.mjs', ...argv], { encoding: 'utf8', timeout: 300_000, maxBuffer: 1 << 26 });
  const err = r.stderr ?? '';
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(err);
  const seconds = wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : NaN;
  const peakMb = Math.round(Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1] ?? NaN) / 1024);
  const code = Number(/Exit status: (\d+)/.exec(err)?.[1] ?? r.status ?? -1);
  const line = err.split('\n').find((l) => l.startsWith('cil-lab: ')) ?? (r.stdout ?? '').slice(0, 100);
  return { code, seconds, peakMb, line };
}

describe.runIf(LONG)('drill, long form: the honest files read whole, and the CLI repros under /usr/bin/time', () => {
  it('reads an honest 800 MB float64 and a 400 MB float32 feature file whole', () => {
    const lines: string[] = [];
    for (const [id, make] of [
      ['honest 10 000 × 10 000 float64', () => honestNpz(10_000, 10_000)],
      ['honest 100 000 × 1 000 float32', () => honestNpz(100_000, 1_000, { dtype: 'f4' })],
    ] as const) {
      const bytes = make();
      const t0 = performance.now();
      const set = readFeaturesNpz(bytes, 'f.npz');
      const ms = performance.now() - t0;
      expect(set.features.length).toBe(100_000_000);
      lines.push(`  ${id}: ${bytes.length} B file, read in ${ms.toFixed(0)} ms, ${heldMb()} MB held (the set: 400 MB)`);
    }
    console.log(`surface drill (honest files at the values bound):\n${lines.join('\n')}`);
  }, 600_000);

  it('runs every CLI repro in its own process: exit 2 with one line, or a run', () => {
    if (!existsSync('/usr/bin/time')) return;
    const file = (name: string, bytes: Uint8Array) => {
      const p = join(tmp, name);
      writeFileSync(p, bytes);
      return p;
    };
    const enc = 'tests/fixtures/clip-vision-tiny';
    const bomb = file('bomb.zip', samplesWithBomb());
    const honest = file('honest800.npz', honestNpz(10_000, 10_000));
    const badLabel = file('bad-label.npz', honestNpz(10_000, 10_000, { bad: 'label' }));
    const lying = file('lying.npz', lyingNpz());
    const repros: [string, string[], number][] = [
      ['PNG bomb in --samples', ['own-classes', '--samples', bomb, '--encoder', enc], 2],
      ['honest 800 MB .npz, simplecil', ['run', '--features', honest, '--classes', '0-1', '--tasks', '2', '--strategy', 'simplecil'], 0],
      ['800 MB .npz, a label wrong', ['run', '--features', badLabel, '--tasks', '2', '--strategy', 'simplecil'], 2],
      ['800 MB .npz, lying directory', ['run', '--features', lying, '--tasks', '2', '--strategy', 'simplecil'], 2],
    ];
    const lines: string[] = [];
    const bad: string[] = [];
    for (const [what, argv, want] of repros) {
      const r = timed(argv);
      if (r.code !== want) bad.push(`${what}: exit ${r.code}, want ${want} (${r.line})`);
      lines.push(
        `  ${what.padEnd(32)} exit ${r.code}  ${r.seconds.toFixed(1).padStart(6)} s  ${String(r.peakMb).padStart(5)} MB peak  ${r.line.slice(0, 110)}`,
      );
    }
    console.log(`surface drill (CLI repros, one process each; a shared machine):\n${lines.join('\n')}`);
    expect(bad).toEqual([]);
  }, 900_000);
});
