/**
 * tests/fixtures/lesson-plays.json: every built-in lesson and its control played headless (`cil-lab lesson ID
 * [--control]`, src/cli/lesson.ts, wasm backend): each play's observation — the numbers its check reads — with whether
 * the check saw its finding and how long the play took on this machine. tests/unit/core/lessons-play.test.ts checks
 * every lesson and control on these numbers (the lesson seen, its control not), and plays one lesson or control per
 * lab for real.
 *
 *   npx tsx scripts/make-lesson-fixtures.ts      (about five minutes on a 2-core machine)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInProcess } from '../src/cli/in-process';
import { LESSONS } from '../src/core/lessons';
import { playLesson } from '../src/cli/lesson';

const root = join(import.meta.dirname, '..');
const OUT = join(root, 'tests', 'fixtures', 'lesson-plays.json');

const cli = cliInProcess;

const plays = [];
for (const lesson of LESSONS) {
  for (const control of [false, true]) {
    const p = await playLesson(lesson, { control, root, cli });
    console.log(`${lesson.id}${control ? ' --control' : ''}: ${p.seen ? 'seen' : 'not seen'} in ${p.seconds} s — ${p.numbers.join(' ')}`);
    plays.push({ id: p.id, control, seen: p.seen, numbers: p.numbers, seconds: p.seconds, observation: p.observation });
  }
}
writeFileSync(
  OUT,
  `${JSON.stringify(
    {
      _note:
        'Every built-in lesson and its control played headless by `npx tsx scripts/make-lesson-fixtures.ts` (src/cli/lesson.ts playLesson, wasm backend, this machine): the observation its check reads, whether the check saw the finding, the numbers and the seconds.',
      plays,
    },
    null,
    1,
  )}\n`,
);
console.log('wrote', OUT);
