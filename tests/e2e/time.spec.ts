import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { encodeConfigToHash } from '../../src/core/config/url-codec';
import { validateConfig } from '../../src/core/config/validate';
import { TIME_LAB_START } from '../../src/core/labs/time/settings';
import { pageConfig } from './harness/page-config';

mkdirSync('test-results/screenshots', { recursive: true });

async function openTime(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Time', exact: true }).click();
  await expect(page.getByTestId('tm-lab')).toBeVisible();
}

test('the quick preset runs both protocols to the end on wasm and every chart has data', async ({ page }) => {
  test.setTimeout(400_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openTime(page);
  await page.getByTestId('tm-preset-quick').click();
  await page.getByTestId('tm-backend').selectOption('wasm');
  // the stream's samples: 3 buckets, one canvas row each
  await expect(page.locator('[data-testid="tm-samples"] canvas')).toHaveCount(3, { timeout: 60_000 });
  await page.getByTestId('tm-run').click();
  await expect(page.getByTestId('tm-progress')).toContainText('done', { timeout: 360_000 });
  // the verdict after the quick preset's one seed: it asks for more before a claim (the verdict over several seeds is
  // tests/e2e/lab-verdicts.spec.ts's)
  const verdict = page.getByTestId('tm-verdict');
  await expect(verdict).toHaveAttribute('data-provisional', 'false');
  await expect(verdict.locator('h3')).toContainText('What this shows');
  await expect(verdict.getByTestId('tm-verdict-headline')).toHaveText(
    /^Over 1 seed, the gap between same-bucket and next-bucket accuracy is [−\d.]+ points: not yet evidence, as a claim needs 3 or more seeds\.$/,
  );
  // the numbers fold beneath the headline; one seed: the verdict asks for more before a claim
  await expect(verdict.locator('.findings li').first()).toBeHidden();
  await verdict.getByTestId('tm-verdict-details').locator('summary').click();
  await expect(verdict.locator('.findings li').first()).toBeVisible();
  await expect(verdict.getByText(/3 or more seeds|more seeds/).first()).toBeAttached();

  // R heat maps: 3×3 cells each; streaming greys the diagonal and below (6 cells); both outline 3 + 2 cells
  for (const p of ['iid', 'streaming']) {
    const heat = page.getByTestId(`tm-heat-${p}`);
    await expect(heat.locator('rect.cell')).toHaveCount(9);
    await expect(heat.locator('rect.outline-diag')).toHaveCount(3);
    await expect(heat.locator('rect.outline-super')).toHaveCount(2);
    await expect(heat.locator('.legend text').last()).toHaveText('accuracy R[i][j] (%)');
  }
  await expect(page.locator('[data-testid="tm-heat-streaming"] rect.unused')).toHaveCount(6);
  await expect(page.locator('[data-testid="tm-heat-iid"] rect.unused')).toHaveCount(0);

  // the protocols' bars: iid in-domain, iid next, streaming next; streaming in-domain not measurable
  await expect(page.locator('[data-testid="tm-bars"] rect.bar:not(.na)')).toHaveCount(3);
  await expect(page.locator('[data-testid="tm-bars"] rect.na')).toHaveCount(1);
  const heights = await page.locator('[data-testid="tm-bars"] rect.bar:not(.na)').evaluateAll((els) => els.map((e) => Number(e.getAttribute('height'))));
  for (const h of heights) expect(h).toBeGreaterThan(0);
  // summary numbers are percentages
  const summary = await page.getByTestId('tm-summary').innerText();
  expect(summary).toMatch(/iid in-domain avg\.\s*\d+\.\d %/);

  // accuracy against distance: iid −2..2 (5 points), streaming 1..2 (2 points)
  await expect(page.locator('[data-testid="tm-distance"] circle.pt')).toHaveCount(7);
  await expect(page.locator('[data-testid="tm-distance"] svg text', { hasText: 'test distance j − i' })).toHaveCount(1);

  // the buffer's composition: this run, then Table 2's sweep (8 α)
  await expect(page.locator('[data-testid="tm-composition"] g.panel')).toHaveCount(1);
  await page.getByTestId('tm-sweep').click();
  await expect(page.locator('[data-testid="tm-composition"] g.panel')).toHaveCount(9, { timeout: 60_000 });
  expect(await page.locator('[data-testid="tm-composition"] rect.seg').count()).toBeGreaterThan(20);

  // every chart has its export menu and a tooltip on hover
  await expect(page.locator('[data-testid^="tm-"] figcaption button')).not.toHaveCount(0);
  await page.locator('[data-testid="tm-heat-iid"] rect.cell').first().hover();
  await expect(page.locator('[data-testid="tm-heat-iid"] .tip')).toContainText('trained through bucket 1');

  await page.screenshot({ path: 'test-results/screenshots/time-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'test-results/screenshots/time-390.png', fullPage: true });
  await page.getByTestId('tm-composition').screenshot({ path: 'test-results/screenshots/time-390-composition.png' });
  await page.getByTestId('tm-heat-streaming').screenshot({ path: 'test-results/screenshots/time-390-heat.png' });
  await verdict.scrollIntoViewIfNeeded();
  await expect(verdict.locator('.findings li').first()).toBeVisible();
  await verdict.screenshot({ path: 'test-results/screenshots/verdict-tm-390.png' });
  expect(errors).toEqual([]);

  // stored: a reload and Run again reads both protocols back without training
  await page.setViewportSize({ width: 1280, height: 800 });
  await openTime(page);
  await page.getByTestId('tm-preset-quick').click();
  await page.getByTestId('tm-run').click();
  await expect(page.getByTestId('tm-progress')).toContainText('done', { timeout: 30_000 });
  await expect(page.locator('[data-testid="tm-heat-iid"] rect.cell')).toHaveCount(9);
});

test('the settings are the experiment: a change writes the network and training into the common sections; a link made before opens as it was', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openTime(page);
  await page.getByTestId('tm-preset-quick').click();
  await expect.poll(() => (pageConfig(page)?.time as { from?: string } | undefined)?.from).toBe('experiment');
  const c = pageConfig(page)!;
  expect(c.lab).toBe('time');
  expect(Object.keys(c.time!)).not.toContain('hidden');
  expect(c.model.kind).toBe('mlp');
  // a link made before the lab moved onto the common sections (full settings in its own section) opens to them
  const before = validateConfig({ lab: 'time', time: { ...TIME_LAB_START, buckets: 4, epochs: 2 }, training: { lr: 0.5 } });
  expect(before.errors).toEqual([]);
  await page.goto('/' + encodeConfigToHash(before.config));
  await page.reload();
  await expect(page.getByTestId('tm-lab')).toBeVisible();
  await expect(page.getByTestId('time-unused')).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(new URL(page.url()).hash).toBe(encodeConfigToHash(before.config));
  // one whose common sections the lab cannot train says so
  const cannot = validateConfig({ ...c, training: { ...c.training, init: 'pytorch' } });
  await page.goto('/' + encodeConfigToHash(cannot.config));
  await page.reload();
  await expect(page.getByTestId('time-unused')).toContainText('init pytorch: it trains init he-glorot');
  expect(errors).toEqual([]);
});
