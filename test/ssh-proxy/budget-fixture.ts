// What the budget tests share: the real proxy and practice range with a priced provider whose endpoint is
// the fake OpenAI server (the real `openai` SDK between them), a level-0 player that runs a few distinct
// commands before it reads the readme, and the run's spent figures folded from its events as the Durable
// Object folds them.
import type { AdvanceSpend, RunCaps, Spent } from '../../schema/budget.ts';
import { NOTHING_SPENT } from '../../schema/budget.ts';
import type { Checkpoint, ProxyEvent, ProxyRequest } from '../../schema/protocol.ts';
import type { RunConfigInput } from '../../schema/run.ts';
import type { WorstCase } from '../../ssh-proxy/models/worst-case.ts';
import { promptBound, worstCase } from '../../ssh-proxy/models/worst-case.ts';
import { passwordShapedTokens } from '../../ssh-proxy/targets/target.ts';
import { advance, advanceBody } from '../support/advance-client.ts';
import type { AdvanceReply } from '../support/advance-client.ts';
import type { ChatRequest, FakeOpenAi, FakeReply } from '../support/fake-openai.ts';
import { startFakeOpenAi, textReply, toolCall } from '../support/fake-openai.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

/** The priced model's price (USD per million tokens) and its answer limit. */
export const PRICE = { input: 10, output: 20 };
export const MAX_OUTPUT_TOKENS = 100;
export const PRICED = 'priced/solver';
/** The same endpoint with no price. */
export const UNPRICED = 'priced/unpriced';

export type BudgetServices = { fake: FakeOpenAi; services: LoopbackServices; close: () => Promise<void> };

export async function startBudgetServices(): Promise<BudgetServices> {
  const fake = await startFakeOpenAi();
  const providers = {
    providers: [
      {
        name: 'priced',
        baseUrl: fake.baseUrl,
        models: [{ name: 'solver', price: PRICE, maxOutputTokens: MAX_OUTPUT_TOKENS }, { name: 'unpriced' }],
      },
    ],
  };
  const services = await startLoopbackServices({
    PROXY_SLICE_MS: '60000',
    PROVIDERS: JSON.stringify(providers),
    LLM_MAX_ATTEMPTS: '3',
    LLM_BACKOFF_MS: '5',
    LLM_BACKOFF_MAX_MS: '20',
  });
  return {
    fake,
    services,
    close: async () => {
      await services.close();
      await fake.close();
    },
  };
}

/** A request as the endpoint received it, with the answer limit the proxy now sends. */
export type SentRequest = ChatRequest & { max_tokens?: number };

/** The worst case the proxy judges a request by, worked out again from what the endpoint received. */
export function worstOf(body: SentRequest): WorstCase {
  return worstCase({ messages: body.messages, tools: body.tools, max_tokens: body.max_tokens ?? 0 }, PRICE);
}

/** Usage a real endpoint might report: a token per four bytes of prompt, 40 for the answer. */
function withUsage(reply: FakeReply, request: ChatRequest): FakeReply {
  const body = reply.body as { usage: Record<string, number> };
  const prompt = Math.ceil(promptBound(request) / 4);
  body.usage = { prompt_tokens: prompt, completion_tokens: 40, total_tokens: prompt + 40 };
  return reply;
}

/** Level 0's player: `echo step0` … `echo step{n-1}`, then `cat readme`, then the password it printed. */
export function stepsThenSolve(n: number) {
  return (request: ChatRequest): FakeReply => {
    if (!request.tools) return withUsage(textReply('- read the readme sooner'), request);
    const results = request.messages.filter((m) => m.role === 'tool');
    const found = passwordShapedTokens(String(results.at(-1)?.content ?? ''));
    if (found[0]) return withUsage(toolCall('submit_password', { password: found[0] }), request);
    const command = results.length < n ? `echo step${results.length}` : 'cat readme';
    return withUsage(toolCall('run_command', { command }, `Step ${results.length}.`), request);
  };
}

/** The run's spent figures from its events, as the Durable Object's fold counts them (wall time aside). */
export function spentFrom(events: readonly ProxyEvent[], wallSeconds = 0): Spent {
  const spent = { ...NOTHING_SPENT, wallSeconds };
  for (const e of events) {
    if (e.type === 'command') spent.commands += 1;
    if (e.type === 'llm_call') {
      spent.modelCalls += 1;
      spent.tokens += e.promptTokens + e.completionTokens;
      spent.costUsd += e.costUsd ?? 0;
    }
  }
  return spent;
}

export const ofType = <T extends ProxyEvent['type']>(events: readonly ProxyEvent[], type: T) =>
  events.filter((e): e is Extract<ProxyEvent, { type: T }> => e.type === type);
export const commandsOf = (events: readonly ProxyEvent[]) => ofType(events, 'command').map((c) => c.command);
export const nodesOf = (events: readonly ProxyEvent[]) => ofType(events, 'node').map((n) => n.name);

/** One call of a run with caps: what the endpoint was sent during it comes back with the reply. */
export async function playCall(
  b: BudgetServices,
  body: ProxyRequest,
): Promise<{ reply: AdvanceReply; sent: SentRequest[] }> {
  const before = b.fake.requests.length;
  const reply = await advance(b.services, body);
  return { reply, sent: b.fake.requests.slice(before).map((r) => r.body as SentRequest) };
}

/** A first call's body: the run's config, and its caps with nothing spent (or what `spend` says). */
export function cappedBody(
  runId: string,
  config: RunConfigInput,
  caps: RunCaps,
  spend: Partial<AdvanceSpend> = {},
): ProxyRequest {
  return { ...advanceBody(runId, config), spend: { caps, spent: NOTHING_SPENT, ...spend } };
}

/** The call after a raise: the raised caps, what the run has spent so far, and continue from the pause. */
export function raisedBody(first: ProxyRequest, paused: Checkpoint | null, events: ProxyEvent[], caps: RunCaps) {
  return {
    ...first,
    checkpoint: paused,
    resume: { action: 'continue' as const },
    spend: { caps, spent: spentFrom(events) },
  } satisfies ProxyRequest;
}
