/**
 * Feature sources in the Data tab (production build): the embedded backbone computed offline with progress and then
 * cached (a reload finds it cached, nothing recomputed), its PCA map coloured by class; the CLIP-vision path on the
 * tiny self-hosted fixture (/models/cil-lab/clip-vision-tiny) on wasm after its download button, which says the size
 * first; uploads of feature files with a message for a bad one. No request leaves 127.0.0.1.
 * The experiments that extract or train are the default with 40 training and 10 test images per class (the map then
 * has 6 × 40 points) and one epoch a task (SMALL below): the same paths as the default's 300 / 100 and 3 epochs, at a
 * fraction of the work.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { defaultConfig } from '../../src/core/config/schema';
import { encodeConfigToHash } from '../../src/core/config/url-codec';
import { writeFeaturesNpz } from '../../src/data/features/npz';
import { getClassList } from '../../src/core/classes/builtin';
import { pageConfig } from './harness/page-config';
import { extractAndTrainOn, useFixtureEncoder } from './harness/fixture-encoder';
import { openTab } from './harness/open-tab';
import { honestNpz } from '../unit/drills/hostile-files';
import { startTimerProbe, stopTimerProbe } from './harness/page-probes';

mkdirSync('test-results/screenshots', { recursive: true });

/** The default experiment, smaller: 40 training and 10 test images per class, one epoch a task. */
const SMALL = { ...defaultConfig(), data: { trainPerClass: 40, testPerClass: 10 }, training: { ...defaultConfig().training, epochs: 1 } };
const SMALL_LINK = `/${encodeConfigToHash(SMALL as never)}`;

async function openData(page: Page, path = '/') {
  const got = await openTab(page, 'Data', path);
  await expect(page.getByTestId('feature-sources')).toBeVisible();
  return got;
}

test('the embedded backbone: not computed, computed with progress, cached across a reload, its map coloured by class', async ({ page }) => {
  test.setTimeout(180_000);
  const { errors, outside } = await openData(page, SMALL_LINK);
  const row = page.getByTestId('source-backbone');
  await expect(row).toContainText('stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)');
  await expect(row.getByTestId('source-state')).toHaveText(/not computed/, { timeout: 60_000 });
  await row.getByTestId('source-compute').click();
  await expect(row.getByTestId('source-progress')).toBeVisible();
  await expect(row.getByTestId('source-state')).toHaveText(/cached · \d+(\.\d+)? MB/, { timeout: 120_000 });

  await row.getByTestId('source-map').click();
  const map = page.getByTestId('feature-map');
  await expect(map.locator('circle')).toHaveCount(6 * 40);
  await expect(map.getByTestId('feature-map-legend').locator('li')).toHaveCount(6);
  await expect(map).toContainText(/PC1 \(\d+\.\d % of the variance\)/);
  await expect(map).toContainText(/% of them lie nearer their own class's centre/);
  await page.getByTestId('feature-sources').screenshot({ path: 'test-results/screenshots/features-data-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('feature-sources').screenshot({ path: 'test-results/screenshots/features-data-390.png' });

  await page.reload();
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Data' }).click();
  await expect(page.getByTestId('source-backbone').getByTestId('source-state')).toHaveText(/cached/, { timeout: 60_000 });
  expect(errors).toEqual([]);
  expect(outside).toEqual([]);
});

test('CLIP vision on the self-hosted fixture: the button says the size, then extracts on wasm and caches; the Ground-truth lab trains on them', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { errors, outside } = await openData(page, SMALL_LINK);
  await useFixtureEncoder(page);
  const row = page.getByTestId('source-encoder');
  await expect(row).toContainText('image encoder clip-vision-tiny (q8)');
  await expect(row.getByTestId('source-state')).toHaveText(/not computed/, { timeout: 60_000 });
  await page.getByTestId('encoder-run').click(); // asks the size (HEAD requests only)
  await expect(page.getByTestId('encoder-run')).toHaveText(/Download \d+\.\d\d MB and extract features/, { timeout: 30_000 });
  await page.getByTestId('encoder-run').click();
  await expect(row.getByTestId('source-state')).toHaveText(/cached · /, { timeout: 150_000 });
  await expect(page.getByTestId('encoder-device-note')).toContainText('Runs on wasm');
  await row.getByTestId('source-map').click();
  await expect(page.getByTestId('feature-map').locator('circle')).toHaveCount(6 * 40);

  // "Train on these": the experiment (its link) trains on the cached features; the Ground-truth lab reads them from
  // the cache and trains the head and a pre-trained method on them, nothing extracted again
  await row.getByTestId('source-use').click();
  await expect(row.getByTestId('source-in-use')).toBeVisible();
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Ground truth' }).click();
  await expect(page.getByTestId('gt-features-label')).toContainText('clip-vision-tiny');
  await page.getByTestId('gt-strategy-simplecil').check();
  await expect(page.getByTestId('gt-run')).toBeEnabled({ timeout: 60_000 });
  await page.getByTestId('gt-run').click();
  await expect(page.getByTestId('gt-order-row-finetune')).not.toContainText(' of 90', { timeout: 120_000 });
  await expect(page.getByTestId('gt-order-row-simplecil')).toContainText('0.0 pts (invariant)');
  await page.screenshot({ path: 'test-results/screenshots/gt-encoder-features-1280.png', fullPage: true });
  expect(errors).toEqual([]);
  expect(outside).toEqual([]);
});

test('an honest .npz declaring 800 MB of float64 is read off the page: a 50 ms timer never waits a second, and its row appears', async ({ page }) => {
  test.setTimeout(180_000);
  const { errors } = await openData(page);
  // the experiment's dataset shown first (its sample grid is drawn on the page): the timer measures the upload alone
  await expect(page.getByTestId('grid-row')).toHaveCount(10, { timeout: 60_000 });
  // 10 000 × 10 000 float64 zeros (the values bound), made here: 0.9 MB on disk
  const npz = honestNpz(10_000, 10_000);
  await startTimerProbe(page);
  const t0 = Date.now();
  await page.getByTestId('features-upload').setInputFiles({ name: 'honest800.npz', mimeType: 'application/zip', buffer: Buffer.from(npz) });
  await expect(page.getByTestId('features-uploading')).toContainText('Reading honest800.npz in the background');
  const row = page.getByTestId('source-upload');
  await expect(row).toContainText(/uploaded features honest800\.npz \(10\s?000 rows × 10\s?000\)/, { timeout: 150_000 });
  await expect(page.getByTestId('features-uploading')).toHaveCount(0);
  const { ticks, worst } = await stopTimerProbe(page);
  console.log(
    `Data tab, honest 800 MB .npz: row after ${Date.now() - t0} ms; the page's 50 ms timer fired ${ticks} times, its longest wait ${Math.round(worst)} ms`,
  );
  expect(ticks).toBeGreaterThan(10);
  expect(worst).toBeLessThan(1000);
  await expect(page.getByTestId('features-upload-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('feature uploads: a bad CSV gets one message and nothing is kept; a good one is listed and mapped', async ({ page }) => {
  const { errors } = await openData(page);
  const input = page.getByTestId('features-upload');
  await input.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('label,a,b\n0,1,2\n1,NaN,2\n') });
  await expect(page.getByTestId('features-upload-error')).toHaveText(/line 3 of bad\.csv column "a" is "NaN"/);
  await expect(page.getByTestId('source-upload')).toHaveCount(0);
  const lines = ['label,class_name,split,f0,f1,f2'];
  for (let i = 0; i < 40; i++)
    lines.push(`${i % 2},${i % 2 ? 'dog' : 'cat'},${i < 30 ? 'train' : 'test'},${(i % 2) * 5 + (i % 7) / 7},${(i % 3) / 3},${i % 2}`);
  await input.setInputFiles({ name: 'mine.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  const row = page.getByTestId('source-upload');
  await expect(row).toContainText('uploaded features mine.csv (40 rows × 3)');
  await expect(row.getByTestId('source-state')).toHaveText(/cached/);
  await expect(page.getByTestId('features-upload-error')).toHaveCount(0);
  await row.getByTestId('source-map').click();
  await expect(page.getByTestId('feature-map').locator('circle')).toHaveCount(30);
  expect(errors).toEqual([]);
});

/** CIFAR-100 binary records (coarse label, fine label, 3 072 bytes CHW) of classes 0–5, `perClass` each, a pattern per class. */
function cifar100Batch(perClass: number, salt: number): Buffer {
  const rec = 2 + 3072;
  const out = Buffer.alloc(6 * perClass * rec);
  for (let c = 0; c < 6; c++)
    for (let i = 0; i < perClass; i++) {
      const at = (c * perClass + i) * rec;
      out[at] = 0;
      out[at + 1] = c;
      for (let p = 0; p < 3072; p++) out[at + 2 + p] = (((p >> 6) % 6 === c ? 200 : 40) + ((p * 7 + i * 13 + salt) % 31)) & 255;
    }
  return out;
}

test("CIFAR-100 from the user's own files: CLIP-vision features extracted in the Data tab, then the Ground-truth lab trains on them", async ({ page }) => {
  test.setTimeout(240_000);
  // the experiment names CIFAR-100's first 6 classes (as the Orderings lab's dataset picker writes them)
  const { errors, outside } = await openData(page, `/${encodeConfigToHash({ ...SMALL, dataset: { id: 'cifar100' } } as never)}`);
  // the user's train.bin, test.bin and fine_label_names.txt (the archive's files, a few images of classes 0–5)
  await page.getByTestId('upload').setInputFiles([
    { name: 'fine_label_names.txt', mimeType: 'text/plain', buffer: Buffer.from(getClassList('cifar100').classes.join('\n') + '\n') },
    { name: 'train.bin', mimeType: 'application/octet-stream', buffer: cifar100Batch(10, 0) },
    { name: 'test.bin', mimeType: 'application/octet-stream', buffer: cifar100Batch(5, 17) },
  ]);
  await expect(page.getByTestId('data-title')).toContainText('fine_label_names.txt + 2 more · 100 classes');
  await useFixtureEncoder(page);
  await extractAndTrainOn(page);

  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Ground truth' }).click();
  await expect(page.getByTestId('gt-dataset').locator('option:checked')).toHaveText('CIFAR-100 · cached features');
  await expect(page.getByTestId('gt-features-label')).toContainText('clip-vision-tiny');
  await page.getByTestId('gt-strategy-simplecil').check();
  await expect(page.getByTestId('gt-run')).toBeEnabled({ timeout: 60_000 });
  await page.getByTestId('gt-run').click();
  await expect(page.getByTestId('gt-order-row-finetune')).not.toContainText(' of 90', { timeout: 120_000 });
  await expect(page.getByTestId('gt-order-row-simplecil')).toContainText('0.0 pts (invariant)');
  expect(errors).toEqual([]);
  expect(outside).toEqual([]);
});

test('an uploaded .npz of CIFAR-100 classes: "Train on these" opens them as CIFAR-100, and the Ground-truth lab runs on them', async ({ page }) => {
  test.setTimeout(180_000);
  const { errors, outside } = await openData(page, SMALL_LINK);
  // 6 CIFAR-100 classes as a researcher's export names them; 20 training and 10 test rows each, 8 dimensions, one
  // cluster per class (deterministic)
  const classNames = ['apple', 'aquarium_fish', 'baby', 'bear', 'beaver', 'bed'];
  const d = 8;
  const rows: { label: number; split: number }[] = [];
  for (let c = 0; c < 6; c++) for (let i = 0; i < 30; i++) rows.push({ label: c, split: i < 20 ? 0 : 1 });
  const features = new Float32Array(rows.length * d).map((_, k) => {
    const r = Math.floor(k / d);
    const j = k % d;
    return (j === rows[r].label ? 3 : 0) + Math.sin(r * 12.9898 + j * 78.233) * 0.8;
  });
  const npz = writeFeaturesNpz({
    features,
    n: rows.length,
    d,
    labels: Int32Array.from(rows.map((r) => r.label)),
    split: Uint8Array.from(rows.map((r) => r.split)),
    classNames,
  });
  await page.getByTestId('features-upload').setInputFiles({ name: 'c100-6.npz', mimeType: 'application/zip', buffer: Buffer.from(npz) });
  const row = page.getByTestId('source-upload');
  await expect(row).toContainText('uploaded features c100-6.npz (180 rows × 8)');
  await row.getByTestId('source-use').click();
  await expect(row.getByTestId('source-in-use')).toBeVisible();
  await expect(page.getByTestId('feature-sources')).toContainText("For the experiment's CIFAR-100 classes apple, aquarium_fish, baby, bear, beaver, bed");

  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Ground truth' }).click();
  await expect(page.getByTestId('gt-dataset').locator('option:checked')).toHaveText('CIFAR-100 · cached features');
  await expect(page.getByTestId('gt-foreign-dataset')).toHaveCount(0);
  await expect(page.getByTestId('gt-features-label')).toContainText('uploaded features c100-6.npz');
  await page.getByTestId('gt-strategy-simplecil').check();
  await expect(page.getByTestId('gt-run')).toBeEnabled({ timeout: 60_000 });
  await page.getByTestId('gt-run').click();
  await expect(page.getByTestId('gt-order-row-finetune')).not.toContainText(' of 90', { timeout: 120_000 });
  await expect(page.getByTestId('gt-order-row-simplecil')).toContainText('0.0 pts (invariant)');
  await page.screenshot({ path: 'test-results/screenshots/gt-upload-cifar100-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('gt-dataset').screenshot({ path: 'test-results/screenshots/gt-upload-cifar100-390.png' });
  expect(errors).toEqual([]);
  expect(outside).toEqual([]);
});

test('a link with the backbone and the prototypes of the feature source: the Orderings lab orders by them', async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const link = encodeConfigToHash({
    ...SMALL,
    features: { source: 'backbone', seed: 0 },
    model: { kind: 'head', hidden: [] },
    similarity: { kind: 'features' },
  } as never);
  await page.goto(`/${link}`);
  await expect(page.getByTestId('source-prototypes')).toBeChecked();
  await expect(page.getByTestId('similarity-description')).toContainText(
    'cosine similarity of class prototypes of stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)',
    { timeout: 150_000 },
  );
  expect(errors).toEqual([]);
});

test('Your classes: the encoder asks nothing until its button, then says the size; a self-hosted folder is ready without one', async ({ page }) => {
  const { errors, outside } = await openTab(page, 'Your classes');
  const box = page.getByTestId('oc-encoder-box');
  await expect(box).toHaveAttribute('open', '');
  await expect(page.getByTestId('oc-encoder-run')).toHaveText('Check the download size');
  await page.getByTestId('oc-encoder-weights').selectOption('self-hosted');
  await page.getByTestId('oc-encoder-folder').fill('/models/cil-lab/');
  await page.getByTestId('oc-encoder-folder').dispatchEvent('change');
  await page.getByTestId('oc-encoder-model').fill('clip-vision-tiny');
  await page.getByTestId('oc-encoder-model').dispatchEvent('change');
  await expect(box.locator('summary')).toContainText('✓ Ready');
  await expect(page.getByTestId('oc-encoder')).toContainText("clip-vision-tiny (q8) from this site's own folder");
  await page.getByTestId('oc-encoder-run').click();
  await expect(page.getByTestId('oc-encoder-run')).toHaveText(
    /Download \d+\.\d\d MB and use it for your classes|Use it for your classes \(nothing to download\)/,
  );
  await expect
    .poll(() => JSON.stringify(pageConfig(page)?.ownClasses?.encoder))
    .toBe(JSON.stringify({ source: 'encoder', model: 'clip-vision-tiny', precision: 'q8', weights: { kind: 'self-hosted', path: '/models/cil-lab/' } }));
  await page.getByTestId('oc-encoder-box').screenshot({ path: 'test-results/screenshots/own-classes-encoder-1280.png' });
  expect(errors).toEqual([]);
  expect(outside).toEqual([]);
});
