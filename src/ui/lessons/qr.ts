/**
 * A lesson's link as a QR code for the handout: the modules from the `qrcode` library (error correction M), drawn as
 * one SVG path of unit squares, so the page renders it as ordinary markup (no HTML string). Pure.
 */
import { create } from 'qrcode';

export interface QrShape {
  /** modules per side, without the quiet zone */
  size: number;
  /** the dark modules as an SVG path in module units, offset by the quiet zone */
  path: string;
  /** modules per side with the quiet zone (the viewBox) */
  box: number;
}

/** The QR code of `text` with a quiet zone of `margin` modules (4: the standard's). */
export function qrShape(text: string, margin = 4): QrShape {
  const qr = create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const data = qr.modules.data;
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

/** The code as RGBA pixels (`scale` pixels a module, quiet zone included): what a decoder reads in the tests. */
export function qrPixels(text: string, scale = 4, margin = 4): { width: number; height: number; data: Uint8ClampedArray } {
  const qr = create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const side = (size + 2 * margin) * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const mx = Math.floor(x / scale) - margin;
      const my = Math.floor(y / scale) - margin;
      if (mx >= 0 && my >= 0 && mx < size && my < size && qr.modules.data[my * size + mx]) {
        const i = (y * side + x) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
    }
  }
  return { width: side, height: side, data };
}
