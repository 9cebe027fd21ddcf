// The model of a "human" run: there is none. The graph never asks it (connect pauses with
// human_turn at every level, and the person plays in the terminal); if anything did, it would get a
// failure without a model call, so a human run never has an llm_call, a cost or a network request.
import type { LlmErrorClass } from '../../schema/protocol.ts';
import { HUMAN_MODEL } from '../../schema/run.ts';
import type { AgentModel, ModelAnswer } from './agent-model.ts';

const answer = <T>(): Promise<ModelAnswer<T>> =>
  Promise.resolve({
    ok: false,
    failure: {
      errorClass: 'unknown' satisfies LlmErrorClass,
      message: 'a "human" run has no model; the person plays each level in the terminal',
    },
    calls: [],
  });

/** The "human" model: no agent, no cost, no network. */
export class HumanModel implements AgentModel {
  readonly id = HUMAN_MODEL;
  plan = answer;
  reflect = answer;
  finalAttempt = answer;
}
