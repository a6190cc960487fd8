/**
 * Most unit files share their worker's modules (vite.config.ts, `isolate: false`): a file that replaces a module with
 * `vi.mock` must be one of the isolated files, or an earlier file in the same worker may already have imported the
 * real module and the mock is never seen (the test then passes or fails by the order the files ran in).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../../vite.config';

const root = join(__dirname, '..', '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [relative(root, join(dir, e.name))] : [],
  );
}

/** A glob of the config (`**` any folders, `*` any name part) as a regular expression. */
const globRe = (glob: string) =>
  new RegExp(
    `^${glob
      .split('/')
      .map((part) => (part === '**' ? '(?:.+/)?' : `${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`))
      .join('')
      .replace(/\/$/, '')}$`,
  );

describe('unit files that mock a module run isolated', () => {
  const files = testFiles(join(root, 'tests', 'unit'));
  const isolated = (f: string) => ISOLATED.some((g) => globRe(g).test(f));

  it('the globs match what they name', () => {
    expect(isolated('tests/unit/shell/sw-register.test.ts')).toBe(true);
    expect(isolated('tests/unit/cli/backend-webgpu.test.ts')).toBe(true);
    expect(isolated('tests/unit/cli/sweep.test.ts')).toBe(false);
  });

  it('every file with vi.mock or vi.doMock is in ISOLATED', () => {
    const mocking = files.filter((f) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(root, f), 'utf8')) && f !== relative(root, __filename));
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking.filter((f) => !isolated(f))).toEqual([]);
  });
});
