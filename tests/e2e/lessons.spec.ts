/**
 * Lessons in teaching mode, as a teacher preparing a demo would use them, in Chromium, offline:
 * - the Orderings lesson (Similar classes, instant) opens from its link at 1280×800 and 390×844: teaching mode on, the
 *   header on one row at 1280 and its Lessons button visible on the phone, "What you should see" shown and its
 *   finding checked and seen, the lesson's chart above the fold at 1280; the Ground-truth lesson (Is one seed
 *   enough?) gets the same checks, and its RS marks labelled after one Step, in tests/e2e/first-five-minutes.spec.ts
 *   (its lesson end to end opens it and Steps it at both sizes); the prototype lesson plays to its finding
 *   with its methods table above the fold at 1280 (the verdicts folded to their headlines) and the normality
 *   table within the phone's width; "Teach it three things, then a fourth" (Your classes) imports its recorded sample set
 *   (tests/fixtures/own-classes/four-things.zip) on the tiny CLIP vision fixture and sees its finding once SimpleCIL
 *   has run after fine-tuning;
 * - on one page of the Orderings lesson at 1280×800 (its orderings computed once): "Run its control" opens the one
 *   change, where the finding is not seen, and back; the handout, printed to PDF, and its QR code (rendered for print)
 *   decodes to the lesson's link (jsQR in the page); a teacher saves a lesson in teaching mode: the Lessons dialog
 *   fits the window, its save form is reached by scrolling the dialog (the page behind stays put), a finding is
 *   picked from the templates, and the saved lesson's link opens with its title, question and finding;
 * - a lesson's panel folds its settings to one closed line (Forgetting, Ground truth).
 * Screenshots: test-results/lessons/*.png.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { validateConfig } from '../../src/core/config/schema';
import { encodeConfigToHash } from '../../src/core/config/url-codec';
import { lessonById, lessonConfig, lessonLink } from '../../src/core/lessons';
import { decodeQrSvg } from './harness/page-probes';
import { aboveFold, headerOneRow } from './harness/presenter-layout';

const SHOTS = 'test-results/lessons';
mkdirSync(SHOTS, { recursive: true });

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

const urlOf = (id: string) => {
  const { search, hash } = lessonLink(lessonById(id)!);
  return `/${search}${hash}`;
};

for (const size of [
  { name: '1280', width: 1280, height: 800, touch: false },
  { name: '390', width: 390, height: 844, touch: true },
]) {
  test.describe(`at ${size.name}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, hasTouch: size.touch, isMobile: size.touch });

    test('the Orderings lesson in teaching mode: what to see, checked; its chart above the fold', async ({ page, context }) => {
      test.setTimeout(120_000);
      await offline(context);
      const errors = watchErrors(page);

      // Orderings: no training, so its finding is checked as soon as the orderings are computed
      await page.goto(urlOf('similar-classes'));
      await expect(page.getByTestId('teaching-toggle')).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByTestId('lessons-open')).toBeVisible();
      const expectBox = page.getByTestId('lesson-expect');
      await expect(expectBox).toContainText('EDGE hard puts cat and dog in the same task');
      await expect(expectBox).toHaveAttribute('data-status', 'holds', { timeout: 60_000 });
      await expect(page.getByTestId('lesson-check')).toContainText('Seen in this run');
      await page.screenshot({ path: `${SHOTS}/similar-classes-${size.name}.png` });
      if (size.width >= 1280) {
        await headerOneRow(page);
        await aboveFold(page, 'similarity-heatmap');
      }
      // long ordering labels keep their colour square beside them (phone): in every row of the orderings table the
      // label starts on the square's line, to its right, not on a line of its own below it
      const rows = await page.locator('[data-testid="orderings-results"] tr[data-label] th').evaluateAll((els) =>
        els.map((th) => {
          const mark = th.querySelector('.mark')!.getBoundingClientRect();
          const label = th.querySelector('button.show')!.getBoundingClientRect();
          return { besideIt: label.left >= mark.right - 1, sameLine: label.top < mark.bottom };
        }),
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r).toEqual({ besideIt: true, sameLine: true });
      await page.screenshot({ path: `${SHOTS}/similar-classes-${size.name}.png` });

      expect(errors).toEqual([]);
    });

    test('the prototype lesson plays to its finding; its methods table above the fold, the normality table within a phone', async ({ page, context }) => {
      test.setTimeout(150_000);
      await offline(context);
      const errors = watchErrors(page);
      await page.goto(urlOf('prototypes-order'));
      await expect(page.getByTestId('lesson-check')).toContainText('Not run yet', { timeout: 30_000 });
      const play = page.getByTestId('gt-play');
      await expect(play).toBeEnabled({ timeout: 60_000 });
      await play.click();
      await expect(page.getByTestId('lesson-expect')).toHaveAttribute('data-status', 'holds', { timeout: 120_000 });
      // the banner says what to look at: the lab's verdicts show their headline, the rest folded
      await expect(page.getByTestId('gt-order-verdict-headline')).toBeVisible();
      await expect(page.getByTestId('gt-order-verdict').locator('.findings li').first()).toBeHidden();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/prototypes-order-${size.name}.png` });
      if (size.width >= 1280) {
        await headerOneRow(page);
        await aboveFold(page, 'gt-order-table');
      } else {
        // not cut off: the table fits the phone, or its box (within the phone) scrolls sideways to the rest
        const fit = await page.getByTestId('normality-table').evaluate((t) => {
          const wrap = t.parentElement!;
          const r = wrap.getBoundingClientRect();
          return { right: r.right, fits: wrap.scrollWidth <= wrap.clientWidth, scrolls: ['auto', 'scroll'].includes(getComputedStyle(wrap).overflowX) };
        });
        expect(fit.right, 'the normality table’s box').toBeLessThanOrEqual(size.width);
        expect(fit.fits || fit.scrolls, 'the normality table fits or scrolls').toBe(true);
      }
      expect(errors).toEqual([]);
    });

    test('teach it three things, then a fourth: the recorded sample set imported, fine-tuning forgets, SimpleCIL does not', async ({ page, context }) => {
      test.setTimeout(120_000);
      await offline(context);
      const errors = watchErrors(page);
      // the lesson's link with the tiny CLIP vision fixture (self-hosted) in place of the lesson's CLIP: no network
      const lesson = lessonById('three-then-four')!;
      const { search } = lessonLink(lesson);
      const config = lessonConfig(lesson);
      const fixture = validateConfig({
        ...config,
        backend: { ...config.backend, train: 'wasm' },
        ownClasses: {
          ...config.ownClasses,
          encoder: { source: 'encoder', model: 'clip-vision-tiny', precision: 'fp32', weights: { kind: 'self-hosted', path: '/models/cil-lab/' } },
        },
      });
      expect(fixture.errors).toEqual([]);
      await page.goto(`/${search}${encodeConfigToHash(fixture.config)}`);
      await expect(page.getByTestId('lesson-title-shown')).toHaveText(lesson.title);
      await expect(page.getByTestId('teaching-toggle')).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByTestId('lesson-expect')).toContainText('an earlier class loses 20 points or more');
      await expect(page.getByTestId('lesson-check')).toContainText('Not run yet', { timeout: 30_000 });
      await page.getByTestId('oc-import').setInputFiles('tests/fixtures/own-classes/four-things.zip');
      await expect(page.getByTestId('oc-import-note')).toHaveText('Imported 4 classes.', { timeout: 30_000 });
      await expect(page.getByTestId('oc-bar')).toHaveCount(4, { timeout: 60_000 });
      await expect(page.getByTestId('oc-verdict')).toContainText('It forgot');
      // fine-tuning's half is seen; SimpleCIL's waits for its run
      await expect(page.getByTestId('lesson-expect')).toHaveAttribute('data-status', 'waiting');
      await expect(page.getByTestId('lesson-check')).toContainText('Waiting for 4 classes trained with SimpleCIL');
      await page.getByTestId('oc-strategy-simplecil').click();
      await expect(page.getByTestId('oc-verdict')).toContainText('no forgetting', { timeout: 60_000 });
      await expect(page.getByTestId('lesson-expect')).toHaveAttribute('data-status', 'holds', { timeout: 30_000 });
      await expect(page.getByTestId('lesson-check')).toContainText('Seen in this run');
      await expect(page.getByTestId('oc-busy')).toHaveCount(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/three-then-four-${size.name}.png` });
      if (size.width >= 1280) await aboveFold(page, 'oc-bars');
      expect(errors).toEqual([]);
    });
  });
}

test.describe('at 1280×800, teaching mode', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  // one page of the Orderings lesson for its control, the handout and a saved lesson: the lesson's orderings are
  // computed once here, where three fresh pages computed them three times
  test('on one page of the Orderings lesson: its control and back; the handout prints to PDF and its QR code decodes to the link; a teacher saves a lesson with a finding to check, and its link opens with it', async ({
    page,
    context,
  }) => {
    test.setTimeout(180_000);
    await offline(context);
    const errors = watchErrors(page);
    // the Orderings lesson: nothing trains, so its checks settle at once
    await page.goto(urlOf('similar-classes'));
    await expect(page.getByTestId('teaching-toggle')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('lesson-expect')).toHaveAttribute('data-status', 'holds', { timeout: 60_000 });

    await test.step('seen in the lesson, "Run its control" opens the one change, not seen there, and back', async () => {
      await page.getByTestId('lesson-control').click();
      await expect(page.getByTestId('lesson-control-change')).toContainText('“dog” pinned to the synset of “truck”');
      expect(new URL(page.url()).searchParams.get('control')).toBe('1');
      await expect(page.getByTestId('lesson-expect')).toHaveAttribute('data-status', 'fails', { timeout: 60_000 });
      await expect(page.getByTestId('lesson-check')).toContainText('Not seen in the control, as expected.');
      await page.screenshot({ path: `${SHOTS}/similar-classes-control-1280.png` });
      await page.getByTestId('lesson-control').click();
      await expect(page.getByTestId('lesson-control-change')).toHaveCount(0);
      await expect(page.getByTestId('lesson-expect')).toHaveAttribute('data-status', 'holds', { timeout: 60_000 });
      // back in the lesson itself: its link again, and its finding seen
      expect(new URL(page.url()).searchParams.get('control')).toBeNull();
      await expect(page.getByTestId('lesson-check')).toContainText('Seen in this run');
    });

    await test.step('the handout prints to PDF, and its QR code decodes to the link', async () => {
      // what the browser's Print does first: the handout takes the page as it is now
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      await page.emulateMedia({ media: 'print' });
      const handout = page.getByTestId('lesson-handout');
      await expect(handout).toBeVisible();
      await expect(page.locator('header.top')).toBeHidden();
      await expect(handout).toContainText(lessonById('similar-classes')!.question);
      await expect(handout.locator('svg').first()).toBeVisible(); // the chart as it stands
      // every url(#…) of the copied chart (the colour scale's gradient) resolves inside the handout, not to the hidden
      // chart it was copied from (which would paint nothing in print)
      const refs = await handout.evaluate((h) =>
        [...h.querySelectorAll('[fill^="url(#"], [stroke^="url(#"], [clip-path^="url(#"]')].map((el) => {
          const id = /url\(#([^)]+)\)/.exec(el.getAttribute('fill') ?? el.getAttribute('stroke') ?? el.getAttribute('clip-path') ?? '')![1];
          return h.contains(document.getElementById(id));
        }),
      );
      expect(refs.length).toBeGreaterThan(0);
      expect(refs.every(Boolean)).toBe(true);
      const link = await page.getByTestId('lesson-url').textContent();
      expect(link).toBe(page.url());
      await page.screenshot({ path: `${SHOTS}/handout-print.png`, fullPage: true });

      // decode the printed QR code: its SVG drawn on a canvas in the page, the pixels read by jsQR here
      expect(await decodeQrSvg(page.getByTestId('lesson-qr'))).toBe(page.url());

      const pdf = `${SHOTS}/handout.pdf`;
      await page.pdf({ path: pdf, format: 'A4', printBackground: true });
      expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
      expect(statSync(pdf).size).toBeGreaterThan(10_000);
      // back to the screen
      await page.emulateMedia({ media: 'screen' });
      await expect(page.locator('header.top')).toBeVisible();
    });

    await test.step('a teacher saves a lesson with a finding to check, and its link opens with it', async () => {
      await page.getByTestId('lessons-open').click();
      const dialog = page.getByTestId('lessons');
      await expect(dialog).toBeVisible();
      // the dialog fits the window
      const box = (await dialog.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(800 + 1);
      // the page behind does not scroll with the wheel over the dialog
      const before = await page.evaluate(() => window.scrollY);
      await dialog.hover();
      await page.mouse.wheel(0, 3000);
      await expect(page.getByTestId('lesson-new')).toBeInViewport();
      expect(await page.evaluate(() => window.scrollY)).toBe(before);
      await page.screenshot({ path: `${SHOTS}/dialog-teaching-1280.png` });

      await page.getByTestId('lesson-new').click();
      await page.getByTestId('lesson-title').fill('Cat and dog');
      await page.getByTestId('lesson-text').fill('Look at EDGE hard. Then at EDGE easy.');
      await page.getByTestId('lesson-question').fill('Where is the cat?');
      await page.getByTestId('lesson-expect-pick').selectOption({ label: 'EDGE easy has a higher S (similar classes spread apart) than EDGE hard.' });
      await page.getByTestId('lesson-save').scrollIntoViewIfNeeded();
      await page.getByTestId('lesson-save').click();
      const mine = page.getByTestId('my-lessons');
      await expect(mine).toContainText('Cat and dog');
      await mine.getByRole('button', { name: 'Open' }).click();
      await expect(page).toHaveURL(/\?lesson=u\.[A-Za-z0-9_-]+#v1\./);
      await expect(page.getByTestId('lesson-title-shown')).toHaveText('Cat and dog');
      await expect(page.getByTestId('lesson-question-shown')).toContainText('Where is the cat?');
      await expect(page.getByTestId('lesson-expect')).toContainText('EDGE easy has a higher S');
      await expect(page.getByTestId('lesson-expect')).toHaveAttribute('data-status', 'holds', { timeout: 60_000 });
    });
    expect(errors).toEqual([]);
  });

  test("the panel shows the lesson's controls: the settings fold to one closed line, and come back when the lesson closes", async ({ page, context }) => {
    test.setTimeout(60_000);
    await offline(context);
    const errors = watchErrors(page);
    await page.goto(urlOf('cpcf-vs-accuracy'));
    const fold = page.getByTestId('fg-lesson-settings');
    await expect(fold).toBeVisible();
    await expect(fold).not.toHaveAttribute('open', /.*/);
    // the seven preset cards and the run's fields are folded away; Play (teaching mode's Run) stays in view
    await expect(page.getByText("Presets: the paper's experiments")).toBeHidden();
    await expect(page.getByTestId('fg-play')).toBeInViewport();
    // what the canvas says to press is the button teaching mode shows
    await expect(page.getByTestId('fg-empty')).toContainText('or Play.');
    await expect(page.getByTestId('fg-empty')).not.toContainText('Run ▶');
    await page.screenshot({ path: `${SHOTS}/panel-lesson-1280.png` });
    // the panel reaches the window's bottom whatever the banner above it does (its text folding moves the lab, not
    // the window): measured after each fold of the lesson text
    const panelGap = () =>
      page
        .getByTestId('fg-lab')
        .locator('aside.controls')
        .evaluate((el) => Math.round(window.innerHeight - el.getBoundingClientRect().bottom));
    for (let i = 0; i < 2; i++) {
      await page.getByTestId('lesson-fold').click();
      await expect.poll(panelGap).toBeLessThanOrEqual(1);
    }
    // one click opens what the lesson chose
    await fold.locator('summary').click();
    await expect(page.getByText("Presets: the paper's experiments")).toBeVisible();
    await fold.locator('summary').click();
    // closing the lesson shows the settings as always
    await page.getByTestId('lesson-close').click();
    await expect(fold).toHaveCount(0);
    await expect(page.getByText("Presets: the paper's experiments")).toBeVisible();
    // the same on the Ground-truth lab: Play is in the canvas, the whole panel folds
    await page.goto(urlOf('one-seed'));
    await expect(page.getByTestId('gt-lesson-settings')).toBeVisible();
    await expect(page.getByTestId('gt-dataset')).toBeHidden();
    await expect(page.getByTestId('gt-play')).toBeVisible();
    expect(errors).toEqual([]);
  });
});
