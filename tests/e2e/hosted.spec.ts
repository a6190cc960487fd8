/**
 * The hosted static site (docs/deploy.md): a build with `--base /lab/sub/`, served by
 * scripts/serve-static.mjs under that sub-path only,
 * - with the headers of public/_headers: the default Orderings result, `crossOriginIsolated`, the threaded wasm
 *   build named on the page and actually loaded, a Ground-truth run, nothing requested outside /lab/sub/; then the
 *   server gone and the browser offline: a reload still shows the app and trains from the service worker's cache;
 * - without headers (GitHub Pages): the service worker's fallback makes the page isolated after its one reload;
 * - a new version: the waiting worker is announced ("A new version is available — Reload") and Reload switches.
 *
 * The build goes to its own folder (dist-hosted-<port>), never the main webServer's. HOSTED_DIST=<folder> reuses a
 * build made with the same --base (faster when iterating).
 */
import { expect, test, type Page } from '@playwright/test';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, rmSync } from 'node:fs';
import { swManifest } from '../../scripts/sw-plugin';

const port = Number(process.env.PW_PORT ?? 4173);
const BASE = '/lab/sub/';
const OUT = process.env.HOSTED_DIST ?? `dist-hosted-${port}`;
const WITH_HEADERS = port + 60;
const NO_HEADERS = port + 61;
const UPDATES = port + 62;
const SHOTS = process.env.HOSTED_SHOTS ?? 'test-results/screenshots';
mkdirSync(SHOTS, { recursive: true });

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ mode: 'serial' });

interface Server {
  proc: ChildProcess;
  lines: string[];
}
const servers: Server[] = [];

async function startServer(dir: string, p: number, headers: boolean): Promise<Server> {
  const args = ['scripts/serve-static.mjs', '--dir', dir, '--base', BASE, '--port', String(p)];
  if (!headers) args.push('--no-headers');
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const s: Server = { proc, lines: [] };
  servers.push(s);
  await new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      for (const l of b.toString().split('\n')) if (l) s.lines.push(l);
      if (s.lines.some((l) => l.startsWith('serving '))) resolve();
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (b: Buffer) => s.lines.push(`stderr: ${b.toString()}`));
    proc.on('exit', (code) => reject(new Error(`serve-static exited (${code}): ${s.lines.join('\n')}`)));
  });
  return s;
}

function stop(s: Server): void {
  if (s.proc.exitCode === null) s.proc.kill();
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (!process.env.HOSTED_DIST)
    execFileSync('npx', ['vite', 'build', '--base', BASE, '--outDir', OUT, '--emptyOutDir', '--logLevel', 'warn'], { stdio: 'inherit' });
});

test.afterAll(() => {
  for (const s of servers) stop(s);
  if (!process.env.HOSTED_DIST) rmSync(OUT, { recursive: true, force: true });
  rmSync(`${OUT}-v2`, { recursive: true, force: true });
});

/** Every request the page and its workers make (not the service worker's own), by URL. */
function watchRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => {
    if (!r.serviceWorker()) urls.push(r.url());
  });
  return urls;
}

/** The default Orderings result: Fashion-MNIST 0–5 in 3 tasks, |Ω| = 90, RS and EDGE rows. */
async function expectDefaultOrderings(page: Page): Promise<void> {
  await expect(page.getByTestId('omega')).toHaveText('90', { timeout: 30_000 });
  const table = page.getByTestId('orderings');
  await expect(table.locator('tr[data-protocol="rs"]')).toHaveCount(3, { timeout: 30_000 });
  await expect(table.locator('tr[data-label="EDGE hard"]')).toHaveCount(1);
}

/**
 * A small Ground-truth experiment on the default dataset (Fashion-MNIST, from the cache when offline): its default 6
 * classes in 3 tasks (90 orderings), finetune, 1 epoch of 20 images per class.
 */
async function setUpGroundTruth(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  // the backend first: with `auto` the lab would measure every backend on each experiment the entries pass through
  await page.getByTestId('gt-backend').selectOption('wasm');
  for (const id of ['replay', 'ewc']) await page.getByTestId(`gt-strategy-${id}`).uncheck();
  await page.getByTestId('gt-strategy-finetune').check();
  await page.getByTestId('gt-epochs').fill('1');
  await page.getByTestId('gt-hidden').fill('32');
  await page.getByTestId('gt-train-per-class').fill('20');
  await page.getByTestId('gt-test-per-class').fill('10');
  await expect(page.getByTestId('gt-backend')).toHaveValue('wasm');
  await expect(page.getByTestId('gt-omega')).toHaveText('90', { timeout: 30_000 });
}

const blocks = (page: Page) => page.locator('[data-testid="accuracy-histogram"] rect.member');

async function isolated(page: Page): Promise<boolean> {
  try {
    return await page.evaluate(() => globalThis.crossOriginIsolated === true);
  } catch {
    return false; // navigating (the fallback's reload)
  }
}

/** How many data files the service worker has cached and checked (stamped with their hash). */
async function cachedDataFiles(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let n = 0;
    for (const name of await caches.keys()) {
      if (!name.endsWith(':data')) continue;
      const c = await caches.open(name);
      for (const req of await c.keys()) if ((await c.match(req))?.headers.get('x-cil-lab-rev')) n++;
    }
    return n;
  });
}

test('served under /lab/sub/ with the headers: isolated, threaded wasm, a ground-truth run, nothing outside the sub-path, then offline', async ({
  page,
  context,
}) => {
  test.setTimeout(170_000);
  const server = await startServer(OUT, WITH_HEADERS, true);
  const origin = `http://127.0.0.1:${WITH_HEADERS}`;
  const urls = watchRequests(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(`${origin}${BASE}`);
  await expectDefaultOrderings(page);
  expect(await isolated(page)).toBe(true);

  await setUpGroundTruth(page);
  const badge = page.getByTestId('runtime-badge').filter({ visible: true });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await expect(badge).toHaveText(`wasm · ${cores} thread${cores === 1 ? '' : 's'}, cross-origin isolated`);
  await badge.screenshot({ path: `${SHOTS}/hosted-badge-isolated.png` });
  await page.screenshot({ path: `${SHOTS}/hosted-ground-truth-1280.png` });
  await page.setViewportSize({ width: 390, height: 800 });
  await badge.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/hosted-ground-truth-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByTestId('gt-run').click();
  await expect(page.getByTestId('gt-progress')).toContainText('done', { timeout: 120_000 });
  await expect(blocks(page)).toHaveCount(90);
  await expect(page.getByTestId('gt-backend-in-use')).toHaveText('wasm');
  // the training worker loaded tfjs's threaded SIMD build (not the single-threaded ones)
  expect(urls.filter((u) => u.endsWith('/tfjs/tfjs-backend-wasm-threaded-simd.wasm')).length).toBeGreaterThan(0);
  expect(urls.filter((u) => /tfjs-backend-wasm(-simd)?\.wasm$/.test(u))).toEqual([]);

  // the service worker controls the page and has every built-in data file, checked against its hash
  const dataFiles = swManifest(OUT).data.length;
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => cachedDataFiles(page), { timeout: 90_000, intervals: [1000] }).toBe(dataFiles);

  // nothing outside the sub-path: the page's own requests, and what the server saw (the service worker's too)
  const local = urls.filter((u) => u.startsWith('http'));
  expect(local.filter((u) => !u.startsWith(`${origin}${BASE}`))).toEqual([]);
  expect(server.lines.filter((l) => l.startsWith('OUTSIDE'))).toEqual([]);

  // offline: the server is gone and the browser has no network; the reload comes from the cache
  stop(server);
  await context.setOffline(true);
  await page.reload();
  await expectDefaultOrderings(page);
  expect(await isolated(page)).toBe(true);
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  await expect(page.getByTestId('gt-stored')).toHaveText('90', { timeout: 30_000 });
  // a new experiment (another hidden width): trained offline, from the cached data, workers and wasm
  await page.getByTestId('gt-hidden').fill('16');
  await expect(page.getByTestId('gt-stored')).toHaveText('0');
  await page.getByTestId('gt-run').click();
  await expect(page.getByTestId('gt-progress')).toContainText('done', { timeout: 120_000 });
  await expect(blocks(page)).toHaveCount(90);
  await expect(page.getByTestId('gt-backend-in-use')).toHaveText('wasm');
  await expect(page.getByTestId('gt-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('served without headers (GitHub Pages): the service worker makes the page isolated after one reload', async ({ page }) => {
  test.setTimeout(90_000);
  const server = await startServer(OUT, NO_HEADERS, false);
  const origin = `http://127.0.0.1:${NO_HEADERS}`;
  const res = await fetch(`${origin}${BASE}`);
  expect(res.headers.get('cross-origin-opener-policy')).toBeNull(); // the host really sends none
  await page.goto(`${origin}${BASE}`);
  await expect.poll(() => isolated(page), { timeout: 60_000, intervals: [500] }).toBe(true);
  // the isolated document is the one reload of the service worker's fallback, served through the worker
  expect(await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type)).toBe('reload');
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  // the once-per-tab guard is cleared again once the page is isolated (src/shell/sw-register.ts), so a later load that
  // is not isolated (say, after an update) may reload once more; a browser that cannot isolate keeps it set: no loop
  // (the app clears it when it registers the worker, just after the page loads: poll)
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('cil-lab:isolation-reload')), { timeout: 15_000 }).toBeNull();
  await expectDefaultOrderings(page);
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  await expect(page.getByTestId('runtime-badge').filter({ visible: true })).toContainText('cross-origin isolated');
  expect(server.lines.filter((l) => l.startsWith('OUTSIDE'))).toEqual([]);
  stop(server);
});

test('a new version: the waiting worker is announced, and Reload switches to it', async ({ page }) => {
  test.setTimeout(90_000);
  // a copy of the site whose sw.js then changes, as a new deployment's would
  const v2 = `${OUT}-v2`;
  rmSync(v2, { recursive: true, force: true });
  cpSync(OUT, v2, { recursive: true });
  const server = await startServer(v2, UPDATES, true);
  const origin = `http://127.0.0.1:${UPDATES}`;
  await page.goto(`${origin}${BASE}`);
  await expectDefaultOrderings(page);
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 30_000 }).toBe(true);
  await expect(page.getByTestId('update-notice')).toHaveCount(0);

  appendFileSync(`${v2}/sw.js`, '\n// the next version\n');
  await page.reload();
  const notice = page.getByTestId('update-notice');
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText('A new version is available');
  await page.screenshot({ path: `${SHOTS}/hosted-update-notice-1280.png` });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: `${SHOTS}/hosted-update-notice-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  const before = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
  await Promise.all([page.waitForEvent('framenavigated'), page.getByTestId('update-reload').click()]);
  await expectDefaultOrderings(page);
  await expect(page.getByTestId('update-notice')).toHaveCount(0);
  const sw = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    return { waiting: !!reg?.waiting, active: reg?.active?.state };
  });
  expect(sw).toEqual({ waiting: false, active: 'activated' });
  expect(before).toBe(`${origin}${BASE}sw.js`);
  stop(server);
});
