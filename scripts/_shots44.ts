import { chromium, type Page } from '@playwright/test';
import { LESSONS, lessonLink } from '../src/core/lessons';
const BASE = 'http://127.0.0.1:4401';
const OUT = '/work/shots/44';
const which = process.argv[2] ?? 'all';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking'] });
async function ctx(width: number) {
  const c = await browser.newContext({ viewport: { width, height: 800 }, serviceWorkers: 'block' });
  const p = await c.newPage();
  p.on('pageerror', (e) => console.log('pageerror', e.message));
  return { c, p };
}
async function shot(p: Page, testid: string, name: string, open = true) {
  const v = p.getByTestId(testid).first();
  await v.scrollIntoViewIfNeeded();
  await v.screenshot({ path: `${OUT}/${name}.png` });
  if (open) {
    await v.locator('details summary').first().click();
    await v.screenshot({ path: `${OUT}/${name}-open.png` });
  }
  console.log(name, '|', await p.getByTestId(`${testid}-headline`).first().textContent());
}
async function setSeeds(p: Page, id: string, n: number) {
  const s = p.getByTestId(`${id}-seeds`);
  await s.fill(String(n));
  await s.press('Enter');
  await s.blur();
}
if (which === 'all' || which === 'landing') {
  for (const w of [1280, 390]) {
    const { c, p } = await ctx(w);
    await p.goto(BASE + '/');
    await p.getByTestId('orderings-verdict').waitFor({ timeout: 60_000 });
    await p.screenshot({ path: `${OUT}/landing-${w}.png` });
    await shot(p, 'orderings-verdict', `orderings-${w}`);
    await c.close();
  }
}
if (which === 'all' || which === 'gt') {
  for (const w of [1280, 390]) {
    const { c, p } = await ctx(w);
    await p.goto(BASE + '/');
    await p.getByRole('button', { name: 'Ground truth', exact: true }).click();
    await p.getByTestId('gt-strategy-finetune').waitFor({ timeout: 60_000 });
    for (const id of ['finetune', 'replay', 'ewc']) {
      const box = p.getByTestId(`gt-strategy-${id}`);
      if (id !== 'ewc') await box.check();
      else await box.uncheck();
    }
    await p.getByTestId('gt-epochs').fill('3');
    await p.getByTestId('gt-hidden').fill('16');
    await p.getByTestId('gt-train-per-class').fill('60');
    await p.getByTestId('gt-test-per-class').fill('20');
    await p.getByTestId('gt-backend').selectOption('wasm');
    await p.getByTestId('gt-run').click();
    // mid-run: each strategy's own verdict
    await p.getByTestId('gt-verdict-finetune').waitFor({ timeout: 120_000 });
    await p.waitForTimeout(1500);
    await p.screenshot({ path: `${OUT}/gt-midrun-${w}.png`, fullPage: false });
    await p.getByTestId('gt-verdict-replay').waitFor({ timeout: 240_000 });
    await p.locator('[data-testid="gt-verdict-replay"][data-provisional="false"]').waitFor({ timeout: 300_000 });
    await p.locator('[data-testid="gt-verdict-finetune"][data-provisional="false"]').waitFor({ timeout: 300_000 });
    await shot(p, 'gt-verdict-finetune', `gt-finetune-${w}`);
    await shot(p, 'gt-verdict-replay', `gt-replay-${w}`, false);
    await shot(p, 'gt-order-verdict', `gt-order-${w}`, false);
    await c.close();
  }
}
async function quickLab(w: number, tab: string, id: string, seeds: number, extra?: (p: Page) => Promise<void>) {
  const { c, p } = await ctx(w);
  await p.goto(BASE + '/');
  await p.getByRole('button', { name: tab, exact: true }).click();
  await p.getByTestId(`${id}-lab`).waitFor({ timeout: 60_000 });
  await p.getByTestId(`${id}-preset-quick`).click();
  if (id !== 'ow') await p.getByTestId(`${id}-backend`).selectOption('wasm');
  await setSeeds(p, id, seeds);
  if (extra) await extra(p);
  await p.getByTestId(`${id}-run`).click();
  await p.locator(`[data-testid="${id}-verdict"][data-provisional="false"]`).waitFor({ timeout: 480_000 });
  await shot(p, `${id}-verdict`, `${id}-${w}`);
  await c.close();
}
for (const w of [1280, 390]) {
  if (which === 'all' || which === 'tm') await quickLab(w, 'Time', 'tm', 3, async (p) => void (await p.getByTestId('tm-control').check()));
  if (which === 'all' || which === 'ow') await quickLab(w, 'Open world', 'ow', 3);
  if (which === 'all' || which === 'cu') await quickLab(w, 'Curriculum', 'cu', 3);
}
if (which === 'all' || which === 'fg') {
  for (const w of [1280, 390]) {
    const { c, p } = await ctx(w);
    await p.goto(BASE + '/');
    await p.getByRole('button', { name: 'Forgetting', exact: true }).click();
    await p.getByTestId('fg-run').click();
    await p.locator('[data-testid="fg-verdict"][data-provisional="false"]').waitFor({ timeout: 480_000 });
    await shot(p, 'fg-verdict', `fg-${w}`);
    await c.close();
  }
}
if (which === 'all' || which === 'lesson') {
  const l = LESSONS.find((x) => x.id === 'tomorrow')!;
  for (const w of [1280, 390]) {
    const { c, p } = await ctx(w);
    const a = lessonLink(l, '');
    await p.goto(`${BASE}/${a.search}${a.hash}`);
    await p.getByTestId('lesson-banner').waitFor();
    await p.screenshot({ path: `${OUT}/lesson-tomorrow-open-${w}.png` });
    await p.getByTestId('tm-play').or(p.getByTestId('tm-run')).first().click();
    await p.locator('[data-testid="lesson-expect"][data-status="holds"], [data-testid="lesson-expect"][data-status="fails"]').waitFor({ timeout: 300_000 });
    console.log('lesson', await p.getByTestId('lesson-check').textContent());
    await p.screenshot({ path: `${OUT}/lesson-tomorrow-done-${w}.png` });
    await p.getByTestId('lesson-control').click();
    await p.getByTestId('lesson-control-change').waitFor({ timeout: 60_000 });
    await p.screenshot({ path: `${OUT}/lesson-tomorrow-control-open-${w}.png` });
    await p.getByTestId('tm-play').or(p.getByTestId('tm-run')).first().click();
    await p.locator('[data-testid="lesson-expect"][data-status="holds"], [data-testid="lesson-expect"][data-status="fails"]').waitFor({ timeout: 300_000 });
    console.log('control', await p.getByTestId('lesson-check').textContent());
    await p.screenshot({ path: `${OUT}/lesson-tomorrow-control-done-${w}.png` });
    await c.close();
  }
}
await browser.close();
