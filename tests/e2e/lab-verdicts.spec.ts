/**
 * Every training lab ends a run with its verdict above the charts ("What this shows", docs/verdicts.md): the Time,
 * Open-world and Curriculum labs on their defaults as they open (3 seeds; about 80, 10 and 60 s here) at 1280×800,
 * and on their quick presets (one seed, short) at 390 px, each with a Seeds control; the Forgetting lab on its
 * default (3 seeds, about 30 s) at both widths. The Orderings and Ground-truth verdicts are tests/e2e/verdict.spec.ts's.
 * Screenshots under test-results/screenshots/verdict-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

mkdirSync('test-results/screenshots', { recursive: true });

// the headline of each verdict: one seed (the quick preset) claims nothing; the default over 3 seeds
const LABS = [
  {
    tab: 'Time',
    id: 'tm',
    first: /^Over 1 seed, the gap between same-bucket and next-bucket accuracy is [−\d.]+ points: not yet evidence, as a claim needs 3 or more seeds\.$/,
    defaultFirst:
      /^Tested on the next bucket, the model scores [\d.]+ points lower than on the bucket it trained on — beyond the no-drift control, over 3 seeds\.$/,
  },
  {
    tab: 'Open world',
    id: 'ow',
    first: /separates unknown images from known ones best \(AUROC [\d.]+%\)/,
    defaultFirst: /separates unknown images from known ones best \(AUROC [\d.]+%\).* over 3 seeds\.$/,
  },
  { tab: 'Curriculum', id: 'cu', first: /./, defaultFirst: /^Over 3 seeds, easy-first \(M2I\) beats hard-first \(I2M\) beyond the spread in (none|\S+ of)/ },
];

async function runQuick(page: Page, tab: string, id: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: tab, exact: true }).click();
  await expect(page.getByTestId(`${id}-lab`)).toBeVisible();
  await expect(page.getByTestId(`${id}-seeds`)).toBeVisible();
  await page.getByTestId(`${id}-preset-quick`).click();
  // wasm, as the labs' own specs: 'auto' may pick WebGPU through SwiftShader here, far slower
  if (id !== 'ow') await page.getByTestId(`${id}-backend`).selectOption('wasm');
  await page.getByTestId(`${id}-run`).click();
}

for (const lab of LABS) {
  test(`${lab.tab}: a verdict after a quick run, at 390 px`, async ({ page }) => {
    test.setTimeout(480_000);
    await page.setViewportSize({ width: 390, height: 800 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await runQuick(page, lab.tab, lab.id);
    const verdict = page.getByTestId(`${lab.id}-verdict`);
    await expect(verdict).toBeVisible({ timeout: 420_000 });
    await expect(verdict).toHaveAttribute('data-provisional', 'false', { timeout: 420_000 });
    await expect(verdict.locator('h3')).toContainText('What this shows');
    await expect(verdict.getByTestId(`${lab.id}-verdict-headline`)).toHaveText(lab.first);
    // the numbers fold beneath the headline; one seed: the verdict asks for more before a claim
    await expect(verdict.locator('.findings li').first()).toBeHidden();
    await verdict.getByTestId(`${lab.id}-verdict-details`).locator('summary').click();
    await expect(verdict.locator('.findings li').first()).toBeVisible();
    await expect(verdict.getByText(/3 or more seeds|more seeds/).first()).toBeAttached();
    await verdict.screenshot({ path: `test-results/screenshots/verdict-${lab.id}-390.png` });
    expect(errors).toEqual([]);
  });

  test(`${lab.tab}: the default as it opens (3 seeds) ends with a final verdict over its seeds, at 1280 px`, async ({ page }) => {
    test.setTimeout(480_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/');
    await page.getByRole('button', { name: lab.tab, exact: true }).click();
    await expect(page.getByTestId(`${lab.id}-seeds`)).toHaveValue('3');
    await page.getByTestId(`${lab.id}-run`).click();
    const verdict = page.getByTestId(`${lab.id}-verdict`);
    await expect(verdict).toHaveAttribute('data-provisional', 'false', { timeout: 420_000 });
    await expect(verdict.locator('h3')).toContainText('What this shows');
    await expect(verdict.getByTestId(`${lab.id}-verdict-headline`)).toHaveText(lab.defaultFirst);
    await verdict.screenshot({ path: `test-results/screenshots/verdict-${lab.id}-default-1280.png` });
    expect(errors).toEqual([]);
  });
}

for (const width of [1280, 390]) {
  test(`Forgetting: the default as it opens learns its base task and ends with a verdict over its 3 seeds, at ${width} px`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width, height: 800 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgetting', exact: true }).click();
    await expect(page.getByTestId('fg-seeds')).toHaveValue('3');
    await page.getByTestId('fg-run').click();
    const verdict = page.getByTestId('fg-verdict');
    await expect(verdict).toHaveAttribute('data-provisional', 'false', { timeout: 240_000 });
    await expect(verdict.locator('h3')).toContainText('What this shows');
    // the default is in the regime the paper measures: the base task learned (≥ 80 %), said over the seeds
    const first = (await verdict.locator('.findings li').first().textContent()) ?? '';
    const base = /The base task is learned: ([\d.]+)% ± [\d.]+ \(3 seeds\)/.exec(first);
    expect(base, first).not.toBeNull();
    expect(Number(base![1])).toBeGreaterThanOrEqual(80);
    await verdict.getByTestId('fg-verdict-details').locator('summary').click();
    await expect(verdict.getByText(/CPCF rises as it falls \(Pearson r < 0\) in \d of 3 seeds/)).toBeVisible();
    await expect(verdict.getByText(/Against the trend-matched control/)).toBeVisible();
    await expect(verdict.getByText(/The paper reports/)).toBeVisible();
    await verdict.screenshot({ path: `test-results/screenshots/verdict-fg-${width}.png` });
    expect(errors).toEqual([]);
  });
}
