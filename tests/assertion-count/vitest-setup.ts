/**
 * Counts the `expect(…)` calls each unit test executes, when ASSERTION_COUNT_DIR is set (vite.config.ts adds this file
 * to `setupFiles` only then). One line per test, `unit<TAB>file > test name<TAB>count`, appended to
 * `$ASSERTION_COUNT_DIR/unit.tsv`; `node scripts/count-assertions.mjs DIR` sums them. Vitest counts every call of
 * `expect(…)` (`expect.soft`, `expect.poll` included) in `expect.getState().assertionCalls`, reset before each test.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, expect } from 'vitest';

const dir = process.env.ASSERTION_COUNT_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  afterEach((context) => {
    const task = context.task;
    const names: string[] = [];
    for (let t: { name: string; suite?: unknown } | undefined = task; t; t = t.suite as typeof t) if (t.name) names.unshift(t.name);
    const file = relative(process.cwd(), task.file.filepath);
    const name = `${file} > ${names.slice(1).join(' > ')}`.replace(/[\t\n]/g, ' ');
    appendFileSync(join(dir, 'unit.tsv'), `unit\t${name}\t${expect.getState().assertionCalls}\n`);
  });
}
