#!/usr/bin/env node
// A contact sheet of a prepared built-in dataset, to look at: `node scripts/contact-sheet.mjs DATASET [--per-class N]`
// writes test-results/contact-<id>.png, one labelled row per class (the first train images of the class, then,
// after a gap, the first test images; for emoji: every style of the class, train styles then test styles, with the
// style ids as column headers; * marks a test-only style on the small overview). Datasets with many classes also get pages of 25 classes at a larger scale,
// test-results/contact-<id>-<page>.png. Loads the data through src/data/registry.ts (the app's own loader).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { Resvg } from '@resvg/resvg-js';
import { tsImport } from 'tsx/esm/api';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const OUT_DIR = join(ROOT, 'test-results');
const PAGE_ROWS = 25;

const args = process.argv.slice(2);
const id = args.find((a) => !a.startsWith('--'));
const perClassArg = args.indexOf('--per-class');
const PER_CLASS = perClassArg >= 0 ? Number(args[perClassArg + 1]) : 10;

const escapeXml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The image indices to show per class: { header: string[] | null, rows: [{ label, cells: [{split, index} | null] }] } */
function pick(ds) {
  const nClasses = ds.meta.classes.length;
  const byClass = (split) => {
    const out = Array.from({ length: nClasses }, () => []);
    ds[split].labels.forEach((y, i) => out[y].push(i));
    return out;
  };
  const train = byClass('train');
  const test = byClass('test');
  if (ds.meta.styles) {
    // One column per style: train styles first, then test styles.
    const order = [...ds.meta.styles.keys()].sort((a, b) => (ds.meta.styles[a].split === 'test') - (ds.meta.styles[b].split === 'test'));
    const header = order.map((s) => `${ds.meta.styles[s].id}${ds.meta.styles[s].split === 'test' ? ' (test)' : ''}`);
    const rows = ds.meta.classes.map((name, y) => ({
      label: `${y} ${name}`,
      cells: order.map((s) => {
        const split = ds.meta.styles[s].split;
        const list = split === 'train' ? train[y] : test[y];
        const i = list.find((k) => ds[split].styles[k] === s);
        return i === undefined ? null : { split, index: i };
      }),
    }));
    return { header, rows, gapAfter: order.findIndex((s) => ds.meta.styles[s].split === 'test') };
  }
  const nTest = Math.max(1, Math.round(PER_CLASS * 0.3));
  const nTrain = PER_CLASS - nTest;
  const rows = ds.meta.classes.map((name, y) => ({
    label: `${y} ${name}`,
    cells: [
      ...Array.from({ length: nTrain }, (_, k) => (k < train[y].length ? { split: 'train', index: train[y][k] } : null)),
      ...Array.from({ length: nTest }, (_, k) => (k < test[y].length ? { split: 'test', index: test[y][k] } : null)),
    ],
  }));
  return { header: [...Array(nTrain).fill('train'), ...Array(nTest).fill('test')], rows, gapAfter: nTrain };
}

/** Draw rows into an RGBA canvas with labels; returns a PNG buffer. */
function draw(ds, layout, rows, scale, columnsOfRows) {
  const [h, w, c] = ds.shape;
  const tileW = w * scale;
  const tileH = h * scale;
  const pad = 2;
  const gap = 10;
  const labelW = 150;
  const headerH = 18;
  const nCells = rows[0].cells.length;
  const blockW = labelW + nCells * (tileW + pad) + (layout.gapAfter > 0 ? gap : 0) + 16;
  const rowsPerBlock = Math.ceil(rows.length / columnsOfRows);
  const W = blockW * columnsOfRows;
  const H = headerH + rowsPerBlock * (tileH + pad) + pad;
  const canvas = new Uint8Array(W * H * 4).fill(255);
  const texts = [];
  const cellX = (bx, k) => bx + labelW + k * (tileW + pad) + (layout.gapAfter > 0 && k >= layout.gapAfter ? gap : 0);
  for (let b = 0; b < columnsOfRows; b++) {
    const bx = b * blockW;
    layout.header.forEach((t, k) => {
      if (ds.meta.styles || k === 0 || k === layout.gapAfter) {
        const small = ds.meta.styles && tileW < 48;
        const label = small ? t.replace(' (test)', '*') : t;
        texts.push(`<text x="${cellX(bx, k) + 1}" y="13" font-size="${ds.meta.styles ? (small ? 5.5 : 9) : 11}">${escapeXml(label)}</text>`);
      }
    });
  }
  rows.forEach((row, r) => {
    const b = Math.floor(r / rowsPerBlock);
    const bx = b * blockW;
    const y0 = headerH + (r % rowsPerBlock) * (tileH + pad);
    texts.push(`<text x="${bx + labelW - 6}" y="${y0 + tileH / 2 + 4}" font-size="12" text-anchor="end">${escapeXml(row.label)}</text>`);
    row.cells.forEach((cell, k) => {
      const x0 = cellX(bx, k);
      if (!cell) {
        for (let yy = 0; yy < tileH; yy++)
          for (let xx = 0; xx < tileW; xx++) if ((xx + yy) % 6 === 0) canvas.fill(200, ((y0 + yy) * W + x0 + xx) * 4, ((y0 + yy) * W + x0 + xx) * 4 + 3);
        return;
      }
      const img = ds[cell.split].images.subarray(cell.index * h * w * c, (cell.index + 1) * h * w * c);
      for (let yy = 0; yy < tileH; yy++) {
        for (let xx = 0; xx < tileW; xx++) {
          const s = (Math.floor(yy / scale) * w + Math.floor(xx / scale)) * c;
          const o = ((y0 + yy) * W + x0 + xx) * 4;
          canvas[o] = img[s];
          canvas[o + 1] = img[c === 3 ? s + 1 : s];
          canvas[o + 2] = img[c === 3 ? s + 2 : s];
          canvas[o + 3] = 255;
        }
      }
    });
  });
  // Labels: an SVG of text only, rendered transparent and composited (premultiplied RGBA from resvg).
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><g font-family="DejaVu Sans, Liberation Sans, sans-serif" fill="#222">${texts.join('')}</g></svg>`;
  const text = new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render();
  const tp = text.pixels;
  for (let i = 0; i < W * H; i++) {
    const a = tp[i * 4 + 3];
    if (a === 0) continue;
    for (let k = 0; k < 3; k++) canvas[i * 4 + k] = Math.round(tp[i * 4 + k] + (canvas[i * 4 + k] * (255 - a)) / 255);
  }
  const png = new PNG({ width: W, height: H });
  png.data = Buffer.from(canvas.buffer, canvas.byteOffset, canvas.byteLength);
  return PNG.sync.write(png);
}

async function main() {
  const { BUILTIN_DATASET_IDS, loadBuiltinDataset } = await tsImport(pathToFileURL(join(ROOT, 'src', 'data', 'registry.ts')).href, import.meta.url);
  if (!id || !BUILTIN_DATASET_IDS.includes(id)) {
    console.error(`usage: node scripts/contact-sheet.mjs ${BUILTIN_DATASET_IDS.join('|')} [--per-class N]`);
    process.exit(2);
  }
  const ds = await loadBuiltinDataset(id, async (p) => new Uint8Array(readFileSync(join(ROOT, 'public', p))));
  const layout = pick(ds);
  mkdirSync(OUT_DIR, { recursive: true });
  const scale = ds.shape[0] <= 8 ? 6 : ds.shape[0] <= 28 ? 2 : 1;
  const many = layout.rows.length > 40;
  const written = [];
  const main = join(OUT_DIR, `contact-${id}.png`);
  writeFileSync(main, draw(ds, layout, layout.rows, scale, many ? Math.ceil(layout.rows.length / 50) : 1));
  written.push(main);
  if (many) {
    for (let p = 0; p * PAGE_ROWS < layout.rows.length; p++) {
      const file = join(OUT_DIR, `contact-${id}-${p + 1}.png`);
      writeFileSync(file, draw(ds, layout, layout.rows.slice(p * PAGE_ROWS, (p + 1) * PAGE_ROWS), scale * 2, 1));
      written.push(file);
    }
  }
  console.log(`contact sheet of ${id} (${ds.meta.classes.length} classes): ${written.map((f) => f.slice(ROOT.length + 1)).join(', ')}`);
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});
