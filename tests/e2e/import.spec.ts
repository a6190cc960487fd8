/**
 * "Bring your own results": the Ground-truth lab imports a CSV of 180 runs (Fashion-MNIST 0–5 in 3 tasks,
 * all 90 orderings × finetune + ewc, percentages, 7 malformed rows) made by scripts/make-import-fixtures.py, reports
 * the malformed rows, fills the histogram, the estimates' table and the rankings, and its statistics equal both the
 * independent numpy/scipy values (tests/fixtures/import/expected.json) and `cil-lab analyze` on the same file.
 * Nothing leaves 127.0.0.1.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { analyzeCommand } from '../../src/cli/analyze';
import { loadWordnetFrom } from '../../src/cli/inputs';

const FIXTURE = 'tests/fixtures/import/fmnist6-runs.csv';
const expected = JSON.parse(readFileSync('tests/fixtures/import/expected.json', 'utf8'));
const SHOTS = '/tmp/shots-import';
mkdirSync(SHOTS, { recursive: true });
mkdirSync('test-results/screenshots', { recursive: true });

async function shot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage });
}

test.beforeEach(async ({ context, baseURL }) => {
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(baseURL!) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort('internetdisconnected');
  });
});

/**
 * Where `a` and `b` differ: deep equality, numbers to a relative 1e-12 (Chromium's and Node's V8 may differ in the
 * last bit of Math.exp & co.); under `normality`, 1e-5: Box-Cox's λ comes from Brent's search (xtol 1.48e-8), which
 * turns last-bit differences into ~1e-7 in λ. Each difference is one line naming its path (`numbers` counts the
 * numbers compared); the caller asserts the list is empty: one expect per strategy, where an expect per number (~2,400
 * a strategy) cost Playwright a test step each, tens of seconds in all.
 */
function differences(a: unknown, b: unknown, path = '', out: string[] & { numbers?: number } = []): string[] & { numbers?: number } {
  if (typeof a === 'number' && typeof b === 'number') {
    out.numbers = (out.numbers ?? 0) + 1;
    const tol = path.includes('.normality') ? 1e-5 : 1e-12;
    if (!(Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b)))) out.push(`${path}: ${a} vs ${b} (tolerance ${tol} relative)`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: length ${a.length} vs ${b.length}`);
    else a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (JSON.stringify(ka) !== JSON.stringify(kb)) out.push(`${path}: keys ${ka.join(',')} vs ${kb.join(',')}`);
    else for (const k of ka) differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (!Object.is(a, b) && JSON.stringify(a) !== JSON.stringify(b)) out.push(`${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  return out;
}

async function openLab(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  await page.getByTestId('gt-dataset').selectOption('fashion-mnist');
  await expect(page.getByTestId('gt-omega')).toHaveText('90');
  await expect(page.getByTestId('gt-truth-label')).toHaveText('all 90 orderings');
}

test('import 180 runs from a CSV: malformed rows reported, every chart filled, numbers equal numpy/scipy and the CLI', async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openLab(page);
  await expect(page.getByTestId('gt-empty')).toContainText('Import results');

  // the dialog, before a file is chosen: what it accepts
  await page.getByTestId('gt-import-open').click();
  const dialog = page.getByTestId('gt-import-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('6 classes in 3 tasks (2 + 2 + 2 classes)');
  await expect(dialog.locator('.formats dt')).toHaveCount(4);
  await shot(page, 'import-dialog-empty-1280', false);

  await page.getByTestId('gt-import-file').setInputFiles(FIXTURE);
  await expect(page.getByTestId('gt-import-format')).toHaveText('CSV table');
  await expect(page.getByTestId('gt-import-unit')).toHaveText('percentages');
  await expect(dialog).toContainText('values above 1 were found (e.g. 46.75 on line 2)');
  await expect(page.getByTestId('gt-import-counts')).toContainText('187 read · 180 to import · 7 skipped');
  await expect(dialog).toContainText('ewc (90) · finetune (90)');
  const skipped = page.getByTestId('gt-import-skipped').locator('li');
  await expect(skipped).toHaveCount(expected.malformed.length);
  for (const [i, m] of expected.malformed.entries()) {
    await expect(skipped.nth(i)).toContainText(`line ${m.line}`);
    await expect(skipped.nth(i)).toContainText(m.reason);
  }
  await shot(page, 'import-dialog-1280', false);

  await page.getByTestId('gt-import-confirm').click();
  await expect(page.getByTestId('gt-import-done')).toContainText('Imported 180 runs');
  await page.getByTestId('gt-import-finish').click();
  await expect(dialog).toBeHidden();

  // every chart: one block per ordering and method, both Gaussians per method, JSD/W1, rankings
  await expect(page.getByTestId('gt-imported')).toHaveText('180');
  const histogram = page.locator('[data-testid="accuracy-histogram"]');
  await expect(histogram.locator('g.panel')).toHaveCount(2);
  await expect(histogram.locator('rect.member')).toHaveCount(180);
  await expect(histogram.locator('path.estimate, g.estimate')).toHaveCount(4);
  const quality = page.locator('[data-testid="quality-table"]');
  for (const method of ['finetune', 'ewc']) {
    for (const p of ['rs', 'edge'] as const) {
      const e = expected.methods.final[method][p];
      const jsd = Number(await quality.locator(`tr[data-strategy="${method}"][data-protocol="${p}"] td[data-metric="jsd"]`).getAttribute('data-value'));
      const w1 = Number(await quality.locator(`tr[data-strategy="${method}"][data-protocol="${p}"] td[data-metric="w1"]`).getAttribute('data-value'));
      expect(Math.abs(jsd - e.jsd)).toBeLessThan(1e-9);
      expect(Math.abs(w1 - e.w1)).toBeLessThan(1e-6);
    }
  }
  const ranks = await page.locator('[data-testid="rankings-table"] td[data-rank]').evaluateAll((els) => els.map((e) => e.getAttribute('data-rank')));
  expect(ranks).toHaveLength(2 * 3 * 3);
  for (const r of ranks) expect(['1', '1.5', '2']).toContain(r);
  await shot(page, 'import-lab-1280');

  // the lab's statistics JSON equals `cil-lab analyze` on the same file, strategy by strategy
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gt-export-stats-json').click()]);
  const lab = JSON.parse(readFileSync((await download.path())!, 'utf8')).statistics;
  // `cil-lab analyze`'s command in this process (a child `node bin/cil-lab.mjs` would load every command and tsx
  // first; that the binary reaches this command is tests/unit/cli/analyze.test.ts)
  const cli = JSON.parse(
    analyzeCommand({ results: FIXTURE, dataset: 'fashion-mnist', classes: '0-5', tasks: '3' }, { loadWordnet: () => loadWordnetFrom(process.cwd()) }),
  ).statistics;
  expect(lab.truthLabel).toBe(cli.truthLabel);
  for (const method of ['finetune', 'ewc']) {
    const a = lab.strategies.find((s: { strategy: string }) => s.strategy === method);
    const b = cli.strategies.find((s: { strategy: string }) => s.strategy === method);
    const diff = differences(a, b, method);
    expect([...diff], `${method}: the lab's statistics against cil-lab analyze's`).toEqual([]);
    // and it compared the numbers (a strategy's statistics hold over a thousand)
    expect(diff.numbers, method).toBeGreaterThan(1000);
    expect(Math.abs(a.pearson.value.statistic - expected.methods.final[method].pearson.r)).toBeLessThan(1e-9);
    expect(Math.abs(a.truth.moments.mean - expected.methods.final[method].truth.mean)).toBeLessThan(1e-12);
  }
  expect(lab.rankings.reason).toBeNull();
  expect(cli.rankings.reason).toBeNull();

  // an imported run without R says so when clicked
  await page.getByTestId('gt-worst-ewc').click();
  await expect(page.getByTestId('gt-selected')).toContainText('ewc');
  await expect(page.locator('[data-testid="gt-no-matrix"], [data-testid="matrix-heatmap"]').first()).toBeVisible();

  // importing the same file again asks before replacing; keeping writes nothing
  await page.getByTestId('gt-import-open').click();
  await page.getByTestId('gt-import-file').setInputFiles(FIXTURE);
  await expect(page.getByTestId('gt-import-conflicts')).toContainText(
    '180 of these runs (same ordering, method and seed) are already stored for this experiment (180 imported earlier)',
  );
  await shot(page, 'import-dialog-conflicts-1280', false);
  await page.getByTestId('gt-import-keep').click();
  await expect(page.getByTestId('gt-import-done')).toContainText('Imported 0 runs; kept the 180 already stored');
  await page.getByTestId('gt-import-finish').click();
  await expect(page.getByTestId('gt-imported')).toHaveText('180');

  // a phone: the dialog and the lab fit the width
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'import-lab-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId('gt-import-open').click();
  await page.getByTestId('gt-import-file').setInputFiles(FIXTURE);
  await expect(page.getByTestId('gt-import-counts')).toContainText('180 to import');
  await shot(page, 'import-dialog-390', false);
  const box = await page.getByTestId('gt-import-dialog').boundingBox();
  expect(box!.width).toBeLessThanOrEqual(390);
  expect(errors).toEqual([]);
});

test('a PyCIL log and a JSON-lines file import with their own method names', async ({ page }) => {
  await openLab(page);
  await page.getByTestId('gt-import-open').click();
  await page.getByTestId('gt-import-file').setInputFiles('tests/fixtures/import/small-pycil.log');
  await expect(page.getByTestId('gt-import-format')).toHaveText('PyCIL / PILOT log');
  await expect(page.getByTestId('gt-import-counts')).toContainText('2 to import');
  await expect(page.getByTestId('gt-import-dialog')).toContainText('icarl (2)');
  await page.getByTestId('gt-import-confirm').click();
  await expect(page.getByTestId('gt-import-done')).toContainText('Imported 2 runs');
  await page.getByTestId('gt-import-finish').click();
  await page.getByTestId('gt-import-open').click();
  await page.getByTestId('gt-import-method').fill('podnet');
  await page.getByTestId('gt-import-file').setInputFiles('tests/fixtures/import/small-runs.jsonl');
  await expect(page.getByTestId('gt-import-format')).toHaveText(/JSON lines/);
  await expect(page.getByTestId('gt-import-counts')).toContainText('2 to import · 2 skipped');
  await page.getByTestId('gt-import-confirm').click();
  await page.getByTestId('gt-import-finish').click();
  await expect(page.getByTestId('gt-imported')).toHaveText('4');
  // the imported methods get their own panels beside the checked strategy (finetune has no runs: left out)
  await expect(page.locator('[data-testid="accuracy-histogram"] g.panel')).toHaveCount(2);
  await expect(page.locator('[data-testid="quality-table"] tbody[data-strategy="icarl"]')).toBeVisible();
  await expect(page.locator('[data-testid="quality-table"] tbody[data-strategy="podnet"]')).toBeVisible();
});
