// What the Bandit graph's nodes are given: the run's config and target, the model, the shell,
// and the outlets for events and traces. Tests pass their own.
import type { LlmStage, Resume, RunEventBody } from '../../../schema/protocol.ts';
import type { RunConfig } from '../../../schema/run.ts';
import type { BanditState } from '../bandit-state.ts';
import type { NodeContext } from '../../engine/types.ts';
import type { AgentModel, CallReport, PlanInput } from '../../models/agent-model.ts';
import type { LevelShell } from '../../ssh/session-pool.ts';
import type { ExecResult } from '../../ssh/ssh-session.ts';
import type { GameTarget } from '../../targets/target.ts';
import { capSerialised } from '../../json-fit.ts';
import { binaryPreview, looksBinary } from '../../../schema/terminal-text.ts';
import { STATE_TEXT_BYTES, visibleText } from '../state-text.ts';
import type { SpendGuard } from '../spend-guard.ts';

export type BanditDeps = {
  config: RunConfig;
  target: GameTarget;
  model: AgentModel;
  /** The model asked for the final attempt (config.knowledgeModel, else the run's model). */
  knowledge: AgentModel;
  shell: LevelShell;
  /** Sends an event to the Durable Object (the caller stamps ts). */
  emit: (event: RunEventBody) => void;
  /** The model's text while a call is written, for watchers only (never stored); tests may leave it out. */
  live?: (level: number, stage: LlmStage, text: string) => void;
  /** Hands the raw request and response of a model call to the worker's llm_calls table. */
  trace: (callId: string, request: unknown, response: unknown) => void;
  now: () => number;
  /** The run's caps within this call: asked before each model request and each command. */
  budget: SpendGuard;
};

/** What a Bandit node is given: its dependencies, the signal, and a person's answer, validated by the route. */
export type BanditContext = NodeContext<BanditDeps, Resume, BanditState>;

/**
 * A command's output as the history keeps it and the model sees it: each stream made visible (binary
 * as a short preview with its size), then head and tail within STATE_TEXT_BYTES.output serialised
 * bytes. The output event keeps the bytes as they came.
 */
export function historyOutput(
  result: Pick<ExecResult, 'stdout' | 'stderr' | 'bytes'>,
  stderrLabel = '\n[stderr]\n',
): string {
  const view = (text: string, bytes: number | undefined) =>
    looksBinary(text) ? binaryPreview(text, bytes) : visibleText(text);
  const stdout = view(result.stdout, result.bytes?.stdout);
  const seen = result.stderr ? `${stdout}${stderrLabel}${view(result.stderr, result.bytes?.stderr)}` : stdout;
  return capSerialised(seen, STATE_TEXT_BYTES.output);
}

/** What the model is shown, from the state. */
export function planInput(s: BanditState, ctx: BanditContext): PlanInput {
  return {
    level: s.level,
    goal: ctx.target.goal(s.level),
    currentPassword: s.password ?? '',
    lessons: s.lessons,
    history: s.history,
    attempt: Math.max(1, s.attempt),
    budgetLeft: Math.max(0, ctx.config.budget - s.spent),
    tried: s.tried,
  };
}

/** The output event of a command that ran; execute and final_attempt both send it. */
export function emitOutput(ctx: BanditContext, level: number, commandId: string, result: ExecResult): void {
  const { stdout, stderr, exitCode, durationMs, truncated } = result;
  ctx.emit({ type: 'output', level, commandId, stdout, stderr, exitCode, durationMs, truncated });
}

/** Emits an llm_call event and a trace per model request; returns the id counter, moved on. */
export function reportCalls(
  s: BanditState,
  ctx: BanditContext,
  calls: readonly CallReport[],
  model: AgentModel = ctx.model,
): number {
  let serial = s.serial;
  for (const call of calls) {
    serial += 1;
    const callId = `llm_${serial}`;
    ctx.emit({
      type: 'llm_call',
      callId,
      model: model.id,
      stage: call.stage,
      level: s.level,
      promptTokens: call.promptTokens,
      completionTokens: call.completionTokens,
      latencyMs: call.latencyMs,
      costUsd: call.costUsd,
      errorClass: call.errorClass,
      ...(call.ttftMs !== null ? { ttftMs: call.ttftMs } : {}),
    });
    ctx.trace(callId, call.request, call.response);
  }
  return serial;
}
