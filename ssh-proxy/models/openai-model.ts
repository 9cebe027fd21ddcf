// A model behind any OpenAI-compatible endpoint, through the official `openai` SDK. The SDK's own
// retries are off: each try is reported as an llm_call, and the backoff honours Retry-After. Calls
// stream when the provider does, so watchers see the thinking as it is written; an endpoint that
// refuses to stream, or answers a streaming request whole, is called plainly from then on. A run under
// a cap limits each answer (the provider's outputLimit field) and is asked before each request is sent
// (worst-case.ts); a run without caps sends no limit, so the model's own holds.
import OpenAI from 'openai';
import { describeIssues } from '../../schema/issues.ts';
import type { LlmErrorClass } from '../../schema/protocol.ts';
import type {
  AgentModel,
  CallBudget,
  CallReport,
  FinalInput,
  FinalPlan,
  ModelAnswer,
  ModelDecision,
  PlanInput,
  ReflectInput,
} from './agent-model.ts';
import { backoffDelay, sleep } from './backoff.ts';
import type { ClassifiedError } from './llm-errors.ts';
import { classifyLlmError } from './llm-errors.ts';
import { readChatStream } from './chat-stream.ts';
import type { Price, Provider, ProviderModel } from './providers.ts';
import { promptBound, worstCase } from './worst-case.ts';
import {
  FINAL_TOOL,
  FINAL_TOOL_NAME,
  finalCommandsArgsSchema,
  finalMessages,
  parseLessons,
  planMessages,
  reflectMessages,
  runCommandArgsSchema,
  submitPasswordArgsSchema,
  TOOLS,
} from './openai-prompts.ts';

/** How every model call is made, whatever its provider. */
export type CallSettings = {
  timeoutMs: number;
  /** Tries per call, the first included. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
};

type Completion = OpenAI.Chat.Completions.ChatCompletion;
type Request = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type StreamingRequest = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
/** Where a call's text goes while it is written. */
export type TextSink = (text: string) => void;
type Parsed<T> = { ok: true; value: T } | { ok: false; errorClass: LlmErrorClass; message: string };

export class OpenAiModel implements AgentModel {
  private readonly client: OpenAI | null;
  readonly id: string;
  private readonly remote: string;
  private readonly provider: Provider;
  private readonly settings: CallSettings;
  private readonly price: Price | null;
  /** Sent as `max_tokens` with every request. */
  private readonly maxOutputTokens: number;
  /** Cleared the first time the endpoint shows it cannot stream. */
  private streaming: boolean;

  constructor(model: ProviderModel, provider: Provider, settings: CallSettings) {
    this.id = model.id;
    this.remote = model.remote;
    this.provider = provider;
    this.settings = settings;
    this.price = model.price;
    this.maxOutputTokens = model.maxOutputTokens;
    this.streaming = provider.stream;
    // An endpoint without keys (Ollama, a local vLLM) still gets a placeholder: the SDK requires one.
    const apiKey = provider.keyEnv ? provider.apiKey : 'none';
    this.client = apiKey
      ? new OpenAI({ apiKey, baseURL: provider.baseUrl, maxRetries: 0, timeout: settings.timeoutMs })
      : null;
  }

  plan(
    input: PlanInput,
    signal: AbortSignal,
    live?: TextSink,
    budget?: CallBudget,
  ): Promise<ModelAnswer<ModelDecision>> {
    const request = {
      model: this.remote,
      messages: planMessages(input),
      tools: TOOLS,
      tool_choice: 'auto' as const,
    };
    return this.call('plan', request, { signal, live, budget }, (c) => this.parseDecision(c));
  }

  reflect(input: ReflectInput, signal: AbortSignal, budget?: CallBudget): Promise<ModelAnswer<string[]>> {
    const request = { model: this.remote, messages: reflectMessages(input) };
    return this.call('reflect', request, { signal, budget }, (c) => {
      const lessons = parseLessons(c.choices[0]?.message?.content ?? '');
      return lessons.length
        ? { ok: true, value: lessons }
        : { ok: false, errorClass: 'empty_response', message: `${this.id} wrote no lessons` };
    });
  }

  finalAttempt(
    input: FinalInput,
    signal: AbortSignal,
    live?: TextSink,
    budget?: CallBudget,
  ): Promise<ModelAnswer<FinalPlan>> {
    const request = {
      model: this.remote,
      messages: finalMessages(input),
      tools: [FINAL_TOOL],
      tool_choice: { type: 'function' as const, function: { name: FINAL_TOOL_NAME } },
    };
    return this.call('final', request, { signal, live, budget }, (c) => this.parseFinal(c));
  }

  private async call<T>(
    stage: CallReport['stage'],
    unbounded: Request,
    how: { signal: AbortSignal; live?: TextSink; budget?: CallBudget },
    parse: (completion: Completion) => Parsed<T>,
  ): Promise<ModelAnswer<T>> {
    const { signal, live, budget } = how;
    // Under a cap the answer is limited, so the request has a worst case; otherwise the model's own limit holds.
    const request: Request = budget?.bounded
      ? { ...unbounded, [this.provider.outputLimit]: this.maxOutputTokens }
      : unbounded;
    const worst = worstCase({ ...request, max_tokens: this.maxOutputTokens }, this.price);
    const calls: CallReport[] = [];
    // The request as it was sent (streaming adds its fields), so the record matches what the endpoint got.
    let sent: Request | StreamingRequest = request;
    const report = (fields: Partial<CallReport> & Pick<CallReport, 'latencyMs' | 'errorClass' | 'response'>): void => {
      const call: CallReport = {
        stage,
        promptTokens: 0,
        completionTokens: 0,
        costUsd: null,
        ttftMs: null,
        request: sent,
        ...fields,
      };
      calls.push(call);
      budget?.count(call);
    };
    for (let attempt = 1; ; attempt++) {
      // Each try is judged before it is sent, with the tries before it counted: a stop sends nothing.
      const stop = budget?.admit(worst) ?? null;
      if (stop) return { ok: false, failure: { errorClass: 'budget', message: stop.message, stop }, calls };
      if (!this.client) {
        report({ latencyMs: 0, errorClass: 'missing_key', response: null });
        const message = `${this.provider.keyEnv} is not set in the proxy's environment; set it to use "${this.id}", or choose the "baseline" model`;
        return { ok: false, failure: { errorClass: 'missing_key', message }, calls };
      }
      const started = performance.now();
      let failure: ClassifiedError;
      try {
        const { completion, ttftMs } = await this.complete(
          this.client,
          request,
          signal,
          started,
          live,
          (r) => (sent = r),
        );
        const parsed = parse(completion);
        // An endpoint that reports no usage: under a cap the request is charged its worst case (what it could
        // have cost), so a cap still binds; without one it counts nothing, as before.
        const unreported = !completion.usage && budget?.bounded === true;
        const promptTokens = completion.usage?.prompt_tokens ?? (unreported ? promptBound(request) : 0);
        const completionTokens = completion.usage?.completion_tokens ?? (unreported ? this.maxOutputTokens : 0);
        report({
          latencyMs: Math.round(performance.now() - started),
          promptTokens,
          completionTokens,
          costUsd: this.cost(promptTokens, completionTokens),
          ttftMs,
          errorClass: parsed.ok ? null : parsed.errorClass,
          response: completion,
        });
        if (parsed.ok) return { ok: true, value: parsed.value, calls };
        failure = { errorClass: parsed.errorClass, retryable: true, message: parsed.message };
      } catch (err) {
        failure = classifyLlmError(err, this.id, this.provider);
        if (failure.errorClass === 'aborted') return { ok: false, failure, calls };
        report({
          latencyMs: Math.round(performance.now() - started),
          errorClass: failure.errorClass,
          response: { error: failure.message },
        });
      }
      if (!failure.retryable || attempt >= this.settings.maxAttempts) {
        const tries = attempt > 1 ? ` (${attempt} tries)` : '';
        return { ok: false, failure: { errorClass: failure.errorClass, message: failure.message + tries }, calls };
      }
      const delay =
        failure.retryAfterMs !== undefined
          ? Math.min(failure.retryAfterMs, this.settings.backoffMaxMs * 4)
          : backoffDelay(attempt, this.settings.backoffBaseMs, this.settings.backoffMaxMs);
      if (!(await sleep(delay, signal)))
        return { ok: false, failure: { errorClass: 'aborted', message: 'the call was aborted' }, calls };
    }
  }

  /**
   * One request, streamed when the endpoint streams. A refusal of `stream` (HTTP 400/422 naming it) or an answer
   * that is not a stream turns streaming off for this model and asks again plainly, once.
   */
  private async complete(
    client: OpenAI,
    request: Request,
    signal: AbortSignal,
    started: number,
    live: TextSink | undefined,
    sending: (request: Request | StreamingRequest) => void,
  ): Promise<{ completion: Completion; ttftMs: number | null }> {
    if (this.streaming) {
      try {
        const streaming: StreamingRequest = { ...request, stream: true, stream_options: { include_usage: true } };
        sending(streaming);
        const stream = await client.chat.completions.create(streaming, { signal });
        const streamed = await readChatStream(stream, started, live);
        if (streamed.chunks > 0) return { completion: streamed.completion, ttftMs: streamed.ttftMs };
      } catch (err) {
        // Only a refusal that is about streaming: a 400 for a long prompt must stay that error.
        const aboutStreaming =
          err instanceof OpenAI.APIError && (err.status === 400 || err.status === 422) && /stream/i.test(err.message);
        if (!aboutStreaming) throw err;
      }
      console.warn(
        `ssh-proxy: ${this.provider.baseUrl} did not stream ${this.remote}; calling it without streaming from now on`,
      );
      this.streaming = false;
    }
    sending(request);
    const completion = await client.chat.completions.create(request, { signal });
    const text = completion.choices?.[0]?.message?.content;
    if (text) live?.(text);
    return { completion, ttftMs: null };
  }

  private parseDecision(completion: Completion): Parsed<ModelDecision> {
    const message = completion.choices?.[0]?.message;
    if (!message)
      return {
        ok: false,
        errorClass: 'empty_response',
        message: `${this.id} returned no message; try again or pick another model`,
      };
    const thinking = (message.content ?? '').trim();
    const call = message.tool_calls?.find((c) => c.type === 'function');
    // Cut at the output limit: whatever came is incomplete, whether text or half a tool call.
    if (completion.choices[0]?.finish_reason === 'length') {
      return {
        ok: false,
        errorClass: 'truncated_response',
        message: `${this.id}'s answer was cut off at its output limit before a complete tool call; pick a model with a larger output limit`,
      };
    }
    if (call?.type !== 'function') {
      return thinking
        ? {
            ok: false,
            errorClass: 'malformed_response',
            message: `${this.id} answered in text without calling run_command or submit_password; pick a model that supports tool calls`,
          }
        : {
            ok: false,
            errorClass: 'empty_response',
            message: `${this.id} returned an empty answer; try again or pick another model`,
          };
    }
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments || '{}');
    } catch {
      return {
        ok: false,
        errorClass: 'malformed_response',
        message: `${this.id} sent ${call.function.name} arguments that are not JSON`,
      };
    }
    const callId = call.id || `call_${completion.id}`;
    if (call.function.name === 'run_command') {
      const parsed = runCommandArgsSchema.safeParse(args);
      if (!parsed.success)
        return {
          ok: false,
          errorClass: 'malformed_response',
          message: `${this.id} sent bad run_command arguments: ${describeIssues(parsed.error)}`,
        };
      return { ok: true, value: { kind: 'run_command', callId, thinking, command: parsed.data.command } };
    }
    if (call.function.name === 'submit_password') {
      const parsed = submitPasswordArgsSchema.safeParse(args);
      if (!parsed.success)
        return {
          ok: false,
          errorClass: 'malformed_response',
          message: `${this.id} sent bad submit_password arguments: ${describeIssues(parsed.error)}`,
        };
      return { ok: true, value: { kind: 'submit_password', callId, thinking, password: parsed.data.password } };
    }
    return {
      ok: false,
      errorClass: 'malformed_response',
      message: `${this.id} called an unknown tool "${call.function.name}"`,
    };
  }

  private parseFinal(completion: Completion): Parsed<FinalPlan> {
    const message = completion.choices?.[0]?.message;
    const call = message?.tool_calls?.find((c) => c.type === 'function');
    if (call?.type !== 'function' || call.function.name !== FINAL_TOOL_NAME) {
      return {
        ok: false,
        errorClass: 'malformed_response',
        message: `${this.id} did not call final_commands for the final attempt`,
      };
    }
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments || '{}');
    } catch {
      return {
        ok: false,
        errorClass: 'malformed_response',
        message: `${this.id} sent final_commands arguments that are not JSON`,
      };
    }
    const parsed = finalCommandsArgsSchema.safeParse(args);
    if (!parsed.success)
      return {
        ok: false,
        errorClass: 'malformed_response',
        message: `${this.id} sent bad final_commands arguments: ${describeIssues(parsed.error)}`,
      };
    return { ok: true, value: { thinking: (message?.content ?? '').trim(), commands: parsed.data.commands } };
  }

  private cost(promptTokens: number, completionTokens: number): number | null {
    const price = this.price;
    return price ? (promptTokens * price.input + completionTokens * price.output) / 1_000_000 : null;
  }
}
