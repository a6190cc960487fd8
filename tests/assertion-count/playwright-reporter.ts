/**
 * Counts the `expect(…)` calls each browser test executes, when ASSERTION_COUNT_DIR is set (playwright.config.ts adds
 * this reporter only then). Playwright makes every matcher call (`expect(…).toX`, `expect.poll`, `expect.soft`) a
 * test step of category "expect"; this reporter counts the steps of each test's final attempt and writes one line
 * per test, `e2e<TAB>file > test title<TAB>count`, to `$ASSERTION_COUNT_DIR/e2e.tsv`. Sum with
 * `node scripts/count-assertions.mjs DIR`.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';

export default class AssertionCountReporter implements Reporter {
  private readonly dir = process.env.ASSERTION_COUNT_DIR ?? '';
  private readonly counts = new Map<TestResult, number>();

  onStepEnd(_test: TestCase, result: TestResult, step: TestStep): void {
    if (step.category === 'expect') this.counts.set(result, (this.counts.get(result) ?? 0) + 1);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (!this.dir || result.status === 'skipped') return;
    mkdirSync(this.dir, { recursive: true });
    const name = `${test.location.file.replace(/^.*\/tests\/e2e\//, 'tests/e2e/')} > ${test.titlePath().slice(3).join(' > ')}`;
    appendFileSync(join(this.dir, 'e2e.tsv'), `e2e\t${name.replace(/[\t\n]/g, ' ')}\t${this.counts.get(result) ?? 0}\t${result.status}\n`);
    this.counts.delete(result);
  }
}
