// A model behind any OpenAI-compatible endpoint, through the official `openai` SDK. The SDK's own
// retries are off: each try is reported as an llm_call, and the backoff honours Retry-After.
import OpenAI from 'openai';
import { describeIssues } from '../../schema/issues.ts';
import type { LlmErrorClass } from '../../schema/protocol.ts';
import type { AgentModel, CallReport, FinalInput, FinalPlan, ModelAnswer, ModelDecision, PlanInput, ReflectInput } from './agent-model.ts';
import { backoffDelay, sleep } from './backoff.ts';
import type { ClassifiedError } from './llm-errors.ts';
import { classifyLlmError } from './llm-errors.ts';
import { FINAL_TOOL, FINAL_TOOL_NAME, finalCommandsArgsSchema, finalMessages, parseLessons, planMessages, reflectMessages, runCommandArgsSchema, submitPasswordArgsSchema, TOOLS } from './openai-prompts.ts';

export type OpenAiSettings = {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  /** Tries per call, the first included. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** USD per million tokens, when known. */
  prices: Readonly<Record<string, { input: number; output: number }>>;
};

type Completion = OpenAI.Chat.Completions.ChatCompletion;
type Parsed<T> = { ok: true; value: T } | { ok: false; errorClass: LlmErrorClass; message: string };

export class OpenAiModel implements AgentModel {
  private readonly client: OpenAI | null;
  readonly id: string;
  private readonly settings: OpenAiSettings;

  constructor(id: string, settings: OpenAiSettings) {
    this.id = id;
    this.settings = settings;
    this.client = settings.apiKey ? new OpenAI({ apiKey: settings.apiKey, baseURL: settings.baseUrl, maxRetries: 0, timeout: settings.timeoutMs }) : null;
  }

  plan(input: PlanInput, signal: AbortSignal): Promise<ModelAnswer<ModelDecision>> {
    const request = { model: this.id, messages: planMessages(input), tools: TOOLS, tool_choice: 'auto' as const };
    return this.call('plan', request, signal, (c) => this.parseDecision(c));
  }

  reflect(input: ReflectInput, signal: AbortSignal): Promise<ModelAnswer<string[]>> {
    const request = { model: this.id, messages: reflectMessages(input) };
    return this.call('reflect', request, signal, (c) => {
      const lessons = parseLessons(c.choices[0]?.message?.content ?? '');
      return lessons.length ? { ok: true, value: lessons } : { ok: false, errorClass: 'empty_response', message: `${this.id} wrote no lessons` };
    });
  }

  finalAttempt(input: FinalInput, signal: AbortSignal): Promise<ModelAnswer<FinalPlan>> {
    const request = {
      model: this.id,
      messages: finalMessages(input),
      tools: [FINAL_TOOL],
      tool_choice: { type: 'function' as const, function: { name: FINAL_TOOL_NAME } },
    };
    return this.call('final', request, signal, (c) => this.parseFinal(c));
  }

  private async call<T>(
    stage: CallReport['stage'],
    request: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
    signal: AbortSignal,
    parse: (completion: Completion) => Parsed<T>,
  ): Promise<ModelAnswer<T>> {
    const calls: CallReport[] = [];
    const report = (fields: Partial<CallReport> & Pick<CallReport, 'latencyMs' | 'errorClass' | 'response'>): void => {
      calls.push({ stage, promptTokens: 0, completionTokens: 0, costUsd: null, request, ...fields });
    };
    if (!this.client) {
      report({ latencyMs: 0, errorClass: 'missing_key', response: null });
      const message = `OPENAI_API_KEY is not set in the proxy's environment; set it to use "${this.id}", or choose the "baseline" model`;
      return { ok: false, failure: { errorClass: 'missing_key', message }, calls };
    }
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let failure: ClassifiedError;
      try {
        const completion = await this.client.chat.completions.create(request, { signal });
        const parsed = parse(completion);
        const promptTokens = completion.usage?.prompt_tokens ?? 0;
        const completionTokens = completion.usage?.completion_tokens ?? 0;
        report({
          latencyMs: Math.round(performance.now() - started),
          promptTokens,
          completionTokens,
          costUsd: this.cost(promptTokens, completionTokens),
          errorClass: parsed.ok ? null : parsed.errorClass,
          response: completion,
        });
        if (parsed.ok) return { ok: true, value: parsed.value, calls };
        failure = { errorClass: parsed.errorClass, retryable: true, message: parsed.message };
      } catch (err) {
        failure = classifyLlmError(err, this.id, this.settings.baseUrl);
        if (failure.errorClass === 'aborted') return { ok: false, failure, calls };
        report({ latencyMs: Math.round(performance.now() - started), errorClass: failure.errorClass, response: { error: failure.message } });
      }
      if (!failure.retryable || attempt >= this.settings.maxAttempts) {
        const tries = attempt > 1 ? ` (${attempt} tries)` : '';
        return { ok: false, failure: { errorClass: failure.errorClass, message: failure.message + tries }, calls };
      }
      const delay =
        failure.retryAfterMs !== undefined
          ? Math.min(failure.retryAfterMs, this.settings.backoffMaxMs * 4)
          : backoffDelay(attempt, this.settings.backoffBaseMs, this.settings.backoffMaxMs);
      if (!(await sleep(delay, signal))) return { ok: false, failure: { errorClass: 'aborted', message: 'the call was aborted' }, calls };
    }
  }

  private parseDecision(completion: Completion): Parsed<ModelDecision> {
    const message = completion.choices?.[0]?.message;
    if (!message) return { ok: false, errorClass: 'empty_response', message: `${this.id} returned no message; try again or pick another model` };
    const thinking = (message.content ?? '').trim();
    const call = message.tool_calls?.find((c) => c.type === 'function');
    // Cut at the output limit: whatever came is incomplete, whether text or half a tool call.
    if (completion.choices[0]?.finish_reason === 'length') {
      return { ok: false, errorClass: 'truncated_response', message: `${this.id}'s answer was cut off at its output limit before a complete tool call; pick a model with a larger output limit` };
    }
    if (!call || call.type !== 'function') {
      return thinking
        ? { ok: false, errorClass: 'malformed_response', message: `${this.id} answered in text without calling run_command or submit_password; pick a model that supports tool calls` }
        : { ok: false, errorClass: 'empty_response', message: `${this.id} returned an empty answer; try again or pick another model` };
    }
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments || '{}');
    } catch {
      return { ok: false, errorClass: 'malformed_response', message: `${this.id} sent ${call.function.name} arguments that are not JSON` };
    }
    const callId = call.id || `call_${completion.id}`;
    if (call.function.name === 'run_command') {
      const parsed = runCommandArgsSchema.safeParse(args);
      if (!parsed.success) return { ok: false, errorClass: 'malformed_response', message: `${this.id} sent bad run_command arguments: ${describeIssues(parsed.error)}` };
      return { ok: true, value: { kind: 'run_command', callId, thinking, command: parsed.data.command } };
    }
    if (call.function.name === 'submit_password') {
      const parsed = submitPasswordArgsSchema.safeParse(args);
      if (!parsed.success) return { ok: false, errorClass: 'malformed_response', message: `${this.id} sent bad submit_password arguments: ${describeIssues(parsed.error)}` };
      return { ok: true, value: { kind: 'submit_password', callId, thinking, password: parsed.data.password } };
    }
    return { ok: false, errorClass: 'malformed_response', message: `${this.id} called an unknown tool "${call.function.name}"` };
  }

  private parseFinal(completion: Completion): Parsed<FinalPlan> {
    const message = completion.choices?.[0]?.message;
    const call = message?.tool_calls?.find((c) => c.type === 'function');
    if (!call || call.type !== 'function' || call.function.name !== FINAL_TOOL_NAME) {
      return { ok: false, errorClass: 'malformed_response', message: `${this.id} did not call final_commands for the final attempt` };
    }
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments || '{}');
    } catch {
      return { ok: false, errorClass: 'malformed_response', message: `${this.id} sent final_commands arguments that are not JSON` };
    }
    const parsed = finalCommandsArgsSchema.safeParse(args);
    if (!parsed.success) return { ok: false, errorClass: 'malformed_response', message: `${this.id} sent bad final_commands arguments: ${describeIssues(parsed.error)}` };
    return { ok: true, value: { thinking: (message?.content ?? '').trim(), commands: parsed.data.commands } };
  }

  private cost(promptTokens: number, completionTokens: number): number | null {
    const price = this.settings.prices[this.id];
    return price ? (promptTokens * price.input + completionTokens * price.output) / 1_000_000 : null;
  }
}
