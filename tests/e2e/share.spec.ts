/**
 * Share links, teaching mode, "What exactly ran" and chart exports, end to end in Chromium:
 * - an edited Orderings experiment, shared and opened in a new page, comes back with the same inputs and the same
 *   orderings and S values; editing never adds history entries;
 * - a malformed link and a link from a newer version say what is wrong and leave the page working;
 * - a link that refers to an uploaded file asks for it again, and runs once the same file is given; until then the
 *   previous experiment's results are marked as such and cannot be exported;
 * - teaching mode (`?teach` or the header toggle) renders the base type at ≥ 18 px and folds the left panel;
 * - the "What exactly ran" panel shows the config, its hash and the versions, and downloads the config file;
 * - a chart's ⤓ menu downloads an SVG that parses as XML, a PNG (2×, PNG signature) and a CSV (the Data grid's PNG:
 *   tests/e2e/data.spec.ts).
 * Screenshots: test-results/screenshots/share-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { defaultConfig } from '../../src/core/config/schema';
import { contentHash, encodeConfigToHash } from '../../src/core/config/url-codec';
import { PNG, PNG_SIGNATURE, downloaded } from './harness/downloads';

mkdirSync('test-results/screenshots', { recursive: true });

/** Every protocol ordering on the page: label → S (exact, from data-score), and the tasks as shown. */
async function orderings(page: Page) {
  const rows = page.getByTestId('orderings').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  return rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      label: tr.getAttribute('data-label'),
      score: tr.querySelector('td[data-score]')?.getAttribute('data-score'),
      tasks: [...tr.querySelectorAll('.task')].map((t) => [...t.querySelectorAll('.chip')].map((c) => c.textContent)),
    })),
  );
}

async function pressedClasses(page: Page): Promise<string[]> {
  return page.getByTestId('class-chips').locator('button[aria-pressed="true"]').allInnerTexts();
}

/** Rendered size of the base type: computed font size × the zoom in effect. */
async function baseFontPx(page: Page): Promise<number> {
  return page.evaluate(() => {
    const b = document.body as HTMLElement & { currentCSSZoom?: number };
    return Number.parseFloat(getComputedStyle(b).fontSize) * (b.currentCSSZoom ?? 1);
  });
}

test('an edited experiment, shared and opened in a new page, gives the same inputs, orderings and S values', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByTestId('omega')).toHaveText('90');
  const historyBefore = await page.evaluate(() => history.length);
  // an untouched page keeps its plain URL
  expect(new URL(page.url()).hash).toBe('');

  // classes, tasks, seeds, a protocol off
  await page.getByTestId('class-chips').getByRole('button', { name: 'Sneaker' }).click();
  await page.getByTestId('class-chips').getByRole('button', { name: 'Bag' }).click();
  await page.getByTestId('tasks').fill('4');
  await page.getByTestId('seeds').fill('7, 11, 2024');
  await page.getByLabel('MS baseline', { exact: false }).uncheck();
  await expect(page.getByTestId('omega')).toHaveText('2\u2009520');
  await expect(page.getByTestId('orderings').locator('tr[data-protocol="rs"]')).toHaveCount(3);
  await expect(page.getByTestId('orderings').locator('tr[data-protocol="ms"]')).toHaveCount(0);
  const before = await orderings(page);
  const chipsBefore = await pressedClasses(page);

  // the hash follows the edits (debounced, replaceState: no history entries)
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#v1\.[A-Za-z0-9_-]+$/);
  expect(await page.evaluate(() => history.length)).toBe(historyBefore);

  await page.getByTestId('share').click();
  await expect(page.getByTestId('share-status')).toHaveText('Link copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(page.url());
  expect(new URL(link).hash).toMatch(/^#v1\.[A-Za-z0-9_-]+$/);

  const other = await context.newPage();
  other.on('pageerror', (e) => errors.push(e.message));
  await other.goto(link);
  await expect(other.getByTestId('omega')).toHaveText('2\u2009520');
  expect(await pressedClasses(other)).toEqual(chipsBefore);
  await expect(other.getByTestId('tasks')).toHaveValue('4');
  await expect(other.getByTestId('seeds')).toHaveValue('7, 11, 2024');
  await expect(other.getByLabel('MS baseline', { exact: false })).not.toBeChecked();
  await expect(other.getByTestId('orderings').locator('tr[data-protocol="ms"]')).toHaveCount(0);
  await expect(other.getByTestId('link-problem')).toHaveCount(0);
  expect(await orderings(other)).toEqual(before);
  // opening a link does not rewrite it
  await other.waitForTimeout(600);
  expect(other.url()).toBe(link);
  expect(errors).toEqual([]);
});

test('custom class names and task sizes travel in the link', async ({ page, context }) => {
  await page.goto('/');
  await page.getByTestId('dataset').selectOption('custom');
  await page.getByTestId('custom-classes').fill('cat\ndog\ncar\ntruck\napple');
  await page.getByTestId('task-sizes').fill('2,2,1');
  await expect(page.getByTestId('omega')).toHaveText('30');
  const before = await orderings(page);
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#v1\./);
  await page.waitForTimeout(400);
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId('dataset')).toHaveValue('custom');
  await expect(other.getByTestId('custom-classes')).toHaveValue('cat\ndog\ncar\ntruck\napple');
  await expect(other.getByTestId('task-sizes')).toHaveValue('2,2,1');
  await expect(other.getByTestId('omega')).toHaveText('30');
  expect(await orderings(other)).toEqual(before);
});

test('a malformed link and a link from a newer version say what is wrong; the page keeps working', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/#v1.@@@');
  const banner = page.getByTestId('link-problem');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('This link could not be opened.');
  await expect(banner).toContainText('This link is damaged: its data contains "@"');
  await expect(banner).toContainText('The page shows the default experiment instead.');
  // the defaults work, and the bad link stays in the address bar until the user changes something
  await expect(page.getByTestId('omega')).toHaveText('90');
  await expect(page.getByTestId('orderings').locator('tr[data-label="EDGE hard"]')).toHaveCount(1);
  expect(new URL(page.url()).hash).toBe('#v1.@@@');
  await page.screenshot({ path: 'test-results/screenshots/share-bad-link-1280.png' });
  await page.getByTestId('link-problem-dismiss').click();
  await expect(banner).toHaveCount(0);

  await page.goto('/#v2.x');
  await page.reload();
  await expect(banner).toContainText('This link was made by a newer CIL Lab (v2); this version reads v1 links.');
  await expect(page.getByTestId('omega')).toHaveText('90');

  // a bad link pasted over the user's work leaves the work as it is
  await page.getByTestId('link-problem-dismiss').click();
  await page.getByTestId('tasks').fill('2');
  await expect(page.getByTestId('omega')).toHaveText('20');
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#v1\./);
  await page.evaluate(() => (location.hash = '#v1.AAAA'));
  await expect(banner).toContainText('Your current experiment is unchanged.');
  await expect(page.getByTestId('tasks')).toHaveValue('2');
  await expect(page.getByTestId('omega')).toHaveText('20');
  // and a good link pasted over it opens
  const good = encodeConfigToHash({ ...defaultConfig(), classes: [0, 1, 2, 3], taskSizes: [2, 2] });
  await page.evaluate((h) => (location.hash = h), good);
  await expect(page.getByTestId('omega')).toHaveText('6');
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('tasks')).toHaveValue('2');
  expect(await pressedClasses(page)).toEqual(['T-shirt/top', 'Trouser', 'Pullover', 'Dress']);
  expect(errors).toEqual([]);
});

test('a link that refers to an uploaded similarity file asks for it, and runs once the same file is given', async ({ page }) => {
  const bytes = readFileSync('tests/fixtures/cli/sim6.json');
  const config = defaultConfig();
  config.dataset = { id: 'custom', classNames: ['cat', 'dog', 'car', 'truck', 'apple', 'pear'], images: null };
  config.classes = [0, 1, 2, 3, 4, 5];
  config.similarity = { kind: 'upload', file: { name: 'sim6.json', contentHash: contentHash(new Uint8Array(bytes)) } };
  await page.goto(`/${encodeConfigToHash(config)}`);
  const missing = page.getByTestId('upload-missing');
  await expect(missing).toContainText('re-upload sim6.json to reproduce it');
  await expect(missing).toContainText(contentHash(new Uint8Array(bytes)));
  await expect(page.getByLabel('Upload matrix or embeddings')).toBeChecked();
  await expect(page.getByTestId('link-problem')).toHaveCount(0);
  await page.getByTestId('upload').setInputFiles('tests/fixtures/cli/sim6.json');
  await expect(missing).toHaveCount(0);
  await expect(page.getByTestId('upload-other')).toHaveCount(0);
  const hard = page.locator('tr[data-label="Exact hard (min S)"] td[data-score]');
  await expect(hard).toHaveCount(1);
  expect(Number(await hard.getAttribute('data-score'))).toBeCloseTo(-0.35048837868004606, 10);

  // the comparison's charts export too: the scatter's CSV is every class pair with both similarities
  await page.getByTestId('compare').locator('summary').click();
  await page.getByTestId('compare-b').selectOption('upload');
  const scatter = page.getByTestId('compare-scatter');
  await expect(scatter.locator('circle.dot')).toHaveCount(15);
  await scatter.getByTestId('chart-export-button').click();
  const [csv] = await Promise.all([page.waitForEvent('download'), scatter.getByTestId('export-csv').click()]);
  expect(csv.suggestedFilename()).toBe('pair-similarity_WordNet_vs_Upload-sim6.json.csv');
  const lines = (await downloaded(csv)).toString('utf8').trim().split('\n');
  expect(lines[0]).toBe('class_i,class_j,i,j,WordNet,Upload (sim6.json)');
  expect(lines).toHaveLength(16);
  expect(lines[1]).toMatch(/^cat,dog,0,1,[-\d.e]+,[-\d.e]+$/);
  const map = page.getByTestId('compare-heatmap-b');
  await map.getByTestId('chart-export-button').click();
  const [svg] = await Promise.all([page.waitForEvent('download'), map.getByTestId('export-svg').click()]);
  const text = (await downloaded(svg)).toString('utf8');
  const cells = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return doc.querySelector('parsererror') ? -1 : doc.querySelectorAll('rect.cell').length;
  }, text);
  expect(cells).toBe(36);
});

test('a link whose upload is not loaded marks the previous experiment’s results as such: no export, no CLI command, |Ω| of the inputs', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const cifar = defaultConfig();
  cifar.dataset = { id: 'cifar10' };
  cifar.classes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  cifar.taskSizes = [2, 2, 2, 2, 2];
  await page.goto(`/${encodeConfigToHash(cifar)}`);
  await expect(page.getByTestId('omega')).toHaveAttribute('data-exact', '113400');
  const results = page.getByTestId('orderings-results');
  await expect(results).toHaveAttribute('data-status', 'current');
  await expect(page.getByTestId('stale-results')).toHaveCount(0);

  // 6 classes in 3 tasks, similarity from an upload this page does not have
  const bytes = readFileSync('tests/fixtures/cli/sim6.json');
  const linked = defaultConfig();
  linked.dataset = { id: 'custom', classNames: ['cat', 'dog', 'car', 'truck', 'apple', 'pear'], images: null };
  linked.similarity = { kind: 'upload', file: { name: 'sim6.json', contentHash: contentHash(new Uint8Array(bytes)) } };
  await page.evaluate((h) => (location.hash = h), encodeConfigToHash(linked));
  await expect(page.getByTestId('upload-missing')).toBeVisible();
  const stale = page.getByTestId('stale-results');
  await expect(stale).toContainText('previous inputs’ (CIFAR-10, 10 classes in 5 tasks, WordNet)');
  await expect(stale).toContainText('sim6.json is not loaded');
  await expect(results).toHaveAttribute('data-status', 'stale');
  await expect(page.getByTestId('n')).toHaveText('6');
  await expect(page.getByTestId('omega')).toHaveAttribute('data-exact', '90'); // the inputs' |Ω|, not the old result's
  await expect(page.getByTestId('orderings-export-button')).toBeDisabled();
  await expect(results).toHaveJSProperty('inert', true); // no chart export, no hover on the old numbers
  await page.screenshot({ path: 'test-results/screenshots/share-stale-results.png', fullPage: true });

  // the file given: the results are the linked experiment's, and export again
  await page.getByTestId('upload').setInputFiles('tests/fixtures/cli/sim6.json');
  await expect(results).toHaveAttribute('data-status', 'current');
  await expect(stale).toHaveCount(0);
  await expect(page.getByTestId('similarity-description')).toContainText('sim6.json');
  await expect(page.getByTestId('orderings-export-button')).toBeEnabled();
  expect(errors).toEqual([]);
});

test('teaching mode: ?teach or the header toggle, 18 px base type, the left panel folded to the essentials', async ({ page }) => {
  await page.goto('/?teach');
  await expect(page.getByTestId('omega')).toHaveText('90');
  await expect(page.locator('html')).toHaveClass(/teaching/);
  await expect(page.getByTestId('teaching-toggle')).toHaveAttribute('aria-pressed', 'true');
  expect(await baseFontPx(page)).toBeGreaterThanOrEqual(18);
  // the chart's tick labels grow too (12 px in the SVG)
  const tickPx = await page
    .getByTestId('score-histogram')
    .locator('.tick text')
    .first()
    .evaluate((t) => t.getBoundingClientRect().height);
  expect(tickPx).toBeGreaterThanOrEqual(14);
  // essentials in view, the rest one click away
  await expect(page.getByTestId('dataset')).toBeVisible();
  await expect(page.getByTestId('tasks')).toBeVisible();
  await expect(page.getByTestId('seeds')).toBeHidden();
  await expect(page.getByLabel('WordNet (Wu–Palmer, offline)')).toBeHidden();
  await expect(page.getByTestId('more-settings')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/share-teaching-1280.png' });
  await page.getByTestId('more-settings').click();
  await expect(page.getByTestId('seeds')).toBeVisible();
  await page.getByTestId('more-settings').click();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('omega')).toHaveText('90');
  await page.screenshot({ path: 'test-results/screenshots/share-teaching-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // off with the toggle: normal type, every control back, and `?teach` leaves the URL so a reload stays off
  await page.getByTestId('teaching-toggle').click();
  await expect(page.locator('html')).not.toHaveClass(/teaching/);
  expect(await baseFontPx(page)).toBeLessThan(15);
  await expect(page.getByTestId('seeds')).toBeVisible();
  await expect.poll(() => new URL(page.url()).search).toBe('');
  // on with the toggle: it is part of the link
  await page.getByTestId('teaching-toggle').click();
  await expect(page.locator('html')).toHaveClass(/teaching/);
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#v1\./);
  await page.waitForTimeout(400);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/teaching/);
  expect(await baseFontPx(page)).toBeGreaterThanOrEqual(18);

  // a teacher's link can hide chosen controls (ui.hiddenControls) in teaching mode
  const c = defaultConfig();
  c.ui = { ...c.ui, teaching: true, hiddenControls: ['dataset', 'tasks'] };
  await page.goto(`/${encodeConfigToHash(c)}`);
  await expect(page.getByTestId('omega')).toHaveText('90');
  await expect(page.getByTestId('dataset')).toBeHidden();
  await expect(page.getByTestId('tasks')).toBeHidden();
  await expect(page.getByTestId('class-chips')).toBeVisible();
  // … and only in teaching mode
  await page.getByTestId('teaching-toggle').click();
  await expect(page.getByTestId('dataset')).toBeVisible();
  await expect(page.getByTestId('tasks')).toBeVisible();
});

test('"What exactly ran": config JSON, hash, versions and backends; the config downloads as a file', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('omega')).toHaveText('90');
  await page.getByTestId('tasks').fill('2');
  await expect(page.getByTestId('omega')).toHaveText('20');
  await page.getByTestId('what-ran-open').click();
  const panel = page.getByTestId('what-ran');
  await expect(panel).toBeVisible();
  const json = JSON.parse(await page.getByTestId('what-ran-json').innerText());
  expect(json.version).toBe(1);
  expect(json.lab).toBe('orderings');
  expect(json.dataset).toEqual({ id: 'fashion-mnist' });
  expect(json.taskSizes).toEqual([3, 3]);
  expect(json.protocols.rsSeeds).toEqual([0, 42, 1993]);
  await expect(page.getByTestId('what-ran-hash')).toHaveText(/^[0-9a-f]{16}$/);
  const versions = page.getByTestId('what-ran-versions');
  await expect(versions).toContainText('CIL Lab');
  await expect(versions).toContainText('0.1.0');
  await expect(versions).toContainText(/Svelte\s*5\.\d+\.\d+/);
  await expect(versions).toContainText(/TensorFlow\.js\s*4\.\d+\.\d+/);
  await expect(versions).toContainText(/transformers\.js\s*\d+\.\d+\.\d+/);
  await expect(page.getByTestId('what-ran-backends')).toContainText('JavaScript in a Web Worker');
  await expect(page.getByTestId('what-ran-link')).toHaveText(page.url());
  await page.screenshot({ path: 'test-results/screenshots/share-what-ran-1280.png' });

  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId('what-ran-download').click()]);
  const hash = await page.getByTestId('what-ran-hash').innerText();
  expect(d.suggestedFilename()).toBe(`cil-lab-config-${hash}.json`);
  const file = JSON.parse((await downloaded(d)).toString('utf8'));
  expect(file).toEqual(json);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screenshots/share-what-ran-390.png' });
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});

// the Data grid's PNG is checked in tests/e2e/data.spec.ts, on the Fashion-MNIST grid it has loaded already
test('the ⤓ menu: the S-over-Ω chart as SVG (valid XML), PNG (2×, PNG signature) and CSV', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('omega')).toHaveText('90');
  const chart = page.getByTestId('score-histogram');
  const menu = chart.getByTestId('chart-export-button');
  await expect(menu).toHaveAccessibleName(/Download the S-over-Ω chart/);

  await menu.click();
  await expect(chart.getByRole('menuitem')).toHaveCount(3);
  await chart.screenshot({ path: 'test-results/screenshots/share-export-menu-1280.png' });
  const [svgDl] = await Promise.all([page.waitForEvent('download'), chart.getByTestId('export-svg').click()]);
  expect(svgDl.suggestedFilename()).toBe('s-over-omega_fashion-mnist_6-classes_3-tasks.svg');
  const svgText = (await downloaded(svgDl)).toString('utf8');
  await svgDl.saveAs('test-results/screenshots/share-export-s-over-omega.svg'); // kept to look at
  const parsed = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const err = doc.querySelector('parsererror');
    return {
      error: err ? err.textContent : null,
      root: doc.documentElement.nodeName,
      ns: doc.documentElement.namespaceURI,
      bars: doc.querySelectorAll('g.bars rect').length,
      texts: [...doc.querySelectorAll('text')].map((x) => x.textContent),
    };
  }, svgText);
  expect(parsed.error).toBeNull();
  expect(parsed.root).toBe('svg');
  expect(parsed.ns).toBe('http://www.w3.org/2000/svg');
  expect(parsed.bars).toBeGreaterThan(0);
  expect(parsed.texts).toContain('EDGE');
  expect(parsed.texts).toContain("S over all 90 orderings, with each protocol's orderings marked");
  // styles inlined: the page's font is written on the root
  expect(svgText).toMatch(/<svg [^>]*style="[^"]*font-family:/);
  await expect(chart.getByRole('menu')).toHaveCount(0);

  await menu.click();
  const [pngDl] = await Promise.all([page.waitForEvent('download'), chart.getByTestId('export-png').click()]);
  expect(pngDl.suggestedFilename()).toBe('s-over-omega_fashion-mnist_6-classes_3-tasks.png');
  const png = await downloaded(pngDl);
  await pngDl.saveAs('test-results/screenshots/share-export-s-over-omega.png');
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const img = PNG.sync.read(png);
  // 2× the exported SVG's size (the chart's box, grown to hold its caption and the lane labels left of it)
  const svgWidth = Number(/<svg [^>]*width="(\d+)"/.exec(svgText)![1]);
  expect(svgWidth).toBeGreaterThanOrEqual(Number(await chart.locator('svg').first().getAttribute('width')));
  expect(img.width).toBe(2 * svgWidth);
  // a white background, not transparent
  expect([...img.data.subarray(0, 4)]).toEqual([255, 255, 255, 255]);

  await menu.click();
  const [csvDl] = await Promise.all([page.waitForEvent('download'), chart.getByTestId('export-csv').click()]);
  const lines = (await downloaded(csvDl)).toString('utf8').trim().split('\n');
  expect(lines[0]).toBe('row,S_from,S_to,orderings,protocol,label,aim,S,share_of_orderings_below,tasks');
  const rows = await page.getByTestId('orderings').locator('tbody tr').count();
  expect(lines.filter((l) => l.startsWith('ordering,'))).toHaveLength(rows);
  expect(lines.filter((l) => l.startsWith('bin,')).length).toBeGreaterThan(0);
  const hard = lines.find((l) => l.includes(',EDGE hard,'))!;
  const hardS = await page.locator('tr[data-label="EDGE hard"] td[data-score]').getAttribute('data-score');
  expect(hard.split(',')[7]).toBe(hardS);
});
