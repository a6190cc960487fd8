/** The presenter's layout in teaching mode, as the lesson specs check it: the header on one row, a chart above the fold. */
import { expect, type Page } from '@playwright/test';

/** Every child of the header sits on one row (their vertical centres within a few px). */
export async function headerOneRow(page: Page): Promise<void> {
  const rows = await page.locator('header.top > *').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return r.top + r.height / 2;
    }),
  );
  expect(Math.max(...rows) - Math.min(...rows), `header rows ${rows.join(', ')}`).toBeLessThan(8);
}

/** The element's top is in the window, with room below it (120 px) to see it. */
export async function aboveFold(page: Page, testid: string): Promise<void> {
  const box = await page.getByTestId(testid).first().boundingBox();
  expect(box, testid).not.toBeNull();
  expect(box!.y, `${testid} top`).toBeLessThan(page.viewportSize()!.height - 120);
}
