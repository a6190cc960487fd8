/** Opening the app offline on one of its tabs, as several specs do. */
import type { Page } from '@playwright/test';

/** The app at `path` (default its start) on tab `tab`, offline: page errors and requests that left 127.0.0.1 are collected. */
export async function openTab(page: Page, tab: string, path = '/') {
  const errors: string[] = [];
  const outside: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => {
    outside.push(route.request().url());
    return route.abort();
  });
  await page.goto(path);
  await page.getByRole('navigation', { name: 'Labs' }).getByRole('button', { name: tab, exact: true }).click();
  return { errors, outside };
}
