// CallsInProgress is the proxy's one owner of "this run has a call in progress": a run is claimed once
// until released, other runs are independent, and the size is what health reports as active runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallsInProgress } from '../../ssh-proxy/calls-in-progress.ts';

describe('CallsInProgress', () => {
  it('lets one call claim a run, refuses a second until the first releases it', () => {
    const calls = new CallsInProgress();
    expect(calls.claim('run_a')).toBe(true);
    expect(calls.claim('run_a')).toBe(false);
    expect(calls.has('run_a')).toBe(true);
    expect(calls.claim('run_b')).toBe(true);
    expect(calls.size).toBe(2);
    calls.release('run_a');
    expect(calls.has('run_a')).toBe(false);
    expect(calls.size).toBe(1);
    expect(calls.claim('run_a')).toBe(true);
  });

  it("keeps a break with the run's call: none without a call, a takeover outranks a yield, gone on release", () => {
    const calls = new CallsInProgress();
    expect(calls.askBreak('run_a', 'yield')).toBe(false);
    expect(calls.breakFor('run_a')).toBeNull();
    calls.claim('run_a');
    expect(calls.breakFor('run_a')).toBeNull();
    expect(calls.askBreak('run_a', 'yield')).toBe(true);
    expect(calls.breakFor('run_a')).toBe('yield');
    expect(calls.askBreak('run_a', 'takeover')).toBe(true);
    expect(calls.askBreak('run_a', 'yield')).toBe(true);
    expect(calls.breakFor('run_a')).toBe('takeover');
    calls.release('run_a');
    calls.claim('run_a');
    expect(calls.breakFor('run_a')).toBeNull();
  });

  it('ignores a release of a run it does not hold', () => {
    const calls = new CallsInProgress();
    calls.release('run_never');
    expect(calls.size).toBe(0);
  });

  it('agrees with a model of held runs over any sequence of claims and releases', () => {
    const op = fc.record({ claim: fc.boolean(), run: fc.constantFrom('r1', 'r2', 'r3') });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const calls = new CallsInProgress();
        const held = new Set<string>();
        for (const { claim, run } of ops) {
          if (claim) {
            expect(calls.claim(run)).toBe(!held.has(run));
            held.add(run);
          } else {
            calls.release(run);
            held.delete(run);
          }
          expect(calls.size).toBe(held.size);
        }
      }),
    );
  });
});
