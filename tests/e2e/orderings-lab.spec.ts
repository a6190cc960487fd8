/**
 * The Orderings lab's first screen, end to end in Chromium (docs/design.md "Orderings"):
 * - the similarity heat map has N×N cells and N leaf labels in the dendrogram order the worker computed (checked
 *   against core run here in Node), task marks for the picked/hovered ordering, and a hover tooltip with the pair's value;
 * - the |Ω| / sample-size calculator gives `cil-lab bounds`'s numbers (core functions run here) and validates its inputs;
 * - "Export orderings → PyCIL" copies and downloads the text of `formatSequences(…, 'pycil')`; the copy fallback;
 * - image prototypes of Fashion-MNIST 0–5 drive the orderings (S equal to prototypes computed here in Node from the
 *   same files) and the comparison with WordNet.
 * Screenshots: test-results/screenshots/orderings-lab-*.png (1280×800 and 390 px wide).
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { defaultConfig } from '../../src/core/config/schema';
import { getClassList } from '../../src/core/classes/builtin';
import { theorem1SampleSize, theorem2SampleSize } from '../../src/core/protocols/bounds';
import { formatSequence, formatSequences } from '../../src/core/protocols/export';
import { computeOrderingsView, type OrderingsView } from '../../src/core/protocols/orderings-view';
import { PROTOCOL_IDS } from '../../src/core/protocols/types';
import { classMeanPrototypes } from '../../src/core/similarity/prototypes';
import type { SimilaritySpec } from '../../src/core/similarity/resolve';
import type { WordnetGraph } from '../../src/core/similarity/wordnet-synsets';
import { orderingsRequest, protocolExtrasOf } from '../../src/ui/orderings/page-request';

mkdirSync('test-results/screenshots', { recursive: true });

const config = defaultConfig();
const list = getClassList('fashion-mnist');
const IDX = [0, 1, 2, 3, 4, 5];
let graph: WordnetGraph | null = null;

/** The default experiment as the page asks the worker for it, computed here in Node. */
function expectedView(similarity?: SimilaritySpec): OrderingsView {
  graph ??= JSON.parse(readFileSync('public/data/wordnet-nouns.json', 'utf8')) as WordnetGraph;
  const p = config.protocols;
  const req = orderingsRequest({
    names: IDX.map((i) => list.classes[i]),
    sizes: config.taskSizes,
    similarity: similarity ?? { kind: 'wordnet', pins: IDX.map((i) => list.synsets[i]) },
    protocols: PROTOCOL_IDS.filter((x) => p.enabled.includes(x)),
    seeds: p.rsSeeds,
    extras: protocolExtrasOf(p),
  });
  return computeOrderingsView(req, { wordnet: () => graph! });
}

async function scores(page: Page): Promise<Record<string, number>> {
  const rows = page.getByTestId('orderings').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const pairs = await rows.evaluateAll((trs) =>
    trs.map((tr) => [tr.getAttribute('data-label'), Number(tr.querySelector('td[data-score]')?.getAttribute('data-score'))] as const),
  );
  return Object.fromEntries(pairs);
}

test('the similarity heat map: N×N cells, N leaf labels in the worker’s dendrogram order, task marks, hover values; 1280 and 390 px', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByTestId('omega')).toHaveText('90');
  const view = expectedView();
  const n = 6;
  const map = page.getByTestId('similarity-heatmap');
  await expect(map.locator('rect.cell')).toHaveCount(n * n);
  await expect(map.locator('text.leaf-label')).toHaveCount(n);
  // the leaf order is the worker's (data-leaf-order) and core's complete linkage of 1 − Sim computed here
  const leafAttr = (await map.getAttribute('data-leaf-order'))!.split(',').map(Number);
  expect(leafAttr).toEqual(view.dendrogram.leaves);
  const labelOrder = await map.locator('text.leaf-label').evaluateAll((ts) => ts.map((t) => Number(t.getAttribute('data-class'))));
  expect(labelOrder).toEqual(view.dendrogram.leaves);
  const labelTexts = await map.locator('text.leaf-label').evaluateAll((ts) => ts.map((t) => t.childNodes[0]?.textContent));
  expect(labelTexts).toEqual(view.dendrogram.leaves.map((c) => view.classes[c]));
  // columns in the same order, the dendrogram (n − 1 links), its labelled axis and the colour legend
  const colOrder = await map.locator('text.col-label').evaluateAll((ts) => ts.map((t) => Number(t.getAttribute('data-class'))));
  expect(colOrder).toEqual(view.dendrogram.leaves);
  await expect(map.locator('path.link')).toHaveCount(n - 1);
  await expect(map.locator('text.axis-label')).toHaveText('dissimilarity 1 − Sim (complete linkage)');
  await expect(map.locator('g.legend rect')).toHaveCount(1);
  // cell (row r, column c) is the pair (leaves[r], leaves[c])
  const firstRow = await map
    .locator('rect.cell')
    .evaluateAll((rs) => rs.slice(0, 6).map((r) => [Number(r.getAttribute('data-i')), Number(r.getAttribute('data-j'))]));
  expect(firstRow).toEqual(view.dendrogram.leaves.map((j) => [view.dendrogram.leaves[0], j]));

  // the tasks of EDGE hard are marked beside the labels, in the palette's task colours
  await expect(map).toHaveAttribute('data-shown', 'EDGE hard');
  const hard = view.sequences.find((s) => s.label === 'EDGE hard')!;
  const marks = await map
    .locator('rect.task-mark')
    .evaluateAll((rs) => rs.map((r) => [Number(r.getAttribute('data-class')), Number(r.getAttribute('data-task'))]));
  expect(marks).toHaveLength(n);
  for (const [c, t] of marks) expect(hard.tasks[t - 1]).toContain(c);
  await expect(page.locator('tr[data-label="EDGE hard"]')).toHaveClass(/shown/);

  // hover a cell: the pair and its similarity, as the worker's matrix says
  const i = view.dendrogram.leaves[0];
  const j = view.dendrogram.leaves[1];
  await map.locator(`rect.cell[data-i="${i}"][data-j="${j}"]`).hover();
  const tip = page.getByTestId('heatmap-tip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText(`${view.classes[i]} – ${view.classes[j]}`);
  await expect(tip).toContainText(`similarity: ${view.matrix[i][j].toFixed(3).replace('-', '−')}`);
  await expect(tip).toContainText(/EDGE hard: (both in T\d|T\d and T\d)/);
  await page.screenshot({ path: 'test-results/screenshots/orderings-lab-1280.png', fullPage: true });
  await map.screenshot({ path: 'test-results/screenshots/orderings-lab-heatmap-1280.png' });

  // hovering a table row shows that ordering's tasks; clicking its label keeps them
  await page.mouse.move(5, 5);
  await page.locator('tr[data-label="EDGE easy"] td.tasks').hover();
  await expect(map).toHaveAttribute('data-shown', 'EDGE easy');
  await page.mouse.move(5, 5);
  await expect(map).toHaveAttribute('data-shown', 'EDGE hard');
  await page.locator('tr[data-label="RS seed 0"] th button.show').click();
  await expect(map).toHaveAttribute('data-shown', 'RS seed 0');
  await expect(page.getByTestId('heatmap-ordering')).toHaveValue('RS seed 0');
  await page.getByTestId('heatmap-ordering').selectOption('EDGE hard');

  // layout: heat map left of the table on a wide screen
  const mb = (await map.boundingBox())!;
  const tb = (await page.getByTestId('orderings').boundingBox())!;
  expect(mb.x + mb.width).toBeLessThanOrEqual(tb.x + 1);
  const hb = (await page.getByTestId('score-histogram').boundingBox())!;
  const cb = (await page.getByTestId('sample-size').boundingBox())!;
  expect(hb.y).toBeGreaterThan(mb.y + mb.height - 1);
  expect(hb.x + hb.width).toBeLessThanOrEqual(cb.x + 1);

  // the chart's ⤓ menu: the SVG has the cells and the labels
  await map.getByTestId('chart-export-button').click();
  const [svg] = await Promise.all([page.waitForEvent('download'), map.getByTestId('export-svg').click()]);
  const svgText = readFileSync(await svg.path()).toString('utf8');
  expect(svg.suggestedFilename()).toBe('similarity-dendrogram_fashion-mnist_6-classes.svg');
  expect(svgText.match(/class="cell"/g)).toHaveLength(36);
  expect(svgText).toContain('dissimilarity 1 − Sim');

  // a phone: stacked, nothing wider than the screen
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(map.locator('rect.cell')).toHaveCount(n * n);
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const mb2 = (await map.boundingBox())!;
  const tb2 = (await page.getByTestId('orderings').boundingBox())!;
  expect(tb2.y).toBeGreaterThan(mb2.y + mb2.height - 1);
  await page.screenshot({ path: 'test-results/screenshots/orderings-lab-390.png', fullPage: true });
  await map.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/orderings-lab-390-heatmap.png' });
  expect(errors).toEqual([]);
});

test('many classes: CIFAR-100 draws 100×100 cells as one bitmap, thins the labels and scrolls inside its box', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('dataset').selectOption('cifar100');
  await page.getByRole('button', { name: 'All', exact: true }).click();
  await page.getByTestId('tasks').fill('10');
  await expect(page.getByTestId('n')).toHaveText('100');
  const map = page.getByTestId('similarity-heatmap');
  await expect(map).toHaveAttribute('data-n', '100', { timeout: 30_000 }); // 100 classes take seconds in the worker
  await expect(map.locator('image.cells-bitmap')).toHaveAttribute('data-cells', '10000');
  const labels = await map.locator('text.leaf-label').count();
  expect(labels).toBeGreaterThan(10);
  expect(labels).toBeLessThan(100);
  await expect(map.locator('path.link')).toHaveCount(99);
  await expect(map.locator('rect.task-mark')).toHaveCount(100);
  // hover reads a pair from the bitmap (scrolled into view first: the first screen's intro sits above the lab)
  await map.locator('image.cells-bitmap').scrollIntoViewIfNeeded();
  const img = (await map.locator('image.cells-bitmap').boundingBox())!;
  await page.mouse.move(img.x + img.width * 0.3, img.y + img.height * 0.6);
  await expect(page.getByTestId('heatmap-tip')).toContainText(/ – .*\nsimilarity: −?\d\.\d{3}/);
  await page.screenshot({ path: 'test-results/screenshots/orderings-lab-cifar100-1280.png', fullPage: true });
  await expect(page.getByTestId('heatmap-scroll-note')).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // the map keeps ≥ 3 px cells and scrolls sideways inside its box, and says so
  await expect(page.getByTestId('heatmap-scroll-note')).toBeVisible();
  const box = await map.locator('.box').evaluate((b) => [b.scrollWidth, b.clientWidth]);
  expect(box[0]).toBeGreaterThan(box[1]);
  await map.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/orderings-lab-cifar100-390.png' });
});

test('the sample-size calculator gives cil-lab bounds’s numbers and says what is wrong with an input', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('omega')).toHaveText('90');
  const calc = page.getByTestId('sample-size');
  await expect(calc.getByTestId('calc-omega')).toHaveAttribute('data-exact', '90');
  // cil-lab bounds --omega 90 --epsilon 0.1 --delta 0.05 (R = 1, the CLI's default)
  await calc.getByTestId('calc-epsilon').fill('0.1');
  await calc.getByTestId('calc-delta').fill('0.05');
  await calc.getByTestId('calc-range').fill('1');
  const t1 = theorem1SampleSize(90n, 0.1, 0.05);
  const t2 = theorem2SampleSize(90n, 0.1, 0.05, 1);
  await expect(calc.getByTestId('calc-t1-L')).toHaveAttribute('data-value', t1.L === null ? '' : t1.L.toString());
  await expect(calc.getByTestId('calc-t1-L')).toHaveText(t1.L === null ? 'all' : t1.L.toString());
  await expect(calc.getByTestId('calc-t2-L')).toHaveAttribute('data-value', t2.L === null ? '' : t2.L.toString());
  // R = 0.1 (two extremes known): Theorem 2 needs only a few orderings
  await calc.getByTestId('calc-range').fill('0.1');
  const t2r = theorem2SampleSize(90n, 0.1, 0.05, 0.1);
  expect(t2r.L).not.toBeNull();
  await expect(calc.getByTestId('calc-t2-L')).toHaveAttribute('data-value', t2r.L!.toString());
  await expect(calc.getByTestId('calc-t2-share')).toHaveText(`${((100 * Number(t2r.L)) / 90).toFixed(1)} %`);
  await expect(calc).toContainText('npx cil-lab bounds --omega 90 --epsilon 0.1 --delta 0.05 --range 0.1');
  // a bigger Ω: 8 classes in 4 tasks, ε 0.2
  await page.getByTestId('class-chips').getByRole('button', { name: 'Sneaker' }).click();
  await page.getByTestId('class-chips').getByRole('button', { name: 'Bag' }).click();
  await page.getByTestId('tasks').fill('4');
  await expect(page.getByTestId('omega')).toHaveText('2\u2009520');
  await calc.getByTestId('calc-epsilon').fill('0.2');
  const big = theorem1SampleSize(2520n, 0.2, 0.05);
  await expect(calc.getByTestId('calc-t1-L')).toHaveAttribute('data-value', big.L!.toString());
  await expect(calc.getByTestId('calc-t1-share')).toHaveText(`${((100 * Number(big.L)) / 2520).toFixed(1)} %`);
  // validation next to the inputs; the answers wait for a valid value
  await calc.getByTestId('calc-epsilon').fill('abc');
  await expect(calc.getByTestId('calc-epsilon-error')).toHaveText('ε must be a number such as 0.1; “abc” is not one.');
  await expect(calc.getByTestId('calc-t1-L')).toHaveText('–');
  await calc.getByTestId('calc-delta').fill('1');
  await expect(calc.getByTestId('calc-delta-error')).toContainText('δ must be between 0 and 1');
  await calc.getByTestId('calc-epsilon').fill('0.2');
  await calc.getByTestId('calc-delta').fill('0.05');
  await expect(calc.getByRole('alert')).toHaveCount(0);
  await calc.screenshot({ path: 'test-results/screenshots/orderings-lab-calculator-1280.png' });
});

test('Export orderings → PyCIL copies and downloads formatSequences(…, "pycil"); without a clipboard the text is selected', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await expect(page.getByTestId('omega')).toHaveText('90');
  const view = expectedView();
  const expected = formatSequences(view.sequences, 'pycil', { classes: view.classes });
  // the page shows the same orderings as core computes here
  const s = await scores(page);
  for (const q of view.sequences) expect(s[q.label]).toBeCloseTo(q.score, 12);

  await page.getByTestId('orderings-export-button').click();
  await page.getByTestId('orderings-export-format-pycil').click();
  await expect(page.getByTestId('orderings-export-text')).toHaveValue(expected);
  // one row's own copy: that ordering alone as {"class_order": [...]}, RS as numpy drew it
  const rs0 = view.sequences.find((q) => q.label === 'RS seed 0')!;
  await page.locator('tr[data-label="RS seed 0"]').getByTestId('row-copy').click();
  await expect(page.locator('tr[data-label="RS seed 0"]').getByTestId('row-copy')).toHaveText('copied');
  const one = await page.evaluate(() => navigator.clipboard.readText());
  expect(one).toBe(formatSequence(rs0, 'pycil'));
  expect(JSON.parse(one)).toEqual({ class_order: rs0.order });
  await page.getByTestId('orderings-export-copy').click();
  await expect(page.getByTestId('orderings-export-status')).toContainText('Copied the PyCIL / PILOT text (14 orderings)');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('orderings-export-download').click()]);
  expect(dl.suggestedFilename()).toBe('class-orders_fashion-mnist_6-classes_3-tasks_pycil.txt');
  expect(readFileSync(await dl.path()).toString('utf8')).toBe(`${expected}\n`);
  await expect(page.getByTestId('orderings-export')).toContainText('npx cil-lab orders --dataset fashion-mnist --subset 0-5 --tasks 3 --format pycil');
  await page.getByTestId('orderings-export').screenshot({ path: 'test-results/screenshots/orderings-lab-export-1280.png' });

  // the other formats are the same functions' text
  await page.getByTestId('orderings-export-format-mammoth').click();
  await expect(page.getByTestId('orderings-export-text')).toHaveValue(formatSequences(view.sequences, 'mammoth', { classes: view.classes }));
  await page.getByTestId('orderings-export-format-csv').click();
  await expect(page.getByTestId('orderings-export-text')).toHaveValue(formatSequences(view.sequences, 'csv', { classes: view.classes }));

  // no clipboard: a message, and the text area selected for Ctrl+C
  await page.evaluate(() => {
    Object.defineProperty(navigator.clipboard, 'writeText', { value: () => Promise.reject(new Error('denied by the test')), configurable: true });
  });
  await page.getByTestId('orderings-export-format-pycil').click();
  await page.getByTestId('orderings-export-copy').click();
  await expect(page.getByTestId('orderings-export-status')).toContainText('Could not copy (denied by the test)');
  const selected = await page
    .getByTestId('orderings-export-text')
    .evaluate((t: HTMLTextAreaElement) => [document.activeElement === t, t.value.slice(t.selectionStart, t.selectionEnd)] as const);
  expect(selected).toEqual([true, expected]);
});

test('image prototypes of Fashion-MNIST 0–5 drive the orderings and compare with WordNet', async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByTestId('omega')).toHaveText('90');
  // before: the comparison offers prototypes only once computed
  await page.getByTestId('compare').locator('summary').click();
  await expect(page.getByTestId('compare-b').locator('option[value="prototypes"]')).toBeDisabled();

  await page.getByTestId('source-prototypes').check();
  await expect(page.getByTestId('similarity-description')).toContainText('cosine similarity of Fashion-MNIST image prototypes', { timeout: 60_000 });
  await expect(page.getByTestId('prototypes-fallback')).toHaveCount(0);
  await expect(page.getByText('WordNet senses used')).toHaveCount(0);

  // the same prototypes computed here from the same files: the page's S values are theirs
  const meta = JSON.parse(readFileSync('public/data/fashion-mnist/meta.json', 'utf8'));
  const images = new Uint8Array(readFileSync(`public/data/fashion-mnist/${meta.train.images}`));
  const labels = new Uint8Array(readFileSync(`public/data/fashion-mnist/${meta.train.labels}`));
  const protos = classMeanPrototypes(images, labels, 28 * 28, 10);
  const view = expectedView({ kind: 'embeddings', rows: IDX.map((i) => protos.rows[i]), label: 'prototypes' });
  const s = await scores(page);
  for (const q of view.sequences) expect(s[q.label]).toBeCloseTo(q.score, 10);
  const map = page.getByTestId('similarity-heatmap');
  expect((await map.getAttribute('data-leaf-order'))!.split(',').map(Number)).toEqual(view.dendrogram.leaves);
  await expect(map.locator('rect.cell')).toHaveCount(36);

  // the comparison: WordNet (A) against image prototypes (B)
  await expect(page.getByTestId('compare-b').locator('option[value="prototypes"]')).toBeEnabled();
  await page.getByTestId('compare-a').selectOption('wordnet');
  await page.getByTestId('compare-b').selectOption('prototypes');
  await expect(page.getByTestId('compare-metrics')).toBeVisible({ timeout: 30_000 });
  const mae = Number(await page.getByTestId('compare-mae').getAttribute('data-value'));
  const rho = Number(await page.getByTestId('compare-spearman').getAttribute('data-value'));
  expect(mae).toBeGreaterThan(0);
  expect(rho).toBeGreaterThanOrEqual(-1);
  expect(rho).toBeLessThanOrEqual(1);
  await expect(page.getByTestId('compare-scatter').locator('circle.dot')).toHaveCount(15);
  await expect(page.getByTestId('compare-scatter').locator('text.y-label')).toContainText('B: Image prototypes (Fashion-MNIST) similarity');
  await page.getByTestId('compare').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/orderings-lab-prototypes-1280.png', fullPage: true });

  // back to WordNet: the prototypes stay available for the comparison
  await page.getByLabel('WordNet (Wu–Palmer, offline)').check();
  await expect(page.getByText('WordNet senses used (6)')).toBeVisible();
  await expect(page.getByTestId('compare-b').locator('option[value="prototypes"]')).toBeEnabled();
  expect(errors).toEqual([]);
});

test('image prototypes need images: CIFAR-10 names only fall back to WordNet and say why', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('dataset').selectOption('cifar10');
  await page.getByTestId('source-prototypes').check();
  await expect(page.getByTestId('prototypes-status')).toContainText('has class names only here');
  await expect(page.getByTestId('prototypes-fallback')).toContainText('Using WordNet until the image prototypes are ready');
  await expect(page.getByTestId('orderings').locator('tr[data-label="EDGE hard"]')).toHaveCount(1);
});
