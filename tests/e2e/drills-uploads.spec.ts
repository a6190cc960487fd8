/**
 * Drill, the page side of the broken-upload corpus (tests/unit/drills/broken-upload-corpus.ts): a
 * representative handful of its files through the real file inputs — the Data page's upload (zip bombs, duplicate
 * names, lying entry counts, a 100 000 × 100 000 PNG header, fake images, traversal names, truncated zips, garbage,
 * 0 bytes) and the Orderings lab's similarity upload (a lying .npy, a 10^6-column CSV, JSON nested 10^5 deep,
 * garbage, 0 bytes). Each must show a message, and leave the page usable: the data (or result) shown before is kept,
 * the upload and the built-in choices stay enabled, a built-in dataset still loads after, and no page error.
 * Prints one line per file with the time to the message.
 */
import { expect, test, type Page } from '@playwright/test';
import { brokenUploadCorpus, goodZip, type CorpusCase } from '../unit/drills/broken-upload-corpus';
import { DIGITS_EXPERIMENT } from './harness/page-config';

const corpus = brokenUploadCorpus();
const pick = (ids: string[]): CorpusCase[] => ids.map((id) => corpus.find((c) => c.id === id)!);
const asFiles = (c: CorpusCase) => c.files.map((f) => ({ name: f.name, mimeType: 'application/octet-stream', buffer: Buffer.from(f.bytes) }));

function watch(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('crash', () => errors.push('page crashed'));
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return errors;
}

test('Data page: broken uploads each get a message; the data shown, the upload and the built-in choices stay', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watch(page);
  await page.goto(DIGITS_EXPERIMENT);
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: 'Data' }).click();
  await expect(page.getByTestId('data-title')).toContainText('Digits');
  // something of the user's on screen first: a good two-class zip
  await page.getByTestId('upload').setInputFiles([{ name: 'good.zip', mimeType: 'application/zip', buffer: Buffer.from(goodZip()) }]);
  await expect(page.getByTestId('data-title')).toContainText('good.zip', { timeout: 60_000 });
  const title = (await page.getByTestId('data-title').textContent())!;
  const lines: string[] = [];
  const cases = pick([
    'zip-bomb-overlapping',
    'zip-bomb-one-entry',
    'zip-size-lies-high',
    'zip-count-lies',
    'zip64-count-lies',
    'zip-duplicate-names',
    'zip-huge-png-header',
    'zip-not-images',
    'zip-zero-byte-images',
    'zip-path-traversal',
    'zip-truncated',
    'zip-nested',
    'data-garbage',
    'data-zero-bytes',
  ]);
  for (const c of cases) {
    const t0 = Date.now();
    await page.getByTestId('upload').setInputFiles(asFiles(c));
    const error = page.getByTestId('upload-error');
    await expect(error, c.id).toBeVisible({ timeout: 120_000 });
    await expect(error, c.id).toContainText('Still showing good.zip');
    const msg = (await error.textContent())!.replace(/\s+/g, ' ').trim();
    expect(msg, c.id).toMatch(c.message!);
    lines.push(`  ${c.id.padEnd(24)} ${String(Date.now() - t0).padStart(6)} ms  ${msg.slice(0, 140)}`);
    await expect(page.getByTestId('data-title'), c.id).toHaveText(title);
    await expect(page.getByTestId('upload'), c.id).toBeEnabled();
    await expect(page.getByTestId('builtin-digits'), c.id).toBeEnabled();
    await expect(page.getByTestId('grid-row'), c.id).toHaveCount(2);
    expect(errors, c.id).toEqual([]);
  }
  // a duplicate name among good images: loads, the name listed as skipped (no each_key_duplicate)
  const dupOk = pick(['zip-duplicate-names-kept'])[0];
  await page.getByTestId('upload').setInputFiles(asFiles(dupOk));
  await expect(page.getByTestId('data-title')).toContainText('dup-ok.zip', { timeout: 60_000 });
  await expect(page.getByTestId('upload-error')).toHaveCount(0);
  // and a built-in dataset still loads
  await page.getByTestId('builtin-digits').check();
  await expect(page.getByTestId('data-title')).toContainText('Digits', { timeout: 60_000 });
  await expect(page.getByTestId('grid-row')).toHaveCount(10);
  expect(errors).toEqual([]);
  console.log(`broken-upload drill (Data page): ${cases.length} broken files, a message each, page usable\n${lines.join('\n')}`);
});

test('Orderings lab: broken similarity uploads each get a message; the last result stays', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watch(page);
  await page.goto('/');
  await page.getByTestId('dataset').selectOption('custom');
  await page.getByTestId('custom-classes').fill('cat\ndog\ncar\ntruck\napple\npear');
  await expect(page.getByTestId('omega')).toHaveText('90');
  await page.getByLabel('Upload matrix or embeddings').check();
  await page.getByTestId('upload').setInputFiles('tests/fixtures/cli/sim6.json');
  const hard = page.locator('tr[data-label="Exact hard (min S)"] td[data-score]');
  // min S of sim6.json over the 90 orderings (numpy brute force, as in orderings.spec.ts): −0.35048837868004606
  await expect(hard).toHaveAttribute('data-score', /^-0\.3504883786800/, { timeout: 60_000 });
  const before = await hard.getAttribute('data-score');
  const lines: string[] = [];
  const cases = pick([
    'npy-shape-lies',
    'npy-header-length-lies',
    'csv-million-columns',
    'csv-utf16-no-bom',
    'csv-garbage',
    'json-garbage',
    'json-deep',
    'json-deep-object',
    'sim-zero-bytes',
  ]);
  let previous = '';
  for (const c of cases) {
    const t0 = Date.now();
    await page.getByTestId('upload').setInputFiles(asFiles(c));
    const error = page.getByTestId('upload-error');
    await expect(error, c.id).toBeVisible({ timeout: 60_000 });
    await expect(error, c.id).toContainText(c.files[0].name);
    // the message under the new file's name may still be the last file's for a moment (reported): wait for this file's
    await expect
      .poll(async () => (await error.textContent())!.replace(/\s+/g, ' ').trim(), { timeout: 60_000, message: c.id })
      .not.toBe(previous.replace(/^[^:]*/, `${c.files[0].name}`));
    const msg = (await error.textContent())!.replace(/\s+/g, ' ').trim();
    previous = msg;
    expect(msg, c.id).toMatch(c.message!);
    lines.push(`  ${c.id.padEnd(24)} ${String(Date.now() - t0).padStart(6)} ms  ${msg.slice(0, 140)}`);
    await expect(hard, c.id).toHaveAttribute('data-score', before!);
    await expect(page.getByTestId('upload'), c.id).toBeEnabled();
    await expect(page.getByTestId('dataset'), c.id).toBeEnabled();
    expect(errors, c.id).toEqual([]);
    // the next file must be a change: clear the input's value between picks
    await page.getByTestId('upload').setInputFiles([]);
  }
  expect(errors).toEqual([]);
  console.log(`broken-upload drill (similarity upload): ${cases.length} broken files, a message each, last result kept\n${lines.join('\n')}`);
});
