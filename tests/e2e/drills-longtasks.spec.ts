/**
 * Drill: 1 000 classes in 100 tasks in the Orderings lab → no main-thread task over 200 ms. The
 * experiment comes in through a share link (1 000 custom class names, WordNet artifact nouns with one sense each,
 * from the app's own public/data/wordnet-nouns.json; 100 tasks of 10; |Ω| ≈ 10^2000, so
 * the lab must sample, never enumerate); the Long Tasks API (PerformanceObserver 'longtask', installed before the
 * app's scripts run) records every main-thread task over 50 ms from the moment the link is opened while the lab
 * computes and shows its result, the page is scrolled, a row is hovered and one row shown in full, the tabs are switched (Data and back), the class list is
 * edited to 999 classes (the results greyed as stale: 999 do not split into 100 tasks) and back (current again).
 * Each step waits for its outcome and two animation frames, so its rendering is inside the record. Prints the count,
 * the longest and each task with the step it started in (a row hovered and one row's 1 000 classes shown count too); asserts none over 200 ms (the bar), once the first
 * paint is done — the bundle's own start-up (parse and compile of the app's JavaScript) is printed separately.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { defaultConfig } from '../../src/core/config/schema';
import { encodeConfigToHash } from '../../src/core/config/url-codec';

declare global {
  interface Window {
    __longTasks?: { start: number; duration: number; name: string }[];
  }
}

const BAR_MS = 200;

/** 1 000 one-word nouns of WordNet's noun.artifact with a single sense (so no pin is needed), in file order. */
function thousandNouns(): string[] {
  const wn = JSON.parse(readFileSync('public/data/wordnet-nouns.json', 'utf8')) as { lexnames: string[]; lex: number[]; lemmas: string[] };
  const artifact = wn.lexnames.indexOf('noun.artifact');
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const l of wn.lemmas) for (const w of l.split(' ')) seen.set(w.replace(/#\d+$/, ''), (seen.get(w.replace(/#\d+$/, '')) ?? 0) + 1);
  wn.lemmas.forEach((l, i) => {
    const first = l.split(' ')[0];
    if (out.size < 1000 && wn.lex[i] === artifact && /^[a-z]+$/.test(first) && seen.get(first) === 1) out.add(first);
  });
  return [...out];
}

test('1 000 classes in 100 tasks: the Orderings lab samples, and no main-thread task takes over 200 ms', async ({ page }) => {
  // ~2–4 minutes (the lab needs ~2–3 to compute): in `npm run drills` (DRILLS=1), not in `npm test`
  test.skip(!process.env.DRILLS, 'long drill: npm run drills');
  test.setTimeout(600_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks!.push({ start: e.startTime, duration: e.duration, name: e.name });
    }).observe({ type: 'longtask', buffered: true });
  });
  const classNames = thousandNouns();
  expect(classNames).toHaveLength(1000);
  const link = encodeConfigToHash({
    ...defaultConfig(),
    dataset: { id: 'custom', classNames },
    classes: [...Array(1000).keys()],
    taskSizes: Array(100).fill(10),
  } as never);
  // what the page was doing when a task started (performance.now() at the start of each step), for the report
  const phases: { at: number; what: string }[] = [];
  const phase = async (what: string) => phases.push({ at: await page.evaluate(() => performance.now()), what });
  const t0 = Date.now();
  await page.goto(`/${link}`);
  await phase('computing, then showing the result');
  const omega = page.getByTestId('omega');
  const results = page.getByTestId('orderings-results');
  await expect(page.getByTestId('score-histogram')).toHaveAttribute('data-kind', 'sample', { timeout: 360_000 });
  await expect(results).toHaveAttribute('data-status', 'current');
  await expect(omega).not.toHaveText('–');
  const omegaText = (await omega.textContent())?.trim();
  const computedMs = Date.now() - t0;
  const firstPaint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0);
  /** two animation frames: what the last step changed is rendered (its layout and paint are tasks of their own) */
  const rendered = () => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  await rendered();

  // interact: scroll down and up, switch to Data and back, edit the class list to 999 classes and back
  await phase('scrolling');
  for (let k = 0; k < 5; k++) {
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(100);
  }
  await page.mouse.wheel(0, -3000);
  await rendered();
  // one ordering's row hovered (its tasks marked on the heat map: one path per task, not 3 000 marks) and all its
  // 1 000 classes shown (a row shows its first tasks, up to 40 chips, and a button for the rest)
  const easyRow = page.getByTestId('orderings').locator('tr[data-label="EDGE easy"]');
  await expect(easyRow.locator('.task')).toHaveCount(4);
  await phase('hovering a row');
  await easyRow.hover();
  await expect(page.getByTestId('similarity-heatmap')).toHaveAttribute('data-shown', 'EDGE easy');
  await rendered();
  await phase('showing all of a row');
  await easyRow.getByTestId('row-more').click();
  await expect(easyRow.locator('.task')).toHaveCount(100);
  await expect(easyRow.locator('.chip')).toHaveCount(1000);
  await rendered();
  const nav = page.getByRole('navigation', { name: 'Labs' });
  await phase('to the Data tab');
  await nav.getByRole('button', { name: 'Data', exact: true }).click();
  await expect(page.getByTestId('data-title')).toBeVisible({ timeout: 60_000 });
  await rendered();
  await phase('back to the Orderings tab');
  await nav.getByRole('button', { name: 'Orderings', exact: true }).click();
  await expect(page.getByTestId('similarity-heatmap')).toBeVisible({ timeout: 60_000 });
  await rendered();
  await expect(results).toHaveAttribute('data-status', 'current');

  // the last class deleted (Shift+Home selects its line, two Backspaces remove it and its line break): 999 classes do
  // not split into 100 equal tasks, so the results stay on screen, greyed as the previous inputs'; the name typed back
  // on a new line: the inputs are the result's again
  const classes = page.getByTestId('custom-classes');
  await expect(classes).toBeVisible();
  const before = await classes.inputValue();
  const last = classNames[classNames.length - 1];
  expect(before.trimEnd().endsWith(`\n${last}`), 'the class list ends with the last class').toBe(true);
  await phase('class list edited to 999 classes');
  await classes.press('Control+End');
  for (let k = before.trimEnd().length; k < before.length; k++) await classes.press('Backspace'); // a trailing line break
  await classes.press('Shift+Home');
  await classes.press('Backspace');
  await classes.press('Backspace');
  await expect(classes).toHaveValue(before.trimEnd().slice(0, -(last.length + 1)));
  await expect(results).toHaveAttribute('data-status', 'stale', { timeout: 30_000 });
  await expect(page.getByTestId('stale-results')).toBeVisible();
  await rendered();
  await phase('class list back to the 1 000 classes');
  await classes.press('Enter');
  await page.keyboard.insertText(last);
  await expect(classes).toHaveValue(before.trimEnd());
  await expect(results).toHaveAttribute('data-status', 'current', { timeout: 240_000 });
  await expect(omega).toHaveText(omegaText!);
  await rendered();
  await page.waitForTimeout(1000);

  const tasks = (await page.evaluate(() => window.__longTasks ?? [])).sort((a, b) => a.start - b.start);
  const after = tasks.filter((t) => t.start >= firstPaint);
  const startup = tasks.filter((t) => t.start < firstPaint);
  const longest = after.reduce((m, t) => Math.max(m, t.duration), 0);
  const over = after.filter((t) => t.duration > BAR_MS);
  const during = (start: number) => [...phases].reverse().find((p) => p.at <= start)?.what ?? 'loading';
  console.log(
    `long-task drill: 1 000 classes / 100 tasks, |Ω| ${omegaText}, sampled in ${(computedMs / 1000).toFixed(1)} s; ` +
      `after first paint (${firstPaint.toFixed(0)} ms): ${after.length} tasks over 50 ms, longest ${longest.toFixed(0)} ms, ${over.length} over ${BAR_MS} ms` +
      `; start-up before first paint: ${startup.length} (longest ${startup.reduce((m, t) => Math.max(m, t.duration), 0).toFixed(0)} ms)\n` +
      after.map((t) => `  at ${t.start.toFixed(0).padStart(6)} ms: ${t.duration.toFixed(0).padStart(5)} ms (${during(t.start)})`).join('\n'),
  );
  expect(errors).toEqual([]);
  expect(over.map((t) => `${t.duration.toFixed(0)} ms at ${t.start.toFixed(0)} ms (${during(t.start)})`)).toEqual([]);
});
