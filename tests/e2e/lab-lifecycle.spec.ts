/**
 * Every lab runs through the pool and the run session: a lab page reopened by link after link leaves no worker
 * behind (the Curriculum lab used to start a worker per link and never end it), and two tabs on one experiment do
 * not both train (Time, Open world and Curriculum used to).
 */
import { expect, test, type Page } from '@playwright/test';
import { encodeConfigToHash } from '../../src/core/config/url-codec';
import { validateConfig } from '../../src/core/config/schema';

const link = (input: Record<string, unknown>): string => encodeConfigToHash(validateConfig(input).config);
const quickCurriculum = (trainPerClass: number) =>
  link({
    lab: 'curriculum',
    curriculum: { datasets: ['digits', 'fashion-mnist', 'emoji-food'], strategies: ['finetune'], epochs: 1, trainPerClass, testPerClass: 20, hidden: 64 },
  });

async function open(page: Page, hash: string, testid: string): Promise<void> {
  await page.goto(`/${hash}`);
  await expect(page.getByTestId(testid)).toBeVisible();
}

test('30 Curriculum links in one tab: the workers stay those of the pool', async ({ page }) => {
  test.setTimeout(240_000);
  await open(page, quickCurriculum(30), 'cu-lab');
  await expect(page.locator('[data-testid="cu-samples"] canvas')).toHaveCount(3, { timeout: 90_000 });
  const before = page.workers().length;
  for (let i = 0; i < 30; i++) {
    await page.evaluate((h) => (location.hash = h), quickCurriculum(31 + i));
    await expect(page.getByTestId('cu-samples')).toBeVisible();
    await page.waitForTimeout(150);
  }
  await expect(page.locator('[data-testid="cu-samples"] canvas')).toHaveCount(3, { timeout: 60_000 });
  const after = page.workers().length;
  // the pool keeps a worker or two idle for the next lab; one per link would be 30 more
  expect(after - before, `workers before ${before}, after ${after}`).toBeLessThanOrEqual(2);
});

const labs = [
  {
    name: 'Time',
    prefix: 'tm',
    hash: link({ lab: 'time', time: { buckets: 3, perClass: 20, epochs: 40, k: 140 } }),
  },
  {
    name: 'Open world',
    prefix: 'ow',
    hash: link({
      lab: 'open-world',
      openWorld: { dataset: 'digits', classes: [0, 1, 2, 3, 4, 5], oodSets: ['digits:6-9'], epochs: 40, hidden: [128], headEpochs: 3 },
    }),
  },
  { name: 'Curriculum', prefix: 'cu', hash: quickCurriculum(30) },
];

for (const lab of labs) {
  test(`${lab.name}: a second tab on the same experiment follows the first instead of training`, async ({ context }) => {
    test.setTimeout(180_000);
    const a = await context.newPage();
    const b = await context.newPage();
    await open(a, lab.hash, `${lab.prefix}-lab`);
    await open(b, lab.hash, `${lab.prefix}-lab`);
    await a.getByTestId(`${lab.prefix}-run`).click();
    await expect(a.getByTestId(`${lab.prefix}-pause`)).toBeVisible({ timeout: 60_000 });
    await b.getByTestId(`${lab.prefix}-run`).click();
    await expect(b.getByTestId(`${lab.prefix}-lab`)).toContainText('Another tab is training this experiment', { timeout: 30_000 });
    await Promise.all([a.close(), b.close()]);
  });
}
