/**
 * CLIP similarity under the Vite DEV server (`npm start`), which the other specs never see (they run
 * the production build, playwright.config.ts). Starts `vite` itself on a free port on 127.0.0.1, embeds with the tiny
 * offline CLIP fixture (/models/cil-lab/clip-tiny/, as tests/e2e/clip.spec.ts does on the build) on wasm, and checks
 * that no Vite error overlay covers the page, that onnxruntime's runtime came from the app's /ort/ folder, and that
 * the CLIP similarity reaches the orderings; then, on the same page, the Data tab's CLIP vision encoder extracts features
 * from its fixture (/models/cil-lab/clip-vision-tiny/). A third page, with onnxruntime's runtime not served, checks the
 * advice that names the /ort/ files. No request leaves 127.0.0.1.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const FIXTURE = 'cil-lab/clip-tiny';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The CLIP panel's one button: a first press asks the size (HEAD requests only), the second downloads and embeds. */
async function embedAfterSize(page: Page) {
  const run = page.getByTestId('clip-run');
  await expect(run).toHaveText('Check the download size');
  await run.click();
  await expect(run).toHaveText(/^Download \d+\.\d\d MB and embed \d+ class(es)?$/, { timeout: 30_000 });
  await run.click();
}

let vite: ChildProcess | undefined;
/** The page the app's two CLIP tests share (below), with what it saw. */
let shared: { context: BrowserContext; page: Page; errors: string[]; outside: string[]; ort: string[] };
let base = '';
let viteLog = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  vite = spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BROWSER: 'none' },
  });
  vite.stdout!.on('data', (d) => (viteLog += String(d)));
  vite.stderr!.on('data', (d) => (viteLog += String(d)));
  const t0 = Date.now();
  for (;;) {
    if (vite.exitCode !== null) throw new Error(`vite dev exited (${vite.exitCode}):\n${viteLog}`);
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() - t0 > 90_000) throw new Error(`vite dev did not answer on ${base}:\n${viteLog}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  if (vite && vite.exitCode === null) {
    const exited = new Promise((r) => vite!.once('exit', r));
    vite.kill('SIGTERM');
    await exited;
  }
});

/**
 * The two tests that open the app as a visitor does share one page (one load under the dev server, which serves the
 * app as hundreds of modules: seconds of CPU a load): the text embedding on the main view, then the Data tab's image
 * encoder. Page errors and requests that leave 127.0.0.1 are collected over both, and each test checks there are none.
 */
test.describe(() => {
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    shared = { context, page, errors: [], outside: [], ort: [] };
    const { errors, outside, ort } = shared;
    page.on('pageerror', (e) => errors.push(e.message));
    await context.route(
      (url) => url.protocol.startsWith('http') && url.hostname !== '127.0.0.1',
      (route) => {
        outside.push(route.request().url());
        return route.abort('internetdisconnected');
      },
    );
    context.on('request', (r) => {
      const u = new URL(r.url());
      if (/ort-wasm/.test(u.pathname)) ort.push(u.hostname === '127.0.0.1' ? `${u.pathname}${u.search}` : u.href);
    });
    await page.goto(base);
  });
  test.afterAll(async () => {
    await shared.context.close();
  });

  test('dev server (npm start): CLIP embeds on wasm from the self-hosted fixture, no error overlay, the similarity appears', async () => {
    const { page } = shared;
    await expect(page.getByTestId('omega')).toHaveText('90', { timeout: 60_000 });
    await page.getByLabel('CLIP text embeddings').check();
    await expect(page.getByTestId('clip-settings')).toBeVisible();
    await page.getByTestId('clip-model').fill(FIXTURE);
    await page.getByTestId('clip-weights').selectOption('self-hosted');
    await expect(page.getByTestId('clip-folder')).toHaveValue('/models/');
    await page.getByTestId('clip-device').selectOption('wasm');
    await embedAfterSize(page);
    await expect(page.getByTestId('clip-settings')).toHaveAttribute('data-state', /ready|error/, { timeout: 90_000 });

    // Vite's full-page error overlay is a <vite-error-overlay> element
    await expect(page.locator('vite-error-overlay')).toHaveCount(0);
    await expect(page.getByTestId('clip-error')).toHaveCount(0);
    await expect(page.getByTestId('clip-settings')).toHaveAttribute('data-device', 'wasm');
    await expect(page.getByTestId('clip-fallback')).toHaveCount(0);
    await expect(page.getByTestId('similarity-description')).toContainText(`cosine similarity of CLIP text embeddings of ${FIXTURE}`);
    const table = page.getByTestId('orderings');
    const hard = Number(await table.locator('tr[data-label="EDGE hard"] td[data-score]').getAttribute('data-score'));
    const easy = Number(await table.locator('tr[data-label="EDGE easy"] td[data-score]').getAttribute('data-score'));
    expect(Number.isFinite(hard) && Number.isFinite(easy)).toBe(true);
    expect(hard).toBeLessThanOrEqual(easy);
    // onnxruntime's runtime came from the app's own /ort/ folder
    expect(shared.ort.length).toBeGreaterThan(0);
    expect(shared.ort.every((p) => p.startsWith('/ort/ort-wasm-simd-threaded'))).toBe(true);
    expect(shared.outside).toEqual([]);
    expect(shared.errors).toEqual([]);
    expect(viteLog).not.toMatch(/should not be imported from source code/);
  });

  test('dev server (npm start): CLIP vision extracts features on wasm from the self-hosted fixture in the Data tab', async () => {
    test.setTimeout(180_000);
    const { page } = shared;
    await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Data' }).click();
    await page.getByTestId('encoder-box').locator('summary').click();
    await page.getByTestId('encoder-weights').selectOption('self-hosted');
    await page.getByTestId('encoder-folder').fill('/models/cil-lab/');
    await page.getByTestId('encoder-model').fill('clip-vision-tiny');
    await page.getByTestId('encoder-device').selectOption('wasm');
    const row = page.getByTestId('source-encoder');
    await expect(row.getByTestId('source-state')).toHaveText(/not computed|cached/, { timeout: 90_000 });
    await page.getByTestId('encoder-run').click();
    await expect(page.getByTestId('encoder-run')).toHaveText(/Download \d+\.\d\d MB and extract features/, { timeout: 30_000 });
    await page.getByTestId('encoder-run').click();
    await expect(row.getByTestId('source-state')).toHaveText(/cached · /, { timeout: 150_000 });
    await expect(page.locator('vite-error-overlay')).toHaveCount(0);
    expect(shared.outside).toEqual([]);
    expect(shared.errors).toEqual([]);
  });
});

test('wasm chosen and its runtime missing: the advice names the /ort/ files, not "choose the wasm device"', async ({ page, context }) => {
  await context.route(
    (url) => url.protocol.startsWith('http') && url.hostname !== '127.0.0.1',
    (route) => route.abort('internetdisconnected'),
  );
  // onnxruntime's runtime is not served (a checkout where scripts/prepare-ort.mjs never ran)
  await context.route('**/ort/ort-wasm-simd-threaded*', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto(base);
  await expect(page.getByTestId('omega')).toHaveText('90', { timeout: 60_000 });
  await page.getByLabel('CLIP text embeddings').check();
  await page.getByTestId('clip-model').fill(FIXTURE);
  await page.getByTestId('clip-weights').selectOption('self-hosted');
  await page.getByTestId('clip-device').selectOption('wasm');
  await embedAfterSize(page);
  const error = page.getByTestId('clip-error');
  await expect(error).toBeVisible({ timeout: 90_000 });
  await expect(error).not.toContainText(/choose the wasm device/i);
  await expect(error).toContainText('ort-wasm-simd-threaded.asyncify.wasm/.mjs at /ort/');
  await expect(page.locator('vite-error-overlay')).toHaveCount(0);
});
