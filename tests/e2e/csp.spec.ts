/**
 * The production build ships a Content-Security-Policy (a <meta> tag made from public/_headers by
 * vite.config.ts) and the app runs under it: the labs open and compute with no CSP violation reported by the browser.
 * (CLIP under the policy is tests/e2e/clip.spec.ts; the dev server runs without the tag, tests/e2e/dev-server.spec.ts.)
 */
import { expect, test } from '@playwright/test';
import { contentSecurityPolicy } from '../../vite.config';

test('the build carries the CSP of public/_headers and the app works under it (no violations)', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __csp: string[] }).__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const console: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) console.push(m.text());
  });
  await page.goto('/');
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toBe(contentSecurityPolicy());
  expect(meta).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(meta).toContain('https://huggingface.co');
  expect(meta).not.toContain('frame-ancestors');
  await expect(page.getByTestId('omega')).toHaveText('90');
  await expect(page.getByTestId('orderings').locator('tr[data-label="EDGE hard"]')).toHaveCount(1);
  // a foreign script is refused: the policy is in force (and should the policy fail, the request still never leaves
  // the machine: the route answers it here)
  await page.route('https://example.org/**', (route) => route.abort());
  const blocked = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const s = document.createElement('script');
        s.src = 'https://example.org/x.js';
        s.onerror = () => resolve(true);
        s.onload = () => resolve(false);
        document.head.append(s);
      }),
  );
  expect(blocked).toBe(true);
  const violations = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  expect(violations).toEqual(['script-src-elem https://example.org/x.js']);
  expect(console.filter((c) => !c.includes('example.org'))).toEqual([]);
});
