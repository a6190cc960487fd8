import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

mkdirSync('test-results/screenshots', { recursive: true });

async function values(page: Page, selector: string): Promise<number[]> {
  return page.locator(selector).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
}

async function checkCharts(page: Page): Promise<void> {
  const chart = page.getByTestId('fg-cpcf-chart');
  await expect(chart).toBeVisible();
  // K = 6 tasks (5,1,1,1,1,1): K − 1 = 5 points per series
  const cpcf = await values(page, '[data-testid="fg-cpcf-chart"] .series-cpcf path.pt');
  const aPrev = await values(page, '[data-testid="fg-cpcf-chart"] .series-aPrev path.pt');
  const aNew = await values(page, '[data-testid="fg-cpcf-chart"] .series-aNew path.pt');
  expect(cpcf).toHaveLength(5);
  expect(aPrev).toHaveLength(5);
  expect(aNew).toHaveLength(5);
  for (const v of cpcf) expect(v).toBeGreaterThanOrEqual(1 - 1e-9); // APS sets are never empty
  for (const v of cpcf) expect(v).toBeLessThanOrEqual(10);
  for (const v of [...aPrev, ...aNew]) {
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThanOrEqual(100);
  }
  // both axes carry their titles
  await expect(chart.locator('text.axis-title').nth(0)).toHaveText('CPCF: mean prediction-set size (classes)');
  await expect(chart.locator('text.axis-title').nth(1)).toContainText('accuracy (%)');
  const coverage = await values(page, '[data-testid="fg-coverage-chart"] path.pooled');
  expect(coverage).toHaveLength(5);
  for (const v of coverage) {
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThanOrEqual(1);
  }
  await expect(page.locator('[data-testid="fg-setsize-chart"] g.size-panel')).toHaveCount(5);
  const omega = await values(page, '[data-testid="fg-omega-table"] td[data-value]');
  expect(omega.length).toBeGreaterThanOrEqual(5);
  for (const v of omega) expect(Number.isFinite(v)).toBe(true);
  const dcor = Number(await page.getByTestId('fg-dcor').getAttribute('data-value'));
  expect(dcor).toBeGreaterThanOrEqual(0);
  expect(dcor).toBeLessThanOrEqual(1);
  // the paper's MNIST column beside ours (digits): one seed per cell in the grid, so "(1 seed)", the exact
  // permutation p of 5 points (a multiple of 1/120), and the plain reasons it is not the paper's setup
  await expect(page.getByTestId('fg-paper-table-ii')).toContainText('0.5585');
  await expect(page.getByTestId('fg-paper-table-iii')).toContainText('0.8012');
  const ours = page.getByTestId('fg-paper-table-ii').getByTestId('fg-ours');
  await expect(ours).toHaveCount(8);
  for (let i = 0; i < 8; i++) await expect(ours.nth(i)).toHaveText(/^[01]\.\d{3} \(1 seed\)$/);
  const pText = await page.getByTestId('fg-paper-table-ii').getByTestId('fg-perm-p').nth(2).textContent();
  const pv = Number((pText ?? '').replace(/[=\s]/g, ''));
  expect(pv > 0 && pv <= 1).toBe(true);
  expect(Math.abs(pv * 120 - Math.round(pv * 120))).toBeLessThan(0.6); // printed to 3 decimals
  const verdict = page.getByTestId('fg-comparable');
  await expect(verdict).toContainText('MLP: base-task accuracy');
  await expect(verdict).toContainText('EWC: base-task accuracy');
  await expect(verdict).toContainText('Not comparable with the paper’s figure: different dataset: 8×8 digits');
  await expect(verdict).toContainText('learning rate 0.001, the paper 2e-5');
  await expect(verdict).toContainText('one seed: no spread');
}

// The grid preset (8 short runs on digits at the faster lr) rather than a paper preset (10 runs of the paper's step
// count, minutes each on a loaded machine): the tables' new columns are the same; their mean ± sd over seeds is
// checked in tests/unit/core/forgetting/setup.test.ts.
test('the grid preset runs to the end on wasm, draws CPCF / a_prev / a_new / coverage / Ω and Tables II–III with p and the not-comparable line, and survives a reload', async ({
  page,
}) => {
  test.setTimeout(1_500_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await page.getByRole('button', { name: 'Forgetting', exact: true }).click();
  await expect(page.getByTestId('fg-empty')).toBeVisible();
  await page.getByTestId('fg-backend').selectOption('wasm');
  await page.getByTestId('fg-preset-rate').selectOption({ label: '1e-3 (faster)' });
  await page.getByTestId('fg-dataset').selectOption('digits');
  const t0 = Date.now();
  await page.getByTestId('fg-preset-grid').click();
  await expect(page.getByTestId('fg-progress')).toContainText('run 1 / 8', { timeout: 120_000 });
  await expect(page.getByTestId('fg-progress')).toContainText('done: 8 runs', { timeout: 1_400_000 });
  const seconds = (Date.now() - t0) / 1000;
  console.log(`grid preset (8 runs, wasm): ${seconds.toFixed(1)} s`);
  await expect(page.getByTestId('fg-backend-in-use')).toHaveText('wasm');
  await checkCharts(page);
  await page.screenshot({ path: 'test-results/screenshots/forgetting-grid-1280.png', fullPage: true });
  // α is applied to the stored outputs: a larger α gives smaller (or equal) sets
  const before = await values(page, '[data-testid="fg-cpcf-chart"] .series-cpcf path.pt');
  await page.getByTestId('fg-alpha').selectOption('0.2');
  await expect.poll(async () => (await values(page, '[data-testid="fg-cpcf-chart"] .series-cpcf path.pt')).join()).not.toBe(before.join());
  const after = await values(page, '[data-testid="fg-cpcf-chart"] .series-cpcf path.pt');
  after.forEach((v, i) => expect(v).toBeLessThanOrEqual(before[i] + 1e-9));
  await page.getByTestId('fg-alpha').selectOption('0.1');

  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByTestId('fg-cpcf-chart').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/forgetting-grid-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.reload();
  await page.getByRole('button', { name: 'Forgetting', exact: true }).click();
  await expect(page.getByTestId('fg-groups')).toContainText('Calibration ratio × α grid');
  await checkCharts(page);
  await page.screenshot({ path: 'test-results/screenshots/forgetting-reload-1280.png', fullPage: false });
  expect(errors).toEqual([]);
});

// Timing of the other presets (opt-in: FG_ALL_PRESETS=1), each on wasm with the faster lr; logs the wall time.
test('every preset finishes (timing)', async ({ page }) => {
  test.skip(!process.env.FG_ALL_PRESETS, 'set FG_ALL_PRESETS=1 to time every preset');
  test.setTimeout(1_200_000);
  await page.goto('/');
  await page.getByRole('button', { name: 'Forgetting', exact: true }).click();
  await page.getByTestId('fg-backend').selectOption('wasm');
  await page.getByTestId('fg-preset-rate').selectOption({ label: '1e-3 (faster)' });
  for (const [id, n] of [
    ['fashion', 10],
    ['digits', 10],
    ['ewc-variants', 2],
    ['lr', 4],
    ['edge', 3],
  ] as const) {
    if (id !== 'fashion' && id !== 'digits') await page.getByTestId('fg-dataset').selectOption('digits');
    const t0 = Date.now();
    await page.getByTestId(`fg-preset-${id}`).click();
    await expect(page.getByTestId('fg-progress')).toContainText(`done: ${n} runs`, { timeout: 600_000 });
    console.log(`preset ${id} (${n} runs, wasm): ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await page.screenshot({ path: `test-results/screenshots/forgetting-preset-${id}-1280.png`, fullPage: true });
  }
});

test('"What exactly ran" before any run shows the setup the controls describe and the command that runs it', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Forgetting', exact: true }).click();
  await expect(page.getByTestId('fg-dataset')).toHaveValue('digits');
  const lr = Number(await page.getByTestId('fg-lr').inputValue());
  const epochs = Number(await page.getByTestId('fg-epochs').inputValue());
  await page.getByTestId('what-ran-open').click();
  const panel = page.getByTestId('what-ran');
  await expect(panel.getByTestId('what-ran-tab-setup')).toContainText('The Forgetting lab shows its own setup');
  const shown = JSON.parse((await panel.getByTestId('what-ran-json').textContent())!);
  expect(shown).toMatchObject({ lab: 'forgetting', dataset: { id: 'digits' }, training: { lr, epochs } });
  await expect(panel.getByTestId('what-ran-command')).toContainText(/npx cil-lab cpcf --config cil-lab-config-[0-9a-f]+\.json/);
  await page.screenshot({ path: 'test-results/screenshots/what-ran-forgetting-1280.png' });
  await panel.getByRole('button', { name: 'Close' }).click();
  // a seed count of 0 is refused in one line; the field and the experiment keep the last valid count (typing in the
  // tab makes its setup the experiment, as any edit there)
  const seeds = await page.getByTestId('fg-seeds').inputValue();
  await page.getByTestId('fg-seeds').fill('0');
  await page.getByTestId('fg-seeds').press('Tab');
  await expect(page.getByTestId('fg-seeds-error')).toHaveText('Seeds: a whole number from 1 to 20.');
  await expect(page.getByTestId('fg-seeds')).toHaveValue(seeds);
  await page.getByTestId('what-ran-open').click();
  const taken = JSON.parse((await panel.getByTestId('what-ran-json').textContent())!);
  expect(taken.forgetting?.seeds ?? 1).toBe(Number(seeds));
  await panel.getByRole('button', { name: 'Close' }).click();
  // another tab shows the experiment again: the Orderings lab's config, its own command
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Orderings', exact: true }).click();
  await page.getByTestId('what-ran-open').click();
  await expect(panel.getByTestId('what-ran-tab-setup')).toHaveCount(0);
  await expect(panel.getByTestId('what-ran-command')).toContainText('npx cil-lab orders --config');
  expect(errors).toEqual([]);
});
