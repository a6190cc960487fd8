/**
 * CLIP as a similarity source, end to end and offline: the real loading path (transformers.js → onnxruntime-web,
 * wasm files served from /ort/) against the tiny self-hosted fixture at /models/cil-lab/clip-tiny/ (copied there by
 * scripts/prepare-clip-fixture.mjs), on WebGPU and on wasm; the IndexedDB embedding cache; the failure path with the
 * Hugging Face hub unreachable; and the comparison panel (on the wasm test's page, after its reload, on the embeddings
 * it stored). No test touches the network: every request that is not to 127.0.0.1 is aborted (and counted, so a test
 * fails if the app tried).
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { mkdirSync, statSync } from 'node:fs';

mkdirSync('test-results/screenshots', { recursive: true });

const FIXTURE = 'cil-lab/clip-tiny';

/** The fixture's download at a precision, as the panel's button says it ("0.05 MB"; its files under tests/fixtures). */
function fixtureMegabytes(dtype: 'q8' | 'fp32'): string {
  const files = ['config.json', 'tokenizer.json', 'tokenizer_config.json', `onnx/text_model${dtype === 'q8' ? '_quantized' : ''}.onnx`];
  const bytes = files.reduce((s, f) => s + statSync(`tests/fixtures/clip-tiny/${f}`).size, 0);
  return `${(bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1)} MB`;
}

/**
 * Abort everything that leaves 127.0.0.1; count downloads of model files (/models/; the size checks' HEAD requests
 * apart, in `heads`) and outside attempts.
 */
async function offline(context: BrowserContext) {
  const log = { models: [] as string[], heads: [] as string[], outside: [] as string[], ort: [] as string[] };
  await context.route('**/huggingface.co/**', (route) => {
    log.outside.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  await context.route(
    (url) => url.protocol.startsWith('http') && url.hostname !== '127.0.0.1',
    (route) => {
      log.outside.push(route.request().url());
      return route.abort('internetdisconnected');
    },
  );
  context.on('request', (r) => {
    const u = new URL(r.url());
    if (u.hostname === '127.0.0.1' && u.pathname.startsWith('/models/')) (r.method() === 'HEAD' ? log.heads : log.models).push(u.pathname);
    if (/ort-wasm/.test(u.pathname)) log.ort.push(u.hostname === '127.0.0.1' ? u.pathname : u.href);
  });
  return log;
}

async function chooseClip(page: Page) {
  await page.getByLabel('CLIP text embeddings').check();
  await expect(page.getByTestId('clip-settings')).toBeVisible();
}

/** Self-hosted fixture settings; `device` is the Device setting ('webgpu' = WebGPU only, so it cannot fall back). */
async function useFixture(page: Page, device: 'webgpu' | 'wasm') {
  await page.getByTestId('clip-model').fill(FIXTURE);
  await page.getByTestId('clip-weights').selectOption('self-hosted');
  await expect(page.getByTestId('clip-folder')).toHaveValue('/models/');
  await page.getByTestId('clip-device').selectOption(device);
}

/** What the panel's button says once it knows the download: its size, or that there is nothing to download. */
const SAYS_SIZE = /^(Download \d+\.\d\d MB and embed \d+ class(es)?|Embed \d+ class(es)? \(nothing to download\))$/;

/** The panel's one button: a first press asks the size (HEAD requests only) when it is not known; then it embeds. */
async function pressEmbed(page: Page) {
  const run = page.getByTestId('clip-run');
  await expect(run).toBeEnabled();
  if ((await run.innerText()).trim() === 'Check the download size') {
    await run.click();
    await expect(run).toHaveText(SAYS_SIZE, { timeout: 30_000 });
  }
  await expect(run).toHaveText(SAYS_SIZE);
  await run.click();
}

async function embedAndWait(page: Page) {
  await pressEmbed(page);
  await expect(page.getByTestId('clip-settings')).toHaveAttribute('data-state', /ready|error/, { timeout: 90_000 });
  await expect(page.getByTestId('clip-error')).toHaveCount(0);
  await expect(page.getByTestId('clip-status')).toBeVisible();
}

async function expectUnitNorm(page: Page, n: number) {
  const norms = await page
    .getByTestId('clip-vectors')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-norm'))));
  expect(norms).toHaveLength(n);
  for (const x of norms) expect(Math.abs(x - 1)).toBeLessThan(1e-5);
}

async function expectClipOrderings(page: Page) {
  await expect(page.getByTestId('clip-fallback')).toHaveCount(0);
  await expect(page.getByTestId('similarity-description')).toContainText(`cosine similarity of CLIP text embeddings of ${FIXTURE}`);
  const table = page.getByTestId('orderings');
  await expect(table.locator('tr[data-label="EDGE hard"]')).toHaveCount(1);
  await expect(table.locator('tr[data-label="EDGE easy"]')).toHaveCount(1);
  const hard = Number(await table.locator('tr[data-label="EDGE hard"] td[data-score]').getAttribute('data-score'));
  const easy = Number(await table.locator('tr[data-label="EDGE easy"] td[data-score]').getAttribute('data-score'));
  expect(Number.isFinite(hard) && Number.isFinite(easy)).toBe(true);
  expect(hard).toBeLessThanOrEqual(easy);
}

/** A new context with the config's page settings, for tests that share one page (a page of their own takes a fixture). */
async function sharedPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const { baseURL, viewport } = test.info().project.use;
  const context = await browser.newContext({ baseURL, viewport, serviceWorkers: 'block' });
  return { context, page: await context.newPage() };
}

const CLIP_ON = (device: 'webgpu' | 'wasm') =>
  `CLIP on ${device}: self-hosted fixture embeds, EDGE orders from it, unit-norm vectors, cached across embeds and a reload`;

{
  const clipOn = async (page: Page, context: BrowserContext, device: 'webgpu' | 'wasm') => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const net = await offline(context);
    await page.goto('/');
    await expect(page.getByTestId('omega')).toHaveText('90');
    await chooseClip(page);
    // before any embedding the page keeps working on WordNet and says so
    await expect(page.getByTestId('clip-fallback')).toHaveText(/Using WordNet until CLIP embeddings are available/);
    await expect(page.getByTestId('similarity-description')).toContainText('WordNet');
    expect(net.models).toEqual([]); // no automatic network use: nothing is loaded before Embed
    await useFixture(page, device);

    // the button says the size before anything downloads: a first press asks it with HEAD requests only
    const run = page.getByTestId('clip-run');
    await expect(run).toHaveText('Check the download size');
    await run.click();
    await expect(run).toHaveText(`Download ${fixtureMegabytes('q8')} and embed 6 classes`);
    expect(net.models).toEqual([]);
    expect(net.heads).toContain('/models/cil-lab/clip-tiny/onnx/text_model_quantized.onnx');
    await embedAndWait(page);
    const settings = page.getByTestId('clip-settings');
    await expect(settings).toHaveAttribute('data-device', device);
    await expect(page.getByTestId('clip-status')).toHaveAttribute('data-cached', '0');
    await expectClipOrderings(page);
    await page.getByText(/^Embeddings \(6 × 16\)$/).click();
    await expectUnitNorm(page, 6);
    const fetched = net.models.length;
    // onnxruntime's wasm runtime came from the app's own /ort/ folder (scripts/prepare-ort.mjs), nowhere else
    expect(net.ort.length).toBeGreaterThan(0);
    expect(net.ort.every((p) => p.startsWith('/ort/ort-wasm-simd-threaded'))).toBe(true);
    expect(net.models).toContain('/models/cil-lab/clip-tiny/config.json');
    expect(net.models.some((p) => p.startsWith('/models/cil-lab/clip-tiny/onnx/text_model'))).toBe(true);
    await page.screenshot({ path: `test-results/screenshots/clip-${device}-1280.png`, fullPage: true });

    // a second Embed takes every name from IndexedDB and fetches nothing (the button says so)
    await expect(run).toHaveText('Embed 6 classes (nothing to download)');
    await run.click();
    await expect(page.getByTestId('clip-status')).toHaveAttribute('data-cached', '6');
    await expect(settings).toHaveAttribute('data-device', 'cache');
    expect(net.models.length).toBe(fetched);

    // a new class after a successful Embed is embedded by itself with the model already loaded: no new fetch
    await page.getByTestId('class-chips').getByRole('button', { name: 'Sneaker' }).click();
    await expect(page.getByTestId('clip-status')).toHaveAttribute('data-count', '7');
    await expect(page.getByTestId('clip-status')).toHaveAttribute('data-cached', '6');
    await expect(settings).toHaveAttribute('data-device', device);
    expect(net.models.length).toBe(fetched);

    // reload: the settings come back (localStorage), the names come from IndexedDB, no weights are fetched
    await page.reload();
    await expect(page.getByTestId('omega')).toHaveText('90');
    await chooseClip(page);
    await expect(page.getByTestId('clip-model')).toHaveValue(FIXTURE);
    await expect(page.getByTestId('clip-status')).toHaveAttribute('data-cached', '6');
    await expect(settings).toHaveAttribute('data-device', 'cache');
    await expectClipOrderings(page);
    await expect(run).toHaveText('Embed 6 classes (nothing to download)');
    await run.click();
    await expect(page.getByTestId('clip-status')).toHaveAttribute('data-cached', '6');
    expect(net.models.length).toBe(fetched);

    expect(net.outside).toEqual([]);
    expect(errors).toEqual([]);
  };
  test(CLIP_ON('webgpu'), ({ page, context }) => clipOn(page, context, 'webgpu'));

  // The wasm test and the comparison share one page (a load of the app and of onnxruntime's wasm runtime fewer):
  // the comparison runs on the wasm test's page after its reload, on the 6 classes' embeddings it stored.
  test.describe(() => {
    test.describe.configure({ mode: 'serial' });
    let shared: { context: BrowserContext; page: Page };
    test.beforeAll(async ({ browser }) => {
      shared = await sharedPage(browser);
    });
    test.afterAll(async () => {
      await shared.context.close();
    });
    test(CLIP_ON('wasm'), () => clipOn(shared.page, shared.context, 'wasm'));

    test('comparing WordNet with CLIP: MAE, Spearman ρ and CSG in range, one dot per class pair, both heat maps', async () => {
      const { page, context } = shared;
      const net = await offline(context);
      // the page of the wasm test, reloaded: its 6 embeddings are in IndexedDB, and the Embed below takes them from there
      await expect(page.getByTestId('omega')).toHaveText('90');
      await chooseClip(page);
      await useFixture(page, 'wasm');
      await expect(page.getByTestId('clip-run')).toHaveText('Embed 6 classes (nothing to download)');
      await embedAndWait(page);
      await expectClipOrderings(page);

      const panel = page.getByTestId('compare');
      await panel.locator('summary').click();
      await expect(page.getByTestId('compare-a')).toHaveValue('wordnet');
      await expect(page.getByTestId('compare-b')).toHaveValue('clip');
      // image prototypes are offered but not yet available
      await expect(page.getByTestId('compare-a').locator('option[value="prototypes"]')).toBeDisabled();
      await expect(page.getByTestId('compare-metrics')).toBeVisible();
      const value = async (id: string) => Number(await page.getByTestId(id).getAttribute('data-value'));
      const mae = await value('compare-mae');
      const rho = await value('compare-spearman');
      const hard = await value('compare-csg-hard');
      const easy = await value('compare-csg-easy');
      expect(mae).toBeGreaterThanOrEqual(0);
      expect(rho).toBeGreaterThanOrEqual(-1);
      expect(rho).toBeLessThanOrEqual(1);
      for (const c of [hard, easy]) {
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(1);
      }
      const n = 6;
      const scatter = page.getByTestId('compare-scatter');
      await expect(scatter.locator('circle.dot')).toHaveCount((n * (n - 1)) / 2);
      await expect(scatter.locator('line.identity')).toHaveCount(1);
      await expect(scatter.locator('text.x-label')).toHaveText('A: WordNet similarity');
      await expect(scatter.locator('text.y-label')).toHaveText('B: CLIP (bare class name) similarity');
      await expect(page.getByTestId('compare-heatmap-a').locator('rect.cell')).toHaveCount(n * n);
      await expect(page.getByTestId('compare-heatmap-b').locator('rect.cell')).toHaveCount(n * n);
      await expect(page.getByTestId('compare-heatmap-a').locator('g.legend')).toHaveCount(1);
      // hovering a dot names the pair and both values
      await scatter.locator('circle.dot').first().hover();
      const tip = page.locator('.tip[role="tooltip"]');
      await expect(tip).toBeVisible();
      await expect(tip).toContainText('T-shirt/top – Trouser');
      await expect(tip).toContainText(/WordNet: \d\.\d{3}/);
      await expect(tip).toContainText(/CLIP \(bare class name\): −?\d\.\d{3}/);
      await page.getByTestId('compare-heatmap-b').locator('rect.cell').nth(1).hover();
      await expect(tip).toContainText(/T-shirt\/top – Trouser\nCLIP \(bare class name\): −?\d\.\d{3}/);
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: 'test-results/screenshots/clip-compare-1280.png', fullPage: true });
      await panel.screenshot({ path: 'test-results/screenshots/clip-compare-panel-1280.png' });

      // a phone: everything stacks, nothing overflows the width
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(scatter.locator('circle.dot')).toHaveCount(15);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: 'test-results/screenshots/clip-390.png', fullPage: true });
      await page.getByText(/^Embeddings \(6 × 16\)$/).click();
      await page.getByTestId('clip-settings').screenshot({ path: 'test-results/screenshots/clip-settings-390.png' });
      await panel.screenshot({ path: 'test-results/screenshots/clip-compare-390.png' });
      expect(net.outside).toEqual([]);
    });
  });
}

test('CLIP from the Hugging Face hub while offline: the message names the file and the fixes, WordNet carries on, typed descriptions stay', async ({
  page,
  context,
}) => {
  const net = await offline(context);
  await page.goto('/');
  await expect(page.getByTestId('omega')).toHaveText('90');
  await chooseClip(page);
  await page.getByTestId('clip-model').fill('Xenova/clip-vit-base-patch32');
  await expect(page.getByTestId('clip-weights')).toHaveValue('hub');
  await page.getByLabel('A description per class').check();
  const desc = page.getByTestId('clip-descriptions');
  await desc.locator('input[data-class="Pullover"]').fill('a pullover, a knitted sweater worn over the upper body');
  await desc.locator('input[data-class="Sandal"]').fill('an open summer shoe held by straps');
  // the size check itself needs the hub: its failure is the load's failure panel, and nothing was downloaded
  await page.getByTestId('clip-run').click();

  const err = page.getByTestId('clip-error');
  await expect(err).toBeVisible({ timeout: 60_000 });
  const file = await err.getAttribute('data-file');
  expect(file).toBeTruthy();
  await expect(err).toContainText(file!);
  await expect(err).toContainText('Hugging Face hub');
  await expect(err).toContainText('Mirror');
  await expect(err).toContainText('Self-host');
  await expect(err).toContainText('public/models/<org>/<name>/');
  await expect(err).toContainText('Upload embeddings');
  await expect(page.getByTestId('clip-run')).toHaveText('Check the download size');
  // the page keeps working on WordNet, says so, and nothing typed is lost
  await expect(page.getByTestId('clip-fallback')).toHaveText(/Using WordNet until CLIP embeddings are available: CLIP could not be loaded/);
  await expect(page.getByTestId('similarity-description')).toContainText('WordNet');
  await expect(page.getByTestId('orderings').locator('tr[data-label="EDGE hard"]')).toHaveCount(1);
  await expect(page.getByTestId('omega')).toHaveText('90');
  await expect(desc.locator('input[data-class="Pullover"]')).toHaveValue('a pullover, a knitted sweater worn over the upper body');
  await expect(desc.locator('input[data-class="Sandal"]')).toHaveValue('an open summer shoe held by straps');
  // the hub was asked (and refused by the test), nothing else left the machine
  expect(net.outside.length).toBeGreaterThan(0);
  expect(net.outside.every((u) => new URL(u).hostname === 'huggingface.co')).toBe(true);
  await page.getByTestId('clip-error').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/clip-offline-1280.png', fullPage: true });

  // and after a reload the descriptions are still there (localStorage)
  await page.reload();
  await chooseClip(page);
  await expect(page.getByTestId('clip-descriptions').locator('input[data-class="Pullover"]')).toHaveValue(
    'a pullover, a knitted sweater worn over the upper body',
  );
});

test('a slow download shows file and bytes; Cancel stops it (the worker is ended) and a new Embed starts afresh', async ({ page, context }) => {
  const net = await offline(context);
  // hold the ONNX file back until the test lets it go
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await context.route('**/models/cil-lab/clip-tiny/onnx/**', async (route) => {
    if (route.request().method() === 'HEAD') return route.continue(); // the size check passes
    await held;
    await route.continue().catch(() => {});
  });
  await page.goto('/');
  await expect(page.getByTestId('omega')).toHaveText('90');
  await chooseClip(page);
  await useFixture(page, 'wasm');
  await pressEmbed(page);
  const progress = page.getByTestId('clip-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText(/tokenizer|config\.json|onnx/);
  await expect(page.getByTestId('clip-fallback')).toContainText('(embedding…)');
  await page.getByTestId('clip-settings').screenshot({ path: 'test-results/screenshots/clip-progress-1280.png' });
  await page.getByTestId('clip-cancel').click();
  await expect(page.getByTestId('clip-settings')).toHaveAttribute('data-state', 'idle');
  await expect(page.getByText('Cancelled.')).toBeVisible();
  await expect(page.getByTestId('orderings').locator('tr[data-label="EDGE hard"]')).toHaveCount(1);
  release();
  await context.unroute('**/models/cil-lab/clip-tiny/onnx/**');
  await embedAndWait(page);
  await expect(page.getByTestId('clip-settings')).toHaveAttribute('data-device', 'wasm');
  await expectClipOrderings(page);
  expect(net.outside).toEqual([]);
});

/** CIFAR-100's 100 classes in 10 tasks, CLIP chosen: the paper's size. */
async function cifar100WithClip(page: Page) {
  await page.goto('/');
  await page.getByTestId('dataset').selectOption('cifar100');
  await page.getByRole('button', { name: 'All', exact: true }).click();
  await page.getByTestId('tasks').fill('10');
  await expect(page.getByTestId('n')).toHaveText('100');
  await chooseClip(page);
}

/**
 * Embed the 100 names through the template `${tag} {}` (cold: the first embedding after loading the model on this
 * device; warm: after a successful Embed a prompt change re-embeds by itself with the loaded model) and check that the
 * vectors are the new ones, from the device asked for, and not from the cache; returns the milliseconds the panel says.
 */
async function embedHundred(page: Page, device: 'webgpu' | 'wasm', tag: string, cold: boolean): Promise<number> {
  await page.getByTestId('clip-template').fill(`${tag} {}`);
  if (cold) await pressEmbed(page);
  await expect(page.getByTestId('clip-vectors').locator('tbody tr').first().locator('td').nth(1)).toHaveText(`${tag} apple`, { timeout: 60_000 });
  await expect(page.getByTestId('clip-settings')).toHaveAttribute('data-device', device);
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-cached', '0');
  const text = await page.getByTestId('clip-status').innerText();
  return Number(/in (\d+) ms/.exec(text)![1]);
}

test('100 class names (CIFAR-100) embed on wasm, a prompt change re-embeds them, and the comparison draws all 4 950 pairs', async ({ page, context }) => {
  test.setTimeout(120_000);
  const net = await offline(context);
  await cifar100WithClip(page);
  await useFixture(page, 'wasm');
  await page.getByRole('radio', { name: 'Template', exact: true }).check();
  await embedHundred(page, 'wasm', 'wasm-cold', true);
  await embedHundred(page, 'wasm', 'wasm-warm', false);
  await expectUnitNorm(page, 100);

  // the comparison at the paper's size: 100 classes, 4 950 pairs, heat maps without labels (hover for names)
  await page.getByTestId('compare').locator('summary').click();
  await expect(page.getByTestId('compare-scatter').locator('circle.dot')).toHaveCount(4950, { timeout: 30_000 });
  await expect(page.getByTestId('compare-heatmap-b').locator('rect.cell')).toHaveCount(10_000);
  expect(net.outside).toEqual([]);
  // the picture is for people, not an assertion: under load SwiftShader's frames can stall for a minute and the
  // screenshot then waits for "stable" past the test's limit (one clean-clone CI run in four, 2026-11-26); it gets
  // 60 s and a note when it does not come
  await page
    .getByTestId('compare')
    .screenshot({ path: 'test-results/screenshots/clip-compare-cifar100-1280.png', timeout: 60_000 })
    .catch((e: Error) => test.info().annotations.push({ type: 'screenshot skipped', description: e.message.split('\n')[0] }));
});

// Timing, opt-in (CLIP_BENCH=1, about a minute): 100 names cold and warm (median of 3) on WebGPU (SwiftShader) and on
// wasm, q8 and fp32; prints one "[clip bench]" line.
test('embedding time per 100 class names (CIFAR-100) with the fixture on WebGPU and on wasm (timing)', async ({ page, context }) => {
  test.skip(!process.env.CLIP_BENCH, 'set CLIP_BENCH=1 to time the embeddings');
  test.setTimeout(240_000); // ~55–80 s idle; 16 embeddings, 8 on SwiftShader WebGPU
  const net = await offline(context);
  await cifar100WithClip(page);
  await page.getByRole('radio', { name: 'Template', exact: true }).check();
  const figures: string[] = [];
  for (const device of ['webgpu', 'wasm'] as const) {
    for (const dtype of ['q8', 'fp32'] as const) {
      await useFixture(page, device);
      await page.getByTestId('clip-precision').selectOption(dtype);
      const ms: number[] = [];
      for (const phase of ['cold', 'warm1', 'warm2', 'warm3']) ms.push(await embedHundred(page, device, `${device}-${dtype}-${phase}`, phase === 'cold'));
      const warm = ms.slice(1).sort((a, b) => a - b)[1];
      figures.push(`${device} ${dtype}: ${ms[0]} ms cold, ${warm} ms warm (median of 3)`);
    }
  }
  console.log(`[clip bench] 100 CIFAR-100 class names, tiny fixture, Chromium (SwiftShader WebGPU): ${figures.join('; ')}`);
  test.info().annotations.push({ type: 'clip-bench', description: figures.join('; ') });
  expect(net.outside).toEqual([]);
});
