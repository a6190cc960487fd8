/** Probes a spec runs in the page: how long its timers wait (is the main thread free?), and what a QR code on it says. */
import jsQR from 'jsqr';
import type { Locator, Page } from '@playwright/test';

/** Start a 50 ms timer on the page that records how long each tick waited. */
export async function startTimerProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { gaps: number[]; timer: number };
    w.gaps = [];
    let last = performance.now();
    w.timer = window.setInterval(() => {
      const now = performance.now();
      w.gaps.push(now - last);
      last = now;
    }, 50);
  });
}

/** Stop the timer of `startTimerProbe`: how many times it fired and its longest wait (ms). */
export async function stopTimerProbe(page: Page): Promise<{ ticks: number; worst: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { gaps: number[]; timer: number };
    window.clearInterval(w.timer);
    return { ticks: w.gaps.length, worst: Math.max(0, ...w.gaps) };
  });
}

/** The text a QR code drawn as SVG says: the SVG drawn on a canvas of `side` px in the page, the pixels read by jsQR here. */
export async function decodeQrSvg(svg: Locator, side = 400): Promise<string | null> {
  const px = await svg.evaluate(async (el, s) => {
    const img = new Image();
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(el))}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = s;
    const g = canvas.getContext('2d')!;
    g.imageSmoothingEnabled = false;
    g.drawImage(img, 0, 0, s, s);
    return Array.from(g.getImageData(0, 0, s, s).data);
  }, side);
  return jsQR(Uint8ClampedArray.from(px), side, side)?.data ?? null;
}
