import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { decodeConfigFromHash, encodeConfigToHash } from '../../src/core/config/url-codec';
import { validateConfig } from '../../src/core/config/validate';

mkdirSync('test-results/screenshots', { recursive: true });

async function openCurriculum(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Curriculum', exact: true }).click();
  await expect(page.getByTestId('cu-lab')).toBeVisible();
}

test('the quick preset trains a_j and all 6 orders to the end on wasm, and every chart has data', async ({ page }) => {
  test.setTimeout(600_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openCurriculum(page);
  await page.getByTestId('cu-preset-quick').click();
  await page.getByTestId('cu-backend').selectOption('wasm');
  // the datasets' samples: 3 datasets, one canvas row each, at 28×28 grey
  await expect(page.locator('[data-testid="cu-samples"] canvas')).toHaveCount(3, { timeout: 90_000 });
  await expect(page.getByTestId('cu-samples')).toContainText('28×28 grey');
  await page.getByTestId('cu-run').click();
  // 3 isolated models + 3! orders
  await expect(page.getByTestId('cu-progress')).toContainText('done', { timeout: 540_000 });
  expect(errors).toEqual([]);
  // the verdict after the quick preset's one seed: it asks for more before a claim (the verdict over several seeds is
  // tests/e2e/lab-verdicts.spec.ts's)
  const verdict = page.getByTestId('cu-verdict');
  await expect(verdict).toHaveAttribute('data-provisional', 'false');
  await expect(verdict.locator('h3')).toContainText('What this shows');
  await expect(verdict.getByTestId('cu-verdict-headline')).toHaveText(/\b1 seed\b/);
  // the numbers fold beneath the headline; one seed: the verdict asks for more before a claim
  await expect(verdict.locator('.findings li').first()).toBeHidden();
  await verdict.getByTestId('cu-verdict-details').locator('summary').click();
  await expect(verdict.locator('.findings li').first()).toBeVisible();
  await expect(verdict.getByText(/3 or more seeds|more seeds/).first()).toBeAttached();

  // a_j table: one row per dataset
  await expect(page.locator('[data-testid="cu-isolated"] tbody tr')).toHaveCount(3);
  // summary: M2I − I2M per scenario, and ACC₀'s share
  await expect(page.getByTestId('cu-summary')).toContainText('M2I − I2M ACC');
  await expect(page.getByTestId('cu-summary')).toContainText('the weighting alone (ACC₀) predicts');

  // M2I vs I2M bars: CIL and TIL, two bars each, each with an ACC₀ tick
  await expect(page.locator('[data-testid="cu-lead"] rect.bar')).toHaveCount(4);
  await expect(page.locator('[data-testid="cu-lead"] line.acc0')).toHaveCount(4);
  await expect(page.locator('[data-testid="cu-lead"] svg text', { hasText: 'ACC (%)' })).toHaveCount(1);
  // every order's ACC (dot) and ACC₀ (ring), two scenarios × 6 orders; M2I and I2M named
  await expect(page.locator('[data-testid="cu-dist"] circle.acc-dot')).toHaveCount(12);
  await expect(page.locator('[data-testid="cu-dist"] circle.acc0-ring')).toHaveCount(12);
  await expect(page.locator('[data-testid="cu-dist"] svg text', { hasText: 'M2I' })).toHaveCount(2);
  // ACC − ACC₀ per order
  await expect(page.locator('[data-testid="cu-gain"] rect.gain-bar')).toHaveCount(12);
  // R heat map of the chosen order: 3×3 cells; another order can be chosen
  await expect(page.locator('[data-testid="cu-heat"] rect.cell')).toHaveCount(9);
  await expect(page.locator('[data-testid="cu-heat-order"] option')).toHaveCount(6);
  await page.getByTestId('cu-heat-scenario').selectOption('til');
  await expect(page.getByTestId('cu-heat')).toContainText('TIL');

  // every chart: export menu, legend, tooltip on hover
  for (const id of ['cu-lead', 'cu-dist', 'cu-gain', 'cu-heat']) {
    await expect(page.locator(`[data-testid="${id}"] figcaption button`)).not.toHaveCount(0);
  }
  await page.locator('[data-testid="cu-heat"] rect.cell').first().hover();
  await expect(page.locator('[data-testid="cu-heat"] .tip')).toContainText('after training task 1');
  await page.locator('[data-testid="cu-lead"] rect.bar').first().hover();
  await expect(page.locator('[data-testid="cu-lead"] .tip')).toContainText('ACC₀');

  await page.screenshot({ path: 'test-results/screenshots/curriculum-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'test-results/screenshots/curriculum-390.png', fullPage: true });
  await verdict.scrollIntoViewIfNeeded();
  await expect(verdict.locator('.findings li').first()).toBeVisible();
  await verdict.screenshot({ path: 'test-results/screenshots/verdict-cu-390.png' });

  // stored: after a reload the same preset trains nothing again
  await page.reload();
  await page.setViewportSize({ width: 1280, height: 800 });
  await openCurriculum(page);
  await page.getByTestId('cu-preset-quick').click();
  await page.getByTestId('cu-backend').selectOption('wasm');
  await page.getByTestId('cu-run').click();
  await expect(page.getByTestId('cu-progress')).toContainText('read from the store', { timeout: 60_000 });
  await expect(page.locator('[data-testid="cu-dist"] circle.acc-dot')).toHaveCount(12);
});

test('the share link carries the curriculum and opens the Curriculum tab on it', async ({ page, context }) => {
  await openCurriculum(page);
  await page.getByTestId('cu-preset-quick').click();
  await page.getByTestId('cu-scenario').selectOption('til');
  // the hash is written after a short delay: wait until it holds the last change (not a fixed time, which a loaded
  // machine can outlast)
  const scenarioInLink = () => {
    const r = decodeConfigFromHash(new URL(page.url()).hash);
    return r.ok ? (r.config.curriculum as { scenario?: string } | undefined)?.scenario : null;
  };
  await expect.poll(scenarioInLink, { timeout: 15_000 }).toBe('til');
  const url = page.url();
  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByTestId('cu-lab')).toBeVisible();
  await expect(other.getByTestId('cu-ds-emoji-food')).toBeChecked();
  await expect(other.getByTestId('cu-ds-emoji-animals')).not.toBeChecked();
  await expect(other.getByTestId('cu-scenario')).toHaveValue('til');
  await expect(other.getByTestId('cu-epochs')).toHaveValue('1');
  // the link holds the training in the experiment's common sections and only datasets, order and scenario in its own
  const r = decodeConfigFromHash(new URL(url).hash);
  expect(r.ok).toBe(true);
  if (!r.ok) return;
  expect(r.config.lab).toBe('curriculum');
  expect(r.config.curriculum).toMatchObject({ from: 'experiment', scenario: 'til' });
  expect(Object.keys(r.config.curriculum!).sort()).toEqual(['datasets', 'from', 'order', 'scenario']);
  expect(r.config.training.epochs).toBe(1);
  // a link whose common sections the lab cannot train says so, and what it trains instead
  const cannot = validateConfig({ ...r.config, model: { kind: 'mlp', hidden: [64, 32] } });
  expect(cannot.errors).toEqual([]);
  await other.goto('/' + encodeConfigToHash(cannot.config));
  await other.reload();
  await expect(other.getByTestId('cu-unused')).toContainText(
    'an MLP with hidden layers 64, 32 (the lab trains one hidden layer): it trains one hidden layer of 256',
  );
});
