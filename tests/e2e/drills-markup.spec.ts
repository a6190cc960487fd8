/**
 * Drill: markup payloads on every tab and in every export → nothing runs. Six custom class names are
 * payloads (an <img onerror>, an <svg onload>, a closing quote and <script>, a javascript: URL, spreadsheet formulas),
 * with an uploaded 6×6 similarity matrix so the Orderings lab computes with them; the experiment then opens every
 * tab (Orderings, Data, Ground truth, Forgetting, Time, Open world, Curriculum) through its share link. On the Data
 * page a zip whose class folders are payloads is uploaded; in the Ground truth lab a results file whose method names
 * are payloads is read by the import dialog and imported (the lab is switched to Digits with WordNet first: runs can
 * only be stored for an experiment with images and WordNet similarity, so the import button is disabled for the
 * names-only payload experiment). Every item of every chart ⤓ menu (SVG, PNG, CSV: each one downloads a file) of
 * the Orderings lab, of the Data page's sample grid (payload folder names as labels) and of the Ground truth lab
 * (the imported payload methods) is triggered and its file read; every format of Export orderings is read and
 * downloaded.
 * Checks: window.__pwned stays undefined, no markup a payload would leave if rendered as HTML (an on…= attribute, a
 * javascript: URL, a <script> in the body) on any tab, no dialog opens, no page error; the exported CSV cells that start with
 * = + - @ are guarded (a leading '), the exported SVGs hold no <script>, no on…= attribute and no javascript: URL.
 * Prints the counts. An action whose element never becomes actionable fails after 30 s (actionTimeout) instead of
 * hanging until the test's timeout.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { solidPng } from '../unit/drills/broken-upload-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

const PAYLOADS = [
  '<img src=x onerror=window.__pwned=1>',
  '<svg onload=window.__pwned=2>',
  '"><script>window.__pwned=3</script>',
  'javascript:window.__pwned=4',
  '=HYPERLINK("http://example.invalid","x")',
  '+SUM(1;2)@-cmd',
];
/** What each item of a chart's ⤓ menu (src/ui/common/ChartExport.svelte, data-testid export-<id>) downloads: every item is a file. */
const CHART_ITEM_EXT: Record<string, string> = { 'export-svg': '.svg', 'export-png': '.png', 'export-csv': '.csv' };
const TABS = ['Orderings', 'Data', 'Ground truth', 'Forgetting', 'Time', 'Open world', 'Curriculum'];

function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.type()} ${d.message()}`);
    void d.dismiss();
  });
  return problems;
}

async function pwned(page: Page): Promise<unknown> {
  return page.evaluate(() => window.__pwned);
}

/**
 * Markup a payload would have left in the page had it been rendered as HTML, on every tab (the hidden ones stay
 * mounted): an element with an on…= attribute, a javascript: URL, a <script> in the body. Read at once: an injected
 * <img src=x onerror> is found before its image fails to load, so no wait for its handler is needed.
 */
async function injectedMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll('*'))
      for (const a of el.attributes) {
        if (/^on/i.test(a.name)) out.push(`<${el.tagName.toLowerCase()} ${a.name}>`);
        if (/^(href|src|action|formaction|xlink:href)$/i.test(a.name) && /^\s*javascript:/i.test(a.value))
          out.push(`<${el.tagName.toLowerCase()} ${a.name}=javascript:>`);
      }
    for (const el of document.body.querySelectorAll('script')) out.push(`<script>${(el.textContent ?? '').slice(0, 40)}`);
    return out;
  });
}

/** CSV text → the cells that a spreadsheet would run as a formula (start with = + - @ after an optional quote), unguarded. */
function unguardedFormulas(csv: string): string[] {
  const bad: string[] = [];
  for (const line of csv.split(/\r?\n/)) {
    for (const raw of line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
      const cell = raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw;
      if (/^[=+@]/.test(cell) || (/^-/.test(cell) && !/^-?\d*\.?\d+(e[-+]?\d+)?$/i.test(cell))) bad.push(cell);
    }
  }
  return bad;
}

interface Figures {
  tabs: number;
  chartExports: number;
  csvFiles: number;
  svgFiles: number;
  orderingFormats: number;
  guardedCells: number;
}

function svgProblems(svg: string): string[] {
  const out: string[] = [];
  if (/<script/i.test(svg)) out.push('<script>');
  const on = svg.match(/<[^>]*\son[a-z]+\s*=/gi);
  if (on) out.push(...on.map((m) => m.slice(0, 80)));
  if (/(?:href|src)\s*=\s*["']?\s*javascript:/i.test(svg)) out.push('javascript: URL');
  if (/<foreignObject/i.test(svg)) out.push('<foreignObject>');
  return out;
}

/** Every item of every chart ⤓ menu of the lab on screen (the other labs stay mounted, hidden): each downloads a file, read and checked. Returns the number of menus. */
async function exportEveryChart(page: Page, figures: Figures): Promise<number> {
  const charts = page.getByTestId('chart-export').locator('visible=true');
  const nMenus = await charts.count();
  for (let m = 0; m < nMenus; m++) {
    const chart = charts.nth(m);
    const trigger = chart.getByTestId('chart-export-button');
    const menu = chart.getByRole('menu');
    await trigger.click();
    const ids = await menu.getByRole('menuitem').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
    expect(ids.length, `items of ⤓ menu ${m}`).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    for (const id of ids) {
      const ext = CHART_ITEM_EXT[id];
      expect(ext, `${id}: an item this drill does not know (add what it exports to CHART_ITEM_EXT)`).toBeDefined();
      await trigger.click();
      const [d] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), menu.getByTestId(id).click()]);
      figures.chartExports++;
      const name = d.suggestedFilename();
      expect(name, id).toMatch(new RegExp(`\\${ext}$`));
      const bytes = readFileSync((await d.path())!);
      if (ext === '.png') expect(bytes.subarray(0, 8).toString('hex'), name).toBe('89504e470d0a1a0a');
      if (ext === '.csv') {
        const text = bytes.toString('utf8');
        figures.csvFiles++;
        expect(unguardedFormulas(text), name).toEqual([]);
        figures.guardedCells += (text.match(/(^|,)"?'[=+\-@]/gm) ?? []).length;
      }
      if (ext === '.svg') {
        figures.svgFiles++;
        expect(svgProblems(bytes.toString('utf8')), name).toEqual([]);
      }
      // a finished export closes its menu and shows no error
      await expect(menu, name).toHaveCount(0);
      await expect(chart.getByRole('alert'), name).toHaveCount(0);
      expect(await pwned(page), name).toBeUndefined();
    }
  }
  return nMenus;
}

// a locator that never becomes actionable (a disabled button, a missing element) fails fast with its name, not after 600 s
test.use({ actionTimeout: 30_000 });

test('markup payloads in class names, folder names and method names: nothing runs, exports are inert', async ({ page }) => {
  test.setTimeout(600_000);
  const problems = watch(page);
  const figures: Figures = { tabs: 0, chartExports: 0, csvFiles: 0, svgFiles: 0, orderingFormats: 0, guardedCells: 0 };

  // ── Orderings lab: payload class names + an uploaded matrix ──
  await page.goto('/');
  await page.getByTestId('dataset').selectOption('custom');
  await page.getByTestId('custom-classes').fill(PAYLOADS.join('\n'));
  await page.getByLabel('Upload matrix or embeddings').check();
  // sim6.json's matrix under the payload names (its min S over the 90 orderings, numpy brute force: −0.3504883786800)
  const sim6 = JSON.parse(readFileSync('tests/fixtures/cli/sim6.json', 'utf8')) as { matrix: number[][] };
  await page.getByTestId('upload').setInputFiles([
    {
      name: '<img src=x onerror=window.__pwned=9>.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ classes: PAYLOADS, matrix: sim6.matrix })),
    },
  ]);
  await expect(page.locator('tr[data-label="Exact hard (min S)"] td[data-score]')).toHaveAttribute('data-score', /^-0\.35/, { timeout: 60_000 });
  for (const p of PAYLOADS.slice(0, 3)) await expect(page.getByText(p, { exact: false }).first()).toBeAttached(); // shown as text
  expect(await pwned(page)).toBeUndefined();

  // every chart's ⤓ menu, every item: each one downloads a file (SVG, PNG, CSV), read and checked
  expect(await exportEveryChart(page, figures), 'chart ⤓ menus in the Orderings lab').toBeGreaterThan(0);

  // every format of Export orderings: the text shown, and the file downloaded (the same text)
  await page.getByTestId('orderings-export-button').click();
  const formats = await page.locator('[data-testid^="orderings-export-format-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
  expect(formats.length, 'Export orderings formats').toBeGreaterThan(0);
  for (const f of formats) {
    await page.getByTestId(f).click();
    await expect(page.getByTestId(f)).toHaveAttribute('aria-pressed', 'true');
    const text = await page.getByTestId('orderings-export-text').inputValue();
    const [d] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('orderings-export-download').click()]);
    const file = readFileSync((await d.path())!, 'utf8');
    expect(file, `${f}: ${d.suggestedFilename()}`).toBe(`${text}\n`);
    figures.orderingFormats++;
    if (f.endsWith('-csv')) {
      expect(unguardedFormulas(file), f).toEqual([]);
      figures.guardedCells += (file.match(/(^|,)"?'[=+\-@]/gm) ?? []).length;
    }
    if (d.suggestedFilename().endsWith('.svg')) expect(svgProblems(file), f).toEqual([]);
    // the names are data here (a textarea's value, a file's text): present verbatim, inert
  }
  expect(await pwned(page)).toBeUndefined();

  // ── every tab with this experiment (the share link carries the class names) ──
  const nav = page.getByRole('navigation', { name: 'Labs' });
  for (const tab of TABS) {
    const button = nav.getByRole('button', { name: tab, exact: true });
    await button.click();
    await expect(button, tab).toHaveClass(/active/);
    await expect(page.locator('main > div:not([hidden])'), tab).toBeVisible();
    figures.tabs++;
    expect(await injectedMarkup(page), tab).toEqual([]);
    expect(await pwned(page), tab).toBeUndefined();
  }

  // ── Data page: a zip whose class folders are payloads (folder names cannot hold '/') ──
  await nav.getByRole('button', { name: 'Data', exact: true }).click();
  const png = solidPng();
  const folders = ['<img src=x onerror=window.__pwned=5>', '"><svg onload=window.__pwned=6>', '=HYPERLINK("x")'];
  await page.locator('input[type=file][multiple][data-testid="upload"]').setInputFiles([
    {
      name: '<img src=x onerror=window.__pwned=7>.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from(zipSync(Object.fromEntries(folders.map((f, i) => [`${f}/${i}.png`, png])))),
    },
  ]);
  await expect(page.getByTestId('grid-row')).toHaveCount(3, { timeout: 60_000 });
  await expect(page.getByTestId('grid-row').first()).toContainText('"><svg onload');
  expect(await pwned(page)).toBeUndefined();
  // the sample grid's ⤓ (a PNG drawn with the payload folder names as labels)
  expect(await exportEveryChart(page, figures), 'chart ⤓ menus on the Data page').toBeGreaterThan(0);

  // ── Ground truth: a results file whose method names are payloads, read by the import dialog and imported ──
  // runs are stored per experiment with images and WordNet similarity: the names-only payload experiment keeps the
  // import button disabled (by design), so the lab is switched to Digits (6 classes, the 3 tasks of 2 kept) and WordNet
  await nav.getByRole('button', { name: 'Ground truth', exact: true }).click();
  await page.getByTestId('gt-dataset').selectOption('digits');
  await page.getByTestId('gt-use-wordnet').click();
  const open = page.getByTestId('gt-import-open');
  await expect(open).toBeEnabled({ timeout: 60_000 });
  await open.click();
  const csv = [
    'method,order,final_accuracy',
    ...PAYLOADS.map((p, i) => `"${p.replace(/"/g, '""')}","${[0, 1, 2, 3, 4, 5].map((k) => (k + i) % 6).join(' ')}",0.${50 + i}`),
  ].join('\n');
  await page
    .getByTestId('gt-import-file')
    .setInputFiles([{ name: '"><img src=x onerror=window.__pwned=8>.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }]);
  const summary = page.getByTestId('gt-import-summary');
  await expect(summary).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('gt-import-counts')).toContainText(`${PAYLOADS.length} to import`);
  for (const p of PAYLOADS) await expect(summary, p).toContainText(p); // the method names, shown as text
  expect(await pwned(page)).toBeUndefined();
  await page.getByTestId('gt-import-confirm').click();
  await expect(page.getByTestId('gt-import-done')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('gt-import-finish').click();
  await expect(page.getByTestId('gt-imported')).toHaveText(String(PAYLOADS.length), { timeout: 30_000 });
  // the lab's charts with the imported runs (the method names in their legends and CSVs): every ⤓ item
  await expect(page.getByTestId('chart-export').locator('visible=true').first()).toBeVisible({ timeout: 30_000 });
  expect(await exportEveryChart(page, figures), 'chart ⤓ menus in the Ground truth lab').toBeGreaterThan(0);

  expect(await injectedMarkup(page)).toEqual([]);
  expect(await pwned(page)).toBeUndefined();
  expect(problems).toEqual([]);
  console.log(
    `markup drill: ${PAYLOADS.length} payloads in class names, ${folders.length} in zip folder names, ${PAYLOADS.length} in method names; ${figures.tabs} tabs visited, ` +
      `${figures.chartExports} chart exports (${figures.csvFiles} CSV, ${figures.svgFiles} SVG files read), ${figures.orderingFormats} ordering export formats; ` +
      `${figures.guardedCells} formula cells guarded; window.__pwned undefined, 0 dialogs, 0 page errors`,
  );
});
