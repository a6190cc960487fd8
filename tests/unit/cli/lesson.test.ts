// `cil-lab lesson`: --list, a lesson and its control played headless (the Orderings lesson: instant, nothing trains),
// and the refusals (an unknown id exits 2 with one line; --help).
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../../../src/core/lessons';
import { captureCli } from './capture';

const cli = captureCli();

describe('cil-lab lesson', () => {
  it('--list: every built-in lesson with its lab, question, check and control', async () => {
    const r = await cli('lesson', '--list');
    expect(r.code).toBe(0);
    expect(r.json.map((l: { id: string }) => l.id)).toEqual(LESSONS.map((l) => l.id));
    for (const l of r.json) {
      expect(l.control.length).toBeGreaterThan(10);
      expect(l.check.length).toBeGreaterThan(0);
      expect(l.question).toMatch(/\?$/);
    }
  });
  it('plays a lesson and its control: {id, seen, check, numbers}, exit 0 either way', async () => {
    const a = await cli('lesson', 'similar-classes');
    expect(a.code, a.err).toBe(0);
    expect(a.json).toMatchObject({ id: 'similar-classes', control: false, seen: true, change: null });
    expect(a.json.check).toContain('EDGE hard puts cat and dog in the same task.');
    expect(a.json.numbers[0]).toMatch(/^EDGE hard: cat in task \d, dog in task \d\.$/);
    const b = await cli('lesson', 'similar-classes', '--control');
    expect(b.code, b.err).toBe(0);
    expect(b.json).toMatchObject({ id: 'similar-classes', control: true, seen: false });
    expect(b.json.change).toContain('“dog” pinned to the synset of “truck”');
  });
  it('refuses an unknown id, a missing id and --list with an id in one line (exit 2); --help prints the usage', async () => {
    for (const argv of [['lesson', 'no-such-lesson'], ['lesson'], ['lesson', '--list', 'one-seed'], ['lesson', 'one-seed', '--backend', 'webgl']]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.out).toBe('');
    }
    expect((await cli('lesson', 'no-such-lesson')).err).toMatch(/^cil-lab: Unknown lesson "no-such-lesson": use one of one-seed, /);
    const h = await cli('lesson', '--help');
    expect(h.code).toBe(0);
    expect(h.out).toContain('cil-lab lesson --list');
    expect(h.out).toContain('--control');
  });
});
