// The Bandit graph's routers are pure: the same state always goes to the same node.
import { describe, expect, it } from 'vitest';
import { runConfigSchema } from '../../schema/run.ts';
import {
  afterAdvance,
  afterConnect,
  afterExecute,
  afterFinalAttempt,
  afterPlan,
  afterReflect,
  afterValidate,
} from '../../ssh-proxy/agent/bandit-routing.ts';
import type { BanditState } from '../../ssh-proxy/agent/bandit-state.ts';
import { initialBanditState } from '../../ssh-proxy/agent/bandit-state.ts';
import { buildBanditGraph } from '../../ssh-proxy/agent/bandit-graph.ts';
import { END } from '../../ssh-proxy/engine/types.ts';

const config = runConfigSchema.parse({ startLevel: 0, endLevel: 5 });
const state = (patch: Partial<BanditState> = {}): BanditState => ({ ...initialBanditState(config, 0), ...patch });
const fault = { reason: 'ssh_error', message: 'down', resumeAt: 'connect' } as const;
const command = { kind: 'run_command', callId: 'c', thinking: '', command: 'ls' } as const;
const submission = { kind: 'submit_password', callId: 'c', thinking: '', password: 'x', from: 'model' } as const;

describe('bandit routers', () => {
  it('send any fault to pause first', () => {
    const s = state({ fault, decision: command, failure: 'budget_spent', found: 'x' });
    for (const route of [afterConnect, afterPlan, afterExecute, afterValidate]) expect(route(s)).toBe('pause');
    expect(afterReflect(s, { config })).toBe('pause');
  });

  it('after plan: a command executes, a password validates, a failure or no decision reflects', () => {
    expect(afterPlan(state({ decision: command }))).toBe('execute');
    expect(afterPlan(state({ decision: submission }))).toBe('validate');
    expect(afterPlan(state({ failure: 'budget_spent' }))).toBe('reflect');
    expect(afterPlan(state({ failure: 'no_progress', decision: null }))).toBe('reflect');
  });

  it('after execute: plan again unless the attempt ended', () => {
    expect(afterExecute(state())).toBe('plan');
    expect(afterExecute(state({ failure: 'loop_detected' }))).toBe('reflect');
  });

  it('after validate: a proven password advances; a wrong one plans again or ends the attempt', () => {
    expect(afterValidate(state({ found: 'x' }))).toBe('advance');
    expect(afterValidate(state())).toBe('plan');
    expect(afterValidate(state({ failure: 'budget_spent' }))).toBe('reflect');
  });

  it('after advance: the next level, or END past the last level asked for', () => {
    expect(afterAdvance(state({ level: 5 }), { config })).toBe('connect');
    expect(afterAdvance(state({ level: 6 }), { config })).toBe(END);
  });

  it('after reflect: a fresh attempt unless a pause is due', () => {
    expect(afterReflect(state(), { config })).toBe('plan');
    expect(
      afterReflect(state({ fault: { reason: 'max_retries', message: null, resumeAt: 'connect' } }), { config }),
    ).toBe('pause');
  });

  it('after reflect at max retries: the final attempt once, when it is on; a verification run may end', () => {
    const maxed = { fault: { reason: 'max_retries', message: null, resumeAt: 'connect' } } as const;
    const modelRun = runConfigSchema.parse({ model: 'gpt-x' });
    expect(afterReflect(state(maxed), { config: modelRun })).toBe('final_attempt');
    expect(
      afterReflect(state({ ...maxed, finalReport: { commands: [], outcome: 'none' } }), { config: modelRun }),
    ).toBe('pause');
    expect(afterReflect(state(maxed), { config: runConfigSchema.parse({ model: 'gpt-x', finalAttempt: false }) })).toBe(
      'pause',
    );
    expect(afterReflect(state(maxed), { config: runConfigSchema.parse({ finalAttempt: true }) })).toBe('final_attempt');
    // Only used-up retries call for it; a loop that survives a retry goes to a person.
    expect(
      afterReflect(state({ fault: { reason: 'loop_detected', message: null, resumeAt: 'connect' } }), {
        config: modelRun,
      }),
    ).toBe('pause');
    expect(afterReflect(state({ finished: 'stopped' }), { config })).toBe(END);
    expect(afterFinalAttempt(state({ found: 'x' }))).toBe('advance');
    expect(afterFinalAttempt(state())).toBe('pause');
  });

  it('compile into a graph whose edges all name real nodes', () => {
    expect(() => buildBanditGraph()).not.toThrow();
  });
});
