#!/usr/bin/env node
/**
 * Sums the executed `expect(…)` calls written by a test run with ASSERTION_COUNT_DIR=DIR (the unit tests' setup file
 * tests/assertion-count/vitest-setup.ts and the Playwright reporter tests/assertion-count/playwright-reporter.ts):
 *
 *   ASSERTION_COUNT_DIR=/tmp/ac npm test && node scripts/count-assertions.mjs /tmp/ac [--files]
 *
 * prints the tests and assertions of each suite and of both together; --files adds one line per test file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...flags] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/count-assertions.mjs DIR [--files]');
  process.exit(2);
}
const total = { tests: 0, assertions: 0 };
for (const suite of ['unit', 'e2e']) {
  const file = join(dir, `${suite}.tsv`);
  if (!existsSync(file)) continue;
  const perFile = new Map();
  let tests = 0;
  let assertions = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const [, name, count] = line.split('\t');
    const n = Number(count);
    tests += 1;
    assertions += n;
    const f = name.split(' > ')[0];
    const e = perFile.get(f) ?? { tests: 0, assertions: 0 };
    e.tests += 1;
    e.assertions += n;
    perFile.set(f, e);
  }
  if (flags.includes('--files')) for (const [f, e] of [...perFile].sort()) console.log(`${suite}\t${f}\t${e.tests} tests\t${e.assertions} assertions`);
  console.log(`${suite}: ${tests} tests, ${assertions} expect() calls executed`);
  total.tests += tests;
  total.assertions += assertions;
}
console.log(`all: ${total.tests} tests, ${total.assertions} expect() calls executed`);
