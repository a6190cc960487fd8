/**
 * A lesson's link as a QR code for the handout: the modules from the `qrcode` library, drawn as one SVG path of unit
 * squares, so the page renders it as ordinary markup (no HTML string). Pure.
 *
 * Error correction M (15 % of the code may be smudged) where the link fits it, else L (7 %): a QR code's largest
 * version (40, 177 × 177 modules) holds 2 331 bytes at M and 2 953 at L. A longer link (a teacher's lesson with three
 * long texts) has no QR code: `qrShape` gives null and the handout says so, printing the link and the chart as ever.
 */
import { create } from 'qrcode';

/** The most bytes a QR code holds (version 40, error correction L, byte mode). */
export const QR_MAX_BYTES = 2953;
/** The most bytes a QR code holds at error correction M. */
const QR_MAX_BYTES_M = 2331;

/** The error correction level for `text`, or null when no QR code holds it. */
export function qrLevel(text: string): 'M' | 'L' | null {
  const bytes = new TextEncoder().encode(text).length;
  return bytes <= QR_MAX_BYTES_M ? 'M' : bytes <= QR_MAX_BYTES ? 'L' : null;
}

function modulesOf(text: string): { size: number; data: Uint8Array } | null {
  const level = qrLevel(text);
  if (!level) return null;
  try {
    return create(text, { errorCorrectionLevel: level }).modules;
  } catch {
    // the library's own refusal (a mode split that needs more room than byte mode alone): no code rather than an error
    return null;
  }
}

export interface QrShape {
  /** modules per side, without the quiet zone */
  size: number;
  /** the dark modules as an SVG path in module units, offset by the quiet zone */
  path: string;
  /** modules per side with the quiet zone (the viewBox) */
  box: number;
}

/** The QR code of `text` with a quiet zone of `margin` modules (4: the standard's); null when the text is too long for one. */
export function qrShape(text: string, margin = 4): QrShape | null {
  const modules = modulesOf(text);
  if (!modules) return null;
  const size = modules.size;
  const data = modules.data;
  let path = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!data[y * size + x]) continue;
      // runs of dark modules on a row as one rectangle
      let run = 1;
      while (x + run < size && data[y * size + x + run]) run++;
      path += `M${x + margin} ${y + margin}h${run}v1h-${run}z`;
      x += run - 1;
    }
  }
  return { size, path, box: size + 2 * margin };
}

/** The code as RGBA pixels (`scale` pixels a module, quiet zone included): what a decoder reads in the tests; null when too long. */
export function qrPixels(text: string, scale = 4, margin = 4): { width: number; height: number; data: Uint8ClampedArray } | null {
  const modules = modulesOf(text);
  if (!modules) return null;
  const size = modules.size;
  const side = (size + 2 * margin) * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const mx = Math.floor(x / scale) - margin;
      const my = Math.floor(y / scale) - margin;
      if (mx >= 0 && my >= 0 && mx < size && my < size && modules.data[my * size + mx]) {
        const i = (y * side + x) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
    }
  }
  return { width: side, height: side, data };
}
