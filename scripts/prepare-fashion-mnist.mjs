#!/usr/bin/env node
// Prepares the built-in Fashion-MNIST dataset in public/data/fashion-mnist/ (format "cil-lab/dataset" v1, see the
// header of src/data/format.ts) from Debian's package dataset-fashion-mnist: `apt-get download` fetches the .deb
// into node_modules/.cache/cil-lab/debs/ (no root needed; only a stale package list needs `apt-get update`), and
// `dpkg -x` unpacks it into node_modules/.cache/cil-lab/unpacked/dataset-fashion-mnist/. We read the four gzipped
// IDX files under usr/share/datasets/fashion-mnist/ and keep the full original split: 60,000 train and 10,000 test
// images, 28×28 grey, bytes unchanged (≈ 55 MB uncompressed on disk, fine for a local static file).
//
// Idempotent: skips when public/data/fashion-mnist/meta.json was built by this same script (build key = hash of
// the script) and every file has the size meta.json says; `--force` rebuilds. Prints one line saying what it did.
//
// The helpers exported below (apt download + unpack, build keys, the dataset writer) are shared by
// prepare-digits.mjs and prepare-emoji.mjs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'cil-lab');
export const DATA_DIR = join(ROOT, 'public', 'data');
export const FORMAT = 'cil-lab/dataset';
export const FORMAT_VERSION = 1;

const ID = 'fashion-mnist';
const PKG = 'dataset-fashion-mnist';
const SRC_REL = 'usr/share/datasets/fashion-mnist';
// Same order as FASHION_MNIST in src/core/classes/builtin.ts (the dataset's label order).
const CLASSES = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot'];

export const hasFlag = (name) => process.argv.slice(2).includes(name);

export function say(id, msg) {
  console.log(`[prepare-${id}] ${msg}`);
}

export function mb(bytes) {
  return `${(bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1)} MB`;
}

/** A short content hash of files and strings: the build key that decides whether a dataset is up to date. */
export function buildKey(files, extra = []) {
  const h = createHash('sha256');
  h.update(`${FORMAT} v${FORMAT_VERSION}\n`);
  for (const f of files) h.update(relative(ROOT, f) + '\n').update(readFileSync(f));
  for (const e of extra) h.update(String(e) + '\n');
  return h.digest('hex').slice(0, 24);
}

/**
 * The dataset's meta.json when the data on disk is complete and was built with `key`; otherwise null.
 * Cheap: reads meta.json and stats the binary files (their sizes must match the counts).
 */
export function upToDateMeta(id, key) {
  const dir = join(DATA_DIR, id);
  const metaPath = join(dir, 'meta.json');
  if (!existsSync(metaPath)) return null;
  let meta;
  try {
    meta = JSON.parse(readFileSync(metaPath, 'utf8'));
  } catch {
    return null;
  }
  if (meta.format !== FORMAT || meta.version !== FORMAT_VERSION || meta?.build?.key !== key) return null;
  const imageSize = meta.shape[0] * meta.shape[1] * meta.shape[2];
  for (const s of ['train', 'test']) {
    const m = meta[s];
    const want = [
      [m.images, m.count * imageSize],
      [m.labels, m.count],
    ];
    if (m.styles) want.push([m.styles, m.count]);
    for (const [f, size] of want) {
      const p = join(dir, f);
      if (!existsSync(p) || statSync(p).size !== size) return null;
    }
  }
  return meta;
}

/** Size on disk of a prepared dataset directory. */
export function dirBytes(id) {
  const dir = join(DATA_DIR, id);
  return readdirSync(dir).reduce((a, f) => a + statSync(join(dir, f)).size, 0);
}

/** Images per class. */
export function perClass(labels, nClasses) {
  const out = new Array(nClasses).fill(0);
  for (const y of labels) out[y]++;
  return out;
}

/**
 * Write public/data/<id>/ atomically: into a temporary sibling directory, then swap it in, so an interrupted
 * run never leaves a half-written dataset that looks complete. `files` maps file name → Uint8Array.
 */
export function writeDataset(id, meta, files) {
  mkdirSync(DATA_DIR, { recursive: true });
  const dir = join(DATA_DIR, id);
  const tmp = join(DATA_DIR, `.${id}.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(tmp, name), bytes);
  writeFileSync(join(tmp, 'meta.json'), JSON.stringify(meta, null, 1) + '\n');
  const old = join(DATA_DIR, `.${id}.old-${process.pid}`);
  if (existsSync(dir)) renameSync(dir, old);
  renameSync(tmp, dir);
  rmSync(old, { recursive: true, force: true });
}

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

function errText(e) {
  return `${e.stderr || ''}${e.stdout || ''}`.trim().split('\n').slice(-3).join(' | ') || e.message;
}

/**
 * Fetch a Debian package's .deb with `apt-get download` (cached in node_modules/.cache/cil-lab/debs/) and unpack it
 * with `dpkg -x` (cached in …/unpacked/<pkg>/). Returns { dir, version, how }. No root needed: only when the
 * package lists are stale does `apt-get update` run (as root), or the error says to run it.
 */
export function aptUnpack(pkg) {
  const debDir = join(CACHE_DIR, 'debs');
  const outDir = join(CACHE_DIR, 'unpacked', pkg);
  const stamp = join(outDir, '.unpacked-from');
  mkdirSync(debDir, { recursive: true });
  const findDeb = () => readdirSync(debDir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  let deb = findDeb();
  let how = 'cached .deb';
  if (!deb) {
    const download = () => run('apt-get', ['download', pkg], { cwd: debDir });
    try {
      download();
    } catch (e) {
      if (e.code === 'ENOENT') throw new Error(`apt-get is not available: preparing ${pkg} needs a Debian-based system (apt-get, dpkg)`);
      const first = errText(e);
      if (typeof process.getuid === 'function' && process.getuid() === 0) {
        try {
          run('apt-get', ['update', '-qq']);
          download();
        } catch (e2) {
          throw new Error(`apt-get download ${pkg} failed even after apt-get update: ${errText(e2)}`);
        }
      } else {
        throw new Error(`apt-get download ${pkg} failed (${first}). The package lists are probably stale: run "sudo apt-get update", then run this again.`);
      }
    }
    deb = findDeb();
    if (!deb) throw new Error(`apt-get download ${pkg} reported success but no ${pkg}_*.deb is in ${debDir}`);
    how = 'downloaded .deb';
  }
  const debPath = join(debDir, deb);
  const version = run('dpkg-deb', ['-f', debPath, 'Version']).trim();
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== deb) {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    run('dpkg', ['-x', debPath, outDir]);
    writeFileSync(stamp, deb);
    how += ', unpacked';
  }
  return { dir: outDir, version, how };
}

/** Parse a (gzipped or raw) IDX file: { dims, data } with data a Uint8Array view. */
export function readIdx(bytes, file) {
  const b = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  if (b.length < 4 || b[0] !== 0 || b[1] !== 0 || b[2] !== 0x08) {
    throw new Error(`${file}: bad magic number (expected 0x0000080N for unsigned-byte IDX data)`);
  }
  const nd = b[3];
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const dims = [];
  for (let i = 0; i < nd; i++) dims.push(view.getUint32(4 + 4 * i, false));
  const start = 4 + 4 * nd;
  const size = dims.reduce((a, d) => a * d, 1);
  if (b.length - start !== size) throw new Error(`${file}: ${b.length - start} data bytes, header says ${dims.join('×')} = ${size}`);
  return { dims, data: new Uint8Array(b.buffer, b.byteOffset + start, size) };
}

/** Where the Fashion-MNIST IDX files are once unpacked (used by scripts/make-dataset-fixtures.py too). */
export const FASHION_FILES = {
  train: ['train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz'],
  test: ['t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz'],
};

function main() {
  const t0 = performance.now();
  const script = fileURLToPath(import.meta.url);
  const key = buildKey([script]);
  const force = hasFlag('--force');
  const existing = force ? null : upToDateMeta(ID, key);
  if (existing) {
    say(ID, `up to date (public/data/${ID}: ${existing.train.count} train / ${existing.test.count} test, ${mb(dirBytes(ID))})`);
    return;
  }
  const { dir, version, how } = aptUnpack(PKG);
  const src = join(dir, SRC_REL);
  const files = {};
  const meta = { train: null, test: null };
  for (const split of ['train', 'test']) {
    const [imgFile, lblFile] = FASHION_FILES[split];
    const img = readIdx(readFileSync(join(src, imgFile)), imgFile);
    const lbl = readIdx(readFileSync(join(src, lblFile)), lblFile);
    if (img.dims.length !== 3 || img.dims[1] !== 28 || img.dims[2] !== 28) throw new Error(`${imgFile}: expected N×28×28, got ${img.dims.join('×')}`);
    if (lbl.dims.length !== 1 || lbl.dims[0] !== img.dims[0]) throw new Error(`${lblFile}: ${lbl.dims[0]} labels for ${img.dims[0]} images`);
    for (const y of lbl.data) if (y >= CLASSES.length) throw new Error(`${lblFile}: label ${y} out of range`);
    files[`${split}-images.u8`] = img.data;
    files[`${split}-labels.u8`] = lbl.data;
    meta[split] = {
      count: img.dims[0],
      images: `${split}-images.u8`,
      labels: `${split}-labels.u8`,
      perClass: perClass(lbl.data, CLASSES.length),
    };
  }
  const seconds = Number(((performance.now() - t0) / 1000).toFixed(2));
  writeDataset(
    ID,
    {
      format: FORMAT,
      version: FORMAT_VERSION,
      id: ID,
      name: 'Fashion-MNIST',
      classListId: 'fashion-mnist',
      classes: CLASSES,
      classInfo: CLASSES.map((name, i) => ({ name, classListIndex: i })),
      shape: [28, 28, 1],
      train: meta.train,
      test: meta.test,
      split: { method: 'original', description: 'the original Fashion-MNIST split: train-* (60,000) and t10k-* (10,000) IDX files' },
      sources: [
        {
          name: 'Fashion-MNIST (Zalando Research; Xiao, Rasul & Vollgraf 2017)',
          package: `deb:${PKG}`,
          version,
          license: 'MIT',
          url: 'https://github.com/zalandoresearch/fashion-mnist',
          note: `IDX files from /${SRC_REL}/ of the Debian package; pixel bytes unchanged`,
        },
      ],
      build: { key, script: 'scripts/prepare-fashion-mnist.mjs', seconds },
    },
    files,
  );
  say(
    ID,
    `built public/data/${ID} from ${PKG} ${version} (${how}) in ${seconds}s: ${meta.train.count} train / ${meta.test.count} test, 28×28×1, ${mb(dirBytes(ID))}`,
  );
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  try {
    main();
  } catch (e) {
    console.error(`[prepare-${ID}] FAILED: ${e.message}`);
    process.exit(1);
  }
}
