/**
 * A spec's harness page (tests/e2e/harness/train.html): built and served once for the spec's tests
 * (serve-harness.mjs), and `open(page)` to load it and wait for `window.harness`, collecting page errors.
 */
import { test, type Page } from '@playwright/test';
import { buildHarness, serveHarness } from './serve-harness.mjs';

export function useHarness(): { open(page: Page): Promise<string[]> } {
  let server: { url: string; close: () => Promise<void> } | null = null;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await serveHarness(await buildHarness());
  });
  test.afterAll(async () => {
    await server?.close();
  });
  return {
    async open(page) {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(server!.url);
      await page.waitForFunction(() => document.body.dataset.ready === 'true');
      return errors;
    },
  };
}
