/**
 * The Open-world lab end to end in Chromium (issue 13): the quick preset (digits 0–5 in 3 tasks, near = digits 6–9,
 * far = Fashion-MNIST; MSP, Energy, BER) runs to the end in the OOD worker; the step curves, the confidence and
 * assignment charts and the Table-1 table appear, and a click on a table cell draws the ROC curve and the score
 * histograms. Nothing leaves 127.0.0.1. Screenshot: test-results/screenshots/open-world.png.
 */
import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';

mkdirSync('test-results/screenshots', { recursive: true });

test('the quick preset runs to the end and every chart is drawn', async ({ page, context }) => {
  const outside: string[] = [];
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => {
      outside.push(route.request().url());
      return route.abort('internetdisconnected');
    },
  );
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await page.getByRole('button', { name: 'Open world', exact: true }).click();
  await page.getByTestId('ow-preset-quick').click();
  await expect(page.getByTestId('ow-dataset')).toHaveValue('digits');
  await page.getByTestId('ow-run').click();
  await expect(page.getByTestId('ow-curves')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('ow-progress')).toContainText('done', { timeout: 110_000 });
  // marks of 3 detectors and the accuracy series at 3 steps
  await expect(page.locator('[data-testid="ow-curves"] svg[role="img"] circle')).toHaveCount(12);
  // after the last step: 3 tasks and 2 OOD sets
  await expect(page.locator('[data-testid="ow-confidence"] svg[role="img"] rect')).toHaveCount(3 + 2);
  await expect(page.locator('[data-testid="ow-table"] tbody tr')).toHaveCount(3);
  await page.locator('[data-testid="ow-table"] tbody tr').first().locator('button').first().click();
  await expect(page.getByTestId('ow-roc')).toBeVisible();
  await expect(page.locator('[data-testid="ow-hist"] svg[role="img"] rect').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/open-world.png', fullPage: true });
  expect(errors).toEqual([]);
  expect(outside).toEqual([]);
});
