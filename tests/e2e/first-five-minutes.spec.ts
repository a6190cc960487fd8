/**
 * The first five minutes, in Chromium, offline, at 1280×800 and at 390 px (a phone, with touch):
 * - the first screen: the question the app answers is in view without scrolling; the labs' questions open their tabs;
 *   "Hide" folds them away and the choice survives a reload;
 * - a lab's paper: the "Paper & formulas" panel names the paper and the docs/science.md section, Esc closes it;
 * - the glossary drawer opens, searches ("omega" finds Ω) and closes with Esc;
 * - a term explains itself on hover (1280) and on tap (390), and a second tap hides it;
 * - one lesson end to end: opened from the gallery, it loads its link (`?lesson=one-seed`) on the Ground-truth tab with
 *   its experiment (digits, 90 orderings) in teaching mode, shows its text, its question and "What you should see"
 *   (not run yet) in the banner, and Step trains one ordering, after which the RS marks on its chart carry their labels;
 *   at 1280 the header is on one row and the chart above the fold (the presenter's layout, as tests/e2e/lessons.spec.ts
 *   checks it on the other lessons);
 * - no page errors anywhere.
 * Screenshots: test-results/first-five-minutes/*.png, and the lesson's test-results/lessons/one-seed-*.png.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { PURPOSE } from '../../src/shell/intro';
import { LESSONS, lessonById, lessonLink } from '../../src/core/lessons';
import { labEntry } from '../../src/core/labs';
import { aboveFold, headerOneRow } from './harness/presenter-layout';

const SHOTS = 'test-results/first-five-minutes';
mkdirSync(SHOTS, { recursive: true });
// the Ground-truth lesson's shots sit beside the other lessons' (tests/e2e/lessons.spec.ts)
const LESSON_SHOTS = 'test-results/lessons';
mkdirSync(LESSON_SHOTS, { recursive: true });

/** Tests never touch the network: anything not served by the app's own preview server is refused. */
async function offline(context: BrowserContext): Promise<void> {
  await context.route('**/*', (route) => {
    const host = new URL(route.request().url()).hostname;
    return host === '127.0.0.1' || host === 'localhost' ? route.continue() : route.abort();
  });
}

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

/** The element is inside the viewport (not below the fold). */
async function inView(page: Page, testid: string): Promise<void> {
  const box = await page.getByTestId(testid).boundingBox();
  const vp = page.viewportSize()!;
  expect(box, testid).not.toBeNull();
  expect(box!.y, `${testid} top`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${testid} bottom`).toBeLessThanOrEqual(vp.height);
}

const activeTab = (page: Page) => page.locator('nav[aria-label="Labs"] button.active');

for (const size of [
  { name: '1280', width: 1280, height: 800, touch: false },
  { name: '390', width: 390, height: 844, touch: true },
]) {
  test.describe(`at ${size.name} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, hasTouch: size.touch, isMobile: size.touch });

    test('the first screen: purpose in view, labs as questions, a paper, the glossary and a term', async ({ page, context }) => {
      await offline(context);
      const errors = watchErrors(page);
      await page.goto('/');
      await expect(page.getByTestId('purpose')).toContainText(PURPOSE);
      await inView(page, 'purpose');
      await page.screenshot({ path: `${SHOTS}/first-screen-${size.name}.png` });

      // the labs' questions: open on a wide screen, folded on a phone
      if (size.touch) {
        await expect(page.getByTestId('intro-lab-ground-truth')).toBeHidden();
        await page.getByTestId('intro-toggle').click();
      }
      await expect(page.getByTestId('intro-lab-orderings')).toContainText('Which class orders are easiest and hardest');
      for (const id of ['ground-truth', 'forgetting', 'time', 'open-world', 'curriculum']) await expect(page.getByTestId(`intro-lab-${id}`)).toBeVisible();
      await page.getByTestId('intro-lab-ground-truth').click();
      await expect(activeTab(page)).toHaveText('Ground truth');
      await page.getByTestId('intro-lab-orderings').click();
      await expect(activeTab(page)).toHaveText('Orderings');

      // the Orderings lab's paper, and its formulas
      const cite = page.getByTestId('paper-cite-orderings');
      await expect(cite).toContainText('The Lie of the Average');
      await expect(cite).toContainText('2025');
      await cite.getByTestId('paper-open').click();
      const panel = cite.getByRole('region', { name: /EDGE paper and formulas/ });
      await expect(panel).toContainText('ICLR 2026');
      await expect(panel).toContainText('S(O) = K / ((K−1)·N)');
      await expect(panel).toContainText('docs/science.md §1');
      await page.screenshot({ path: `${SHOTS}/paper-${size.name}.png` });
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();

      // the glossary drawer: opens, searches, closes with Esc
      await page.getByTestId('glossary-open').click();
      const drawer = page.getByTestId('glossary');
      await expect(drawer).toBeVisible();
      const all = await drawer.locator('.entry').count();
      expect(all).toBeGreaterThan(40);
      await page.getByTestId('glossary-search').fill('omega');
      await expect(drawer.locator('.entry[data-term="omega"]')).toBeVisible();
      await expect(drawer.locator('.entry')).not.toHaveCount(all);
      await page.getByTestId('glossary-search').fill('jsd');
      await expect(drawer.locator('.entry').first()).toHaveAttribute('data-term', 'jsd');
      await page.screenshot({ path: `${SHOTS}/glossary-${size.name}.png` });
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();

      // a term explains itself: hover on a wide screen, tap on a phone (a second tap hides it)
      const term = page.getByTestId('orderings-controls').locator('.term[data-term="rs"]').last();
      await term.scrollIntoViewIfNeeded();
      const tip = page.locator('.term-tip');
      if (size.touch) {
        await term.tap();
        await expect(tip).toBeVisible();
        await expect(tip).toContainText('random seeds');
        await expect(term).toHaveAttribute('aria-describedby', (await tip.getAttribute('id'))!);
        await page.screenshot({ path: `${SHOTS}/term-${size.name}.png` });
        await term.tap();
        await expect(tip).toBeHidden();
      } else {
        await term.hover();
        await expect(tip).toBeVisible();
        await expect(tip).toContainText('random seeds');
        await page.screenshot({ path: `${SHOTS}/term-${size.name}.png` });
        await page.mouse.move(5, 790);
        await expect(tip).toBeHidden();
        // and from the keyboard: focus shows it, Esc hides it
        await term.focus();
        await expect(tip).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(tip).toBeHidden();
      }
      // the label's own text is untouched by the explanation (it lives outside the term)
      await expect(term).toHaveText('RS');

      // Hide folds the questions away, and a reload remembers it; the purpose stays
      if (!size.touch) {
        await page.getByTestId('intro-toggle').click();
        await expect(page.getByTestId('intro-lab-orderings')).toBeHidden();
        await page.reload();
        await expect(page.getByTestId('purpose')).toBeVisible();
        await expect(page.getByTestId('intro-lab-orderings')).toBeHidden();
        await inView(page, 'purpose');
      }
      expect(errors).toEqual([]);
    });

    test('a lesson end to end: from the gallery to its question, in teaching mode, one Step', async ({ page, context }) => {
      test.setTimeout(180_000);
      await offline(context);
      const errors = watchErrors(page);
      const lesson = lessonById('one-seed')!;
      await page.goto('/');
      await page.getByTestId(size.touch ? 'intro-lessons' : 'lessons-open').click();
      const gallery = page.getByTestId('lessons');
      await expect(gallery).toBeVisible();
      await expect(gallery.locator('.card')).toHaveCount(LESSONS.length);
      await page.screenshot({ path: `${SHOTS}/gallery-${size.name}.png` });
      await page.getByTestId('lesson-open-one-seed').click();

      // the lesson's link, loaded afresh: its tab, its experiment, teaching mode, its texts
      await expect(page).toHaveURL(/\?lesson=one-seed#v1\./);
      await expect(activeTab(page)).toHaveText('Ground truth');
      await expect(page.getByTestId('teaching-toggle')).toHaveAttribute('aria-pressed', 'true');
      const banner = page.getByTestId('lesson-banner');
      await expect(banner.getByTestId('lesson-title-shown')).toHaveText(lesson.title);
      await expect(banner.getByTestId('lesson-question-shown')).toContainText(lesson.question);
      await expect(page.getByTestId('gt-dataset')).toHaveValue('digits');
      // "what you should see", before the run
      await expect(page.getByTestId('lesson-expect')).toContainText("The order alone moves replay's accuracy");
      await expect(page.getByTestId('lesson-check')).toContainText('Not run yet');
      await expect(page.getByTestId('gt-omega')).toHaveText('90', { timeout: 30_000 });

      // Step trains exactly one ordering, then pauses
      const step = page.getByTestId('gt-step');
      await expect(step).toBeEnabled({ timeout: 60_000 });
      await step.click();
      const readout = page.getByTestId('gt-ordering-readout');
      await expect(readout).toHaveAttribute('data-done', '1', { timeout: 90_000 });
      await expect(readout).toHaveAttribute('data-total', '90');
      await expect(banner.getByTestId('lesson-question-shown')).toBeVisible();
      // the marks the lesson talks about carry their labels on the chart
      await expect(page.getByTestId('accuracy-histogram').locator('text.mark-label').first()).toBeVisible({ timeout: 60_000 });
      await page.screenshot({ path: `${SHOTS}/lesson-${size.name}.png` });
      await page.screenshot({ path: `${LESSON_SHOTS}/one-seed-${size.name}.png` });
      // the presenter's layout (tests/e2e/lessons.spec.ts checks it on the other lessons): the header on one row, the
      // lesson's chart above the fold
      if (!size.touch) {
        await headerOneRow(page);
        await aboveFold(page, 'accuracy-histogram');
      }

      // Close lesson: the banner goes, the experiment stays
      await page.getByTestId('lesson-close').click();
      await expect(banner).toBeHidden();
      await expect(page).not.toHaveURL(/lesson=/);
      await expect(activeTab(page)).toHaveText('Ground truth');
      expect(errors).toEqual([]);
    });
  });
}

test("a teacher's own lesson: saved from the current experiment, listed, and its link opens with its texts", async ({ page, context }) => {
  await offline(context);
  const errors = watchErrors(page);
  await page.goto('/');
  await page.getByTestId('lessons-open').click();
  await page.getByTestId('lesson-new').click();
  await page.getByTestId('lesson-title').fill('Six classes, three tasks');
  await page.getByTestId('lesson-text').fill('Look at the heat map. Then at the table.');
  await page.getByTestId('lesson-question').fill('Which ordering has the lowest S?');
  await page.getByTestId('lesson-save').click();
  const mine = page.getByTestId('my-lessons');
  await expect(mine).toContainText('Six classes, three tasks');
  // it is remembered across a reload
  await page.reload();
  await page.getByTestId('lessons-open').click();
  await expect(page.getByTestId('my-lessons')).toContainText('Six classes, three tasks');
  await page.getByTestId('my-lessons').getByRole('button', { name: 'Open' }).click();
  await expect(page).toHaveURL(/\?lesson=u\.[A-Za-z0-9_-]+#v1\./);
  await expect(page.getByTestId('lesson-question-shown')).toContainText('Which ordering has the lowest S?');
  await expect(page.getByTestId('teaching-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(activeTab(page)).toHaveText('Orderings');
  expect(errors).toEqual([]);
});

test('every built-in lesson opens its own tab in teaching mode, with its question, and no page error', async ({ page, context }) => {
  await offline(context);
  const errors = watchErrors(page);
  for (const lesson of LESSONS) {
    const { search, hash } = lessonLink(lesson);
    await page.goto(`/${search}${hash}`);
    // the tab's name as the lab registry gives it
    await expect(activeTab(page), lesson.id).toHaveText(labEntry(lesson.lab).name);
    await expect(page.getByTestId('lesson-question-shown')).toContainText(lesson.question);
    await expect(page.getByTestId('teaching-toggle')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId(`paper-cite-${lesson.lab}`)).toBeVisible();
  }
  // the Orderings lesson's experiment: CIFAR-10 in 5 tasks of 2 (|Ω| = 113 400)
  const orderings = lessonLink(lessonById('similar-classes')!);
  await page.goto(`/${orderings.search}${orderings.hash}`);
  await expect(page.getByTestId('calc-omega')).toHaveAttribute('data-exact', '113400', { timeout: 30_000 });
  expect(errors).toEqual([]);
});
