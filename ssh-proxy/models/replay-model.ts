// The "model" of a verification run: no model at all. It re-plays the original run's solving commands
// (config.replay) and submits the password they print again; it makes no model calls.
import { REPLAY_MODEL } from '../../schema/run.ts';
import type { ReplayPlan } from '../../schema/run.ts';
import { replayDecision } from '../agent/replay-check.ts';
import type { AgentModel, FinalPlan, ModelAnswer, ModelDecision, PlanInput } from './agent-model.ts';

export class ReplayModel implements AgentModel {
  readonly id = REPLAY_MODEL;
  private readonly replay: ReplayPlan;

  constructor(plan: ReplayPlan) {
    this.replay = plan;
  }

  async plan(input: PlanInput): Promise<ModelAnswer<ModelDecision>> {
    return { ok: true, value: replayDecision(this.replay, input), calls: [] };
  }

  /** A verification run ends at its first failed level (reflect never asks it). */
  async reflect(): Promise<ModelAnswer<string[]>> {
    return { ok: true, value: [], calls: [] };
  }

  async finalAttempt(): Promise<ModelAnswer<FinalPlan>> {
    return { ok: true, value: { thinking: '', commands: [] }, calls: [] };
  }
}
