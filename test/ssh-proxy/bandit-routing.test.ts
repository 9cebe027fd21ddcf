// The Bandit graph's routers are pure: the same state always goes to the same node.
import { describe, expect, it } from 'vitest';
import { runConfigSchema } from '../../schema/run.ts';
import { afterAdvance, afterConnect, afterExecute, afterPlan, afterReflect, afterValidate } from '../../ssh-proxy/agent/bandit-routing.ts';
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
    for (const route of [afterConnect, afterPlan, afterExecute, afterValidate, afterReflect]) expect(route(s)).toBe('pause');
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
    expect(afterReflect(state())).toBe('plan');
    expect(afterReflect(state({ fault: { reason: 'max_retries', message: null, resumeAt: 'connect' } }))).toBe('pause');
  });

  it('compile into a graph whose edges all name real nodes', () => {
    expect(() => buildBanditGraph()).not.toThrow();
  });
});
