import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

// Every run ends with a verdict in words (docs/verdicts.md), its headline first and the numbers folded beneath. The
// default Orderings page opens on its finding (EDGE's hard and easy orderings tie there) instead of two yellow notices; a Ground-truth run shows a provisional
// verdict mid-run and the final one at the end, with the notes on fixed seeds vs random draws; a shared Ground-truth
// link opened in another browser says its runs are not stored there.
const SHOTS = 'test-results/screenshots';
mkdirSync(SHOTS, { recursive: true });

test('the default Orderings page opens on its verdict: the headline says EDGE’s picks tie, the reasons fold beneath, no notice', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // one page load for both widths: at 390 px the details are folded again and the same checks run on the phone layout
  await page.goto('/');
  const verdict = page.getByTestId('orderings-verdict');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    if (width === 390) {
      // the glossary tip of the 1280 px pass goes away (so the hover below shows it again), and the details fold
      await page.mouse.move(0, 0);
      await expect(page.getByText('The community’s usual evaluation')).toHaveCount(0);
      await verdict.getByTestId('orderings-verdict-details').locator('summary').click();
    }
    await expect(verdict).toBeVisible({ timeout: 30_000 });
    await expect(verdict.getByRole('heading', { name: 'What this shows' })).toBeVisible();
    await expect(verdict.getByTestId('orderings-verdict-headline')).toHaveText(
      "EDGE's hard and easy orderings have the same similarity S (1.5289), so on this experiment EDGE does not separate hard from easy.",
    );
    // the findings, reasons and what to try are folded beneath it: one click opens them
    await expect(verdict.locator('[data-id="edge-tie"]')).toBeHidden();
    await verdict.getByTestId('orderings-verdict-details').locator('summary').click();
    await expect(verdict.locator('[data-id="edge-tie"]')).toHaveText(
      'On this experiment EDGE cannot tell hard from easy: EDGE hard and EDGE easy both have S = 1.5289 — the S of RS seed 1993.',
    );
    await expect(verdict.locator('[data-id="median-harder"]')).toContainText('S = 1.4630) has a lower S than EDGE hard');
    await expect(verdict.locator('[data-id="few-values"]')).toContainText('only 90 orderings and 7 distinct values of S');
    await expect(verdict.locator('[data-id="task-order"]')).toContainText('With 3 tasks the middle task touches both others');
    await expect(verdict.locator('[data-id="try-larger"]')).toBeVisible();
    await expect(verdict.locator('[data-id="try-larger"]')).toContainText('all ten Fashion-MNIST classes in 5 tasks');
    await expect(verdict.locator('[data-id="gap"]')).toContainText('S = 1.4118 (hardest) and 1.5527 (easiest)');
    // no yellow notice for the EDGE tie, and the verdict comes before the table
    await expect(page.getByTestId('orderings-results').locator('p.notice')).toHaveCount(0);
    await expect(page.getByText(/is not (below|above) every RS ordering/)).toHaveCount(0);
    const v = (await verdict.boundingBox())!;
    const t = (await page.getByTestId('orderings').boundingBox())!;
    expect(v.y + v.height).toBeLessThanOrEqual(t.y);
    // a glossary term in the verdict explains itself on hover
    await verdict.locator('[data-id="edge-tie"]').getByText('RS', { exact: true }).hover();
    await expect(page.getByText('The community’s usual evaluation').first()).toBeVisible();
    await verdict.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/verdict-orderings-${width}.png` });
  }
  expect(errors).toEqual([]);
});

/**
 * Fashion-MNIST's default 6 classes in 3 tasks, finetune only, a small MLP on wasm: 90 orderings in several seconds
 * (40 epochs of 100 images per class, so that a pause lands mid-run: with the fused step and the paced page, 1 epoch
 * of 20 images finished all 90 before the test could press Pause).
 */
async function smallGroundTruth(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  await expect(page.getByTestId('gt-strategy-finetune')).toBeVisible({ timeout: 60_000 });
  // the backend first: with `auto` the lab would measure every backend on each experiment the entries pass through
  await page.getByTestId('gt-backend').selectOption('wasm');
  for (const id of ['finetune', 'replay', 'ewc']) {
    const box = page.getByTestId(`gt-strategy-${id}`);
    if (id === 'finetune') await box.check();
    else await box.uncheck();
  }
  await page.getByTestId('gt-epochs').fill('40');
  await page.getByTestId('gt-hidden').fill('16');
  await page.getByTestId('gt-train-per-class').fill('100');
  await page.getByTestId('gt-test-per-class').fill('10');
  await expect(page.getByTestId('gt-backend')).toHaveValue('wasm');
  await expect(page.getByTestId('gt-omega')).toHaveText('90', { timeout: 30_000 });
}

test('a Ground-truth run: provisional verdict mid-run (n of 90), the final verdict at the end, the two notes, and a shared link elsewhere says its runs are not stored', async ({
  page,
  browser,
}) => {
  test.setTimeout(420_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await smallGroundTruth(page);
  await expect(page.getByTestId('gt-verdict')).toHaveCount(0);
  await page.getByTestId('gt-run').click();

  // mid-run: the verdict is provisional and says n of N; pause to read it
  const verdict = page.getByTestId('gt-verdict');
  await expect(verdict).toHaveAttribute('data-provisional', 'true', { timeout: 60_000 });
  await page.getByTestId('gt-pause').click();
  await expect(page.getByTestId('gt-progress')).toContainText('paused');
  await expect(verdict.getByTestId('gt-verdict-provisional')).toHaveText('provisional');
  await expect(verdict.getByTestId('gt-verdict-partial')).toContainText(/Provisional: \d+ of 90 truth orderings of fine-tuning trained/);
  await expect(verdict.getByTestId('gt-verdict-headline')).toContainText(/over \d+ of 90 orderings so far/);
  await expect(verdict.locator('[data-id^="truth:"]')).toContainText(/So far \(\d+ of 90 orderings/);
  await verdict.screenshot({ path: `${SHOTS}/verdict-gt-partial-1280.png` });
  await page.getByTestId('gt-resume').click();

  // the end: not provisional; the sentences carry their numbers
  await expect(verdict).toHaveAttribute('data-provisional', 'false', { timeout: 180_000 });
  await expect(page.getByTestId('gt-progress')).toContainText('90 / 90');
  await expect(verdict.getByTestId('gt-verdict-provisional')).toHaveCount(0);
  await expect(verdict.getByTestId('gt-verdict-headline')).toHaveText(
    /^The class order moves fine-tuning's final accuracy from \d+\.\d% to \d+\.\d% over 90 orderings; EDGE's hard and easy picks land .+\.$/,
  );
  await verdict.getByTestId('gt-verdict-details').locator('summary').click();
  await expect(verdict.locator('[data-id="estimates:finetune"]')).toHaveText(
    /^Note In this run (EDGE’s three orderings (estimate the truth’s distribution about as well as the 3 RS orderings|came closer to the truth’s distribution than the 3 RS orderings|and the 3 RS orderings are each closer to the truth by one measure)|the 3 RS orderings came closer to the truth’s distribution than EDGE’s three orderings) \(JSD \d\.\d{3} vs \d\.\d{3} bits, W1 \d+\.\d{2} vs \d+\.\d{2} points\); one draw of each, so this does not rank the protocols/,
  );
  await expect(verdict.locator('[data-id="edge-claim:finetune"]')).toContainText(/EDGE hard scores \d+\.\d%/);
  await expect(verdict.locator('[data-id^="correlation:finetune"]')).toContainText(/R = −?\d\.\d\d, p (=|<) \d\.\d{3}, n = 90/);
  // the verdict's numbers are the table's
  const jsd = async (protocol: string) =>
    Number(
      await page
        .locator(`[data-testid="quality-table"] tr[data-strategy="finetune"][data-protocol="${protocol}"] td[data-metric="jsd"]`)
        .getAttribute('data-value'),
    );
  await expect(verdict.locator('[data-id="estimates:finetune"]')).toContainText(
    `JSD ${(await jsd('edge')).toFixed(3)} vs ${(await jsd('rs')).toFixed(3)} bits`,
  );
  // fixed seeds vs random draws, under each view
  await expect(page.getByTestId('estimates-note')).toContainText('RS here means the 3 fixed seeds (0, 42, 1993)');
  await expect(page.getByTestId('sample-count-note')).toContainText('averages over random draws');
  await verdict.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/verdict-gt-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await verdict.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/verdict-gt-390.png` });
  await page.getByTestId('estimates-note').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/verdict-gt-notes-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  // share: in this browser the runs are stored (no notice) …
  await page.getByTestId('share').click();
  await page.waitForTimeout(700);
  const link = page.url();
  expect(link).toContain('#');
  const same = await page.context().newPage();
  same.on('pageerror', (e) => errors.push(e.message));
  await same.goto(link);
  await expect(same.getByTestId('gt-stored')).toHaveText('90', { timeout: 30_000 });
  await expect(same.getByTestId('gt-verdict')).toHaveAttribute('data-provisional', 'false');
  await expect(same.getByTestId('gt-link-notice')).toHaveCount(0);
  // … in another browser (a fresh profile) they are not, and the page says so (one load, looked at at both widths)
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  const fresh = await other.newPage();
  fresh.on('pageerror', (e) => errors.push(e.message));
  await fresh.goto(link);
  for (const width of [1280, 390]) {
    await fresh.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await expect(fresh.getByTestId('gt-link-notice')).toContainText(
      'This link’s runs are not stored in this browser yet: press Run ▶ to train its 90 orderings',
      { timeout: 30_000 },
    );
    await expect(fresh.getByTestId('gt-stored')).toHaveText('0');
    await expect(fresh.getByTestId('gt-verdict')).toHaveCount(0);
    await fresh.getByTestId('gt-link-notice').scrollIntoViewIfNeeded();
    await fresh.screenshot({ path: `${SHOTS}/verdict-gt-link-${width}.png` });
  }
  await other.close();
  expect(errors).toEqual([]);
});
