import { describe, expect, it } from 'vitest';
import {
  csvField,
  escapeXmlAttr,
  escapeXmlText,
  exportBox,
  exportFileName,
  layoutCanvasRows,
  serializeSvgElement,
  toCsv,
  type NodeLike,
} from '../../../src/ui/common/chart-export';

// a DOM-shaped tree built by hand (the serialiser reads nodeType, nodeName, nodeValue, attributes, childNodes)
function el(name: string, attrs: Record<string, string> = {}, ...children: NodeLike[]): NodeLike {
  return { nodeType: 1, nodeName: name, attributes: Object.entries(attrs).map(([n, value]) => ({ name: n, value })), childNodes: children };
}
const text = (s: string): NodeLike => ({ nodeType: 3, nodeName: '#text', nodeValue: s, childNodes: [] });
const comment = (s: string): NodeLike => ({ nodeType: 8, nodeName: '#comment', nodeValue: s, childNodes: [] });

/** A tiny well-formedness check: every start tag is closed in order, attributes are quoted, no stray & or <. */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const re = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/g;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(body))) {
    if (m.index !== consumed) return false;
    consumed = re.lastIndex;
    if (m[5] !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(m[5])) return false;
      continue;
    }
    if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(m[3])) return false;
    if (m[1]) {
      if (stack.pop() !== m[2]) return false;
    } else if (!m[4]) stack.push(m[2]);
  }
  return consumed === body.length && stack.length === 0;
}

describe('csvField / toCsv', () => {
  it('writes numbers at full precision and leaves empty cells for null, undefined and NaN', () => {
    expect(csvField(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(csvField(-1.5289)).toBe('-1.5289');
    expect(csvField(1e-12)).toBe('1e-12');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(12n)).toBe('12');
    expect(csvField(true)).toBe('true');
  });
  it('quotes text with commas, quotes and line breaks (RFC 4180), doubling quotes', () => {
    expect(csvField('T-shirt/top')).toBe('T-shirt/top');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });
  it('defuses text a spreadsheet would run as a formula, but not negative numbers written as text', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@sum')).toBe("'@sum");
    expect(csvField('-cmd')).toBe("'-cmd");
    expect(csvField('-0.25')).toBe('-0.25');
    expect(csvField('-3e-4')).toBe('-3e-4');
  });
  it('makes a header line, one line per row and a final newline', () => {
    const csv = toCsv({
      columns: ['class i', 'class j', 'a', 'b'],
      rows: [
        ['cat', 'dog, big', 0.5, 0.25],
        ['a"b', 'c', -1, null],
      ],
    });
    expect(csv).toBe('class i,class j,a,b\ncat,"dog, big",0.5,0.25\n"a""b",c,-1,\n');
  });
  it('refuses a row with the wrong number of fields', () => {
    expect(() => toCsv({ columns: ['a', 'b'], rows: [[1]] })).toThrow(/1 fields but the header has 2/);
  });
  it('an empty table is just the header', () => {
    expect(toCsv({ columns: ['x'], rows: [] })).toBe('x\n');
  });
});

describe('exportFileName', () => {
  it('keeps safe stems as they are', () => {
    expect(exportFileName('s-over-omega_fashion-mnist.6cls', 'svg')).toBe('s-over-omega_fashion-mnist.6cls.svg');
  });
  it('turns spaces, slashes and symbols into single dashes and trims them', () => {
    expect(exportFileName('  S over Ω / CIFAR-100 (10 tasks)  ', 'png')).toBe('S-over-CIFAR-100-10-tasks.png');
    expect(exportFileName('WordNet vs CLIP (bare class name)', 'csv')).toBe('WordNet-vs-CLIP-bare-class-name.csv');
  });
  it('drops accents, never makes a hidden or empty name, and caps the length', () => {
    expect(exportFileName('Café crème', 'csv')).toBe('Cafe-creme.csv');
    expect(exportFileName('...hidden', 'svg')).toBe('hidden.svg');
    expect(exportFileName('ΩΩΩ', 'svg')).toBe('chart.svg');
    expect(exportFileName('', 'png')).toBe('chart.png');
    const long = exportFileName('x'.repeat(300), 'csv');
    expect(long).toBe(`${'x'.repeat(100)}.csv`);
  });
});

describe('escapeXml', () => {
  it('escapes text and attribute values', () => {
    expect(escapeXmlText('a < b & c > d')).toBe('a &lt; b &amp; c &gt; d');
    expect(escapeXmlAttr('say "x" & <y>\n')).toBe('say &quot;x&quot; &amp; &lt;y&gt;&#10;');
  });
});

describe('serializeSvgElement', () => {
  const chart = () =>
    el(
      'svg',
      { width: '300', height: '120', viewBox: '0 0 300 120', class: 'plot svelte-abc123', role: 'img', 'aria-label': 'S over Ω', 'data-testid': 'x' },
      comment('svelte anchor'),
      el(
        'g',
        { class: 'bars', onclick: 'alert(1)' },
        el('rect', { x: '1', y: '2', width: '3', height: '4', fill: '#b8bec9' }, el('title', {}, text('S 1.2 – 1.3: 4 orderings'))),
      ),
      el('text', { x: '10', y: '20', 'font-size': '12' }, text('T-shirt/top & <Trouser>')),
      el('g', { style: 'display:none' }, el('circle', { r: '3' })),
      el('linearGradient', { id: 'g1' }, el('stop', { offset: '0%' })),
    );

  it('writes a standalone, well-formed SVG: namespace, size, escaped text, no comments or page-only attributes', () => {
    const out = serializeSvgElement(chart());
    expect(
      out.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120" viewBox="0 0 300 120" class="plot" role="img" aria-label="S over Ω">',
      ),
    ).toBe(true);
    expect(out).toContain('<text x="10" y="20" font-size="12">T-shirt/top &amp; &lt;Trouser&gt;</text>');
    expect(out).toContain('<title>S 1.2 – 1.3: 4 orderings</title>');
    expect(out).not.toContain('svelte');
    expect(out).not.toContain('data-testid');
    expect(out).not.toContain('onclick');
    expect(out).toContain('<linearGradient id="g1"><stop offset="0%"/></linearGradient>'); // case kept
    expect(wellFormed(out)).toBe(true);
  });

  it('inlines the given styles, leaves out elements whose display is none, and sets the font on the root', () => {
    const styleOf = (n: NodeLike): Record<string, string> => {
      const attrs = Array.from(n.attributes ?? []);
      if (attrs.some((a) => a.name === 'style' && a.value.includes('display:none'))) return { display: 'none' };
      if (n.nodeName === 'text') return { fill: 'rgb(29, 35, 48)', 'font-size': '12px' };
      if (n.nodeName === 'rect') return { fill: 'rgb(184, 190, 201)' };
      return {};
    };
    const out = serializeSvgElement(chart(), { styleOf, fontFamily: 'system-ui, "DejaVu Sans", sans-serif', background: '#ffffff' });
    expect(out).toContain('style="font-family:system-ui, &quot;DejaVu Sans&quot;, sans-serif"');
    expect(out).toContain('<rect x="0" y="0" width="100%" height="100%" fill="#ffffff"/>');
    expect(out).toContain('style="fill:rgb(29, 35, 48);font-size:12px"');
    expect(out).toContain('<rect x="1" y="2" width="3" height="4" fill="#b8bec9" style="fill:rgb(184, 190, 201)">');
    expect(out).not.toContain('<circle');
    expect(out).not.toContain('display');
    expect(wellFormed(out)).toBe(true);
  });

  it('writes a given viewBox (background covering it) and the prepended/appended markup', () => {
    const out = serializeSvgElement(chart(), {
      viewBox: { x: -24, y: -28, width: 648, height: 352 },
      background: '#fff',
      prepend: '<text>T</text>',
      append: '<text>N</text>',
    });
    expect(out).toContain('viewBox="-24 -28 648 352"');
    expect(out).not.toContain('viewBox="0 0 300 120"');
    expect(out).toContain('<rect x="-24" y="-28" width="648" height="352" fill="#fff"/><text>T</text>');
    expect(out).toContain('<text>N</text></svg>');
    expect(wellFormed(out)).toBe(true);
  });

  it('takes the size from options, adds a viewBox when there is none, and declares xlink when used', () => {
    const out = serializeSvgElement(el('svg', {}, el('use', { 'xlink:href': '#a' })), { width: 640, height: 480 });
    expect(out).toContain('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="640" height="480" viewBox="0 0 640 480">');
    expect(wellFormed(out)).toBe(true);
  });

  it('is deterministic and refuses anything but an <svg>', () => {
    expect(serializeSvgElement(chart())).toBe(serializeSvgElement(chart()));
    expect(() => serializeSvgElement(el('div'))).toThrow(/<svg>/);
  });
});

describe('layoutCanvasRows', () => {
  const measure = (s: string) => s.length * 7;
  it('stacks rows under a title with a label column as wide as the longest label', () => {
    const L = layoutCanvasRows(
      [
        { label: 'T-shirt/top', sub: '300 images', width: 200, height: 40 },
        { label: 'Bag', width: 180, height: 10 },
      ],
      measure,
      'Fashion-MNIST · train',
    );
    expect(L.labelWidth).toBe(77);
    expect(L.titleHeight).toBe(28);
    expect(L.rows[0]).toEqual({ y: 40, height: 40 });
    // a short canvas still gets one text line
    expect(L.rows[1]).toEqual({ y: 86, height: 18 });
    expect(L.height).toBe(86 + 18 + 12);
    expect(L.width).toBe(12 + 77 + 10 + 200 + 12);
  });
  it('caps the label column and handles no rows', () => {
    expect(layoutCanvasRows([{ label: 'x'.repeat(100), width: 10, height: 10 }], measure).labelWidth).toBe(240);
    const empty = layoutCanvasRows([], measure);
    expect(empty.rows).toEqual([]);
    expect(empty.height).toBe(24);
  });
});

describe('exportBox', () => {
  const w = (s: string) => s.length * 7;
  it('keeps the chart box when nothing overflows and there is no text', () => {
    expect(exportBox({ x: 0, y: 0, width: 600, height: 300 }, { x: 10, y: 5, width: 500, height: 280 }, {}, w)).toEqual({
      box: { x: 0, y: 0, width: 600, height: 300 },
      captionAt: null,
      noteAt: null,
    });
  });
  it('grows to hold labels drawn outside the box (with a 4 px pad), a caption line above and a note below', () => {
    const r = exportBox({ x: 0, y: 0, width: 600, height: 300 }, { x: -20, y: 0, width: 640, height: 300 }, { caption: 'Title', note: 'legend' }, w);
    expect(r.box).toEqual({ x: -24, y: -28, width: 648, height: 352 });
    expect(r.captionAt).toEqual({ x: -16, y: -9 });
    expect(r.noteAt).toEqual({ x: -16, y: 316 });
  });
  it('widens for a caption longer than the chart', () => {
    const r = exportBox({ x: 0, y: 0, width: 100, height: 50 }, null, { caption: 'x'.repeat(40) }, w);
    expect(r.box.width).toBe(16 + 280);
  });
});
