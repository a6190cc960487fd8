/**
 * The Ground-truth lab and the app's one experiment (share link), end to end in Chromium, offline:
 * - inputs changed on the Ground-truth tab, a small run, Share, the link opened in a new page: the same tab, the same
 *   inputs, the same chosen ordering, and the stored runs of that experiment (IndexedDB, keyed by its config) — nothing
 *   is trained again; the Orderings tab of that page shows the same classes and tasks (one experiment);
 * - a malformed link opened on the Ground-truth tab says what is wrong and keeps the experiment as it was; a good link
 *   pasted over it opens on its tab with its inputs;
 * - teaching mode: ui.hiddenControls hides controls, the rest folds under "More settings", and Step trains exactly one
 *   ordering then pauses, "ordering n of N" counting up and the histogram gaining one block per step; Play trains the rest.
 * Screenshots: test-results/screenshots/gt-share-*.png and /tmp/shots-gt/ (normal and teaching mode, 1280 and 390 px).
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { V1_FILL, defaultConfig, type ExperimentConfig } from '../../src/core/config/schema';
import { encodeConfigToHash } from '../../src/core/config/url-codec';

mkdirSync('test-results/screenshots', { recursive: true });
const SHOTS = '/tmp/shots-gt';
mkdirSync(SHOTS, { recursive: true });

/** Tests never touch the network: anything not served by the app's own preview server is refused. */
async function offline(context: BrowserContext): Promise<void> {
  await context.route('**/*', (route) => {
    const host = new URL(route.request().url()).hostname;
    return host === '127.0.0.1' || host === 'localhost' ? route.continue() : route.abort();
  });
}

async function pressedClasses(page: Page): Promise<string[]> {
  return page.getByTestId('gt-class-chips').locator('button[aria-pressed="true"]').allInnerTexts();
}

const blocks = (page: Page) => page.locator('[data-testid="accuracy-histogram"] rect.member');

/** A tiny Ground-truth experiment: 4 digits in 2 tasks (6 orderings), finetune, 1 epoch, 10 train images per class. */
function tinyConfig(ui: Partial<ExperimentConfig['ui']> = {}): ExperimentConfig {
  const c = defaultConfig();
  return {
    ...c,
    lab: 'ground-truth',
    dataset: { id: 'digits' },
    classes: [0, 1, 2, 3],
    taskSizes: [2, 2],
    model: { kind: 'mlp', hidden: [16] },
    training: { ...V1_FILL.training, epochs: 1, firstTaskEpochs: 1 },
    data: { trainPerClass: 10, testPerClass: 5 },
    backend: { train: 'wasm', embed: 'auto' },
    ui: { ...c.ui, ...ui },
  };
}

test('Ground-truth tab: changed inputs and a run, shared and opened in a new page, come back with the stored runs', async ({ page, context }) => {
  test.setTimeout(120_000);
  await offline(context);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  // the inputs: backend, dataset, classes, tasks, strategy, seeds, budget, model, training, data, A(O) (the backend
  // first: with `auto` the lab would measure every backend on each experiment it shows, the default's included, and
  // Run waits for those warm-ups)
  await page.getByTestId('gt-backend').selectOption('wasm');
  // (the first S matrix waits for WordNet to load in the orderings worker: seconds on a busy machine)
  await expect(page.getByTestId('gt-omega')).toHaveText('90', { timeout: 20_000 });
  await page.getByTestId('gt-dataset').selectOption('digits');
  for (const name of ['four', 'five']) await page.getByTestId('gt-class-chips').getByRole('button', { name, exact: true }).click();
  await page.getByTestId('gt-tasks').fill('2');
  await page.getByTestId('gt-strategy-finetune').check();
  await page.getByTestId('gt-seeds').fill('3');
  await page.getByTestId('gt-rs-seeds').fill('0, 1');
  await page.getByTestId('gt-budget').fill('50');
  await page.getByTestId('gt-sample-seed').fill('4');
  await page.getByTestId('gt-hidden').fill('16');
  await page.getByTestId('gt-epochs').fill('1');
  await page.getByTestId('gt-lr').fill('0.002');
  await page.getByTestId('gt-batch').fill('16');
  await page.getByTestId('gt-train-per-class').fill('10');
  await page.getByTestId('gt-test-per-class').fill('5');
  await page.getByTestId('gt-variable-aia').click();
  await expect(page.getByTestId('gt-backend')).toHaveValue('wasm');
  await expect(page.getByTestId('gt-omega')).toHaveText('6');
  const chips = await pressedClasses(page);
  expect(chips).toEqual(['zero', 'one', 'two', 'three']);

  await page.getByTestId('gt-run').click();
  await expect(page.getByTestId('gt-progress')).toContainText('6 / 6 orderings · done', { timeout: 60_000 });
  await expect(blocks(page)).toHaveCount(6);
  await page.getByTestId('gt-worst-finetune').click();
  const selected = (await page.getByTestId('gt-selected').innerText()).trim();
  const stats = await page.getByTestId('quality-table').innerText();

  // the hash follows the page; Share copies exactly that link
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#v1\.[A-Za-z0-9_-]+$/);
  await page.getByTestId('share').click();
  await expect(page.getByTestId('share-status')).toHaveText('Link copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(page.url());
  await page.getByTestId('what-ran-open').click();
  const ran = JSON.parse(await page.getByTestId('what-ran-json').innerText());
  await page.keyboard.press('Escape');
  expect(ran).toMatchObject({
    lab: 'ground-truth',
    dataset: { id: 'digits' },
    classes: [0, 1, 2, 3],
    taskSizes: [2, 2],
    seeds: [3],
    groundTruth: { budget: 50, sampleSeed: 4 },
    model: { kind: 'mlp', hidden: [16] },
    strategies: [{ id: 'finetune', options: {} }],
    training: { epochs: 1, firstTaskEpochs: 1, lr: 0.002, batchSize: 16 },
    data: { trainPerClass: 10, testPerClass: 5 },
    backend: { train: 'wasm' },
    ui: { accuracy: 'aia' },
  });
  expect(ran.protocols.rsSeeds).toEqual([0, 1]);
  expect(ran.ui.selectedOrdering).toMatch(/^\d,\d\|\d,\d$/);

  // a fresh page from the link: the Ground-truth tab, the same inputs, the stored runs, the same chosen ordering
  const other = await context.newPage();
  other.on('pageerror', (e) => errors.push(e.message));
  await other.goto(link);
  await expect(other.getByRole('button', { name: 'Ground truth', exact: true })).toHaveClass(/active/);
  await expect(other.getByTestId('gt-dataset')).toHaveValue('digits');
  expect(await pressedClasses(other)).toEqual(chips);
  await expect(other.getByTestId('gt-tasks')).toHaveValue('2');
  await expect(other.getByTestId('gt-strategy-finetune')).toBeChecked();
  await expect(other.getByTestId('gt-strategy-ewc')).not.toBeChecked();
  await expect(other.getByTestId('gt-seeds')).toHaveValue('3');
  await expect(other.getByTestId('gt-rs-seeds')).toHaveValue('0, 1');
  await expect(other.getByTestId('gt-budget')).toHaveValue('50');
  await expect(other.getByTestId('gt-sample-seed')).toHaveValue('4');
  await expect(other.getByTestId('gt-hidden')).toHaveValue('16');
  await expect(other.getByTestId('gt-epochs')).toHaveValue('1');
  await expect(other.getByTestId('gt-lr')).toHaveValue('0.002');
  await expect(other.getByTestId('gt-batch')).toHaveValue('16');
  await expect(other.getByTestId('gt-train-per-class')).toHaveValue('10');
  await expect(other.getByTestId('gt-test-per-class')).toHaveValue('5');
  await expect(other.getByTestId('gt-backend')).toHaveValue('wasm');
  await expect(other.getByTestId('gt-variable-aia').locator('input')).toBeChecked();
  await expect(other.getByTestId('gt-omega')).toHaveText('6', { timeout: 20_000 });
  await expect(other.getByTestId('gt-stored')).toHaveText('6');
  await expect(blocks(other)).toHaveCount(6);
  await expect(other.getByTestId('gt-progress')).toContainText('6 / 6 orderings stored');
  await expect(other.getByTestId('gt-selected')).toHaveText(selected);
  await expect.poll(() => other.getByTestId('quality-table').innerText()).toBe(stats);
  await expect(other.getByTestId('link-problem')).toHaveCount(0);
  // nothing to train again
  await expect(other.getByTestId('gt-run')).toHaveText('Run ▶');
  await other.screenshot({ path: 'test-results/screenshots/gt-share-opened-1280.png', fullPage: true });
  // opening a link does not rewrite it
  await other.waitForTimeout(600);
  expect(other.url()).toBe(link);

  // one experiment for the app: the Orderings tab shows the same classes and tasks
  await other.getByRole('button', { name: 'Orderings', exact: true }).click();
  await expect(other.getByTestId('omega')).toHaveText('6');
  await expect(other.getByTestId('tasks')).toHaveValue('2');
  await expect(other.getByTestId('seeds')).toHaveValue('0, 1');
  // … and a change there reaches the Ground-truth tab (another experiment: no stored runs)
  await other.getByTestId('class-chips').getByRole('button', { name: 'four', exact: true }).click();
  await other.getByTestId('class-chips').getByRole('button', { name: 'five', exact: true }).click();
  await other.getByTestId('tasks').fill('3');
  await expect(other.getByTestId('omega')).toHaveText('90');
  await other.getByRole('button', { name: 'Ground truth', exact: true }).click();
  await expect(other.getByTestId('gt-omega')).toHaveText('90', { timeout: 20_000 });
  await expect(other.getByTestId('gt-tasks')).toHaveValue('3');
  await expect(other.getByTestId('gt-stored')).toHaveText('0');
  await expect(other.getByTestId('gt-hidden')).toHaveValue('16'); // what the Orderings tab does not show stays
  expect(errors).toEqual([]);
});

test('a malformed link on the Ground-truth tab keeps the experiment and says why; a good link opens on its tab', async ({ page, context }) => {
  await offline(context);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // opened from outside: the defaults, with the banner
  await page.goto('/#v1.@@@');
  await expect(page.getByTestId('link-problem')).toContainText('The page shows the default experiment instead.');
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  // the user's first entry, the backend (with `auto` the lab would measure every backend on each experiment it shows)
  await page.getByTestId('gt-backend').selectOption('wasm');
  // (the first S matrix waits for WordNet to load in the orderings worker: seconds on a busy machine)
  await expect(page.getByTestId('gt-omega')).toHaveText('90', { timeout: 20_000 });
  await expect(page.getByTestId('gt-dataset')).toHaveValue('fashion-mnist');
  await page.getByTestId('link-problem-dismiss').click();

  // the user's work on this tab, then a damaged link pasted over it
  await page.getByTestId('gt-dataset').selectOption('emoji');
  await page.getByTestId('gt-tasks').fill('2');
  await page.getByTestId('gt-epochs').fill('2');
  await expect(page.getByTestId('gt-omega')).toHaveText('20');
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#v1\./);
  const before = await pressedClasses(page);
  await page.evaluate(() => (location.hash = '#v1.AAAA'));
  const banner = page.getByTestId('link-problem');
  await expect(banner).toContainText('This link could not be opened.');
  await expect(banner).toContainText('Your current experiment is unchanged.');
  await expect(page.getByRole('button', { name: 'Ground truth', exact: true })).toHaveClass(/active/);
  await expect(page.getByTestId('gt-dataset')).toHaveValue('emoji');
  await expect(page.getByTestId('gt-tasks')).toHaveValue('2');
  await expect(page.getByTestId('gt-epochs')).toHaveValue('2');
  await expect(page.getByTestId('gt-backend')).toHaveValue('wasm');
  await expect(page.getByTestId('gt-omega')).toHaveText('20');
  expect(await pressedClasses(page)).toEqual(before);
  await page.screenshot({ path: 'test-results/screenshots/gt-share-bad-link-1280.png' });

  // a good link pasted over it: its inputs on its tab, the banner gone
  await page.evaluate((h) => (location.hash = h), encodeConfigToHash(tinyConfig()));
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('gt-dataset')).toHaveValue('digits');
  await expect(page.getByTestId('gt-omega')).toHaveText('6');
  await expect(page.getByTestId('gt-epochs')).toHaveValue('1');
  await expect(page.getByTestId('gt-hidden')).toHaveValue('16');
  expect(await pressedClasses(page)).toEqual(['zero', 'one', 'two', 'three']);
  // a Ground-truth link pasted while the Orderings tab is in view opens on the Ground-truth tab
  await page.getByRole('button', { name: 'Orderings', exact: true }).click();
  await expect(page.getByTestId('omega')).toHaveText('6');
  await page.evaluate((h) => (location.hash = h), encodeConfigToHash({ ...tinyConfig(), classes: [0, 1, 2, 3, 4, 5], taskSizes: [3, 3] }));
  await expect(page.getByRole('button', { name: 'Ground truth', exact: true })).toHaveClass(/active/);
  await expect(page.getByTestId('gt-omega')).toHaveText('20');
  await page.waitForTimeout(500);
  expect(new URL(page.url()).hash).toBe(encodeConfigToHash({ ...tinyConfig(), classes: [0, 1, 2, 3, 4, 5], taskSizes: [3, 3] }));
  expect(errors).toEqual([]);
});

test('teaching mode on the Ground-truth tab: hidden controls, big type, and Step trains exactly one ordering then pauses', async ({ page, context }) => {
  test.setTimeout(120_000);
  await offline(context);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // normal mode first, for the screenshots
  await page.goto(`/${encodeConfigToHash(tinyConfig())}`);
  await expect(page.getByTestId('gt-omega')).toHaveText('6', { timeout: 20_000 });
  await expect(page.getByTestId('gt-playbar')).toHaveCount(0);
  await expect(page.getByTestId('gt-run')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/gt-normal-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/gt-normal-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // a teacher's link: teaching mode, the dataset and backend controls hidden
  await page.goto(`/?teach${encodeConfigToHash(tinyConfig({ hiddenControls: ['backend', 'dataset'] }))}`);
  await expect(page.locator('html')).toHaveClass(/teaching/);
  await expect(page.getByTestId('gt-omega')).toHaveText('6', { timeout: 20_000 });
  const basePx = await page.evaluate(() => {
    const b = document.body as HTMLElement & { currentCSSZoom?: number };
    return Number.parseFloat(getComputedStyle(b).fontSize) * (b.currentCSSZoom ?? 1);
  });
  expect(basePx).toBeGreaterThanOrEqual(18);
  await expect(page.getByTestId('gt-dataset')).toBeHidden();
  await expect(page.getByTestId('gt-backend')).toBeHidden();
  await expect(page.getByTestId('gt-class-chips')).toBeVisible();
  await expect(page.getByTestId('gt-tasks')).toBeVisible();
  // the rest one click away; the Run/Pause/Cancel row gives way to Play / Step
  await expect(page.getByTestId('gt-seeds')).toBeHidden();
  await expect(page.getByTestId('gt-epochs')).toBeHidden();
  await expect(page.getByTestId('gt-run')).toBeHidden();
  await page.getByTestId('gt-more-settings').click();
  await expect(page.getByTestId('gt-epochs')).toBeVisible();
  await expect(page.getByTestId('gt-backend')).toBeHidden(); // hidden by the link, not just folded
  await page.getByTestId('gt-more-settings').click();

  const readout = page.getByTestId('gt-ordering-readout');
  await expect(readout).toHaveAttribute('data-total', '6');
  await expect(readout).toHaveAttribute('data-done', '0');
  await expect(readout).toContainText('0 of 6 orderings trained');
  await page.screenshot({ path: `${SHOTS}/gt-teaching-1280.png`, fullPage: true });
  // on a phone the Play bar comes first, above the controls
  await page.setViewportSize({ width: 390, height: 800 });
  const bar = await page.getByTestId('gt-playbar').boundingBox();
  const controls = await page.getByRole('complementary', { name: 'Ground-truth experiment settings' }).boundingBox();
  expect(bar && controls && bar.y < controls.y).toBe(true);
  expect(bar!.y).toBeLessThan(800);
  await page.screenshot({ path: `${SHOTS}/gt-teaching-start-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Step: exactly one ordering, then paused
  await page.getByTestId('gt-step').click();
  await expect(readout).toContainText('Ordering 1 of 6 trained', { timeout: 30_000 });
  await expect(readout).toContainText('Paused');
  await expect(page.getByTestId('gt-progress')).toContainText('paused');
  await expect(blocks(page)).toHaveCount(1);
  await page.waitForTimeout(1500);
  await expect(readout).toHaveAttribute('data-done', '1');
  await expect(blocks(page)).toHaveCount(1);
  await expect(page.getByTestId('gt-stored')).toHaveText('1');

  // Step again: one more
  await page.getByTestId('gt-step').click();
  await expect(readout).toContainText('Ordering 2 of 6 trained', { timeout: 30_000 });
  await page.waitForTimeout(1000);
  await expect(readout).toHaveAttribute('data-done', '2');
  await expect(blocks(page)).toHaveCount(2);
  await page.screenshot({ path: `${SHOTS}/gt-teaching-stepped-1280.png`, fullPage: true });

  // Play: the rest, one after another
  await page.getByTestId('gt-play').click();
  await expect(readout).toContainText('All 6 orderings trained', { timeout: 60_000 });
  await expect(blocks(page)).toHaveCount(6);
  await expect(page.getByTestId('gt-step')).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/gt-teaching-done-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/gt-teaching-390.png`, fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(errors).toEqual([]);
});

test('a names-only dataset from the Orderings tab: the Ground-truth tab says so, and picking an image dataset makes the link open there', async ({
  page,
  context,
}) => {
  await offline(context);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const c = defaultConfig();
  // (backend wasm: with `auto` the Ground-truth tab would measure every backend on the experiment it shows)
  const backend = { ...c.backend, train: 'wasm' } as const;
  await page.goto(`/${encodeConfigToHash({ ...c, backend, dataset: { id: 'cifar100' }, classes: [3, 7, 11, 20], taskSizes: [2, 2] })}`);
  await expect(page.getByTestId('omega')).toHaveText('6');
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  await expect(page.getByTestId('gt-foreign-dataset')).toContainText('CIFAR-100');
  await expect(page.getByTestId('gt-class-chips')).toBeHidden();
  await expect(page.getByTestId('gt-run')).toBeDisabled();
  await page.getByTestId('gt-dataset').selectOption('fashion-mnist');
  await expect(page.getByTestId('gt-foreign-dataset')).toHaveCount(0);
  await expect(page.getByTestId('gt-omega')).toHaveText('90');
  // the experiment now trains here: its link opens this tab, and the Orderings tab follows
  await expect
    .poll(async () => {
      await page.getByTestId('what-ran-open').click();
      const lab = JSON.parse(await page.getByTestId('what-ran-json').innerText()).lab;
      await page.keyboard.press('Escape');
      return lab;
    })
    .toBe('ground-truth');
  await page.getByRole('button', { name: 'Orderings', exact: true }).click();
  await expect(page.getByTestId('dataset')).toHaveValue('fashion-mnist');
  await expect(page.getByTestId('omega')).toHaveText('90');
  expect(errors).toEqual([]);
});

test('Run ▶ in view without scrolling at 1280×800 and on a phone; strategies far apart get an x axis each', async ({ page, context }) => {
  test.setTimeout(120_000);
  await offline(context);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const config = {
    ...tinyConfig(),
    strategies: [
      { id: 'finetune', options: {} },
      { id: 'joint', options: {} },
    ],
  } as ExperimentConfig;
  await page.goto(`/${encodeConfigToHash(config)}`);
  // (WordNet loads in the orderings worker first: slow on a busy machine)
  await expect(page.getByTestId('gt-omega')).toHaveText('6', { timeout: 20_000 });
  // the settings are longer than the window: the Run row stays at the panel's bottom edge, in view
  await expect(page.getByTestId('gt-run')).toBeInViewport();
  await expect(page.getByTestId('gt-empty')).toBeInViewport();
  await page.screenshot({ path: 'test-results/screenshots/gt-run-in-view-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('gt-run')).toBeInViewport();
  await page.screenshot({ path: 'test-results/screenshots/gt-run-in-view-390.png' });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByTestId('gt-run').click();
  await expect(page.getByTestId('gt-progress')).toContainText('12 / 12 runs (6 orderings × 2) · done', { timeout: 90_000 });
  await expect(blocks(page)).toHaveCount(12);
  // both x-axis choices are offered and switch the chart; each panel keeps all its orderings either way
  const hist = page.getByTestId('accuracy-histogram');
  await hist.getByTestId('gt-xaxis-own').click();
  await expect(hist.getByTestId('gt-xaxis-own')).toHaveClass(/on/);
  await expect(hist.locator('g.panel[data-strategy="joint"] rect.member')).toHaveCount(6);
  await page.screenshot({ path: 'test-results/screenshots/gt-xaxis-own-1280.png', fullPage: true });
  await hist.getByTestId('gt-xaxis-shared').click();
  await expect(hist.getByTestId('gt-xaxis-shared')).toHaveClass(/on/);
  await expect(hist.locator('g.panel[data-strategy="joint"] rect.member')).toHaveCount(6);
  await page.screenshot({ path: 'test-results/screenshots/gt-xaxis-shared-1280.png', fullPage: true });
  // no text of the chart overlaps another (peak labels, lane labels, tick labels)
  const overlaps = await hist
    .locator('svg')
    .first()
    .evaluate((svg) => {
      const boxes = [...svg.querySelectorAll('text')].filter((t) => t.textContent?.trim()).map((t) => ({ t: t.textContent!, r: t.getBoundingClientRect() }));
      const out: string[] = [];
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i].r;
          const b = boxes[j].r;
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${boxes[i].t} × ${boxes[j].t}`);
        }
      return out;
    });
  expect(overlaps).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'test-results/screenshots/gt-results-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(errors).toEqual([]);
});
