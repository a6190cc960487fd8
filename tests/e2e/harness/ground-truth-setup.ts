/**
 * The Ground-truth lab's set-up steps, shared by the specs that train it (ground-truth.spec.ts, drills-kill.spec.ts):
 * enter an experiment on the tab (the same entries give the same config hash), read the progress line, and wait
 * for a count to settle.
 */
import { expect, type Page } from '@playwright/test';

export interface Setup {
  dataset: 'digits' | 'fashion-mnist' | 'emoji';
  /** class chips to toggle after picking the dataset (its first 6 classes are selected) */
  toggle?: string[];
  tasks?: string;
  strategies: string[];
  epochs: string;
  hidden: string;
  train: string;
  test: string;
  backend: 'wasm' | 'webgpu' | 'auto';
}

/**
 * Open the Ground-truth tab and enter an experiment. The backend comes first: the lab warms its workers up on each
 * experiment it shows (on the first idle moment), and with the default backend `auto` that means measuring every
 * backend, WebGPU on SwiftShader included, on each intermediate experiment the entries pass through; the warm-ups
 * queue, and Run waits for them.
 */
export async function setUp(page: Page, s: Setup): Promise<void> {
  await page.getByRole('button', { name: 'Ground truth', exact: true }).click();
  await page.getByTestId('gt-backend').selectOption(s.backend);
  await page.getByTestId('gt-dataset').selectOption(s.dataset);
  for (const name of s.toggle ?? []) await page.getByTestId('gt-class-chips').getByRole('button', { name, exact: true }).click();
  if (s.tasks) await page.getByTestId('gt-tasks').fill(s.tasks);
  for (const id of ['finetune', 'replay', 'ewc']) {
    const box = page.getByTestId(`gt-strategy-${id}`);
    if (s.strategies.includes(id)) await box.check();
    else await box.uncheck();
  }
  await page.getByTestId('gt-epochs').fill(s.epochs);
  await page.getByTestId('gt-hidden').fill(s.hidden);
  await page.getByTestId('gt-train-per-class').fill(s.train);
  await page.getByTestId('gt-test-per-class').fill(s.test);
  await expect(page.getByTestId('gt-backend')).toHaveValue(s.backend);
}

/** A count as the page prints it (thin-space thousands). */
export const num = (s: string | null): number => Number((s ?? '').replace(/\u2009/g, '').trim());

/** Finished runs of the session (skipped ones included) from the progress line ("37 / 180 runs …"); −1 before. */
export async function done(page: Page): Promise<number> {
  const text = (await page.getByTestId('gt-progress').textContent()) ?? '';
  const m = /^\s*([\d\u2009]+) \//.exec(text);
  return m ? num(m[1]) : -1;
}

/**
 * 6 digits in 3 tasks, finetune + replay, 60 epochs: 180 runs, long enough that a pause or a reload lands mid-run
 * (with 6 epochs the fused step on wasm left only a few seconds for it; with 24, once the page was paced, the runs
 * left after Resume finished before the reload).
 */
export const DIGITS: Setup = { dataset: 'digits', strategies: ['finetune', 'replay'], epochs: '60', hidden: '64', train: '80', test: '30', backend: 'wasm' };

/**
 * Wait until a count read from the page stops moving (two reads `gapMs` apart agree) and passes `ok`; returns it.
 * Runs finished in a burst may still be on their way to IndexedDB when the page is looked at.
 */
export async function steadyCount(
  page: Page,
  read: (page: Page) => Promise<number>,
  opts: { gapMs: number; timeout: number; message?: string; ok?: (n: number) => boolean },
): Promise<number> {
  let n = -1;
  await expect
    .poll(
      async () => {
        const before = await read(page);
        await page.waitForTimeout(opts.gapMs);
        n = await read(page);
        return n === before && (opts.ok?.(n) ?? true);
      },
      { timeout: opts.timeout, message: opts.message },
    )
    .toBe(true);
  return n;
}
