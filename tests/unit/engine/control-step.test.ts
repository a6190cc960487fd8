// RunControl's step budget (teaching mode's Step): the run pauses itself once n more results are done, where it runs.
import { describe, expect, it } from 'vitest';
import { RunControl } from '../../../src/engine/control';

describe('RunControl.pauseAfter', () => {
  it('pauses at the n-th result, not before; a checkpoint then waits until resumed', async () => {
    const c = new RunControl();
    c.pauseAfter(2);
    c.resultDone();
    expect(c.state).toBe('running');
    c.resultDone();
    expect(c.state).toBe('paused');
    let passed = false;
    const waiting = c.checkpoint().then(() => (passed = true));
    await Promise.resolve();
    expect(passed).toBe(false);
    c.resume();
    await waiting;
    expect(passed).toBe(true);
    // the budget is spent: later results play on
    c.resultDone();
    expect(c.state).toBe('running');
  });

  it('0 takes the budget away (Play); without a budget results never pause; a cancel stays a cancel', () => {
    const c = new RunControl();
    c.resultDone();
    expect(c.state).toBe('running');
    c.pauseAfter(1);
    c.pauseAfter(0);
    c.resultDone();
    expect(c.state).toBe('running');
    c.pauseAfter(1.7); // a whole number of results
    c.resultDone();
    expect(c.state).toBe('paused');
    const d = new RunControl();
    d.pauseAfter(1);
    d.cancel();
    d.resultDone();
    expect(d.state).toBe('cancelled');
  });
});
