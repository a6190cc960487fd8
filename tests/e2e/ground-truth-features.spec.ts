/**
 * The Ground-truth lab on the embedded backbone's features, end to end in Chromium, offline (docs/science.md §9 and
 * appendix E): the "Train on" choice brings the pre-trained methods into the picker and the feature source into the
 * link; the default experiment (Fashion-MNIST 0–5, 3 tasks, all 90 orderings), smaller so the spec stays short (50
 * training and 20 test images per class instead of 300 / 100, one epoch a task instead of 3), with Finetune on a
 * linear head and SimpleCIL, FeCAM and RanPAC (M = 256 here; the default M = 2000 takes minutes on a loaded 2-core
 * machine) shows the Table-1-shaped result: the prototype methods' final accuracy is one value, the head spreads, the
 * path taken ("exact by class set: 31 states for 90 orderings") and the verdict.
 * Screenshots: test-results/screenshots/gt-features-{1280,390}.png and the panel alone, gt-features-order-{1280,390}.png.
 */
import { expect, test, type BrowserContext } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { V1_FILL, defaultConfig, type ExperimentConfig } from '../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../src/core/config/url-codec';
import { pageConfig } from './harness/page-config';

mkdirSync('test-results/screenshots', { recursive: true });

async function offline(context: BrowserContext): Promise<void> {
  await context.route('**/*', (route) => {
    const host = new URL(route.request().url()).hostname;
    return host === '127.0.0.1' || host === 'localhost' ? route.continue() : route.abort();
  });
}

function featuresConfig(): ExperimentConfig {
  const c = defaultConfig();
  return {
    ...c,
    lab: 'ground-truth',
    features: { source: 'backbone', seed: 0 },
    model: { kind: 'head', hidden: [] },
    strategies: [
      { id: 'finetune', options: {} },
      { id: 'simplecil', options: { metric: 'cosine' } },
      { id: 'ranpac', options: { projection: 256, lambdaFrom: 'task' } },
      { id: 'fecam', options: { shrinkage: 1 } },
    ],
    data: { trainPerClass: 50, testPerClass: 20 },
    training: { ...V1_FILL.training, epochs: 1, firstTaskEpochs: 1 },
    backend: { train: 'wasm', embed: 'auto' },
  } as ExperimentConfig;
}

test('"Train on" the backbone: the head, the pre-trained methods in the picker, the source in the link', async ({ page, context }) => {
  test.setTimeout(60_000);
  await offline(context);
  await page.goto('/');
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  await expect(page.getByTestId('gt-strategy-simplecil')).toHaveCount(0);
  await page.getByTestId('gt-features').selectOption('backbone');
  await expect(page.getByTestId('gt-features-label')).toContainText('stand-in backbone trained on Shirt, Sneaker, Bag and Ankle boot (seed 0)');
  await page.getByTestId('gt-strategy-simplecil').check();
  await expect
    .poll(() => {
      const hash = new URL(page.url()).hash;
      if (!hash.startsWith('#v1.')) return null;
      const r = decodeConfigFromHash(hash);
      return r.ok ? JSON.stringify([r.config.features, r.config.model, r.config.strategies.map((s) => s.id)]) : r.error;
    })
    .toBe(JSON.stringify([{ source: 'backbone', seed: 0 }, { kind: 'head', hidden: [] }, ['finetune', 'simplecil']]));
});

test('the default on the backbone’s features: prototype methods one value, the head spreads, the path and the verdict', async ({ page, context }) => {
  test.setTimeout(300_000);
  await offline(context);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/' + encodeConfigToHash(featuresConfig()));
  await expect(page.getByTestId('gt-run')).toBeEnabled({ timeout: 60_000 });
  await page.getByTestId('gt-run').click();
  const table = page.getByTestId('gt-order-table');
  await expect(page.getByTestId('gt-order-row-finetune')).not.toContainText(' of 90', { timeout: 240_000 });
  for (const id of ['simplecil', 'fecam']) {
    const row = page.getByTestId(`gt-order-row-${id}`);
    await expect(row).toContainText('0.0 pts (invariant)');
    // beside it, the AIA of the same orderings spreads: a range, not one value
    await expect(row.getByTestId('gt-order-other')).toHaveText(/^\d+\.\d – \d+\.\d$/);
  }
  await expect(page.getByTestId('gt-ptm-paths')).toContainText('SimpleCIL: exact by class set: 31 states for 90 orderings');
  await expect(page.getByTestId('gt-invariance')).toContainText('Order-invariant by construction');
  const verdict = page.getByTestId('gt-order-verdict');
  await expect(verdict.getByTestId('gt-order-verdict-headline')).toContainText(/^The prototype methods/);
  await verdict.getByTestId('gt-order-verdict-details').locator('summary').click();
  await expect(verdict.locator('[data-id="order:prototypes"]')).toBeVisible();
  await expect(verdict.locator('[data-id="order:trained"]')).toContainText('Finetune (head)');
  await expect(page.getByTestId('gt-first-task')).toBeVisible();
  // grouped by first task: the trained head first (the method whose spread the first task may explain)
  await expect(page.getByTestId('gt-first-task-method')).toHaveValue('finetune');
  // the head's spread, read off the table: several points
  const spread = Number((await page.getByTestId('gt-order-row-finetune').locator('td').nth(3).innerText()).replace(/ pts.*/, ''));
  expect(spread).toBeGreaterThan(1);
  await expect(table).toBeVisible();
  await page.getByTestId('gt-order-sensitivity').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/gt-features-1280.png', fullPage: true });
  await page.getByTestId('gt-order-sensitivity').screenshot({ path: 'test-results/screenshots/gt-features-order-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('gt-order-sensitivity').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/gt-features-390.png', fullPage: true });
  await page.getByTestId('gt-order-sensitivity').screenshot({ path: 'test-results/screenshots/gt-features-order-390.png' });
  expect(errors).toEqual([]);
});

test('first-session adaptation: SimpleCIL adapted on the first task moves between first tasks and agrees within one', async ({ page, context }) => {
  test.setTimeout(180_000);
  await offline(context);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const c = featuresConfig();
  await page.goto('/' + encodeConfigToHash({ ...c, strategies: [{ id: 'simplecil', options: { metric: 'cosine' } }] } as ExperimentConfig));
  await page.getByTestId('gt-first-session').fill('64');
  await expect
    .poll(() => JSON.stringify(pageConfig(page)?.strategies))
    .toBe(JSON.stringify([{ id: 'simplecil', options: { metric: 'cosine', firstSession: 64 } }]));
  await expect(page.getByTestId('gt-run')).toBeEnabled({ timeout: 60_000 });
  await page.getByTestId('gt-run').click();
  const row = page.getByTestId('gt-order-row-simplecil');
  await expect(row).not.toContainText(' of 90', { timeout: 120_000 });
  await expect(row).toContainText('adapted on task 1, then by class set');
  await expect(row).not.toContainText('invariant');
  await expect(page.getByTestId('gt-ptm-paths')).toContainText(
    'exact by first task and class set: 120 states for 90 orderings (a 64-unit layer adapted on each of 15 first tasks)',
  );
  await expect(page.getByTestId('gt-order-verdict').locator('[data-id="order:first-task:simplecil"]')).toContainText(
    'within one first task its orderings agree within a tenth of a point',
  );
  // the first-task table: every group one value (min = max)
  const groups = page.getByTestId('gt-first-task').locator('tbody tr');
  await expect(groups).toHaveCount(15);
  for (const text of await groups.allInnerTexts()) {
    const [, , , span] = text.split('\t');
    const [lo, hi] = span.split('–').map((x) => x.trim());
    expect(lo).toBe(hi);
  }
  await page.getByTestId('gt-order-sensitivity').screenshot({ path: 'test-results/screenshots/gt-first-session-1280.png' });
  expect(errors).toEqual([]);
});
