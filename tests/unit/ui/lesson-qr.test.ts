// The handout's QR code (src/ui/lessons/qr.ts): a decoder (jsQR, a dev dependency) reads back the exact link, for a
// built-in lesson's link and a long teacher's lesson link; the SVG path covers exactly the dark modules.
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { LESSONS, lessonLink, lessonParam, withLessonParam } from '../../../src/core/lessons';
import { QR_MAX_BYTES, qrLevel, qrPixels, qrShape } from '../../../src/ui/lessons/qr';

const decode = (text: string) => {
  const px = qrPixels(text)!;
  return jsQR(px.data, px.width, px.height)?.data ?? null;
};

describe('the handout QR code', () => {
  it("decodes to every built-in lesson's link", () => {
    for (const l of LESSONS) {
      const { search, hash } = lessonLink(l);
      const url = `https://example.org/cil-lab/${search}${hash}`;
      expect(decode(url), l.id).toBe(url);
    }
  });
  it("decodes to a teacher's lesson link that carries its texts", () => {
    const search = withLessonParam('', lessonParam({ title: 'Ω — a long title', text: 'x'.repeat(300), question: 'Why?' }));
    const url = `http://127.0.0.1:5173/${search}${lessonLink(LESSONS[0]).hash}`;
    expect(decode(url)).toBe(url);
  });
  it('takes error correction L for a link too long for M, and gives no code (not an error) for one too long for any', () => {
    // three 600-character texts: about 2 800 characters, past M's 2 331 bytes
    const search = withLessonParam('', lessonParam({ title: 't'.repeat(600), text: 'x'.repeat(600), question: 'q'.repeat(600) }));
    const url = `http://127.0.0.1:5173/${search}${lessonLink(LESSONS[0]).hash}`;
    expect(url.length).toBeGreaterThan(2331);
    expect(url.length).toBeLessThanOrEqual(QR_MAX_BYTES);
    expect(qrLevel(url)).toBe('L');
    expect(decode(url)).toBe(url);
    expect(qrShape(url)!.size).toBeLessThanOrEqual(177);
    // texts that do not fit any code (non-ASCII letters take more bytes)
    const longer = `http://127.0.0.1:5173/${withLessonParam('', lessonParam({ title: 'Ω'.repeat(600), text: 'é'.repeat(600), question: '?' }))}`;
    expect(qrLevel(longer)).toBeNull();
    expect(qrShape(longer)).toBeNull();
    expect(qrPixels(longer)).toBeNull();
  });
  it('draws one unit square per dark module, inside the quiet zone', () => {
    const s = qrShape('hello', 4)!;
    expect(s.box).toBe(s.size + 8);
    const area = [...s.path.matchAll(/h(\d+)v1/g)].reduce((a, m) => a + Number(m[1]), 0);
    const px = qrPixels('hello', 1, 0)!;
    let dark = 0;
    for (let i = 0; i < px.data.length; i += 4) if (px.data[i] === 0) dark++;
    expect(area).toBe(dark);
    expect(dark).toBeGreaterThan(0);
  });
});
