/**
 * Exporting a chart (docs/design.md: every chart has a small "⤓" menu: SVG, PNG, CSV). The pure parts (CSV text, file
 * names, the SVG serialiser walking any DOM-like tree, the layout of a grid of canvases) are tested without a browser
 * in tests/unit/ui/chart-export.test.ts; the rest (computed styles, canvas, downloads) needs the DOM.
 *
 * Why our own serialiser rather than XMLSerializer: a chart on the page takes some of its look from the page's CSS
 * (the font, `currentColor` axes, class-based fills). A standalone .svg has no page around it, so every element gets
 * the styles that matter written inline (from getComputedStyle), the root gets the page's font, and the output is
 * deterministic (attribute order as in the DOM; page-only attributes such as Svelte's scoping classes and data-* hooks
 * left out). The same text is drawn on a canvas for the PNG, so the PNG and the SVG match.
 */

// ───────────────────────────── CSV ─────────────────────────────

import { csvField, type CsvCell } from '../../core/formats/csv';

export { csvField, type CsvCell };

/** Rows for the CSV item of the menu: a header and the data rows. */
export interface CsvTable {
  columns: string[];
  rows: CsvCell[][];
}

// csvField (with its guard against formula injection) lives in core/formats/csv.ts: the orderings' CSV export uses it too

/** The CSV text of a table: header line, one line per row, "\n" line ends and a final newline. */
export function toCsv(table: CsvTable): string {
  const lines = [table.columns.map(csvField).join(',')];
  for (const row of table.rows) {
    if (row.length !== table.columns.length) {
      throw new Error(`A CSV row has ${row.length} fields but the header has ${table.columns.length}.`);
    }
    lines.push(row.map(csvField).join(','));
  }
  return `${lines.join('\n')}\n`;
}

// ───────────────────────────── file names ─────────────────────────────

export type ExportFormat = 'svg' | 'png' | 'csv' | 'json';

/**
 * "<stem>.<ext>": the stem made safe for every file system (letters, digits, dot, dash, underscore; other runs become
 * one "-"; at most 100 characters; never empty, never hidden). Non-ASCII letters are kept out on purpose: "Ω" and
 * "×" become "-", which every OS, zip tool and shell handles.
 */
export function exportFileName(stem: string, format: ExportFormat): string {
  let s = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  if (s.length > 100) s = s.slice(0, 100).replace(/[-.]+$/, '');
  if (s === '') s = 'chart';
  return `${s}.${format}`;
}

// ───────────────────────────── SVG serialisation ─────────────────────────────

/** What the serialiser reads of a node: enough of the DOM's Node/Element that a test can build one by hand. */
export interface NodeLike {
  nodeType: number;
  nodeName: string;
  nodeValue?: string | null;
  attributes?: ArrayLike<{ name: string; value: string }>;
  childNodes: ArrayLike<NodeLike>;
}

export interface SerializeOptions {
  /** Size written on the root (px); the root's own width/height attributes when not given. */
  width?: number;
  height?: number;
  /** The computed styles to inline for an element (property → value); nothing is inlined when omitted. */
  styleOf?: (el: NodeLike) => Record<string, string>;
  /** Font for text that sets none (the page's font stack), written on the root. */
  fontFamily?: string;
  /** A background rectangle behind the chart (e.g. "#ffffff"); none when omitted. */
  background?: string;
  /** The root's viewBox, replacing its own (e.g. grown to hold labels that overflow the chart's box on the page). */
  viewBox?: Box;
  /** SVG markup written first (after the background) and last inside the root; the caller escapes it. */
  prepend?: string;
  append?: string;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

export function escapeXmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeXmlAttr(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** Attributes that only mean something on the page (event handlers, inline page styles, test hooks); never written. */
function pageOnly(name: string): boolean {
  return /^on/i.test(name) || name === 'style' || name.startsWith('data-') || name === 'tabindex';
}

/** Class names without Svelte's scoping classes ("svelte-1x2y3z"), which mean nothing outside the page. */
function keptClasses(value: string): string {
  return value
    .split(/\s+/)
    .filter((c) => c && !/^svelte-[a-z0-9]+$/i.test(c))
    .join(' ');
}

function styleText(style: Record<string, string>): string {
  return Object.entries(style)
    .filter(([, v]) => v !== '' && v !== undefined)
    .map(([k, v]) => `${k}:${v}`)
    .join(';');
}

/**
 * A standalone SVG document for an <svg> element (or anything shaped like one): namespaces set, the size written on
 * the root, page-only attributes dropped (style, data-*, on*, Svelte's scoping classes), `styleOf`'s styles inlined as a style
 * attribute on every element, comments dropped, text escaped. Elements with `display:none` (per `styleOf`) are left
 * out. Deterministic for a given tree.
 */
export function serializeSvgElement(root: NodeLike, opts: SerializeOptions = {}): string {
  if (root.nodeType !== ELEMENT || root.nodeName.toLowerCase() !== 'svg')
    throw new Error(`Can only export an <svg> element; got <${root.nodeName.toLowerCase()}>.`);
  const attr = (el: NodeLike, name: string): string | undefined => {
    const a = el.attributes;
    if (!a) return undefined;
    for (let i = 0; i < a.length; i++) if (a[i].name === name) return a[i].value;
    return undefined;
  };
  const width = opts.width ?? Number.parseFloat(attr(root, 'width') ?? '');
  const height = opts.height ?? Number.parseFloat(attr(root, 'height') ?? '');
  let usesXlink = false;

  const out: string[] = [];
  const walk = (node: NodeLike, isRoot: boolean): void => {
    if (node.nodeType === TEXT || node.nodeType === CDATA) {
      out.push(escapeXmlText(node.nodeValue ?? ''));
      return;
    }
    if (node.nodeType !== ELEMENT) return; // comments, processing instructions
    const style = opts.styleOf ? { ...opts.styleOf(node) } : {};
    if (!isRoot && style.display === 'none') return;
    delete style.display;
    // SVG element names are case-sensitive (linearGradient, clipPath): the DOM's nodeName keeps their case
    const tag = node.nodeName;
    const parts: string[] = [tag];
    if (isRoot) {
      parts.push(`xmlns="${SVG_NS}"`);
      if (Number.isFinite(width) && width > 0) parts.push(`width="${width}"`);
      if (Number.isFinite(height) && height > 0) parts.push(`height="${height}"`);
      if (opts.viewBox) parts.push(`viewBox="${num(opts.viewBox.x)} ${num(opts.viewBox.y)} ${num(opts.viewBox.width)} ${num(opts.viewBox.height)}"`);
      else if (!attr(node, 'viewBox') && Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0)
        parts.push(`viewBox="0 0 ${width} ${height}"`);
      if (opts.fontFamily && !style['font-family']) style['font-family'] = opts.fontFamily;
    }
    const a = node.attributes;
    if (a) {
      for (let i = 0; i < a.length; i++) {
        const { name, value } = a[i];
        if (pageOnly(name)) continue;
        if (isRoot && (name === 'width' || name === 'height' || name === 'xmlns' || name === 'xmlns:xlink')) continue;
        if (isRoot && name === 'viewBox' && opts.viewBox) continue;
        if (name.startsWith('xlink:')) usesXlink = true;
        if (name === 'class') {
          const kept = keptClasses(value);
          if (kept) parts.push(`class="${escapeXmlAttr(kept)}"`);
          continue;
        }
        parts.push(`${name}="${escapeXmlAttr(value)}"`);
      }
    }
    const s = styleText(style);
    if (s) parts.push(`style="${escapeXmlAttr(s)}"`);
    const kids = node.childNodes;
    const vb = opts.viewBox;
    const bg =
      isRoot && opts.background
        ? vb
          ? `<rect x="${num(vb.x)}" y="${num(vb.y)}" width="${num(vb.width)}" height="${num(vb.height)}" fill="${escapeXmlAttr(opts.background)}"/>`
          : `<rect x="0" y="0" width="100%" height="100%" fill="${escapeXmlAttr(opts.background)}"/>`
        : '';
    const before = isRoot ? bg + (opts.prepend ?? '') : '';
    const after = isRoot ? (opts.append ?? '') : '';
    if (kids.length === 0 && !before && !after) {
      out.push(`<${parts.join(' ')}/>`);
      return;
    }
    const open = out.length;
    out.push(`<${parts.join(' ')}>`);
    if (before) out.push(before);
    for (let i = 0; i < kids.length; i++) walk(kids[i], false);
    if (after) out.push(after);
    out.push(`</${tag}>`);
    if (isRoot && usesXlink) out[open] = out[open].replace(`xmlns="${SVG_NS}"`, `xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"`);
  };
  walk(root, true);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${out.join('')}\n`;
}

/** A number for an attribute: at most 3 decimals, no trailing zeros. */
function num(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

/**
 * The box an exported chart needs: the chart's own box grown to hold what overflows it on the page (lane labels
 * drawn left of x = 0), plus a caption line above and a note line below. `textWidth` measures a line of text.
 */
export function exportBox(
  own: Box,
  content: Box | null,
  text: { caption?: string; note?: string },
  textWidth: (s: string, kind: 'caption' | 'note') => number,
): { box: Box; captionAt: { x: number; y: number } | null; noteAt: { x: number; y: number } | null } {
  const pad = 4;
  let x0 = own.x;
  let y0 = own.y;
  let x1 = own.x + own.width;
  let y1 = own.y + own.height;
  if (content && content.width > 0 && content.height > 0) {
    if (content.x < x0) x0 = content.x - pad;
    if (content.y < y0) y0 = content.y - pad;
    if (content.x + content.width > x1) x1 = content.x + content.width + pad;
    if (content.y + content.height > y1) y1 = content.y + content.height + pad;
  }
  let captionAt: { x: number; y: number } | null = null;
  let noteAt: { x: number; y: number } | null = null;
  if (text.caption) {
    y0 -= 28;
    captionAt = { x: x0 + 8, y: y0 + 19 };
    x1 = Math.max(x1, x0 + 16 + textWidth(text.caption, 'caption'));
  }
  if (text.note) {
    noteAt = { x: x0 + 8, y: y1 + 16 };
    y1 += 24;
    x1 = Math.max(x1, x0 + 16 + textWidth(text.note, 'note'));
  }
  return { box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, captionAt, noteAt };
}

/**
 * The CSS properties that decide how SVG content looks, with their initial values: a computed value equal to the
 * initial one is not written (keeps files small); everything else is.
 */
export const SVG_STYLE_PROPERTIES: Record<string, string | null> = {
  display: null,
  fill: 'rgb(0, 0, 0)',
  'fill-opacity': '1',
  stroke: 'none',
  'stroke-width': '1px',
  'stroke-opacity': '1',
  'stroke-dasharray': 'none',
  'stroke-linecap': 'butt',
  'stroke-linejoin': 'miter',
  opacity: '1',
  visibility: 'visible',
  'font-family': null,
  'font-size': null,
  'font-weight': '400',
  'font-style': 'normal',
  'text-anchor': 'start',
  'dominant-baseline': 'auto',
  'paint-order': 'normal',
  'shape-rendering': 'auto',
  transform: 'none',
  'transform-origin': null,
  'transform-box': 'view-box',
};

/** Text-only properties: written on text elements only (they inherit, so writing them elsewhere is noise). */
const TEXT_ONLY = new Set(['font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline']);

/** The styles `serializeSvgElement` inlines for a live element: its computed values that are not the initial ones. */
export function computedSvgStyle(el: Element): Record<string, string> {
  const cs = getComputedStyle(el);
  const out: Record<string, string> = {};
  const isText = /^(text|tspan|textPath)$/.test(el.nodeName);
  for (const [prop, initial] of Object.entries(SVG_STYLE_PROPERTIES)) {
    if (TEXT_ONLY.has(prop) && !isText) continue;
    const v = cs.getPropertyValue(prop);
    if (!v) continue;
    if (prop === 'display') {
      if (v === 'none') out.display = 'none';
      continue;
    }
    if (prop === 'transform-origin') continue; // written with transform below
    if (prop === 'transform') {
      // a CSS transform (teaching mode scales marks) needs its origin and box to render the same
      if (v !== 'none' && !el.hasAttribute('transform')) {
        out.transform = v;
        out['transform-origin'] = cs.getPropertyValue('transform-origin');
        out['transform-box'] = cs.getPropertyValue('transform-box');
      }
      continue;
    }
    if (prop === 'transform-box') continue;
    if (initial !== null && v === initial) continue;
    out[prop] = v;
  }
  return out;
}

/** Size of a live <svg>: its width/height attributes, else its box on the page. */
export function svgSize(svg: SVGSVGElement): { width: number; height: number } {
  const w = Number.parseFloat(svg.getAttribute('width') ?? '');
  const h = Number.parseFloat(svg.getAttribute('height') ?? '');
  if (w > 0 && h > 0) return { width: w, height: h };
  const box = svg.getBoundingClientRect();
  return { width: Math.round(box.width) || 600, height: Math.round(box.height) || 400 };
}

/** The page's font stack, for text in the exported file that sets none. */
export function pageFontFamily(el: Element): string {
  return getComputedStyle(el).fontFamily || 'system-ui, sans-serif';
}

/**
 * A live <svg> as a standalone SVG document: styles inlined, a white background, the box grown to hold labels that
 * overflow it on the page, and the chart's caption (its title on the page, outside the <svg>) and note (its legend
 * line) written in as text, so the file says what it shows.
 */
export function svgToStandalone(
  svg: SVGSVGElement,
  opts: { caption?: string; note?: string; background?: string } = {},
): { text: string; width: number; height: number } {
  const size = svgSize(svg);
  const vb = svg.viewBox?.baseVal;
  const own: Box =
    vb && vb.width > 0 && vb.height > 0 ? { x: vb.x, y: vb.y, width: vb.width, height: vb.height } : { x: 0, y: 0, width: size.width, height: size.height };
  const unit = size.width / own.width; // px per user unit (1 for every chart here)
  let content: Box | null = null;
  try {
    const b = svg.getBBox();
    content = { x: b.x, y: b.y, width: b.width, height: b.height };
  } catch {
    content = null; // not rendered (display: none): the chart's own box
  }
  const font = pageFontFamily(svg);
  const ctx = document.createElement('canvas').getContext('2d');
  const textWidth = (s: string, kind: 'caption' | 'note') => {
    if (!ctx) return s.length * (kind === 'caption' ? 8 : 6.5);
    ctx.font = kind === 'caption' ? `600 14px ${font}` : `12px ${font}`;
    return ctx.measureText(s).width / unit;
  };
  const caption = opts.caption?.replace(/\s+/g, ' ').trim();
  const note = opts.note?.replace(/\s+/g, ' ').trim();
  const { box, captionAt, noteAt } = exportBox(own, content, { caption, note }, textWidth);
  const line = (t: string, at: { x: number; y: number }, style: string) =>
    `<text x="${num(at.x)}" y="${num(at.y)}" style="${escapeXmlAttr(style)}">${escapeXmlText(t)}</text>`;
  const width = Math.ceil(box.width * unit);
  const height = Math.ceil(box.height * unit);
  const text = serializeSvgElement(svg as unknown as NodeLike, {
    width,
    height,
    viewBox: box,
    styleOf: (el) => computedSvgStyle(el as unknown as Element),
    fontFamily: font,
    background: opts.background ?? '#ffffff',
    prepend: caption && captionAt ? line(caption, captionAt, `font-size:${14 / unit}px;font-weight:600;fill:#1d2330`) : '',
    append: note && noteAt ? line(note, noteAt, `font-size:${12 / unit}px;fill:#5b6474`) : '',
  });
  return { text, width, height };
}

// ───────────────────────────── PNG ─────────────────────────────

/** Bytes at the start of every PNG file. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

function canvasToBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The browser could not encode the PNG.'))), 'image/png'));
}

/** SVG text drawn on a white canvas at `scale`× (2 = sharp on projectors and in slides), as a PNG blob. */
export async function svgTextToPng(text: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('The chart could not be drawn as an image.'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser has no 2D canvas.');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await canvasToBlob(canvas);
  } finally {
    URL.revokeObjectURL(url);
  }
}

// ───────────────────────────── a grid of canvases as one PNG ─────────────────────────────

export interface CanvasRowsLayout {
  width: number;
  height: number;
  titleHeight: number;
  labelWidth: number;
  /** Top of each row and its height (the row's canvas height, at least one text line). */
  rows: { y: number; height: number }[];
}

/**
 * Where each row of a "label | canvas" grid goes in one image (CSS px, before the scale): a title line on top, the
 * labels in a column as wide as the longest (measured by `measure`, capped at 240 px), rows stacked with a gap.
 */
export function layoutCanvasRows(
  rows: readonly { label: string; sub?: string; width: number; height: number }[],
  measure: (text: string, bold: boolean) => number,
  title = '',
): CanvasRowsLayout {
  const pad = 12;
  const gap = 6;
  const line = 18;
  const titleHeight = title ? line + 10 : 0;
  let labelWidth = 0;
  for (const r of rows) labelWidth = Math.max(labelWidth, measure(r.label, true), r.sub ? measure(r.sub, false) : 0);
  labelWidth = Math.min(240, Math.ceil(labelWidth));
  let y = pad + titleHeight;
  let maxCanvas = 0;
  const placed = rows.map((r) => {
    const h = Math.max(r.height, r.sub ? 2 * line : line);
    const at = { y, height: h };
    y += h + gap;
    maxCanvas = Math.max(maxCanvas, r.width);
    return at;
  });
  const width = Math.ceil(Math.max(pad * 2 + labelWidth + 10 + maxCanvas, title ? pad * 2 + measure(title, true) : 0));
  return { width, height: Math.ceil(y - (rows.length ? gap : 0) + pad), titleHeight, labelWidth, rows: placed };
}

/** Rows of "label | canvas" (e.g. the Data page's sample grid) drawn as one PNG at `scale`×, white background. */
export async function canvasRowsToPng(
  rows: readonly { label: string; sub?: string; canvas: HTMLCanvasElement }[],
  opts: { title?: string; scale?: number; fontFamily?: string } = {},
): Promise<Blob> {
  const scale = opts.scale ?? 2;
  const font = opts.fontFamily ?? 'system-ui, sans-serif';
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser has no 2D canvas.');
  const measure = (text: string, bold: boolean) => {
    ctx.font = `${bold ? '600 ' : ''}13px ${font}`;
    return ctx.measureText(text).width;
  };
  // a canvas's CSS size (what the page shows) is its drawn size; its pixel size may be smaller (upscaled)
  const sized = rows.map((r) => ({ ...r, width: r.canvas.clientWidth || r.canvas.width, height: r.canvas.clientHeight || r.canvas.height }));
  const L = layoutCanvasRows(sized, measure, opts.title);
  const maxSide = 16_384;
  const s = Math.min(scale, maxSide / L.width, maxSide / L.height);
  canvas.width = Math.max(1, Math.round(L.width * s));
  canvas.height = Math.max(1, Math.round(L.height * s));
  ctx.scale(s, s);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, L.width, L.height);
  ctx.textBaseline = 'top';
  if (opts.title) {
    ctx.fillStyle = '#1d2330';
    ctx.font = `600 14px ${font}`;
    ctx.fillText(opts.title, 12, 12);
  }
  ctx.imageSmoothingEnabled = false; // sample images are pixel art: keep their pixels square
  sized.forEach((r, i) => {
    const { y, height } = L.rows[i];
    ctx.fillStyle = '#1d2330';
    ctx.font = `600 13px ${font}`;
    ctx.fillText(r.label, 12, y + 1, L.labelWidth);
    if (r.sub) {
      ctx.fillStyle = '#5b6474';
      ctx.font = `12px ${font}`;
      ctx.fillText(r.sub, 12, y + 19, L.labelWidth);
    }
    ctx.drawImage(r.canvas, 12 + L.labelWidth + 10, y + (height - r.height) / 2, r.width, r.height);
  });
  return canvasToBlob(canvas);
}

// ───────────────────────────── download ─────────────────────────────

/** Save a blob (or text) under a file name: a temporary link clicked (a 'download' event in Playwright). */
export function downloadBlob(data: Blob | string, fileName: string, type = 'text/plain;charset=utf-8'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
