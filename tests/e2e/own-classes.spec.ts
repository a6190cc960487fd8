/**
 * The Your-classes lab in a real Chromium with its fake camera (--use-fake-device-for-media-stream and
 * --use-file-for-fake-video-capture: a small .y4m of one colour per class, written here), the tiny CLIP vision
 * fixture (public/models/cil-lab/clip-vision-tiny) as the encoder:
 * - four classes recorded one at a time on one profile (the fake camera's file is written again with the next
 *   class's colour before each recording: Chromium opens the file anew each time the page asks for the camera, so
 *   one launch records every class), each class after the first on its link opened again: on a new tab (the page
 *   reloaded: all it shows comes back from the browser's storage), before the third class in the browser closed and
 *   started again; every earlier row of R is unchanged (its numbers and the moment it was computed) after each later
 *   class and after each reload; fine-tuning forgets, SimpleCIL does not; every ordering; EDGE on names; export,
 *   forget, import; a removed class's rows said to be computed again; the original link (no classes), opened in a
 *   new tab, offers the classes stored in the browser;
 * - the lesson's recorded set imported at 390 px;
 * - the hub unreachable: said before recording, the shipped encoder offered and used;
 * - a hundred classes imported, one more added with its time shown;
 * - a denied camera and dropped images instead.
 */
import { chromium, expect, test, type BrowserContext, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeSamplesZip } from '../../src/data/own-samples-zip';
import { manyClasses } from '../../scripts/own-classes-drawings';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig, validateConfig } from '../../src/core/config/schema';
import { encodeConfigToHash } from '../../src/core/config/url-codec';
import config from '../../playwright.config';
import { pageConfig } from './harness/page-config';

const SHOTS = process.env.OWN_SHOTS ?? 'test-results/own-classes';
const COLOURS: [number, number, number][] = [
  [220, 40, 40],
  [40, 190, 60],
  [50, 70, 230],
  [235, 220, 50],
];

/** A 160×120 4:2:0 .y4m of 10 frames of one colour with a moving stripe (Chromium loops it). */
function y4m(rgb: [number, number, number]): Buffer {
  const [r, g, b] = rgb;
  const W = 160;
  const H = 120;
  const y = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
  const u = Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
  const v = Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`)];
  for (let f = 0; f < 10; f++) {
    const Y = Buffer.alloc(W * H, y);
    for (let row = 0; row < H; row++) for (let col = f * 8; col < f * 8 + 6; col++) Y[row * W + col] = Math.min(255, y + 40);
    parts.push(Buffer.from('FRAME\n'), Y, Buffer.alloc((W / 2) * (H / 2), u), Buffer.alloc((W / 2) * (H / 2), v));
  }
  return Buffer.concat(parts);
}

const base = config.use!;
const baseURL = base.baseURL!;
const ARGS = base.launchOptions!.args!;

const TINY = { source: 'encoder', model: 'clip-vision-tiny', precision: 'fp32', weights: { kind: 'self-hosted', path: '/models/cil-lab/' } };

function link(own: Record<string, unknown> = {}): string {
  const c = validateConfig({
    ...defaultConfig(),
    lab: 'own-classes',
    backend: { train: 'wasm', embed: 'auto' },
    ownClasses: { classes: [], trainPerClass: 6, testPerClass: 3, strategy: 'finetune', seed: 0, encoder: TINY, fps: 30, ...own },
  });
  expect(c.errors).toEqual([]);
  return `${baseURL}/${encodeConfigToHash(c.config)}`;
}

async function withCamera(profile: string, video: string | null, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const args = [...ARGS, '--use-fake-device-for-media-stream'];
  if (video) args.push('--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`);
  return chromium.launchPersistentContext(profile, {
    executablePath: base.launchOptions!.executablePath,
    args,
    viewport,
    serviceWorkers: 'block',
    acceptDownloads: true,
  });
}

async function addClass(page: Page, name: string): Promise<void> {
  await page.getByTestId('oc-name').fill(name);
  await page.getByTestId('oc-add').click();
  await expect(page.getByTestId('oc-class').filter({ hasText: name })).toBeVisible();
}

/** Records `name` with the camera and waits for the bars of the update that follows. */
async function recordClass(page: Page, name: string, classes: number): Promise<{ fromRecord: number; fromComplete: number }> {
  const t0 = Date.now();
  const row = page.getByTestId('oc-class').filter({ hasText: name });
  await row.getByTestId('oc-record').click();
  await expect(row.getByTestId('oc-count')).toHaveText('9 / 9', { timeout: 30_000 });
  const t1 = Date.now();
  await expect(page.getByTestId('oc-bar')).toHaveCount(classes, { timeout: 60_000 });
  await expect(page.getByTestId('oc-busy')).toHaveCount(0, { timeout: 60_000 });
  return { fromRecord: Date.now() - t0, fromComplete: Date.now() - t1 };
}

/** The colour of a class's first stored sample (its top-left 8×8 corner, averaged: the moving stripe passes elsewhere). */
async function sampleColour(page: Page, name: string): Promise<number[]> {
  const img = page.getByTestId('oc-class').filter({ hasText: name }).locator('img').first();
  return img.evaluate(async (el: HTMLImageElement) => {
    await el.decode();
    const c = document.createElement('canvas');
    c.width = c.height = 8;
    c.getContext('2d')!.drawImage(el, 0, 0, el.naturalWidth / 8, el.naturalHeight / 8, 0, 0, 8, 8);
    const d = c.getContext('2d')!.getImageData(0, 0, 8, 8).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < d.length; i += 4) for (let ch = 0; ch < 3; ch++) sum[ch] += d[i + ch];
    return sum.map((v) => v / 64);
  });
}

/**
 * EDGE on the class names: the names panel on the tiny CLIP text fixture (self-hosted), its button saying the size
 * before it embeds; then two more rows and a fourth sentence, and the link keeps the text model.
 */
async function edgeOnNames(page: Page): Promise<void> {
  const panel = page.getByTestId('oc-names');
  await panel.locator('summary').click();
  await panel.getByTestId('clip-model').fill('cil-lab/clip-tiny');
  await panel.getByTestId('clip-weights').selectOption('self-hosted');
  await panel.getByTestId('clip-device').selectOption('wasm');
  const run = panel.getByTestId('clip-run');
  await expect(run).toHaveText('Check the download size');
  await run.click();
  await expect(run).toHaveText(/^(Download \d+\.\d\d MB and embed 4 classes|Embed 4 classes \(nothing to download\))$/, { timeout: 30_000 });
  await run.click();
  await expect(page.locator('[data-testid="oc-protocol"][data-kind="edge-names"]')).toHaveCount(2, { timeout: 90_000 });
  await expect(page.getByTestId('oc-names-source')).toContainText('cil-lab/clip-tiny');
  await expect(page.getByTestId('oc-orderings-verdict')).toContainText('EDGE on your class names (the cosine of CLIP’s text embeddings');
  await expect.poll(() => pageConfig(page)?.ownClasses?.names?.model ?? null).toBe('cil-lab/clip-tiny');
}

/** R as the page shows it: each row's cells of the classes taught by then, and the moment it was computed. */
async function rowsOf(page: Page): Promise<{ cells: string[]; computed: string }[]> {
  return page.getByTestId('oc-row').evaluateAll((rows) =>
    rows.map((r, i) => ({
      cells: [...r.querySelectorAll('td')].slice(0, i + 1).map((td) => td.textContent ?? ''),
      computed: r.getAttribute('data-computed') ?? '',
    })),
  );
}

test('four classes recorded one at a time: every earlier row of R stays as it was after each later class and each reload', async () => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  const viewport = { width: 1280, height: 800 };
  const dir = mkdtempSync(join(tmpdir(), 'cil-own-'));
  const profile = join(dir, 'profile');
  // the camera: one file, written with each class's colour before that class is recorded
  const video = join(dir, 'camera.y4m');
  writeFileSync(video, y4m(COLOURS[0]));
  const names = ['red mug', 'green <i>pen', 'blue cup', 'yellow duck'];
  const timings: Record<string, number> = {};
  const original = link();
  let url = original;
  let seen: { cells: string[]; computed: string }[] = [];
  let ctx = await withCamera(profile, video, viewport);
  let page = ctx.pages()[0] ?? (await ctx.newPage());
  const sameEarlier = async (page: Page, n: number) => {
    const now = await rowsOf(page);
    expect(now.length).toBe(n);
    // the earlier rows: the same numbers, computed at the same moment (never again)
    expect(now.slice(0, seen.length)).toEqual(seen);
    seen = now;
  };
  try {
    for (let k = 0; k < 4; k++) {
      writeFileSync(video, y4m(COLOURS[k]));
      if (k === 2) {
        // once, the browser itself closed and started again on the profile: what it stored outlives it
        await ctx.close();
        ctx = await withCamera(profile, video, viewport);
        page = ctx.pages()[0] ?? (await ctx.newPage());
      } else if (k > 0) {
        // the reload: the link on a new tab, the old one closed (its page state gone; only the browser's storage stays)
        const old = page;
        page = await ctx.newPage();
        await old.close();
      }
      await page.goto(url);
      await expect(page.getByTestId('oc-privacy')).toContainText('never leave this browser');
      await expect(page.getByTestId('oc-class')).toHaveCount(k);
      if (k > 0) {
        await expect(page.getByTestId('oc-row')).toHaveCount(k, { timeout: 60_000 });
        await sameEarlier(page, k); // after the reload
      }
      await addClass(page, names[k]);
      const ms = await recordClass(page, names[k], k + 1);
      await expect(page.getByTestId('oc-row')).toHaveCount(k + 1);
      await sameEarlier(page, k + 1); // after the later class
      // the camera showed this class's colour (its file was written again before this recording)
      const rgb = await sampleColour(page, names[k]);
      rgb.forEach((v, ch) => expect(Math.abs(v - COLOURS[k][ch]), `${names[k]}: channel ${ch} of ${rgb}`).toBeLessThan(40));
      if (k === 0) timings.recordFirstClassToResult = ms.fromRecord;
      if (k === 3) timings.fourthClassCompleteToBars = ms.fromComplete;
      const said = await page.getByTestId('oc-timing').innerText();
      timings[`pageClass${k + 1}AddedMs`] = Number(said.match(/added (\d+) ms/)![1]);
      if (k === 0) await expect(page.getByTestId('oc-verdict')).toContainText('one class');
      if (k === 1) await expect(page.getByTestId('oc-bar').nth(1)).toContainText('green <i>pen'); // user text shown as text, not HTML
      if (k === 3) {
        await expect(page.locator('[data-testid="oc-bar"][data-forgotten="true"]').first()).toBeVisible();
        await expect(page.getByTestId('oc-verdict')).toContainText('It forgot');
        await page.screenshot({ path: `${SHOTS}/finetune-1280.png`, fullPage: true });
        await page.getByTestId('oc-strategy-simplecil').click();
        await expect(page.getByTestId('oc-verdict')).toContainText('no forgetting', { timeout: 60_000 });
        await expect(page.locator('[data-testid="oc-bar"][data-forgotten="true"]')).toHaveCount(0);
        // back to fine-tuning: its history comes back as it was stored
        await page.getByTestId('oc-strategy-finetune').click();
        await expect(page.getByTestId('oc-verdict')).toContainText('It forgot', { timeout: 60_000 });
        await sameEarlier(page, 4);
        await page.getByTestId('oc-strategy-simplecil').click();
        await expect(page.getByTestId('oc-verdict')).toContainText('no forgetting', { timeout: 60_000 });
        await page.getByTestId('oc-orderings').click();
        await expect(page.getByTestId('oc-orderings-verdict')).toContainText('Over all 24 orderings of your 4 classes', { timeout: 60_000 });
        await expect(page.getByTestId('oc-orderings-verdict')).toContainText('average incremental accuracy (AIA');
        await expect(page.getByTestId('oc-orderings-verdict')).toContainText('EDGE, which orders classes by how alike they look');
        await expect(page.locator('[data-testid="oc-protocol"][data-kind="rs"]')).toHaveCount(3);
        await expect(page.locator('[data-testid="oc-protocol"][data-kind="edge"]')).toHaveCount(2);
        await expect(page.locator('[data-testid="oc-protocol"][data-kind="taught"]')).toHaveCount(1);
        await expect(page.getByTestId('oc-protocols')).toContainText('RS seed 1993');
        await expect(page.getByTestId('oc-orderings-verdict')).toContainText(/equally close to the truth|closer to the truth/);
        await page.getByTestId('oc-joint').click();
        await expect(page.getByTestId('oc-verdict')).toContainText('A head trained on all 4 classes at once', { timeout: 60_000 });
        await expect(page.getByTestId('oc-busy')).toHaveCount(0);
        await page.screenshot({ path: `${SHOTS}/prototypes-1280.png`, fullPage: true });
        await edgeOnNames(page);
        await page.screenshot({ path: `${SHOTS}/names-1280.png`, fullPage: true });
        // the zip: export, forget everything, import it again
        const download = page.waitForEvent('download');
        await page.getByTestId('oc-export').click();
        const zip = join(dir, 'samples.zip');
        await (await download).saveAs(zip);
        await page.getByTestId('oc-forget').click();
        await expect(page.getByTestId('oc-class')).toHaveCount(0);
        await expect(page.getByTestId('oc-empty')).toBeVisible();
        await page.getByTestId('oc-import').setInputFiles(zip);
        await expect(page.getByTestId('oc-import-note')).toHaveText('Imported 4 classes.');
        await expect(page.getByTestId('oc-class')).toHaveCount(4);
        await expect(page.getByTestId('oc-count').first()).toHaveText('9 / 9');
        await expect(page.getByTestId('oc-bar')).toHaveCount(4, { timeout: 60_000 });
        await expect(page.getByTestId('oc-verdict')).toContainText('no forgetting');
        expect(readFileSync(zip).subarray(0, 2).toString()).toBe('PK');
        // one class removed (a recording gone wrong): the others stay, and the page says which rows changed and why
        await page.getByTestId('oc-class').filter({ hasText: 'blue' }).getByTestId('oc-remove').click();
        await expect(page.getByTestId('oc-class')).toHaveCount(3);
        await expect(page.getByTestId('oc-bar')).toHaveCount(3, { timeout: 60_000 });
        await expect(page.getByTestId('oc-changed')).toHaveText('Rows from “yellow duck” on were computed again: “blue cup” was removed.');
      }
      url = page.url();
    }
    // the original link after a crash: no classes in it, the three stored in this browser offered and restored. The
    // last tab is gone (closed without its unload handlers, as a crash leaves it) and the link opens in a new tab
    const last = page;
    page = await ctx.newPage();
    await last.close({ runBeforeUnload: false });
    await page.goto(original);
    await expect(page.getByTestId('oc-stored')).toContainText('This browser holds 3 classes you recorded');
    await page.screenshot({ path: `${SHOTS}/stored-offer-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/stored-offer-390.png`, fullPage: true });
    await page.setViewportSize(viewport);
    await page.getByTestId('oc-restore').click();
    await expect(page.getByTestId('oc-class')).toHaveCount(3);
    await expect(page.getByTestId('oc-row')).toHaveCount(3, { timeout: 60_000 });
    console.log(`own-classes timings (1280px, fixture encoder, wasm, 30 frames a second): ${JSON.stringify(timings)}`);
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('at 390 px: the lesson’s recorded set imported, R and every ordering read on a phone', async ({ browser }) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  try {
    await page.goto(link());
    await page.getByTestId('oc-import').setInputFiles('tests/fixtures/own-classes/four-things.zip');
    await expect(page.getByTestId('oc-import-note')).toHaveText('Imported 4 classes.', { timeout: 30_000 });
    await expect(page.getByTestId('oc-row')).toHaveCount(4, { timeout: 60_000 });
    await expect(page.getByTestId('oc-verdict')).toContainText('It forgot');
    await page.getByTestId('oc-orderings').click();
    await expect(page.getByTestId('oc-orderings-verdict')).toContainText('Over all 24 orderings', { timeout: 60_000 });
    // nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/finetune-390.png`, fullPage: true });
  } finally {
    await ctx.close();
  }
});

test('the model hub out of reach: said before recording, the encoder this site ships offered, and it runs', async ({ browser }) => {
  test.setTimeout(120_000);
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const outside: string[] = [];
  await ctx.route(
    (url) => url.protocol.startsWith('http') && url.hostname !== '127.0.0.1',
    (route) => {
      outside.push(route.request().url());
      return route.abort('internetdisconnected');
    },
  );
  const page = await ctx.newPage();
  try {
    // the lab's default encoder (CLIP ViT-B/32 from the hub), nothing recorded yet
    await page.goto(link({ encoder: undefined, trainPerClass: 2, testPerClass: 1 }));
    const notice = page.getByTestId('oc-encoder-notice');
    await expect(notice).toContainText('Xenova/clip-vit-base-patch32 is not in this browser yet');
    await expect(notice.getByTestId('oc-use-encoder')).toHaveText('Use Tiny encoder (ships with this site)');
    expect(outside).toEqual([]); // nothing asked of the hub until the visitor asks
    await page.getByTestId('oc-encoder-run').click(); // "Check the download size"
    await expect(notice).toContainText('The model hub cannot be reached from this browser', { timeout: 30_000 });
    expect(outside.length).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/hub-unreachable-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/hub-unreachable-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await notice.getByTestId('oc-use-encoder').click();
    await expect(notice).toHaveCount(0);
    await expect(page.getByTestId('oc-encoder-where')).toHaveAttribute('data-where', 'here');
    await page.getByTestId('oc-import').setInputFiles('tests/fixtures/own-classes/four-things.zip');
    await expect(page.getByTestId('oc-row')).toHaveCount(4, { timeout: 60_000 });
    await expect(page.getByTestId('oc-error')).toHaveCount(0);
  } finally {
    await ctx.close();
  }
});

/** Resident MB of the renderer processes of the browser on `profile` (the tab and its workers; not the GPU process). */
function rendererMB(profile: string): number {
  const ps = execFileSync('ps', ['-eo', 'rss=,args='], { encoding: 'utf8' });
  return Math.round(
    ps
      .split('\n')
      .filter((l) => l.includes(profile) && l.includes('--type=renderer'))
      .reduce((kb, l) => kb + Number(l.trim().split(/\s+/)[0]), 0) / 1024,
  );
}

test('a hundred classes imported, then one more added: its time after its last sample shown', async () => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'cil-own-100-'));
  const zip = join(dir, 'hundred.zip');
  writeFileSync(zip, writeSamplesZip(manyClasses(100, 2, 1)));
  const profile = join(dir, 'profile');
  const ctx = await withCamera(profile, null, { width: 1280, height: 800 });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  try {
    await page.goto(link({ strategy: 'simplecil', trainPerClass: 2, testPerClass: 1 }));
    await expect(page.getByTestId('oc-empty')).toBeVisible();
    const openMB = rendererMB(profile);
    const t0 = Date.now();
    await page.getByTestId('oc-import').setInputFiles(zip);
    await expect(page.getByTestId('oc-import-note')).toContainText('Imported 100 classes in', { timeout: 120_000 });
    await expect(page.getByTestId('oc-heat')).toHaveAttribute('data-rows', '100', { timeout: 120_000 });
    const importMs = Date.now() - t0;
    await addClass(page, 'object 101');
    const row = page.getByTestId('oc-class').filter({ hasText: 'object 101' });
    // three drawn images of a new colour, dropped on its box
    await row.evaluate(async (el) => {
      const dt = new DataTransfer();
      for (let i = 0; i < 3; i++) {
        const c = document.createElement('canvas');
        c.width = c.height = 48;
        const g = c.getContext('2d')!;
        g.fillStyle = '#d4d4d4';
        g.fillRect(0, 0, 48, 48);
        g.fillStyle = 'rgb(20,20,20)';
        g.fillRect(10 + i, 8, 26, 32);
        const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
        dt.items.add(new File([blob], `${i}.png`, { type: 'image/png' }));
      }
      el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await expect(page.getByTestId('oc-heat')).toHaveAttribute('data-rows', '101', { timeout: 60_000 });
    const said = await page.getByTestId('oc-timing').innerText();
    expect(said).toMatch(/^“object 101” was added \d+ ms after its last sample/);
    const addedMs = Number(said.match(/added (\d+) ms/)![1]);
    const phases = said
      .match(/features (\d+) ms, row 101 of R (\d+) ms/)!
      .slice(1)
      .map(Number);
    await expect(page.getByTestId('oc-verdict')).toContainText('on all 101 classes');
    await page.getByTestId('oc-joint').click();
    await expect(page.getByTestId('oc-verdict')).toContainText('A head trained on all 101 classes at once', { timeout: 120_000 });
    await page.getByTestId('oc-orderings').click();
    await expect(page.getByTestId('oc-orderings-verdict')).toContainText(/Over 1.000 orderings drawn at random/u, { timeout: 120_000 });
    await expect(page.getByTestId('oc-busy')).toHaveCount(0);
    // the tab with its workers: the renderer processes' resident memory (the page's JS heap beside it)
    const tabMB = rendererMB(profile);
    const pageHeapMB = await page.evaluate(() =>
      Math.round(((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0) / 1e6),
    );
    expect(tabMB).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/hundred-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/hundred-390.png`, fullPage: true });
    console.log(
      `own-classes hundred (fixture encoder, SimpleCIL): ${JSON.stringify({ importMs, addedMs, featuresMs: phases[0], rowMs: phases[1], openMB, tabMB, pageHeapMB })}`,
    );
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a denied camera says so and offers dropped images, which train the model', async () => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'cil-own-deny-'));
  const ctx = await withCamera(join(dir, 'profile'), null, { width: 1280, height: 800 });
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.goto(link());
    for (const [k, name] of ['red', 'blue'].entries()) {
      await addClass(page, name);
      const row = page.getByTestId('oc-class').filter({ hasText: name });
      await row.getByTestId('oc-record').click();
      await expect(page.getByTestId('oc-camera-note')).toContainText('The camera was not allowed');
      await expect(page.getByTestId('oc-camera-note')).toContainText('drop images');
      // drop nine images of the class's colour on its box
      await row.evaluate(
        async (el, rgb) => {
          const dt = new DataTransfer();
          for (let i = 0; i < 9; i++) {
            const c = document.createElement('canvas');
            c.width = c.height = 48;
            const g = c.getContext('2d')!;
            g.fillStyle = `rgb(${rgb.join(',')})`;
            g.fillRect(0, 0, 48, 48);
            g.fillStyle = '#fff';
            g.fillRect(i * 4, 0, 4, 48);
            const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
            dt.items.add(new File([blob], `${i}.png`, { type: 'image/png' }));
          }
          el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        },
        COLOURS[k * 2],
      );
      await expect(row.getByTestId('oc-count')).toHaveText('9 / 9', { timeout: 30_000 });
    }
    await expect(page.getByTestId('oc-bar')).toHaveCount(2, { timeout: 60_000 });
    await expect(page.getByTestId('oc-verdict')).toBeVisible();
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
