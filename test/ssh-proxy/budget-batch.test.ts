// A run of a capped batch, through the real proxy with a priced model behind the fake OpenAI endpoint:
// a model call that needs more than the call's share of the batch ends the call `yielded` with
// allowanceNeededUsd (nothing sent, nothing lost), and the next call with a bigger share goes on from the
// same node; when the share is all the batch has left, the run pauses at the batch's cap instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTHING_SPENT } from '../../schema/budget.ts';
import type { BudgetServices } from './budget-fixture.ts';
import {
  cappedBody,
  commandsOf,
  nodesOf,
  ofType,
  PRICED,
  playCall,
  spentFrom,
  startBudgetServices,
  stepsThenSolve,
  UNPRICED,
  worstOf,
} from './budget-fixture.ts';

let b: BudgetServices;
let serial = 0;
beforeAll(async () => {
  b = await startBudgetServices();
});
afterAll(() => b.close());

const runId = () => `run_budgetbatch${String(++serial).padStart(11, '0')}`;
const share = (allowanceUsd: number, exhaustive: boolean, spentUsd = 0, maxCostUsd = 5) => ({
  batch: { allowanceUsd, exhaustive, spentUsd, maxCostUsd },
});

describe("a batch's cost cap, kept by the proxy", () => {
  it('a share too small ends the call yielded with the dollars needed; a bigger share goes on from there', async () => {
    b.fake.respond(stepsThenSolve(1));
    const body = cappedBody(runId(), { model: PRICED, endLevel: 0 }, {}, share(0.001, false));
    const { reply, sent } = await playCall(b, body);
    expect(sent).toEqual([]);
    expect(ofType(reply.events, 'llm_call')).toEqual([]);
    expect(reply.end).toMatchObject({ outcome: 'yielded', allowanceNeededUsd: expect.any(Number) });
    const need = reply.end.allowanceNeededUsd!;
    expect(need).toBeGreaterThan(0.001);
    expect(reply.last?.next).toBe('plan');

    const next = { ...body, checkpoint: reply.last, spend: { caps: {}, spent: NOTHING_SPENT, ...share(need, false) } };
    const more = await playCall(b, next);
    // The request the share was too small for is the first one sent now, and its worst case is what was asked.
    expect(worstOf(more.sent[0]!).costUsd).toBeCloseTo(need, 12);
    expect(nodesOf(more.reply.events)[0]).toBe('plan');
    expect(ofType(more.reply.events, 'level_started')).toEqual([]);
    // That share covered one call: the second wants more again, and the call yields after the first's step.
    expect(more.reply.end).toMatchObject({ outcome: 'yielded', allowanceNeededUsd: expect.any(Number) });
    expect(more.sent).toHaveLength(1);
    expect(spentFrom(more.reply.events).costUsd).toBeLessThanOrEqual(need);
    expect(commandsOf(more.reply.events)).toEqual(['echo step0']);

    const rest = await playCall(b, {
      ...next,
      checkpoint: more.reply.last,
      spend: { ...next.spend, ...share(1, false) },
    });
    expect(rest.reply.end.outcome).toBe('completed');
    expect(commandsOf(rest.reply.events)).toEqual(['cat readme']);
  });

  it("when the share is all the batch has left, the run pauses at the batch's cap, naming its figures", async () => {
    b.fake.respond(stepsThenSolve(3));
    const body = cappedBody(runId(), { model: PRICED, endLevel: 0 }, {}, share(0.035, true, 4.97, 5));
    const { reply, sent } = await playCall(b, body);
    const spent = spentFrom(reply.events).costUsd;
    expect(spent).toBeLessThanOrEqual(0.035);
    expect(sent.length).toBeGreaterThan(0);
    expect(reply.end.interrupt).toMatchObject({
      reason: 'budget_exceeded',
      breach: { cap: 'batchMaxCostUsd', limit: 5 },
    });
    const breach = reply.end.interrupt!.breach!;
    expect(breach.spent).toBeCloseTo(4.97 + spent, 12);
    // Refused because the next request's worst case was more than the share had left.
    expect(breach.next).toBeGreaterThan(0.035 - spent);
    expect(reply.end.interrupt?.lastError).toMatch(/batch's cost cap/);
  });

  it('a cost cap on a model with no price pauses before its first request, saying why', async () => {
    b.fake.respond(stepsThenSolve(1));
    const body = cappedBody(runId(), { model: UNPRICED, endLevel: 0 }, { maxCostUsd: 1 });
    const { reply, sent } = await playCall(b, body);
    expect(sent).toEqual([]);
    expect(reply.end.interrupt).toMatchObject({
      reason: 'budget_exceeded',
      breach: { cap: 'maxCostUsd', spent: 0, limit: 1 },
      lastError: expect.stringMatching(/has no price/),
    });
  });
});
