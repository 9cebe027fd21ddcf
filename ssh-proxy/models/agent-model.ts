// The one interface every model implements, the offline baseline and any OpenAI-compatible one:
// plan the next move of an attempt, and reflect on a failed attempt.
import type { BudgetBreach } from '../../schema/budget.ts';
import type { Lesson, LlmErrorClass, LlmStage } from '../../schema/protocol.ts';
import type { Turn } from '../agent/bandit-state.ts';
import type { WorstCase } from './worst-case.ts';

/** What the model sees when choosing the next move. */
export type PlanInput = {
  level: number;
  goal: string;
  /** The password of the level the agent is logged in as (it may need to send it somewhere). */
  currentPassword: string;
  lessons: readonly Lesson[];
  history: readonly Turn[];
  attempt: number;
  budgetLeft: number;
  /** Candidates already refused at this level. */
  tried: readonly string[];
};

export type ReflectInput = PlanInput & { failure: string };

/** What the final attempt is given: everything learned, and the last commands of each attempt. */
export type FinalInput = PlanInput & { attempts: readonly { attempt: number; commands: readonly string[] }[] };

/** The final attempt's answer: a short sequence of commands, run in order. */
export type FinalPlan = { thinking: string; commands: string[] };

/** The most commands a final attempt may run. */
export const FINAL_MAX_COMMANDS = 5;

/** The model's choice. `give_up` ends the attempt early (the baseline's "I have no idea left"). */
export type ModelDecision =
  | { kind: 'run_command'; callId: string; thinking: string; command: string }
  | { kind: 'submit_password'; callId: string; thinking: string; password: string }
  | { kind: 'give_up'; thinking: string };

/** One request to the model, successful or not, as the llm_call event and the trace report it. */
export type CallReport = {
  stage: LlmStage;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  /** Milliseconds to the first streamed token; null when the call did not stream. */
  ttftMs: number | null;
  costUsd: number | null;
  errorClass: LlmErrorClass | null;
  request: unknown;
  response: unknown;
};

/**
 * Why a request was not sent: it could cross a cap (`breach`, the run pauses), or it needs more of the
 * batch's dollars than this call was given (`yield`, the caller asks the batch for `needUsd` and calls again).
 */
export type BudgetStop =
  | { kind: 'breach'; breach: BudgetBreach; message: string }
  | { kind: 'yield'; needUsd: number; message: string };

/**
 * The run's caps as a model sees them: asked before each request it would send (retries included)
 * with that request's worst case, and told of each request made, so the next is judged with it counted.
 */
export interface CallBudget {
  /** Whether the call is under a cap: only then does a request carry a limit on its answer (and need one). */
  readonly bounded: boolean;
  admit(worst: WorstCase): BudgetStop | null;
  count(report: CallReport): void;
}

/** Why the model could not answer; `message` tells a person what to fix. `budget`: nothing was sent. */
export type ModelFailure =
  | { errorClass: LlmErrorClass | 'aborted'; message: string }
  | { errorClass: 'budget'; message: string; stop: BudgetStop };

export type ModelAnswer<T> =
  | { ok: true; value: T; calls: CallReport[] }
  | { ok: false; failure: ModelFailure; calls: CallReport[] };

export interface AgentModel {
  readonly id: string;
  /**
   * `live` is handed the model's text as it is written, when the model streams; `budget`, when given, is
   * asked before each request and told of each (every method takes it last).
   */
  plan(
    input: PlanInput,
    signal: AbortSignal,
    live?: (text: string) => void,
    budget?: CallBudget,
  ): Promise<ModelAnswer<ModelDecision>>;
  /** Up to three short lessons learned from a failed attempt. */
  reflect(input: ReflectInput, signal: AbortSignal, budget?: CallBudget): Promise<ModelAnswer<string[]>>;
  /** One last best-effort command sequence after the level's retries are used up. */
  finalAttempt(
    input: FinalInput,
    signal: AbortSignal,
    live?: (text: string) => void,
    budget?: CallBudget,
  ): Promise<ModelAnswer<FinalPlan>>;
}
