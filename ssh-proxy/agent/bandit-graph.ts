// The Bandit agent, top to bottom. Nodes live in ../nodes, routers in ./bandit-routing.ts.
//
//  START → connect → plan ─run_command──→ execute → plan
//                     │ ─submit_password→ validate ─ok→ advance ─more levels→ connect
//                     │                           └wrong→ plan        └last level→ END
//                     └ budget spent / loop ─→ reflect ─retries left→ plan (fresh attempt + lessons)
//                                                       ├max retries→ final_attempt ─solved→ advance
//                                                       │              (once per reset)  └not→ pause
//                                                       ├max retries, final attempt off or made→ pause ⇒ interrupt
//                                                       └verification run's failed level→ END
//  pause, resumed: continue{hint?} → connect/plan/reflect   password → validate   stop → END
//  every checkpoint: too large for its line → its largest text cut → pause (state_too_large)
//  plan, reflect, final_attempt, execute: a step that could cross a cap → pause (budget_exceeded), continue
//  runs it once; a model call needing more of the batch's share → the same node, on the next call
import { advance } from './nodes/advance.ts';
import type { BanditDeps } from './nodes/bandit-deps.ts';
import { connect } from './nodes/connect.ts';
import { execute } from './nodes/execute.ts';
import { finalAttempt } from './nodes/final-attempt.ts';
import { PAUSE_ENDS, pause } from './nodes/pause.ts';
import { plan } from './nodes/plan.ts';
import { reflect } from './nodes/reflect.ts';
import { validate } from './nodes/validate.ts';
import {
  afterAdvance,
  afterConnect,
  afterExecute,
  afterFinalAttempt,
  afterPlan,
  afterReflect,
  afterValidate,
} from './bandit-routing.ts';
import type { BanditState } from './bandit-state.ts';
import { BANDIT_STATE_VERSION, banditStateSchema } from './bandit-state.ts';
import { fitBanditCheckpoint } from './state-limit.ts';
import type { PendingAction, Resume } from '../../schema/protocol.ts';
import type { CompiledGraph } from '../engine/compiled-graph.ts';
import { StateGraph } from '../engine/state-graph.ts';
import { END, START } from '../engine/types.ts';

/** The compiled Bandit graph: a person's answer is a Resume, the question a pause asks a PendingAction. */
export type BanditGraph = CompiledGraph<BanditState, BanditDeps, Resume, PendingAction>;

export function buildBanditGraph(): BanditGraph {
  return (
    new StateGraph<BanditState, BanditDeps, Resume, PendingAction>(banditStateSchema, BANDIT_STATE_VERSION)
      .addNode('connect', connect)
      .addNode('plan', plan)
      .addNode('execute', execute)
      .addNode('validate', validate)
      .addNode('advance', advance)
      .addNode('reflect', reflect)
      .addNode('final_attempt', finalAttempt)
      .addNode('pause', pause, { ends: PAUSE_ENDS })
      .addEdge(START, 'connect')
      .addConditionalEdges('connect', afterConnect, ['plan', 'pause'])
      .addConditionalEdges('plan', afterPlan, ['execute', 'validate', 'reflect', 'pause'])
      .addConditionalEdges('execute', afterExecute, ['plan', 'reflect', 'pause'])
      .addConditionalEdges('validate', afterValidate, ['advance', 'plan', 'reflect', 'pause'])
      .addConditionalEdges('advance', afterAdvance, ['connect', END])
      .addConditionalEdges('reflect', afterReflect, ['plan', 'final_attempt', 'pause', END])
      .addConditionalEdges('final_attempt', afterFinalAttempt, ['advance', 'pause'])
      // A checkpoint too large for its line is cut, and the run pauses with state_too_large.
      .compile({ fit: fitBanditCheckpoint })
  );
}
