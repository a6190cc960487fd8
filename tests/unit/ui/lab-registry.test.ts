/**
 * The registrations of the lab kit (src/ui/common/lab/lab-client.ts): a lab the kit wires reads the experiment once,
 * so its tab is mounted afresh when a link is opened, unless it follows links itself; a page that wires itself says so
 * itself. (The whole table, src/ui/labs.ts, imports every page: the browser specs open its tabs, e.g.
 * tests/e2e/drills-markup.spec.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { Component } from 'svelte';
import { kitLab, pageLab, remountsOnLink, type KitLab, type LabState } from '../../../src/ui/common/lab/lab-client';
import type { LabPageProps } from '../../../src/ui/common/lab/page-props';

const page = (() => ({})) as unknown as Component<LabPageProps>;

describe('lab registrations', () => {
  it('a kit lab is of the kit kind, keeps its parts, and remounts on a link', () => {
    const parts = { title: 'T', testid: 't' } as unknown as KitLab<unknown, unknown, LabState>;
    const c = kitLab(parts);
    expect(c.kind).toBe('kit');
    expect(c).toMatchObject({ title: 'T', testid: 't' });
    expect(remountsOnLink(c)).toBe(true);
  });

  it("a kit lab's optional parts (its own run lines and tools, the Play bar's readout and Stop) reach the kit", () => {
    const RunDetails = page as unknown as KitLab<unknown, unknown, LabState>['RunDetails'];
    const play = { label: 'Play', stepTitle: 'Step', readoutTestid: 't-ordering-readout', stopTitle: 'Stop' };
    const c = kitLab({ title: 'T', testid: 't', RunDetails, Tools: RunDetails, play } as unknown as KitLab<unknown, unknown, LabState>);
    expect(c).toMatchObject({ RunDetails, Tools: RunDetails, play });
  });

  it('a kit lab that follows links itself is not mounted afresh', () => {
    const parts = { title: 'T', testid: 't', remountOnLink: false } as unknown as KitLab<unknown, unknown, LabState>;
    expect(remountsOnLink(kitLab(parts))).toBe(false);
  });

  it('a kit lab without a Run row (no progress, no play) that saves while hidden keeps what it says', () => {
    const parts = { title: 'T', testid: 't', saveHidden: true } as unknown as KitLab<unknown, unknown, LabState>;
    const c = kitLab(parts);
    if (c.kind !== 'kit') throw new Error('not a kit lab');
    expect(c.progress).toBeUndefined();
    expect(c.play).toBeUndefined();
    expect(c.saveHidden).toBe(true);
    expect(remountsOnLink(c)).toBe(true);
  });

  it('a page registration is mounted as it is and remounts only when it says so', () => {
    expect(pageLab(page, false)).toEqual({ kind: 'page', page, remountOnLink: false });
    expect(remountsOnLink(pageLab(page, false))).toBe(false);
    expect(remountsOnLink(pageLab(page, true))).toBe(true);
  });
});
