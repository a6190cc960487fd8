/**
 * End to end: opening the Forgetting tab never overwrites the experiment the user made (custom
 * classes, CIFAR-10 names): the URL's experiment stays as it was, and going back to the Orderings tab shows it
 * unchanged. Acting on the Forgetting tab takes the experiment over as a new history entry, so the browser's Back
 * gives the user's experiment again. Nothing leaves 127.0.0.1.
 */
import { expect, test, type Page } from '@playwright/test';
import { encodeConfigToHash } from '../../src/core/config/url-codec';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../src/core/config/schema';
import { pageConfig } from './harness/page-config';

/** This run checks one run's hand-over: one seed (the lab starts at three, for its verdict). */
async function oneSeed(page: Page): Promise<void> {
  await page.getByTestId('fg-seeds').fill('1');
  await page.getByTestId('fg-seeds').blur();
  await expect(page.getByTestId('fg-seeds')).toHaveValue('1');
}

function experiment(over: Partial<ExperimentConfig>): ExperimentConfig {
  const r = validateConfig({ ...defaultConfig(), lab: 'orderings', ...over });
  expect(r.errors).toEqual([]);
  return r.config;
}

/** The experiment in the page's URL, without `lab` (picking a tab may set it when the experiment allows that lab). */
function urlExperiment(page: Page): Record<string, unknown> {
  const c = pageConfig(page);
  expect(c).not.toBeNull();
  const { lab: _lab, ...rest } = c!;
  return rest;
}

const cases: [string, ExperimentConfig, (page: Page) => Promise<void>][] = [
  [
    'custom classes',
    experiment({
      dataset: { id: 'custom', classNames: ['cat', 'dog', 'car', 'truck', 'apple', 'pear'], images: null },
      classes: [0, 1, 2, 3, 4, 5],
      taskSizes: [2, 2, 2],
    }),
    async (page) => {
      await expect(page.getByTestId('dataset')).toHaveValue('custom');
      await expect(page.getByTestId('custom-classes')).toHaveValue('cat\ndog\ncar\ntruck\napple\npear');
    },
  ],
  [
    'CIFAR-10',
    experiment({ dataset: { id: 'cifar10' }, classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], taskSizes: [2, 2, 2, 2, 2] }),
    async (page) => {
      await expect(page.getByTestId('dataset')).toHaveValue('cifar10');
    },
  ],
];

for (const [name, config, check] of cases) {
  test(`${name}: opening the Forgetting tab keeps the experiment; Back after acting there restores it`, async ({ page, context }) => {
    const outside: string[] = [];
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => {
        outside.push(route.request().url());
        return route.abort('internetdisconnected');
      },
    );
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`/${encodeConfigToHash(config)}`);
    await check(page);
    const before = urlExperiment(page);

    await page.getByRole('button', { name: 'Forgetting', exact: true }).click();
    await expect(page.getByTestId('fg-run')).toBeVisible();
    await expect(page.getByTestId('fg-own-setup')).toBeVisible();
    await page.waitForTimeout(700); // past the share link's write delay
    expect(urlExperiment(page)).toEqual(before);

    await page.getByRole('button', { name: 'Orderings', exact: true }).click();
    await check(page);
    await page.waitForTimeout(700);
    expect(urlExperiment(page)).toEqual(before);

    // acting on the Forgetting tab makes its setup the experiment, as a new history entry
    await page.getByRole('button', { name: 'Forgetting', exact: true }).click();
    await page.getByTestId('fg-epochs').fill('2');
    await expect.poll(() => (urlExperiment(page).dataset as { id: string }).id).toBe('digits');
    await expect(page.getByTestId('fg-own-setup')).toHaveCount(0);
    await page.goBack();
    await expect.poll(() => JSON.stringify(urlExperiment(page))).toBe(JSON.stringify(before));
    await check(page); // the experiment's own tab, as it was
    await page.waitForTimeout(700);
    expect(urlExperiment(page)).toEqual(before);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
}

test('two tabs on one setup: one trains, the other follows its stored run and trains nothing', async ({ page, context }) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await page.getByRole('button', { name: 'Forgetting', exact: true }).click();
  await page.getByTestId('fg-backend').selectOption('wasm');
  await oneSeed(page);
  await page.getByTestId('fg-lr').selectOption({ label: '1e-3 (faster)' });
  await page.getByTestId('fg-epochs-first').fill('2');
  await page.getByTestId('fg-epochs').fill('60'); // long enough for the second tab to join while it trains (30 was not, idle)
  // the link carries every edit before the second tab opens it (its write is delayed, longer under load)
  await expect
    .poll(() => {
      const t = urlExperiment(page).training as { epochs: number; firstTaskEpochs: number; lr: number };
      return [t.epochs, t.firstTaskEpochs, t.lr];
    })
    .toEqual([60, 2, 1e-3]);
  const link = page.url();
  const other = await context.newPage();
  other.on('pageerror', (e) => errors.push(e.message));
  await other.goto(link);
  await expect(other.getByTestId('fg-run')).toBeEnabled();
  await page.getByTestId('fg-run').click();
  await expect(page.getByTestId('fg-live')).toBeVisible({ timeout: 120_000 });
  await other.getByTestId('fg-run').click();
  await expect(other.getByText('Another tab is training this experiment')).toBeVisible();
  await expect(page.getByTestId('fg-progress')).toContainText('done: 1 run', { timeout: 240_000 });
  // the follower takes the stored run: done without training it again
  await expect(other.getByTestId('fg-progress')).toContainText('done: 1 run', { timeout: 30_000 });
  await expect(other.getByTestId('fg-live')).toHaveCount(0);
  await expect(other.getByTestId('fg-runline')).toContainText('MLP');
  expect(errors).toEqual([]);
});
