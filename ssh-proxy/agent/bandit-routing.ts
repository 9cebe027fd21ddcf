// Where the Bandit graph goes after each node. Pure functions of the state and the run config,
// unit-tested on their own (test/ssh-proxy/bandit-routing.test.ts).
import type { RunConfig } from '../../schema/run.ts';
import { finalAttemptOn } from '../../schema/run.ts';
import type { BanditState } from './bandit-state.ts';
import { END } from '../engine/types.ts';

type Ctx = { config: RunConfig };

export const afterConnect = (s: BanditState): 'plan' | 'pause' => (s.fault ? 'pause' : 'plan');

export function afterPlan(s: BanditState): 'execute' | 'validate' | 'reflect' | 'pause' {
  if (s.fault) return 'pause';
  if (s.failure || !s.decision) return 'reflect';
  return s.decision.kind === 'run_command' ? 'execute' : 'validate';
}

export function afterExecute(s: BanditState): 'plan' | 'reflect' | 'pause' {
  if (s.fault) return 'pause';
  return s.failure ? 'reflect' : 'plan';
}

/** A proven password advances; a wrong one is another turn, unless it ended the attempt. */
export function afterValidate(s: BanditState): 'advance' | 'plan' | 'reflect' | 'pause' {
  if (s.fault) return 'pause';
  if (s.found !== null) return 'advance';
  return s.failure ? 'reflect' : 'plan';
}

export const afterAdvance = (s: BanditState, { config }: Ctx): 'connect' | typeof END =>
  s.level > config.endLevel ? END : 'connect';

/** Retries used up: one final attempt first (when on and not yet made since the last reset), then a person. */
export function afterReflect(s: BanditState, { config }: Ctx): 'plan' | 'final_attempt' | 'pause' | typeof END {
  if (s.finished) return END;
  if (!s.fault) return 'plan';
  return s.fault.reason === 'max_retries' && finalAttemptOn(config) && s.finalReport === null
    ? 'final_attempt'
    : 'pause';
}

export const afterFinalAttempt = (s: BanditState): 'advance' | 'pause' => (s.found !== null ? 'advance' : 'pause');
