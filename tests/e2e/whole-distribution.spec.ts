/**
 * The Ground-truth lab's "Every ordering, exactly" panel end to end in Chromium, offline (docs/science.md §9 "The whole
 * distribution"): uploaded features of 12 CIFAR-100 classes (synthetic clusters, 24 dimensions, small enough to be
 * quick), SimpleCIL, 4 tasks — all 369 600 orderings computed in a worker with progress while a 50 ms timer on the
 * page never waits more than a second; the AIA histogram's bars hold every ordering; a written order and a PyCIL log's
 * orders (the Import dialog) are placed with their sentences. One spec, one small config (the suite's budget).
 * Screenshots: test-results/screenshots/gt-whole-{1280,390}.png and gt-whole-import-{1280,390}.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { getClassList } from '../../src/core/classes/builtin';
import { rsClassOrder } from '../../src/core/protocols/rs';
import { syntheticFeatures } from '../../src/core/ptm/synthetic';
import { writeFeaturesNpz } from '../../src/data/features/npz';

mkdirSync('test-results/screenshots', { recursive: true });

const NAMES = getClassList('cifar100').classes.slice(0, 12);

function npz(): Buffer {
  const set = syntheticFeatures({ classes: 12, dims: 24, trainPerClass: 30, testPerClass: 20, separation: 0.32, seed: 3 });
  return Buffer.from(writeFeaturesNpz({ ...set, classNames: NAMES }));
}

/** A PILOT-style log of two runs (seeds 1993 and 0): their class orders and accuracy curves. */
function pilotLog(): string {
  const lines: string[] = [];
  for (const seed of [1993, 0]) {
    lines.push('x [trainer.py] => init_cls: 3', 'x [trainer.py] => increment: 3', 'x [trainer.py] => model_name: simplecil', `x [trainer.py] => seed: ${seed}`);
    lines.push(`x [data_manager.py] => [${rsClassOrder(seed, 12).join(', ')}]`, 'x [trainer.py] => CNN top1 curve: [90.0, 85.0, 80.0, 75.0]');
  }
  return lines.join('\n');
}

async function offline(page: Page): Promise<void> {
  await page.context().route('**/*', (route) => {
    const host = new URL(route.request().url()).hostname;
    return host === '127.0.0.1' || host === 'localhost' ? route.continue() : route.abort();
  });
}

test('all 369 600 orderings of 12 classes in a worker, the page responsive; a written order and a PyCIL log placed', async ({ page }) => {
  test.setTimeout(180_000);
  await offline(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Data' }).click();
  await page.getByTestId('features-upload').setInputFiles({ name: 'cifar12.npz', mimeType: 'application/octet-stream', buffer: npz() });
  const row = page.getByTestId('source-upload');
  await expect(row.getByTestId('source-state')).toHaveText(/cached/, { timeout: 30_000 });
  await row.getByTestId('source-use').click();
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Ground truth' }).click();
  // "Train on these" takes the first 6 classes: add the other 6, then 4 tasks of 3
  for (const name of NAMES.slice(6)) await page.getByTestId('gt-class-chips').getByRole('button', { name, exact: true }).click();
  await page.getByTestId('gt-tasks').fill('4');
  await page.getByTestId('gt-strategy-simplecil').check();
  await expect(page.getByTestId('gt-omega')).toHaveText('369\u2009600');

  const run = page.getByTestId('gt-whole-run');
  await expect(run).toHaveText('Compute all 369\u2009600', { timeout: 60_000 });
  await expect(run).toBeEnabled({ timeout: 60_000 });
  // the house check: a 50 ms timer on the page never waits more than a second while the worker computes
  await page.evaluate(() => {
    const w = window as Window & { __gap?: number };
    w.__gap = 0;
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      w.__gap = Math.max(w.__gap!, now - last);
      last = now;
    }, 50);
  });
  await run.click();
  await expect(page.getByTestId('gt-whole-path')).toContainText('exact over all 369\u2009600 orderings: 1\u2009365 states', { timeout: 120_000 });
  const gap = await page.evaluate(() => (window as Window & { __gap?: number }).__gap!);
  expect(gap).toBeLessThan(1000);
  // the histogram's bars hold every ordering; the final accuracy is one value for SimpleCIL
  const counts = await page
    .getByTestId('gt-whole-aia')
    .locator('rect.bin')
    .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-count'))));
  expect(counts).toHaveLength(40);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(369600);
  await expect(page.getByTestId('gt-whole-final-one')).toContainText('for every ordering');
  await expect(page.getByTestId('gt-whole-protocols')).toContainText('RS seed 1993');
  await expect(page.getByTestId('gt-whole-protocols')).toContainText('EDGE hard');

  // a written order, by names and tasks
  await page
    .getByTestId('gt-whole-place-text')
    .fill(`${NAMES.slice(9).join(', ')} | ${NAMES.slice(6, 9).join(', ')} | ${NAMES.slice(3, 6).join(', ')} | ${NAMES.slice(0, 3).join(', ')}`);
  await page.getByTestId('gt-whole-place').click();
  await expect(page.getByTestId('gt-whole-placed').first()).toContainText(
    /^Your order (sits (at the \d+(st|nd|rd|th) percentile|in the (lowest|highest) 1%)|has the (highest|lowest) AIA)/,
  );
  await expect(page.getByTestId('gt-whole-placed').first()).toContainText('exact over all 369\u2009600 orderings');
  await page.getByTestId('gt-whole-place-text').fill('0 1 2');
  await page.getByTestId('gt-whole-place').click();
  await expect(page.getByTestId('gt-whole-place-error')).toContainText('the order has 3 classes; the experiment has 12');

  await page.getByTestId('gt-whole').scrollIntoViewIfNeeded();
  await page.getByTestId('gt-whole').screenshot({ path: 'test-results/screenshots/gt-whole-1280.png' });

  // the Import dialog: a PyCIL log's two orders, placed
  await page.getByTestId('gt-import-open').click();
  await page.getByTestId('gt-import-file').setInputFiles({ name: 'run.log', mimeType: 'text/plain', buffer: Buffer.from(pilotLog()) });
  const placeRun = page.getByTestId('gt-import-place-run');
  await expect(placeRun).toHaveText('Place the 2 orders');
  await placeRun.click();
  const placed = page.getByTestId('gt-import-placed');
  await expect(placed).toHaveCount(2, { timeout: 30_000 });
  await expect(placed.first()).toContainText(/^Your seed-1993 order /);
  await expect(placed.first()).toContainText('The log reports AIA 82.5% and final accuracy 75.0% for this order from its own run');
  await page.getByTestId('gt-import-dialog').screenshot({ path: 'test-results/screenshots/gt-whole-import-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('gt-import-place').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/gt-whole-import-390.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('gt-import-close').click();
  await expect(page.getByTestId('gt-whole-placed')).toHaveCount(3);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('gt-whole').scrollIntoViewIfNeeded();
  await page.getByTestId('gt-whole').screenshot({ path: 'test-results/screenshots/gt-whole-390.png' });
  expect(errors).toEqual([]);
});
