// A run's caps, kept by the real proxy against the real practice range, with a priced model behind the
// fake OpenAI endpoint: each cap pauses the run (budget_exceeded) before the step that would cross it,
// never after, and a continue with the cap raised goes on from there without repeating a step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BudgetBreach } from '../../schema/budget.ts';
import type { Checkpoint, ProxyEvent } from '../../schema/protocol.ts';
import { banditStateSchema } from '../../ssh-proxy/agent/bandit-state.ts';
import type { BudgetServices, SentRequest } from './budget-fixture.ts';
import {
  cappedBody,
  commandsOf,
  MAX_OUTPUT_TOKENS,
  nodesOf,
  ofType,
  PRICED,
  playCall,
  raisedBody,
  spentFrom,
  startBudgetServices,
  stepsThenSolve,
  worstOf,
} from './budget-fixture.ts';

let b: BudgetServices;
let serial = 0;
beforeAll(async () => {
  b = await startBudgetServices();
});
afterAll(() => b.close());

const runId = () => `run_budgetcaps${String(++serial).padStart(12, '0')}`;
const stateOf = (checkpoint: Checkpoint | null) => banditStateSchema.parse(checkpoint?.state);

/**
 * Every request sent stayed within `limit` at its worst (what was spent before it, plus its worst case),
 * and the one refused would have crossed it: the pause came at exactly the step that would cross.
 */
function expectPausedAtTheCrossing(
  events: ProxyEvent[],
  sent: SentRequest[],
  breach: BudgetBreach,
  figure: (spentBefore: ReturnType<typeof spentFrom>, worst: ReturnType<typeof worstOf>) => number,
): void {
  const calls = ofType(events, 'llm_call');
  expect(sent).toHaveLength(calls.length);
  sent.forEach((request, i) => {
    const before = spentFrom(events.filter((e) => e.type !== 'llm_call' || calls.indexOf(e) < i));
    expect(figure(before, worstOf(request))).toBeLessThanOrEqual(breach.limit);
  });
  expect(breach.spent).toBeLessThanOrEqual(breach.limit);
  expect(breach.spent + breach.next).toBeGreaterThan(breach.limit);
}

describe('run caps, kept by the proxy', () => {
  it('maxCostUsd falling mid-level pauses before the request that would cross it; a raise goes on', async () => {
    b.fake.respond(stepsThenSolve(12));
    const cap = 0.1;
    const body = cappedBody(runId(), { model: PRICED, endLevel: 0 }, { maxCostUsd: cap });
    const { reply, sent } = await playCall(b, body);
    expect(reply.end).toMatchObject({ outcome: 'interrupted', interrupt: { reason: 'budget_exceeded', level: 0 } });
    const breach = reply.end.interrupt?.breach as BudgetBreach;
    expect(breach).toMatchObject({ cap: 'maxCostUsd', limit: cap });
    // Mid-level: some commands ran, the level is not solved, and the pause says why in words.
    expect(commandsOf(reply.events).length).toBeGreaterThan(1);
    expect(ofType(reply.events, 'level_complete')).toEqual([]);
    expect(reply.end.interrupt?.lastError).toMatch(/cost cap: \$0\.\d+ spent of \$0\.1000/);
    const spent = ofType(reply.events, 'llm_call').reduce((sum, c) => sum + (c.costUsd ?? 0), 0);
    expect(spent).toBeLessThanOrEqual(cap);
    expect(breach.spent).toBeCloseTo(spent, 12);
    expectPausedAtTheCrossing(reply.events, sent, breach, (before, worst) => before.costUsd + (worst.costUsd ?? 0));
    expect(stateOf(reply.last).fault?.resumeAt).toBe('plan');
    const actual = spent / sent.length;
    console.log(
      `cost cap $${cap}: ${sent.length} calls sent, $${spent.toFixed(4)} spent (mean $${actual.toFixed(4)} a call); refused: worst $${breach.next.toFixed(4)}`,
    );
    // Every request carried the model's answer limit.
    expect(sent.every((r) => r.max_tokens === MAX_OUTPUT_TOKENS)).toBe(true);
    const traced = reply.lines.flatMap((l) => (l.type === 'trace' ? [l.request as { max_tokens?: number }] : []));
    expect(traced.map((r) => r.max_tokens)).toEqual(sent.map(() => MAX_OUTPUT_TOKENS));

    const raised = await playCall(b, raisedBody(body, reply.last, reply.events, { maxCostUsd: 10 }));
    expect(raised.reply.end.outcome).toBe('completed');
    expect(nodesOf(raised.reply.events).slice(0, 2)).toEqual(['pause', 'plan']);
    // The request refused is the one sent now: its worst case is the breach's `next`, to the last digit.
    expect(worstOf(raised.sent[0]!).costUsd).toBeCloseTo(breach.next, 12);
    // Nothing was repeated: each step ran once, in order, across the pause.
    const all = [...reply.events, ...raised.reply.events];
    expect(commandsOf(all)).toEqual([...Array.from({ length: 12 }, (_, i) => `echo step${i}`), 'cat readme']);
  });

  it('maxCommands pauses before the command that would cross it, the decision kept; continue runs it', async () => {
    b.fake.respond(stepsThenSolve(4));
    const body = cappedBody(runId(), { model: PRICED, endLevel: 0 }, { maxCommands: 2 });
    const { reply, sent } = await playCall(b, body);
    expect(reply.end.interrupt).toMatchObject({
      reason: 'budget_exceeded',
      breach: { cap: 'maxCommands', spent: 2, limit: 2, next: 1 },
    });
    expect(commandsOf(reply.events)).toEqual(['echo step0', 'echo step1']);
    // The third plan was made; its command waits in the checkpoint.
    expect(sent).toHaveLength(3);
    expect(stateOf(reply.last)).toMatchObject({ fault: { resumeAt: 'execute' }, decision: { command: 'echo step2' } });

    const raised = await playCall(b, raisedBody(body, reply.last, reply.events, { maxCommands: 3 }));
    expect(nodesOf(raised.reply.events).slice(0, 3)).toEqual(['pause', 'execute', 'plan']);
    expect(raised.reply.end.interrupt?.breach).toMatchObject({ cap: 'maxCommands', spent: 3, limit: 3 });
    expect(commandsOf(raised.reply.events)).toEqual(['echo step2']);
  });

  it('maxModelCalls pauses before the request that would cross it', async () => {
    b.fake.respond(stepsThenSolve(6));
    const body = cappedBody(runId(), { model: PRICED, endLevel: 0 }, { maxModelCalls: 3 });
    const { reply, sent } = await playCall(b, body);
    expect(reply.end.interrupt?.breach).toEqual({ cap: 'maxModelCalls', spent: 3, limit: 3, next: 1 });
    expect(sent).toHaveLength(3);
    expect(ofType(reply.events, 'llm_call')).toHaveLength(3);
    expect(commandsOf(reply.events)).toEqual(['echo step0', 'echo step1', 'echo step2']);
  });

  it('a retry is a request like any other: it is judged before it is sent', async () => {
    const solve = stepsThenSolve(1);
    let n = 0;
    b.fake.respond((request) =>
      n++ === 0
        ? { status: 429, headers: { 'retry-after-ms': '5' }, body: { error: { message: 'slow down' } } }
        : solve(request),
    );
    const body = cappedBody(runId(), { model: PRICED, endLevel: 0 }, { maxModelCalls: 1 });
    const { reply, sent } = await playCall(b, body);
    expect(sent).toHaveLength(1);
    expect(ofType(reply.events, 'llm_call').map((c) => c.errorClass)).toEqual(['rate_limited']);
    expect(reply.end.interrupt?.breach).toEqual({ cap: 'maxModelCalls', spent: 1, limit: 1, next: 1 });
    expect(stateOf(reply.last).fault?.resumeAt).toBe('plan');
  });

  it('maxModelCalls counts the baseline, which sends no request', async () => {
    const body = cappedBody(runId(), { model: 'baseline', endLevel: 2 }, { maxModelCalls: 2 });
    const { reply, sent } = await playCall(b, body);
    expect(sent).toEqual([]);
    expect(ofType(reply.events, 'llm_call')).toHaveLength(2);
    expect(reply.end.interrupt?.breach).toEqual({ cap: 'maxModelCalls', spent: 2, limit: 2, next: 1 });
  });

  it('maxTokens pauses at exactly the request whose prompt bytes plus max_tokens would cross it', async () => {
    b.fake.respond(stepsThenSolve(12));
    const cap = 8_000;
    const body = cappedBody(runId(), { model: PRICED, endLevel: 0 }, { maxTokens: cap });
    const { reply, sent } = await playCall(b, body);
    const breach = reply.end.interrupt?.breach as BudgetBreach;
    expect(breach).toMatchObject({ cap: 'maxTokens', limit: cap, spent: spentFrom(reply.events).tokens });
    expectPausedAtTheCrossing(reply.events, sent, breach, (before, worst) => before.tokens + worst.tokens);
    const raised = await playCall(b, raisedBody(body, reply.last, reply.events, { maxTokens: 1_000_000 }));
    expect(worstOf(raised.sent[0]!).tokens).toBe(breach.next);
    expect(raised.reply.end.outcome).toBe('completed');
  });

  it('maxWallSeconds: once the run has used its time, no command starts (model calls still may)', async () => {
    b.fake.respond(stepsThenSolve(2));
    const config = { model: PRICED, endLevel: 0 } as const;
    const spent = { costUsd: 0, tokens: 0, commands: 0, modelCalls: 0, wallSeconds: 100 };
    const { reply } = await playCall(b, cappedBody(runId(), config, { maxWallSeconds: 100 }, { spent }));
    expect(reply.end.interrupt?.breach).toMatchObject({ cap: 'maxWallSeconds', limit: 100, next: 0 });
    expect(reply.end.interrupt?.breach?.spent).toBeGreaterThanOrEqual(100);
    expect(commandsOf(reply.events)).toEqual([]);
    expect(stateOf(reply.last).fault?.resumeAt).toBe('execute');

    // With time left, the same run plays on.
    const roomy = { ...spent, wallSeconds: 10 };
    const { reply: free } = await playCall(b, cappedBody(runId(), config, { maxWallSeconds: 100 }, { spent: roomy }));
    expect(free.end.outcome).toBe('completed');
  });
});

describe('an endpoint that reports no usage', () => {
  it('is charged each request at its worst case under a cap, so the cap still binds', async () => {
    // The same player, its usage stripped: the proxy cannot know what a request cost.
    const player = stepsThenSolve(12);
    b.fake.respond((request) => {
      const reply = player(request);
      delete (reply.body as { usage?: unknown }).usage;
      return reply;
    });
    const cap = 0.1;
    const { reply, sent } = await playCall(b, cappedBody(runId(), { model: PRICED, endLevel: 0 }, { maxCostUsd: cap }));
    const calls = ofType(reply.events, 'llm_call');
    expect(calls.length).toBeGreaterThan(0);
    // Each call is counted as what it could have cost, to the last digit, and the run pauses within the cap.
    for (const [i, call] of calls.entries()) expect(call.costUsd).toBeCloseTo(worstOf(sent[i]!).costUsd ?? -1, 12);
    expect(calls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0)).toBeLessThanOrEqual(cap);
    expect(reply.end.interrupt?.breach?.cap).toBe('maxCostUsd');
  });
});
