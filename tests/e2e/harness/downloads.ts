/** What a spec reads from a file the page downloaded: its bytes, and a PNG's signature and pixels. */
import type { Download } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// pngjs (a devDependency) has no type declarations
export const { PNG } = createRequire(import.meta.url)('pngjs') as { PNG: { sync: { read(b: Buffer): { width: number; height: number; data: Buffer } } } };

/** The downloaded file's bytes. */
export async function downloaded(d: Download): Promise<Buffer> {
  const path = await d.path();
  return readFileSync(path);
}
