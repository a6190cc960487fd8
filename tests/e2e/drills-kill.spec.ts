/**
 * Drill: kill the tab at random points of a ground-truth run → nothing finished lost or retrained.
 *
 * The Ground-truth lab's default experiment with two strategies (`LONG_RUN`, in `npm run drills`: Fashion-MNIST, 6
 * classes in 3 tasks, finetune + replay, MLP 256,128, 3 epochs, 300/100 images per class, wasm: 90 orderings × 2 = 180
 * runs; about 40 s of training here, so the last kill, at most 75 % of the runs + 2 s in, still lands mid-run: digits,
 * the spec's earlier experiment, now trains all 180 runs in a few seconds; `SHORT_RUN`, in `npm test`: the same runs on
 * MLP 128, 2 epochs, 200/60 images per class, about half the time) is run and killed at seeded random points
 * (numpy's RandomState, seed 16: a random count of finished runs to wait for, then a random delay, so the kill lands while
 * runs are in flight; where more than that count is stored by the time the tab reopens, as on a fast machine, right
 * after the first new run), each time in another way:
 *   - crash: the renderer is crashed (CDP Page.crash: what an OOM kill or a kill -9 of the tab's process does),
 *   - close: the tab is closed without beforeunload,
 *   - reload: the tab reloads mid-run,
 *   - navigate: the tab goes to about:blank mid-run.
 * After each, a page of the same browser context (the same IndexedDB) opens the lab and enters the same experiment:
 *   - nothing finished is lost: "Runs stored" ≥ the runs the killed tab had shown as finished, and equals the
 *     records of IndexedDB ("cil-lab-results" / "runs"); every record read from IndexedDB just before the kill is
 *     still there;
 *   - nothing is retrained: Run says "(180 − stored left)", "N runs were already stored and not trained again" with
 *     N = stored exactly, the progress starts at N / 180; every record stored before a kill keeps its createdAt and
 *     final accuracy to the end (a run trained again would be put again: a new createdAt); the runs created in a
 *     session are new keys only, and never more than 180 records.
 * At the end the run completes: 180 / 180 · done, "Runs stored" 180, 180 records, 180 − (stored at the last reopen)
 * created in the last session; no page error on any page, no crash but the one caused.
 * Prints one summary line starting with "kill drill".
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createRandomState } from '../../src/core/random/random-state';
import { done, num, setUp, steadyCount, type Setup } from './harness/ground-truth-setup';

async function stored(page: Page): Promise<number> {
  return num(await page.getByTestId('gt-stored').textContent());
}

interface Rec {
  createdAt: number;
  finalAccuracy: number;
}

/**
 * Every record of the results store (src/services/results-store.ts: database "cil-lab-results", store "runs", key
 * [configHash, orderingKey, strategy, seed]), by key. Only called once the app has opened (created) the database.
 */
async function records(page: Page): Promise<Map<string, Rec>> {
  const rows = await page.evaluate(
    () =>
      new Promise<[string, number, number][]>((resolve, reject) => {
        const open = indexedDB.open('cil-lab-results');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('runs')) {
            db.close();
            resolve([]);
            return;
          }
          const req = db.transaction('runs', 'readonly').objectStore('runs').getAll();
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            db.close();
            resolve(
              (req.result as { configHash: string; orderingKey: string; strategy: string; seed: number; createdAt: number; finalAccuracy: number }[]).map(
                (r) => [JSON.stringify([r.configHash, r.orderingKey, r.strategy, r.seed]), r.createdAt, r.finalAccuracy],
              ),
            );
          };
        };
      }),
  );
  return new Map(rows.map(([k, createdAt, finalAccuracy]) => [k, { createdAt, finalAccuracy }]));
}

const TOTAL = 180;
/** `npm run drills` (DRILLS=1): the experiment above, about 40 s of training */
const LONG_RUN: Setup = {
  dataset: 'fashion-mnist',
  strategies: ['finetune', 'replay'],
  epochs: '3',
  hidden: '256,128',
  train: '300',
  test: '100',
  backend: 'wasm',
};
/**
 * `npm test`: the same 180 runs, the same four kills at the same seeded points, on a smaller network and less data
 * (about half the training time), still long enough for each kill to land mid-run
 */
const SHORT_RUN: Setup = { ...LONG_RUN, epochs: '2', hidden: '128', train: '200', test: '60' };
const KILL_RUN = process.env.DRILLS ? LONG_RUN : SHORT_RUN;
const SEED = 16;
const KILLS = ['crash', 'close', 'reload', 'navigate'] as const;
type Kill = (typeof KILLS)[number];

test('kill the tab at random points of a ground-truth run: nothing finished is lost or trained again', async ({ context }) => {
  test.setTimeout(600_000);
  const rs = createRandomState(SEED);
  const rand = () => rs.randomSample();
  const errors: string[] = [];
  const crashedOnPurpose = new WeakSet<Page>();
  const watch = (p: Page): Page => {
    p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    p.on('crash', () => {
      if (!crashedOnPurpose.has(p)) errors.push('page crashed');
    });
    p.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    return p;
  };
  const open = async (ctx: BrowserContext): Promise<Page> => {
    const p = watch(await ctx.newPage());
    await p.goto('/');
    return p;
  };

  /** Enter the experiment and wait until the lab shows what the store holds (≥ `atLeast`, steady, = IndexedDB's). */
  const reopen = async (p: Page, atLeast: number): Promise<{ n: number; recs: Map<string, Rec> }> => {
    await setUp(p, KILL_RUN);
    await expect(p.getByTestId('gt-omega')).toHaveText('90', { timeout: 60_000 });
    const n = await steadyCount(p, stored, { gapMs: 400, timeout: 60_000, message: `Runs stored ≥ ${atLeast}`, ok: (k) => k >= atLeast });
    const recs = await records(p);
    expect(recs.size, 'Runs stored = the records in IndexedDB').toBe(n);
    return { n, recs };
  };

  // seeded kill points: a count of finished runs (sorted fractions of the 180) and a delay after it is reached
  const targets = KILLS.map(() => 0.1 + 0.65 * rand())
    .sort((a, b) => a - b)
    .map((f) => Math.round(f * TOTAL));
  const delays = KILLS.map(() => Math.round(200 + 1800 * rand()));

  const t0 = Date.now();
  let page = await open(context);
  let { n: atStart } = await reopen(page, 0);
  expect(atStart).toBe(0);
  /** every record ever seen, as first seen: none may change (a run trained again would be written again) */
  const seen = new Map<string, Rec>();
  const keep = (recs: Map<string, Rec>, where: string): void => {
    expect(recs.size, `${where}: at most ${TOTAL} records`).toBeLessThanOrEqual(TOTAL);
    for (const [k, r] of seen) {
      const now = recs.get(k);
      expect(now, `${where}: ${k} is still stored`).toBeDefined();
      expect(now, `${where}: ${k} was not written again`).toEqual(r);
    }
    for (const [k, r] of recs) if (!seen.has(k)) seen.set(k, r);
  };
  const before: number[] = [];
  const after: number[] = [];
  const lost: number[] = [];
  const retrained: number[] = [];
  const inFlight: string[] = [];
  let lastSession = 0;

  for (let i = 0; i <= KILLS.length; i++) {
    // Run: the stored runs are skipped, the rest trained
    const runAt = await page.evaluate(() => Date.now());
    const startRecs = await records(page);
    keep(startRecs, `session ${i + 1} start`);
    if (atStart > 0) await expect(page.getByTestId('gt-run')).toContainText(`(${TOTAL - atStart} left)`);
    await page.getByTestId('gt-run').click();
    if (atStart > 0) {
      await expect(page.getByTestId('gt-skipped')).toHaveText(`${atStart} runs were already stored and not trained again.`, { timeout: 60_000 });
      await expect.poll(() => done(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(atStart);
    } else {
      await expect(page.getByTestId('gt-skipped')).toHaveCount(0);
    }
    await expect(page.getByTestId('gt-progress')).toContainText(`/ ${TOTAL} runs`, { timeout: 60_000 });

    if (i === KILLS.length) {
      await expect(page.getByTestId('gt-progress')).toContainText(`${TOTAL} / ${TOTAL} runs (90 orderings × 2) · done`, { timeout: 300_000 });
      const end = await records(page);
      // the last session trained exactly what was not stored: 180 − stored new records, each created after Run
      const created = [...end].filter(([k]) => !startRecs.has(k));
      for (const [, r] of created) expect(r.createdAt).toBeGreaterThanOrEqual(runAt);
      expect(created.length, 'runs trained in the last session').toBe(TOTAL - atStart);
      lastSession = created.length;
      break;
    }

    // wait for the seeded count of finished runs (at least one new one), then the seeded delay: a kill mid-run
    const kill: Kill = KILLS[i];
    // (a fast machine may have stored more than this kill's count by the time the tab reopened: then the kill comes
    // right after the first new run, while the rest are still in flight)
    const late = atStart >= targets[i];
    const target = late ? atStart + 1 : targets[i];
    await expect.poll(() => done(page), { timeout: 240_000, intervals: [100] }).toBeGreaterThanOrEqual(target);
    if (!late) await page.waitForTimeout(delays[i]);
    const shown = await done(page);
    // training is in flight at the kill: a group of orderings is being trained (task t, epoch e)
    const current = ((await page.getByTestId('gt-current').textContent({ timeout: 5_000 })) ?? '').trim();
    const at = /training the (\w+) orderings(?:.*task (\d+)\/\d+, epoch (\d+)\/\d+)?/.exec(current);
    expect(at, `kill ${i + 1} (${kill}): training in flight ("${current}")`).not.toBeNull();
    inFlight.push(at![2] ? `${at![1]} task ${at![2]} epoch ${at![3]}` : at![1]);
    const dying = await records(page);
    expect(shown, `kill ${i + 1} (${kill}) lands mid-run`).toBeLessThan(TOTAL);
    expect(dying.size).toBeGreaterThanOrEqual(shown);
    keep(dying, `before kill ${i + 1}`);
    before.push(shown);
    // the runs of this session are new keys only, created after Run
    const fresh = [...dying].filter(([k]) => !startRecs.has(k));
    for (const [, r] of fresh) expect(r.createdAt).toBeGreaterThanOrEqual(runAt);
    expect(fresh.length).toBe(dying.size - startRecs.size);
    if (kill === 'crash') {
      crashedOnPurpose.add(page);
      const crashed = page.waitForEvent('crash');
      const cdp = await context.newCDPSession(page);
      void cdp.send('Page.crash').catch(() => undefined);
      await crashed;
      await page.close({ runBeforeUnload: false }).catch(() => undefined);
      page = await open(context);
    } else if (kill === 'close') {
      await page.close({ runBeforeUnload: false });
      page = await open(context);
    } else if (kill === 'reload') {
      await page.reload();
    } else {
      await page.goto('about:blank');
      await page.goto('/');
    }

    const back = await reopen(page, shown);
    atStart = back.n;
    after.push(back.n);
    lost.push([...dying.keys()].filter((k) => !back.recs.has(k)).length);
    retrained.push([...dying].filter(([k, r]) => back.recs.has(k) && back.recs.get(k)!.createdAt !== r.createdAt).length);
    keep(back.recs, `after kill ${i + 1} (${kill})`);
    expect(back.n).toBeLessThan(TOTAL);
  }

  // the end: every run stored once, the ones stored before a kill untouched
  await expect(page.getByTestId('gt-stored')).toHaveText(String(TOTAL));
  const final = await records(page);
  keep(final, 'the end');
  expect(final.size).toBe(TOTAL);
  await expect(page.locator('[data-testid="accuracy-histogram"] rect.member')).toHaveCount(TOTAL);
  const badAccuracy = [...final.values()].filter((r) => !Number.isFinite(r.finalAccuracy) || r.finalAccuracy < 0 || r.finalAccuracy > 1);
  expect(badAccuracy, 'final accuracies within [0, 1]').toEqual([]);
  expect(lost.reduce((a, b) => a + b, 0)).toBe(0);
  expect(retrained.reduce((a, b) => a + b, 0)).toBe(0);
  expect(errors).toEqual([]);
  const seconds = (Date.now() - t0) / 1000;
  console.log(
    `kill drill: ${KILLS.length} kills (${KILLS.join(', ')}) at seeded random points (seed ${SEED}): finished before each kill ${before.join('/')} (in flight: ${inFlight.join(', ')}), stored after reopening ${after.join('/')}; ` +
      `${lost.reduce((a, b) => a + b, 0)} lost, ${retrained.reduce((a, b) => a + b, 0)} retrained, skipped on each Run = stored; last session trained ${lastSession} = ${TOTAL} − ${atStart}; ${final.size}/${TOTAL} at the end in ${seconds.toFixed(0)} s`,
  );
});
