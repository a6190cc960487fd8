/**
 * Drill, the page side of the new surfaces (the files come from tests/unit/drills/hostile-files.ts, made here):
 * - Data tab: .npz files declaring 800 MB whose small members are wrong or whose zip directory lies, read in the data
 *   worker: a message each, while a 50 ms timer on the page never waits a second; the upload stays usable.
 * - Print / PDF of a teacher's lesson with three 600-character texts: the QR code takes error correction L (it does
 *   not fit M) and decodes to the link; a lesson whose link no QR code holds prints the link, the chart and a
 *   sentence saying so; control characters and halves of characters in the texts are not shown.
 * - Your classes (the tiny self-hosted CLIP vision fixture, wasm): a one-class samples zip imports; in `npm run drills`
 *   six classes are imported and the tab is killed (the renderer crashed, as a kill -9 or an out-of-memory kill does) while every
 *   ordering trains, at seeded points. A new tab of the same browser opens the link the page had written: every
 *   recorded sample is still there, byte for byte, and every class with it; there it trains every ordering, and a
 *   start after Cancel trains only the orderings not finished (the lab keeps finished orderings in memory only, by
 *   design: after a kill they are trained again, once). No page error but the crash caused.
 * Prints one summary line per part starting "page surface drill".
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { validateConfig } from '../../src/core/config/schema';
import { encodeConfigToHash } from '../../src/core/config/url-codec';
import { lessonParam, withLessonParam } from '../../src/core/lessons';
import { createRandomState } from '../../src/core/random/random-state';
import { writeSamplesZip } from '../../src/data/own-samples-zip';
import { solidPng } from '../unit/drills/broken-upload-corpus';
import { honestNpz, lyingNpz } from '../unit/drills/hostile-files';
import { decodeQrSvg, startTimerProbe, stopTimerProbe } from './harness/page-probes';

const SHOTS = 'test-results/drills-surfaces';
const LONG = Boolean(process.env.DRILLS);
mkdirSync(SHOTS, { recursive: true });

function watch(page: Page, crashed?: WeakSet<Page>): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('crash', () => {
    if (!crashed?.has(page)) errors.push('page crashed');
  });
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return errors;
}

test('Data tab: 800 MB-declaring .npz files with a wrong small member or a lying directory get a message; the page never stalls a second', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watch(page);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Data', exact: true }).click();
  await expect(page.getByTestId('feature-sources')).toBeVisible();
  // the experiment's dataset shown first (its sample grid is drawn on the page): the timer measures the uploads alone
  await expect(page.getByTestId('grid-row')).toHaveCount(10, { timeout: 60_000 });
  const cases: [string, Uint8Array, RegExp][] = [
    ['bad-label.npz', honestNpz(10_000, 10_000, { bad: 'label' }), /Row 9999 has label 15, outside the 10 classes/],
    ['bad-split.npz', honestNpz(10_000, 10_000, { bad: 'split' }), /Row 3 has split 7/],
    ['names-twice.npz', honestNpz(10_000, 10_000, { bad: 'names-duplicate' }), /appears twice/],
    ['lying.npz', lyingNpz(), /features\.npy is truncated|inflates to more than the 8,000,000 bytes/],
    ['lying-exact.npz', lyingNpz(10_000 * 100 * 8 + 128, 10_000, 100, 800_000_000), /inflates to more than the 8,000,128 bytes its directory declares/],
  ];
  const lines: string[] = [];
  for (const [name, bytes, message] of cases) {
    await startTimerProbe(page);
    const t0 = Date.now();
    await page.getByTestId('features-upload').setInputFiles({ name, mimeType: 'application/zip', buffer: Buffer.from(bytes) });
    const error = page.getByTestId('features-upload-error');
    await expect(error, name).toContainText(message, { timeout: 120_000 });
    const { worst } = await stopTimerProbe(page);
    lines.push(`  ${name.padEnd(18)} ${String(Date.now() - t0).padStart(6)} ms to the message, longest wait of a 50 ms timer ${Math.round(worst)} ms`);
    expect(worst, name).toBeLessThan(1000);
    await expect(page.getByTestId('source-upload'), name).toHaveCount(0);
    await expect(page.getByTestId('features-upload'), name).toBeEnabled();
  }
  expect(errors).toEqual([]);
  console.log(`page surface drill (Data tab .npz): ${cases.length} files, a message each\n${lines.join('\n')}`);
});

test('Print / PDF of a lesson with three 600-character texts: the QR code at error correction L, or none for a link too long, and always the link and the chart', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = watch(page);
  const hash = encodeConfigToHash(validateConfig({ dataset: { id: 'cifar10' }, classes: [0, 1, 2, 3, 4, 5], taskSizes: [2, 2, 2] }).config);
  const lines: string[] = [];
  const long = (c: string) => c.repeat(600);
  const cases = [
    ['non-ASCII texts (no QR)', { title: `Ω\u0007 \ud800${long('Ω').slice(3)}`, text: long('é'), question: long('ü') }, false],
    ['ASCII texts (fits L)', { title: long('t'), text: long('x'), question: long('q') }, true],
  ] as const;
  // `npm test` prints the lesson whose link no QR code holds (what threw); `npm run drills` the one at L too
  for (const [what, texts, qr] of LONG ? cases : cases.slice(0, 1)) {
    await page.goto(`/${withLessonParam('', lessonParam(texts))}${hash}`);
    const title = page.getByTestId('lesson-title-shown');
    await expect(title).toBeVisible();
    const shown = (await title.textContent())!;
    expect(shown, what).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(shown, what).not.toMatch(/[\ud800-\udfff](?![\udc00-\udfff])/u);
    // the page as it is printed
    await expect(page.getByTestId('score-histogram')).toBeVisible({ timeout: 60_000 });
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await page.emulateMedia({ media: 'print' });
    const handout = page.getByTestId('lesson-handout');
    await expect(handout).toBeVisible();
    await expect(page.getByTestId('lesson-url')).toHaveText(page.url());
    await expect(handout.locator('.figure svg').first()).toBeVisible();
    if (qr) {
      // a version-40 code: 185 modules with the quiet zone, 4 px each
      expect(await decodeQrSvg(page.getByTestId('lesson-qr'), 740), what).toBe(page.url());
    } else {
      await expect(page.getByTestId('lesson-qr')).toHaveCount(0);
      await expect(page.getByTestId('lesson-qr-too-long')).toContainText('This link is too long for a QR code');
    }
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString(), what).toBe('%PDF-');
    await page.screenshot({ path: `${SHOTS}/handout-${qr ? 'qr-l' : 'no-qr'}.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    lines.push(
      `  ${what}: link ${page.url().length} characters, ${qr ? 'QR code (error correction L) decodes to it' : 'no QR code, said so'}, PDF ${pdf.length} B`,
    );
  }
  expect(errors).toEqual([]);
  console.log(`page surface drill (lesson handout): ${lines.length} long lessons printed\n${lines.join('\n')}`);
});

// ───────────────────────────── Your classes ─────────────────────────────

const FIXTURE_ENCODER = {
  source: 'encoder',
  model: 'clip-vision-tiny',
  precision: 'fp32',
  weights: { kind: 'self-hosted', path: '/models/cil-lab/' },
} as const;
const ownLink = () =>
  `/${encodeConfigToHash(
    validateConfig({
      lab: 'own-classes',
      backend: { train: 'wasm' },
      ownClasses: { classes: [], trainPerClass: 20, testPerClass: 5, strategy: 'finetune', seed: 0, encoder: FIXTURE_ENCODER },
    }).config,
  )}`;

/** `k` classes of `n` small PNGs each, every class its own colour with a moving stripe. */
function samplesZip(k: number, n: number): Buffer {
  const classes = Array.from({ length: k }, (_, c) => {
    const imgs = Array.from({ length: n }, (_, i) => solidPng(16, 16, [(60 * c + 3 * i) % 256, (200 - 30 * c + i) % 256, (40 * c * c + 5 * i) % 256]));
    return { name: `thing ${c + 1}`, train: imgs.slice(0, n - 5), test: imgs.slice(n - 5) };
  });
  return Buffer.from(writeSamplesZip(classes, { mtime: new Date('2024-01-01T00:00:00Z') }));
}

/** The recorded samples in IndexedDB: their count and a digest of their bytes. */
const samplesDigest = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ count: number; digest: number }>((resolve, reject) => {
        const open = indexedDB.open('cil-lab-own-classes');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction('samples', 'readonly').objectStore('samples').getAll();
          req.onsuccess = () => {
            db.close();
            let h = 2166136261;
            const rows = req.result as { name: string; index: number; bytes: Uint8Array }[];
            for (const r of rows) for (const b of [...new TextEncoder().encode(`${r.name}#${r.index}`), ...r.bytes]) h = Math.imul(h ^ b, 16777619) >>> 0;
            resolve({ count: rows.length, digest: h });
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );

/** The progress line now: orderings finished of those this start trains (null while it says something else); never waits. */
const orderingsLine = async (page: Page): Promise<{ done: number; of: number } | null> => {
  const text = await page.evaluate(() => document.querySelector('[data-testid="oc-busy"]')?.textContent ?? '');
  const m = /Every ordering: (\d+) of (\d+)/.exec(text);
  return m ? { done: Number(m[1]), of: Number(m[2]) } : null;
};
const orderingsDone = async (page: Page): Promise<number> => (await orderingsLine(page))?.done ?? -1;

test('Your classes: a one-class samples zip (the lab’s own Export of one class) imports and trains', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watch(page);
  await page.goto(ownLink());
  await page.getByTestId('oc-import').setInputFiles({ name: 'one.zip', mimeType: 'application/zip', buffer: samplesZip(1, 8) });
  await expect(page.getByTestId('oc-import-note')).toHaveText('Imported 1 class.', { timeout: 60_000 });
  await expect(page.getByTestId('oc-class')).toHaveCount(1);
  await expect(page.getByTestId('oc-count')).toHaveText('8 / 25');
  expect(errors).toEqual([]);
  console.log('page surface drill (Your classes, one-class zip): imported, 8 samples of 1 class');
});

test('Your classes: killed while every ordering trains, nothing recorded is lost and nothing is trained twice in a tab', async ({ context }) => {
  // about a minute: `npm run drills` only
  test.skip(!LONG, 'long drill: npm run drills');
  test.setTimeout(600_000);
  const crashed = new WeakSet<Page>();
  const perPage: string[][] = [];
  const open = async (url: string) => {
    const p = await context.newPage();
    perPage.push(watch(p, crashed));
    await p.goto(url);
    return { p };
  };

  // six classes, every ordering (720), killed at seeded points
  const first = await open(ownLink());
  const rs = createRandomState(45);
  await first.p.getByTestId('oc-import').setInputFiles({ name: 'six.zip', mimeType: 'application/zip', buffer: samplesZip(6, 25) });
  await expect(first.p.getByTestId('oc-import-note')).toHaveText('Imported 6 classes.', { timeout: 120_000 });
  await expect(first.p.getByTestId('oc-bar')).toHaveCount(6, { timeout: 120_000 });
  const before = await samplesDigest(first.p);
  expect(before.count).toBe(6 * 25);
  const lines: string[] = [];
  let page = first.p;
  for (let kill = 0; kill < 2; kill++) {
    await expect(page.getByTestId('oc-busy')).toHaveCount(0, { timeout: 120_000 });
    await page.getByTestId('oc-orderings').click();
    const target = Math.floor(20 + 200 * rs.randomSample());
    await expect.poll(() => orderingsDone(page), { timeout: 120_000, intervals: [20], message: `${target} orderings trained` }).toBeGreaterThanOrEqual(target);
    const doneAtKill = await orderingsDone(page);
    const url = page.url();
    crashed.add(page);
    const gone = page.waitForEvent('crash');
    const cdp = await context.newCDPSession(page);
    void cdp.send('Page.crash').catch(() => undefined);
    await gone;
    await page.close({ runBeforeUnload: false }).catch(() => undefined);
    // a new tab of the same browser, on the link the page had written
    const next = await open(url);
    page = next.p;
    await expect(page.getByTestId('oc-class')).toHaveCount(6, { timeout: 60_000 });
    for (let c = 0; c < 6; c++) await expect(page.getByTestId('oc-count').nth(c)).toHaveText('25 / 25');
    expect(await samplesDigest(page), 'every recorded sample, byte for byte').toEqual(before);
    await expect(page.getByTestId('oc-bar')).toHaveCount(6, { timeout: 120_000 });
    lines.push(`  kill ${kill + 1}: the renderer crashed at ${doneAtKill} of 720 orderings; the new tab holds all ${before.count} samples of 6 classes`);
  }
  // in a tab's life an ordering is trained once: Cancel, then a start that trains only the rest
  await expect(page.getByTestId('oc-busy')).toHaveCount(0, { timeout: 120_000 });
  await page.getByTestId('oc-orderings').click();
  await expect.poll(() => orderingsDone(page), { timeout: 120_000, intervals: [20] }).toBeGreaterThanOrEqual(50);
  const atCancel = (await orderingsLine(page))!;
  await page.getByTestId('oc-cancel').click();
  await expect(page.getByTestId('oc-busy')).toHaveCount(0, { timeout: 60_000 });
  // a start trains only what is not finished: its line counts the orderings it trains ("0 of N"), so the start after
  // Cancel trains at most those left when Cancel was pressed: none finished before it is trained again
  await page.getByTestId('oc-orderings').click();
  let restart: { done: number; of: number } | null = null;
  await expect
    .poll(
      async () => {
        restart = await orderingsLine(page);
        return restart !== null;
      },
      { timeout: 60_000, intervals: [10] },
    )
    .toBe(true);
  const left = (restart as { done: number; of: number } | null)!.of;
  expect(left, 'the start after Cancel trains only the orderings not finished').toBeLessThanOrEqual(atCancel.of - atCancel.done);
  await expect(page.getByTestId('oc-orderings-verdict')).toContainText('Over all 720 orderings', { timeout: 300_000 });
  lines.push(
    `  in the last tab: Cancel at ${atCancel.done} of ${atCancel.of}; the next start trained ${left} (at most the ${atCancel.of - atCancel.done} left), and all 720 are shown`,
  );
  await page.screenshot({ path: `${SHOTS}/own-classes-after-kills.png`, fullPage: true });
  await page.close();
  expect(perPage.flat()).toEqual([]);
  console.log(`page surface drill (Your classes, kill -9 while training): nothing recorded lost, no ordering trained twice in a tab\n${lines.join('\n')}`);
});
