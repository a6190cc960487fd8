#!/usr/bin/env node
// Prepares the built-in "Emoji objects" dataset in public/data/emoji/ (format "cil-lab/dataset" v1, see
// src/data/format.ts): the concepts of EMOJI in src/core/classes/builtin.ts, each drawn by several artists, taken
// from permissively licensed npm icon sets (Iconify JSON packages, SVG bodies keyed by name, with a chars.json
// code point → name map), rasterised with @resvg/resvg-js to 32×32 RGB on a white background.
//
// Styles (one per artist's set; the split is by style, so test images come from artists never trained on):
//   train  noto          Google Noto Color Emoji             @iconify-json/noto           Apache-2.0
//   train  noto-v1       Google Noto Emoji, 2016–17 design    @iconify-json/noto-v1        Apache-2.0
//   train  fluent-flat   Microsoft Fluent Emoji Flat          @iconify-json/fluent-emoji-flat  MIT
//   train  fluent-color  Microsoft Fluent Emoji (Color)       @iconify-json/fluent-emoji   MIT
//   train  openmoji      OpenMoji                             @iconify-json/openmoji       CC-BY-SA-4.0
//   test   twemoji       Twitter Twemoji                      @iconify-json/twemoji        CC-BY-4.0
//   test   emojione      EmojiOne 2 (colored)                 @iconify-json/emojione       CC-BY-4.0
// Not used: Apple and Facebook art (their licences forbid it); emoji-datasource-google/-twitter (the same Noto
// and Twemoji art as above, as PNGs); fxemoji and streamline-emojis (not keyed by code point).
//
// A class is kept when it has renderings by at least 5 different artists (Noto and Noto v1 are one artist, Google;
// Fluent Flat and Fluent Color are one, Microsoft) including both test styles; the others are dropped and listed
// (in the output line and in meta.json "dropped"). Names for the sets whose chars.json is empty (noto-v1,
// fluent-color, emojione) are the CLDR-style names the other sets give that code point, refusing a name that the old
// set aliases to another code point's icon (its "cricket" is the cricket game, not the insect). A rendering that
// crashes resvg (4 noto-v1 icons with clipped shapes far off their canvas) is left out and listed (meta.json
// "failedRenderings"); rendering runs in a child process for that reason.
//
// Rasterising: each SVG is rendered at 256 px (transparent), cropped to the art's alpha bounding box, made square
// around its centre with a 1/32 margin each side (so every artist's drawing fills the frame the same way), composited
// on white (resvg gives premultiplied RGBA: v = p + 255 − a) and area-averaged down to 32×32.
//
// Idempotent: the build key hashes this script, the shared helpers, builtin.ts with its class rows and the package versions;
// `--force` rebuilds. Prints one line saying what it did.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT, FORMAT, FORMAT_VERSION, buildKey, dirBytes, hasFlag, mb, perClass, say, upToDateMeta, writeDataset } from './prepare-fashion-mnist.mjs';

const ID = 'emoji';
const SIZE = 32;
const RENDER = 256;
const MIN_ARTISTS = 5;
const BUILTIN_TS = join(ROOT, 'src', 'core', 'classes', 'builtin.ts');
const BUILTIN_JSON = join(ROOT, 'src', 'core', 'classes', 'builtin-classes.json');
const require = createRequire(join(ROOT, 'package.json'));

export const STYLES = [
  { id: 'noto', name: 'Google Noto Color Emoji', artist: 'Google', pkg: '@iconify-json/noto', split: 'train' },
  { id: 'noto-v1', name: 'Google Noto Emoji v1 (2016–17 design)', artist: 'Google', pkg: '@iconify-json/noto-v1', split: 'train' },
  { id: 'fluent-flat', name: 'Microsoft Fluent Emoji Flat', artist: 'Microsoft', pkg: '@iconify-json/fluent-emoji-flat', split: 'train' },
  { id: 'fluent-color', name: 'Microsoft Fluent Emoji (Color)', artist: 'Microsoft', pkg: '@iconify-json/fluent-emoji', split: 'train' },
  { id: 'openmoji', name: 'OpenMoji', artist: 'OpenMoji (HfG Schwäbisch Gmünd)', pkg: '@iconify-json/openmoji', split: 'train' },
  { id: 'twemoji', name: 'Twitter Twemoji', artist: 'Twitter', pkg: '@iconify-json/twemoji', split: 'test' },
  { id: 'emojione', name: 'EmojiOne 2 (colored)', artist: 'Emoji One', pkg: '@iconify-json/emojione', split: 'test' },
];
/** Licences we accept for pixels we redistribute (CC-BY-SA: adaptations stay CC-BY-SA; attribution kept). */
const ALLOWED_LICENSES = new Set(['MIT', 'Apache-2.0', 'CC-BY-4.0', 'CC-BY-SA-4.0']);
/** Sets whose chars.json (code point → icon name) we trust to name the others. */
const NAMING_SETS = ['noto', 'twemoji', 'fluent-flat', 'openmoji'];

function pkgJson(pkg) {
  return JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8'));
}

function loadSet(style) {
  const dir = join(require.resolve(`${style.pkg}/package.json`), '..');
  const icons = JSON.parse(readFileSync(join(dir, 'icons.json'), 'utf8'));
  const info = JSON.parse(readFileSync(join(dir, 'info.json'), 'utf8'));
  let chars = null;
  try {
    chars = JSON.parse(readFileSync(join(dir, 'chars.json'), 'utf8'));
    if (Object.keys(chars).length === 0) chars = null;
  } catch {
    chars = null;
  }
  const version = pkgJson(style.pkg).version;
  const license = info.license?.spdx;
  if (!ALLOWED_LICENSES.has(license)) throw new Error(`${style.pkg} ${version}: licence "${license}" is not one we accept`);
  return { ...style, icons, chars, version, license, licenseUrl: info.license?.url, authorUrl: info.author?.url };
}

/** Resolve an Iconify icon (following aliases) to an SVG document string, or null when the set lacks it. */
function iconSvg(set, name) {
  let props = {};
  let hFlip = false;
  let vFlip = false;
  let rotate = 0;
  let n = name;
  for (let depth = 0; depth < 8; depth++) {
    const icon = set.icons.icons[n];
    if (icon) {
      props = { ...icon, ...props };
      break;
    }
    const alias = set.icons.aliases?.[n];
    if (!alias) return null;
    const { parent, hFlip: h, vFlip: v, rotate: r, ...rest } = alias;
    props = { ...rest, ...props };
    if (h) hFlip = !hFlip;
    if (v) vFlip = !vFlip;
    if (r) rotate += r;
    n = parent;
  }
  if (!props.body) return null;
  if (props.hFlip) hFlip = !hFlip;
  if (props.vFlip) vFlip = !vFlip;
  if (props.rotate) rotate += props.rotate;
  const left = props.left ?? set.icons.left ?? 0;
  const top = props.top ?? set.icons.top ?? 0;
  const width = props.width ?? set.icons.width ?? 16;
  const height = props.height ?? set.icons.height ?? 16;
  const tf = [];
  const cx = left + width / 2;
  const cy = top + height / 2;
  if (rotate % 4) tf.push(`rotate(${(rotate % 4) * 90} ${cx} ${cy})`);
  if (hFlip || vFlip) tf.push(`translate(${hFlip ? 2 * cx : 0} ${vFlip ? 2 * cy : 0}) scale(${hFlip ? -1 : 1} ${vFlip ? -1 : 1})`);
  const body = tf.length ? `<g transform="${tf.join(' ')}">${props.body}</g>` : props.body;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
    `viewBox="${left} ${top} ${width} ${height}" width="${width}" height="${height}">${body}</svg>`
  );
}

const has = (set, name) => Boolean(set.icons.icons[name] || set.icons.aliases?.[name]);

/** The final icon an Iconify name resolves to (aliases followed), or null. */
function resolveName(set, name) {
  let n = name;
  for (let depth = 0; depth < 8; depth++) {
    if (set.icons.icons[n]) return n;
    const alias = set.icons.aliases?.[n];
    if (!alias) return null;
    n = alias.parent;
  }
  return null;
}

/**
 * The icon name a set uses for a code point, or null. Sets with a chars.json say it directly. For the others we
 * try the names the naming sets give the code point, and refuse a name that resolves (through the old set's
 * aliases) to an icon that the naming sets give to a *different* code point: noto-v1 and emojione predate the
 * insect 🦗 and alias "cricket" to the cricket game 🏏 ("cricket-game").
 */
function iconName(set, codepoint, candidates, nameToCp) {
  const cp = codepoint.toLowerCase();
  if (set.chars) {
    const n = set.chars[cp] ?? set.chars[`${cp}-fe0f`];
    return n && has(set, n) ? n : null;
  }
  const base = (c) => c.replace(/-fe0f$/, '');
  for (const c of candidates) {
    const target = resolveName(set, c);
    if (!target) continue;
    const owner = nameToCp.get(target);
    if (owner !== undefined && base(owner) !== cp) continue;
    return c;
  }
  return null;
}

/** Area-average resampling weights: output index → [source index, weight][] for src range [x0, x0+side). */
function boxWeights(x0, side, out) {
  const s = side / out;
  const w = [];
  for (let o = 0; o < out; o++) {
    const a = x0 + o * s;
    const b = a + s;
    const list = [];
    for (let i = Math.floor(a); i < Math.ceil(b); i++) {
      const ov = Math.min(b, i + 1) - Math.max(a, i);
      if (ov > 1e-9) list.push([i, ov / s]);
    }
    w.push(list);
  }
  return w;
}

/** Render one SVG to SIZE×SIZE RGB on white, the art cropped to its bounding box (see the header). */
function rasterise(Resvg, svg) {
  const img = new Resvg(svg, { fitTo: { mode: 'width', value: RENDER }, font: { loadSystemFonts: false } }).render();
  const { width: W, height: H } = img;
  const px = img.pixels; // premultiplied RGBA
  let x0 = W;
  let y0 = H;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (px[(y * W + x) * 4 + 3] > 8) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  if (x1 < 0) return null; // nothing drawn: the caller reports it
  const side = (Math.max(x1 - x0 + 1, y1 - y0 + 1) * SIZE) / (SIZE - 2);
  const cx = (x0 + x1 + 1) / 2;
  const cy = (y0 + y1 + 1) / 2;
  const wx = boxWeights(cx - side / 2, side, SIZE);
  const wy = boxWeights(cy - side / 2, side, SIZE);
  const out = new Uint8Array(SIZE * SIZE * 3);
  for (let oy = 0; oy < SIZE; oy++) {
    for (let ox = 0; ox < SIZE; ox++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [sy, fy] of wy[oy]) {
        for (const [sx, fx] of wx[ox]) {
          const f = fx * fy;
          if (sx < 0 || sy < 0 || sx >= W || sy >= H) {
            r += 255 * f;
            g += 255 * f;
            b += 255 * f;
            continue;
          }
          const k = (sy * W + sx) * 4;
          const bg = 255 - px[k + 3];
          r += (px[k] + bg) * f;
          g += (px[k + 1] + bg) * f;
          b += (px[k + 2] + bg) * f;
        }
      }
      const o = (oy * SIZE + ox) * 3;
      out[o] = Math.min(255, Math.round(r));
      out[o + 1] = Math.min(255, Math.round(g));
      out[o + 2] = Math.min(255, Math.round(b));
    }
  }
  return out;
}

/**
 * Render worker (`--render-worker`): reads a JSON array of SVG strings on stdin and writes, for each, one byte
 * (1 = drawn, 0 = empty) and SIZE×SIZE×3 pixels to stdout, synchronously, so the parent knows how far it got.
 */
async function renderWorker() {
  const { Resvg } = await import('@resvg/resvg-js');
  const svgs = JSON.parse(readFileSync(0, 'utf8'));
  const rec = Buffer.alloc(1 + SIZE * SIZE * 3);
  for (const svg of svgs) {
    const px = rasterise(Resvg, svg);
    rec.fill(0);
    if (px) {
      rec[0] = 1;
      rec.set(px, 1);
    }
    writeSync(1, rec);
  }
}

/**
 * Rasterise every SVG in child processes. resvg 2.6.2 aborts the whole process (a Rust panic, not a JS
 * exception) on a few malformed icons (e.g. noto-v1 drawings with clipped shapes far outside their canvas), so
 * the work runs in a child; when it dies, the SVG it was on is recorded as failed and a new child carries on
 * after it. Returns one Uint8Array (or null for failed / empty) per SVG.
 */
function renderAll(svgs) {
  const out = new Array(svgs.length).fill(null);
  const failed = [];
  const recSize = 1 + SIZE * SIZE * 3;
  let start = 0;
  while (start < svgs.length) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--render-worker'], {
      input: JSON.stringify(svgs.slice(start)),
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (r.error) throw r.error;
    const done = Math.floor(r.stdout.length / recSize);
    for (let i = 0; i < done; i++) {
      const rec = r.stdout.subarray(i * recSize, (i + 1) * recSize);
      if (rec[0] === 1) out[start + i] = new Uint8Array(rec.subarray(1));
      else failed.push({ index: start + i, why: 'empty rendering' });
    }
    if (r.status === 0 && done === svgs.length - start) break;
    if (start + done >= svgs.length) throw new Error(`render worker exited with ${r.status ?? r.signal} after finishing`);
    const why = `resvg crashed (${r.signal ?? `exit ${r.status}`}): ${
      String(r.stderr)
        .split('\n')
        .find((l) => l.includes('panicked')) ?? String(r.stderr).trim().split('\n')[0]
    }`;
    failed.push({ index: start + done, why });
    start += done + 1;
  }
  return { out, failed };
}

async function main() {
  const t0 = performance.now();
  const script = fileURLToPath(import.meta.url);
  const versions = [...STYLES.map((s) => s.pkg), '@resvg/resvg-js'].map((p) => `${p}@${pkgJson(p).version}`);
  const key = buildKey([script, join(ROOT, 'scripts', 'prepare-fashion-mnist.mjs'), BUILTIN_TS, BUILTIN_JSON], versions);
  const existing = hasFlag('--force') ? null : upToDateMeta(ID, key);
  if (existing) {
    say(
      ID,
      `up to date (public/data/${ID}: ${existing.classes.length} classes × ${existing.styles.length} styles, ` +
        `${existing.train.count} train / ${existing.test.count} test, ${mb(dirBytes(ID))})`,
    );
    return;
  }

  const { tsImport } = await import('tsx/esm/api');
  const { EMOJI } = await tsImport(pathToFileURL(BUILTIN_TS).href, import.meta.url);
  const sets = STYLES.map(loadSet);
  const byId = Object.fromEntries(sets.map((s) => [s.id, s]));
  // icon name → code point, from the sets whose chars.json we trust (first one to name it wins)
  const nameToCp = new Map();
  for (const id of NAMING_SETS) for (const [cp, n] of Object.entries(byId[id].chars)) if (!nameToCp.has(n)) nameToCp.set(n, cp);

  const kept = [];
  const dropped = [];
  EMOJI.emoji.forEach((e, classListIndex) => {
    const cp = e.codepoint.toLowerCase();
    const candidates = [];
    for (const id of NAMING_SETS) {
      const c = byId[id].chars;
      for (const n of [c?.[cp], c?.[`${cp}-fe0f`]]) if (n && !candidates.includes(n)) candidates.push(n);
    }
    const icons = {};
    for (const s of sets) {
      const n = iconName(s, e.codepoint, candidates, nameToCp);
      if (n) icons[s.id] = n;
    }
    const artists = new Set(sets.filter((s) => icons[s.id]).map((s) => s.artist));
    const missing = sets.filter((s) => !icons[s.id]).map((s) => s.id);
    const hasTest = sets.some((s) => s.split === 'test' && icons[s.id]);
    if (artists.size < MIN_ARTISTS || !hasTest) {
      dropped.push({ name: e.name, reason: `renderings by ${artists.size} artists (< ${MIN_ARTISTS}); missing ${missing.join(', ')}` });
    } else {
      kept.push({ e, classListIndex, icons });
    }
  });
  if (kept.length < 100) throw new Error(`only ${kept.length} classes have renderings by ${MIN_ARTISTS}+ artists (need ≥ 100)`);

  const jobs = [];
  kept.forEach((k, label) => {
    sets.forEach((s, styleIndex) => {
      const name = k.icons[s.id];
      if (name) jobs.push({ label, styleIndex, split: s.split, what: `${s.id} "${name}" (${k.e.name})`, svg: iconSvg(s, name) });
    });
  });
  const { out, failed } = renderAll(jobs.map((j) => j.svg));
  const failures = failed.map((f) => ({ rendering: jobs[f.index].what, reason: f.why }));
  // A failed rendering can leave a class short of artists or without a test image: drop such classes too.
  const classArtists = kept.map(() => new Set());
  const classSplits = kept.map(() => new Set());
  jobs.forEach((j, i) => {
    if (!out[i]) return;
    classArtists[j.label].add(sets[j.styleIndex].artist);
    classSplits[j.label].add(j.split);
  });
  const newLabel = new Array(kept.length).fill(-1);
  const final = [];
  kept.forEach((k, y) => {
    if (classArtists[y].size >= MIN_ARTISTS && classSplits[y].size === 2) {
      newLabel[y] = final.length;
      final.push(k);
    } else {
      dropped.push({
        name: k.e.name,
        reason: `renderings failed: only ${classArtists[y].size} artists left or no ${classSplits[y].has('test') ? 'train' : 'test'} image`,
      });
    }
  });
  if (final.length < 100) throw new Error(`only ${final.length} classes left after failed renderings (need ≥ 100)`);

  const splits = { train: { images: [], labels: [], styles: [] }, test: { images: [], labels: [], styles: [] } };
  jobs.forEach((j, i) => {
    if (!out[i] || newLabel[j.label] < 0) return;
    const sp = splits[j.split];
    sp.images.push(out[i]);
    sp.labels.push(newLabel[j.label]);
    sp.styles.push(j.styleIndex);
  });
  const files = {};
  const meta = {};
  for (const split of ['train', 'test']) {
    const sp = splits[split];
    const n = sp.labels.length;
    const img = new Uint8Array(n * SIZE * SIZE * 3);
    sp.images.forEach((p, i) => img.set(p, i * p.length));
    const lbl = Uint8Array.from(sp.labels);
    files[`${split}-images.u8`] = img;
    files[`${split}-labels.u8`] = lbl;
    files[`${split}-styles.u8`] = Uint8Array.from(sp.styles);
    meta[split] = {
      count: n,
      images: `${split}-images.u8`,
      labels: `${split}-labels.u8`,
      styles: `${split}-styles.u8`,
      perClass: perClass(lbl, final.length),
    };
  }
  const testStyles = sets.filter((s) => s.split === 'test').map((s) => s.id);
  const seconds = Number(((performance.now() - t0) / 1000).toFixed(2));
  writeDataset(
    ID,
    {
      format: FORMAT,
      version: FORMAT_VERSION,
      id: ID,
      name: 'Emoji objects',
      classListId: 'emoji',
      classes: final.map((k) => k.e.name),
      classInfo: final.map((k) => ({
        name: k.e.name,
        classListIndex: k.classListIndex,
        group: k.e.group,
        subgroup: k.e.subgroup,
        codepoint: k.e.codepoint,
        emoji: k.e.emoji,
        icons: k.icons,
      })),
      shape: [SIZE, SIZE, 3],
      train: meta.train,
      test: meta.test,
      split: {
        method: 'by-style',
        description:
          `test images are the renderings of the test-only styles (${testStyles.join(', ')}: artists that no training style shares); ` +
          'training images are the other styles; images are ordered class by class, styles in table order; seeded augmentation is applied at training time, not stored',
      },
      styles: sets.map((s) => ({
        id: s.id,
        name: s.name,
        artist: s.artist,
        package: `npm:${s.pkg}`,
        version: s.version,
        license: s.license,
        split: s.split,
        url: s.authorUrl,
      })),
      sources: sets.map((s) => ({
        name: s.name,
        package: `npm:${s.pkg}`,
        version: s.version,
        license: s.license,
        url: s.authorUrl,
        note:
          `SVG icon set by ${s.artist}, licence ${s.licenseUrl}; rasterised to 32×32 RGB on white with @resvg/resvg-js` +
          (s.license === 'CC-BY-SA-4.0' ? '; these adapted images are shared under CC BY-SA 4.0 too' : ''),
      })),
      dropped,
      failedRenderings: failures,
      build: { key, script: 'scripts/prepare-emoji.mjs', seconds },
    },
    files,
  );
  say(
    ID,
    `built public/data/${ID} from ${sets.length} npm icon sets in ${seconds}s: ${final.length} classes ` +
      `(${sets.filter((s) => s.split === 'train').length} train styles, test-only ${testStyles.join(' + ')}), ` +
      `${meta.train.count} train / ${meta.test.count} test, 32×32×3, ${mb(dirBytes(ID))}; ` +
      (failures.length ? `${failures.length} renderings failed and were left out (${failures.map((f) => f.rendering).join(', ')}); ` : '') +
      `dropped ${dropped.length} of ${EMOJI.emoji.length} classes drawn by fewer than ${MIN_ARTISTS} artists: ${dropped.map((d) => d.name).join(', ')}`,
  );
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url && hasFlag('--render-worker')) {
  renderWorker().catch((e) => {
    console.error(e.stack || e.message);
    process.exit(1);
  });
} else if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  main().catch((e) => {
    console.error(`[prepare-${ID}] FAILED: ${e.stack || e.message}`);
    process.exit(1);
  });
}
