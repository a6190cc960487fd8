// Main-thread cost of a similarity upload on the Orderings page: opens the built app in Debian's
// Chromium, records every long task (PerformanceObserver 'longtask', > 50 ms on the main thread) from choosing the
// file until the orderings of that file are on screen, and prints the longest and their sum.
// Usage: node scripts/measure-upload-longtask.mjs <URL of a running preview> <file> (e.g. a 300 MB .npy of 6 embeddings)
import { chromium } from 'playwright-core';

const [url = 'http://127.0.0.1:4173/', file] = process.argv.slice(2);
if (!file) throw new Error('usage: node scripts/measure-upload-longtask.mjs URL FILE');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--enable-unsafe-webgpu', '--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.addInitScript(() => {
  const w = /** @type {any} */ (window);
  w.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longtasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
});
await page.goto(url);
await page.getByTestId('omega').filter({ hasText: '90' }).waitFor({ timeout: 60_000 });
await page.getByLabel('Upload matrix or embeddings').check();
const t0 = await page.evaluate(() => performance.now());
const wall = Date.now();
await page.getByTestId('upload').setInputFiles(file);
const name = file.split('/').pop();
await page.getByTestId('similarity-description').filter({ hasText: name }).or(page.getByTestId('compute-error')).waitFor({ timeout: 300_000 });
const ref = await page.evaluate(() => (location.hash.length > 0 ? 'link written' : 'no link'));
const tasks = await page.evaluate((start) => /** @type {any} */ (window).__longtasks.filter((t) => t.start >= start), t0);
const longest = Math.max(0, ...tasks.map((t) => t.ms));
const sum = tasks.reduce((s, t) => s + t.ms, 0);
console.log(
  JSON.stringify({
    file: name,
    untilShownMs: Date.now() - wall,
    longTasks: tasks.length,
    each: tasks.map((t) => Math.round(t.ms)),
    longestMs: Math.round(longest),
    sumMs: Math.round(sum),
    ref,
  }),
);
await browser.close();
