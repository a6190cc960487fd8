// Every built-in lesson and its control (docs/design.md "Lessons"):
//  - on the recorded plays (tests/fixtures/lesson-plays.json, made by scripts/make-lesson-fixtures.ts through
//    `cil-lab lesson ID [--control]`): each lesson's check says "seen" on its run and "not seen" on its control's;
//  - played for real, headless on wasm, through the same player (src/cli/lesson.ts): one lesson or control of every
//    lab, each of which trains (the Orderings lab's is instant and trains nothing), chosen small so the plays stay
//    cheap; this fails when a lab's live results stop showing what a lesson says.
// Each real play prints its time and what it showed, for the closing note (vitest prints a test's console output).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/engine/backend';
import { cliInProcess } from '../../../src/cli/in-process';
import { playLesson } from '../../../src/cli/lesson';
import { LESSONS, checkAll, controlExpectations, lessonById, type LessonObservation } from '../../../src/core/lessons';

const root = join(__dirname, '..', '..', '..');
const FIX = JSON.parse(readFileSync(join(root, 'tests/fixtures/lesson-plays.json'), 'utf8')) as {
  plays: { id: string; control: boolean; seen: boolean; numbers: string[]; observation: LessonObservation }[];
};

const cli = cliInProcess;

describe('every built-in lesson is seen, and its control is not (recorded plays)', () => {
  it('has a recorded play of every lesson and every control', () => {
    for (const l of LESSONS)
      for (const control of [false, true])
        expect(
          FIX.plays.some((p) => p.id === l.id && p.control === control),
          `${l.id} ${control}`,
        ).toBe(true);
  });
  for (const lesson of LESSONS) {
    it(`${lesson.id} (${lesson.lab}): seen on its run, not seen on its control (${lesson.control.change})`, () => {
      const run = FIX.plays.find((p) => p.id === lesson.id && !p.control)!;
      const ctl = FIX.plays.find((p) => p.id === lesson.id && p.control)!;
      const a = checkAll(lesson.expect, run.observation);
      const b = checkAll(controlExpectations(lesson), ctl.observation);
      expect(a.status, a.checks.map((c) => c.detail).join(' ')).toBe('holds');
      expect(b.status, b.checks.map((c) => c.detail).join(' ')).toBe('fails');
      // the recording says the same
      expect([run.seen, ctl.seen]).toEqual([true, false]);
    });
  }
});

/** One play per lab that trains for real (the Orderings lab's and the reservoir sweep train nothing). */
const REAL: { id: string; control: boolean }[] = [
  { id: 'similar-classes', control: false },
  { id: 'similar-classes', control: true },
  { id: 'small-memory', control: true },
  { id: 'prototypes-order', control: false },
  { id: 'cpcf-vs-accuracy', control: true },
  { id: 'tomorrow', control: false },
  { id: 'newest-steals', control: false },
  { id: 'easy-first', control: false },
  { id: 'three-then-four', control: false },
];

describe('lessons played for real, headless (one per lab)', () => {
  let before = 'cpu';
  beforeAll(async () => {
    before = (await import('@tensorflow/tfjs-core')).getBackend() ?? 'cpu';
  });
  afterAll(async () => {
    await selectBackend(before as 'cpu', { strict: false }).catch(() => undefined);
  });
  it('covers every lab', () => {
    expect(new Set(REAL.map((r) => lessonById(r.id)!.lab))).toEqual(new Set(LESSONS.map((l) => l.lab)));
  });
  for (const r of REAL) {
    it(`${r.id}${r.control ? ' --control' : ''}: ${r.control ? 'not seen' : 'seen'}`, { timeout: 180_000 }, async () => {
      const lesson = lessonById(r.id)!;
      const p = await playLesson(lesson, { control: r.control, root, cli });
      console.log(`[lesson] ${r.id}${r.control ? ' --control' : ''}: ${p.seen ? 'seen' : 'not seen'} in ${p.seconds} s — ${p.numbers.join(' ')}`);
      expect(p.seen, p.numbers.join(' ')).toBe(!r.control);
      // easy-first's control reads the same runs the other way round: checked on this very run too
      if (r.id === 'easy-first') expect(checkAll(controlExpectations(lesson), p.observation).status).toBe('fails');
    });
  }
});
