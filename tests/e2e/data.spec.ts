import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import { PNG, PNG_SIGNATURE, downloaded } from './harness/downloads';
import { DIGITS_EXPERIMENT } from './harness/page-config';

mkdirSync('test-results/screenshots', { recursive: true });

const EMOJI_CLASSES = (JSON.parse(readFileSync('public/data/emoji/meta.json', 'utf8')) as { classes: string[] }).classes.length;
const PARSER_FIXTURES = 'tests/fixtures/parsers';

async function openData(page: Page, path = DIGITS_EXPERIMENT) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(path);
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Data' }).click();
  return errors;
}

/** For every grid canvas: is it drawn (right size) and not all one colour? */
async function canvasStats(page: Page) {
  return page.getByTestId('grid-canvas').evaluateAll((els) =>
    els.map((el) => {
      const c = el as HTMLCanvasElement;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let uniform = true;
      for (let i = 4; i < d.length && uniform; i += 4) uniform = d[i] === d[0] && d[i + 1] === d[1] && d[i + 2] === d[2];
      return { w: c.width, h: c.height, blank: uniform || c.width === 0 };
    }),
  );
}

async function expectGrid(page: Page, rows: number) {
  await expect(page.getByTestId('grid-row')).toHaveCount(rows);
  // every row's canvas drawn (polled: a resize to a phone's width draws them again)
  await expect.poll(async () => (await canvasStats(page)).length).toBe(rows);
  await expect.poll(async () => (await canvasStats(page)).filter((s) => s.blank)).toEqual([]);
}

// --- a tiny MNIST-style IDX set, made here: 10 classes, class k = a bar at column 2 + 2k, 28×28 ---
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
function idxImages(labels: number[], magic = 0x00000803): Buffer {
  const px = Buffer.alloc(labels.length * 784);
  labels.forEach((k, i) => {
    for (let y = 4; y < 24; y++) for (let x = 2 + 2 * k; x < 5 + 2 * k; x++) px[i * 784 + y * 28 + x] = 255 - ((i * 37 + y * 5) % 80);
    px[i * 784 + (i % 28)] = 128; // every image a little different
  });
  return Buffer.concat([u32(magic), u32(labels.length), u32(28), u32(28), px]);
}
function idxLabels(labels: number[]): Buffer {
  return Buffer.concat([u32(0x00000801), u32(labels.length), Buffer.from(labels)]);
}
const TRAIN = Array.from({ length: 40 }, (_, i) => i % 10);
const TEST = Array.from({ length: 20 }, (_, i) => (i * 3) % 10);
const file = (name: string, buffer: Buffer) => ({ name, mimeType: 'application/octet-stream', buffer });

test("the tab opens on the experiment's dataset: Fashion-MNIST for the default experiment", async ({ page }) => {
  const errors = await openData(page, '/');
  await expect(page.getByTestId('data-title')).toContainText('Fashion-MNIST', { timeout: 60_000 });
  await expect(page.getByTestId('builtin-fashion-mnist')).toBeChecked();
  expect(errors).toEqual([]);
});

test('Digits (an experiment on Digits): 10 rows of drawn samples, a summary table and the sources with licences', async ({ page }) => {
  const errors = await openData(page);
  await expect(page.getByRole('heading', { name: 'Sample images per class' })).toBeVisible();
  await expect(page.getByTestId('data-title')).toContainText('Digits (8×8)');
  await expect(page.getByTestId('data-title')).toContainText('seed 0');
  await expectGrid(page, 10);
  await expect(page.getByTestId('grid-row').first()).toContainText('zero');
  await expect(page.getByTestId('grid-row').first()).toContainText('142 images');
  // 8 samples per row
  await expect(page.getByTestId('sample-grid')).toHaveAttribute('data-columns', '8');
  const table = page.getByTestId('summary-table');
  await expect(table.locator('tr[data-split="train"]')).toContainText('1\u2009438');
  await expect(table.locator('tr[data-split="test"]')).toContainText('359');
  await expect(page.getByTestId('sources')).toContainText('CC-BY-4.0');
  // a bad S is said next to the input, and the grid stays
  await page.getByTestId('per-class').fill('0');
  await page.getByTestId('per-class').dispatchEvent('change');
  await expect(page.getByTestId('sample-error')).toContainText('from 1 to 64');
  await page.getByTestId('per-class').fill('8');
  await page.getByTestId('per-class').dispatchEvent('change');
  await expect(page.getByTestId('sample-error')).toHaveCount(0);
  // another seed draws other samples
  const before = await page
    .getByTestId('grid-canvas')
    .first()
    .evaluate((c) => (c as HTMLCanvasElement).toDataURL());
  await page.getByTestId('redraw').click();
  await expect(page.getByTestId('data-title')).toContainText('seed 1');
  expect(
    await page
      .getByTestId('grid-canvas')
      .first()
      .evaluate((c) => (c as HTMLCanvasElement).toDataURL()),
  ).not.toBe(before);
  await page.screenshot({ path: 'test-results/screenshots/data-digits-1280.png', fullPage: true });

  // a phone (390 px): the grid wraps instead of overflowing
  await page.setViewportSize({ width: 390, height: 844 });
  await expectGrid(page, 10);
  // polled: after a resize the page lays out (and the grid redraws) at the new width, not in the same frame
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/screenshots/data-digits-390.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('Fashion-MNIST (55 MB): a load can be cancelled and the dataset on screen stays; a later one loads 10 classes, train and test splits, and its grid downloads as a PNG', async ({
  page,
}) => {
  const errors = await openData(page);
  await expectGrid(page, 10);
  // hold the big file back so the load is surely in flight when Cancel is pressed
  await page.route('**/data/fashion-mnist/train-images.u8', async (route) => {
    await new Promise((r) => setTimeout(r, 2_000));
    await route.continue().catch(() => {});
  });
  await page.getByTestId('builtin-fashion-mnist').check();
  const bar = page.getByTestId('load-progress');
  await expect(bar).toBeVisible();
  // the bar names the file and its bytes, and the whole download's bytes (from meta.json)
  await expect(bar).toContainText(/Downloading \S+\.u8 — [\d.]+ [kM]?B of [\d.]+ [kM]?B · [\d.]+ [kM]?B of 55\.0 MB in all/);
  await page.screenshot({ path: 'test-results/screenshots/data-progress-1280.png', clip: { x: 0, y: 0, width: 640, height: 800 } });
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('load-notice')).toContainText('Loading was cancelled. Still showing Digits (8×8).');
  await expect(page.getByTestId('builtin-digits')).toBeChecked();
  await expect(page.getByTestId('data-title')).toContainText('Digits (8×8)');
  await expectGrid(page, 10);

  // a later load works, with its progress bar again
  await page.unroute('**/data/fashion-mnist/train-images.u8');
  const sawProgress = bar.waitFor({ timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  await page.getByTestId('builtin-fashion-mnist').check();
  expect(await sawProgress).toBe(true);
  await expect(page.getByTestId('data-title')).toContainText('Fashion-MNIST', { timeout: 60_000 });
  await expectGrid(page, 10);
  await expect(page.getByTestId('grid-row').last()).toContainText('Ankle boot');
  await expect(page.getByTestId('grid-row').first()).toContainText('6\u2009000 images');
  await expect(page.getByTestId('summary-table').locator('tr[data-split="train"]')).toContainText('60\u2009000');
  await page.screenshot({ path: 'test-results/screenshots/data-fashion-1280.png', fullPage: true });
  // the sample grid is drawn on canvases: its ⤓ menu offers a PNG only
  const gridMenu = page.getByTestId('chart-export').filter({ has: page.getByRole('button', { name: /sample grid/ }) });
  await gridMenu.getByTestId('chart-export-button').click();
  await expect(gridMenu.getByRole('menuitem')).toHaveCount(1);
  const [gridDl] = await Promise.all([page.waitForEvent('download'), gridMenu.getByTestId('export-png').click()]);
  expect(gridDl.suggestedFilename()).toMatch(/^samples_.*_train_seed-\d+\.png$/);
  const gridPng = await downloaded(gridDl);
  await gridDl.saveAs('test-results/screenshots/share-export-sample-grid.png');
  expect([...gridPng.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(PNG.sync.read(gridPng).height).toBeGreaterThan(200);
  await page.getByTestId('split-test').click();
  await expect(page.getByTestId('sample-grid')).toHaveAttribute('data-split', 'test');
  await expect(page.getByTestId('grid-row').first()).toContainText('1\u2009000 images');
  await expectGrid(page, 10);

  // a phone (390 px): the grid wraps instead of overflowing
  await page.setViewportSize({ width: 390, height: 844 });
  await expectGrid(page, 10);
  // polled: after a resize the page lays out (and the grid redraws) at the new width, not in the same frame
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId('sample-grid').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/data-fashion-390.png' });
  expect(errors).toEqual([]);
});

test('Emoji: one row per class, one column per artist style, test-only styles in the test split', async ({ page }) => {
  const errors = await openData(page);
  await expectGrid(page, 10);
  await page.getByTestId('builtin-emoji').check();
  await expect(page.getByTestId('data-title')).toContainText('Emoji objects', { timeout: 60_000 });
  await expectGrid(page, EMOJI_CLASSES);
  await expect(page.getByTestId('sample-grid')).toHaveAttribute('data-columns', '5');
  // ~200 classes: class rows sit side by side at 1280 px
  expect(Number(await page.getByTestId('sample-grid').getAttribute('data-flow'))).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('style-legend')).toContainText('noto');
  await expect(page.getByTestId('about-data')).toContainText('CC-BY-SA-4.0');
  await page.screenshot({ path: 'test-results/screenshots/data-emoji-1280.png' });
  await page.getByTestId('split-test').click();
  await expect(page.getByTestId('sample-grid')).toHaveAttribute('data-columns', '2');
  await expect(page.getByTestId('style-legend')).toContainText('test-only');
  await expect(page.getByTestId('style-legend')).toContainText('twemoji');
  await expectGrid(page, EMOJI_CLASSES);
  await page.screenshot({ path: 'test-results/screenshots/data-emoji-test-1280.png' });
  // the class finder narrows the grid
  await page.getByTestId('class-filter').fill('apple');
  await expect(page.getByTestId('grid-row').first()).toContainText('apple');
  expect(await page.getByTestId('grid-row').count()).toBeLessThan(EMOJI_CLASSES);
  await page.getByTestId('class-filter').fill('');
  await page.screenshot({ path: 'test-results/screenshots/data-emoji-about-1280.png', fullPage: true });
  await page.getByTestId('split-train').click();

  // a phone (390 px): the grid wraps instead of overflowing
  await page.setViewportSize({ width: 390, height: 844 });
  await expectGrid(page, EMOJI_CLASSES);
  // polled: after a resize the page lays out (and the grid redraws) at the new width, not in the same frame
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId('sample-grid').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/data-emoji-390.png' });
  expect(errors).toEqual([]);
});

test("the user's IDX files (gzipped) show as a grid; a bad magic number or a label count ≠ image count is named and the previous data stays", async ({
  page,
}) => {
  const errors = await openData(page);
  await expectGrid(page, 10);
  await page.getByTestId('class-names').fill('c0, c1, c2, c3, c4, c5, c6, c7, c8, c9');
  await page
    .getByTestId('upload')
    .setInputFiles([
      file('train-images-idx3-ubyte.gz', gzipSync(idxImages(TRAIN))),
      file('train-labels-idx1-ubyte.gz', gzipSync(idxLabels(TRAIN))),
      file('t10k-images-idx3-ubyte.gz', gzipSync(idxImages(TEST))),
      file('t10k-labels-idx1-ubyte.gz', gzipSync(idxLabels(TEST))),
    ]);
  await expect(page.getByTestId('data-title')).toContainText('train-images-idx3-ubyte.gz + 3 more');
  await expectGrid(page, 10);
  await expect(page.getByTestId('grid-row').first()).toContainText('c0');
  await expect(page.getByTestId('grid-row').first()).toContainText('4 images');
  await expect(page.getByTestId('summary-table').locator('tr[data-split="test"]')).toContainText('20');
  await expect(page.getByTestId('about-data')).toContainText('MNIST-style IDX files');
  await page.screenshot({ path: 'test-results/screenshots/data-upload-1280.png', fullPage: true });

  // a bad magic number
  await page
    .getByTestId('upload')
    .setInputFiles([file('train-images-idx3-ubyte', idxImages(TRAIN, 0x00000804)), file('train-labels-idx1-ubyte', idxLabels(TRAIN))]);
  const error = page.getByTestId('upload-error');
  await expect(error).toContainText('train-images-idx3-ubyte: bad magic number');
  await expect(error).toContainText('0x00000804');
  await expect(error).toContainText('Still showing train-images-idx3-ubyte.gz + 3 more');
  await expect(page.getByTestId('data-title')).toContainText('train-images-idx3-ubyte.gz + 3 more');
  await expectGrid(page, 10);
  await page.screenshot({ path: 'test-results/screenshots/data-error-1280.png' });

  // label count ≠ image count
  await page
    .getByTestId('upload')
    .setInputFiles([file('train-images-idx3-ubyte', idxImages(TRAIN)), file('train-labels-idx1-ubyte', idxLabels(TRAIN.slice(0, 39)))]);
  await expect(error).toContainText('label count (39 in train-labels-idx1-ubyte) ≠ image count (40 in train-images-idx3-ubyte)');
  await expectGrid(page, 10);
  expect(errors).toEqual([]);
});

test('a CIFAR-10 .tar.gz and a .zip of class folders (decoded in the worker) load; an undecodable image is named', async ({ page }) => {
  const errors = await openData(page);
  await expectGrid(page, 10);
  await page.getByTestId('upload').setInputFiles(`${PARSER_FIXTURES}/cifar10/cifar-10-binary.tar.gz`);
  await expect(page.getByTestId('data-title')).toContainText('cifar-10-binary.tar.gz');
  await expect(page.getByTestId('grid-row')).toHaveCount(10);
  await expect(page.getByTestId('grid-row').first()).toContainText('airplane');

  await page.getByTestId('upload').setInputFiles(`${PARSER_FIXTURES}/zip/shapes.zip`);
  await expect(page.getByTestId('data-title')).toContainText('shapes.zip');
  await expectGrid(page, 3);
  await expect(page.getByTestId('grid-row').nth(2)).toContainText('triangle');
  await expect(page.getByTestId('about-data')).toContainText('1 files in the archive left out');
  await expect(page.getByTestId('split-test')).toBeDisabled();

  await page.getByTestId('upload').setInputFiles(`${PARSER_FIXTURES}/zip/fake-png.zip`);
  await expect(page.getByTestId('upload-error')).toContainText('fake-png.zip');
  await expect(page.getByTestId('upload-error')).toContainText('Still showing shapes.zip');
  await expectGrid(page, 3);
  expect(errors).toEqual([]);
});

test('a zip with two entries of one name: the copies are left out and named, the page stays usable', async ({ page }) => {
  const errors = await openData(page);
  await expectGrid(page, 10);
  // a zip made here: cat/9.png renamed to cat/2.png in its local header and central directory
  const shapes = unzipSync(readFileSync(`${PARSER_FIXTURES}/zip/shapes.zip`));
  const png = (p: string) => shapes[`shapes/${p}`];
  const zip = Buffer.from(
    zipSync(
      { 'cat/1.png': png('circle/c1.png'), 'cat/2.png': png('circle/c2.png'), 'cat/9.png': png('square/s1.png'), 'dog/1.png': png('triangle/t0.png') },
      { level: 0 },
    ),
  );
  const dup = Buffer.from(zip.toString('latin1').split('cat/9.png').join('cat/2.png'), 'latin1');
  await page.getByTestId('upload').setInputFiles(file('dup.zip', dup));
  await expect(page.getByTestId('data-title')).toContainText('dup.zip');
  await page.getByTestId('skipped-files').locator('summary').click();
  await expect(page.getByTestId('skipped-files')).toContainText('cat/2.png: 2 entries of the zip have this name');
  await expect(page.getByTestId('grid-row').first()).toContainText('cat');
  // nothing is stuck: a built-in dataset loads again
  await expect(page.getByTestId('builtin-digits')).toBeEnabled();
  await page.getByTestId('builtin-digits').check();
  await expectGrid(page, 10);
  expect(errors).toEqual([]);
});
