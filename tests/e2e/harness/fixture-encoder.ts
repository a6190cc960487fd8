/** The Data tab's image encoder on a tiny self-hosted fixture (/models/cil-lab/<model>), as several specs drive it. */
import { expect, type Page } from '@playwright/test';

/** The encoder settings set to the fixture `model` on wasm (the settings box opened first unless it already is). */
export async function useFixtureEncoder(page: Page, model = 'clip-vision-tiny', opts: { open?: boolean } = {}): Promise<void> {
  if (opts.open !== false) await page.getByTestId('encoder-box').locator('summary').click();
  await page.getByTestId('encoder-weights').selectOption('self-hosted');
  await page.getByTestId('encoder-folder').fill('/models/cil-lab/');
  await page.getByTestId('encoder-folder').dispatchEvent('change');
  await page.getByTestId('encoder-model').fill(model);
  await page.getByTestId('encoder-model').dispatchEvent('change');
  await page.getByTestId('encoder-device').selectOption('wasm');
}

/** The button says the size first, then extracts; "Train on these" puts the cached features into the experiment. */
export async function extractAndTrainOn(page: Page): Promise<void> {
  const row = page.getByTestId('source-encoder');
  await expect(row.getByTestId('source-state')).toHaveText(/not computed/, { timeout: 60_000 });
  await page.getByTestId('encoder-run').click();
  await expect(page.getByTestId('encoder-run')).toHaveText(/Download \d+\.\d\d MB and extract features/, { timeout: 30_000 });
  await page.getByTestId('encoder-run').click();
  await expect(row.getByTestId('source-state')).toHaveText(/cached · /, { timeout: 150_000 });
  await row.getByTestId('source-use').click();
  await expect(row.getByTestId('source-in-use')).toBeVisible();
}
