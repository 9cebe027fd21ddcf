// Issue 31 through workerd and the real proxy: a run whose cap falls mid-level pauses with reason
// budget_exceeded before the step that would cross it, having spent no more than the cap; a person
// raises the cap (or is refused, saying why) and the run goes on where it paused; a restart of the
// run's object keeps the spent figures and the raised caps; a hands-off run stops at the cap.
import { env, runInDurableObject } from 'cloudflare:test';
import { unzipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../../schema/api.ts';
import { runSpendSchema } from '../../schema/budget.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import { call, createRun, eventsOf, ofType, postJson, waitForStatus } from './http.ts';

const stubOf = (id: string) => env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id));
/** Restarts the run's object: the next request makes a new instance from its storage. */
const restart = async (id: string) => {
  await runInDurableObject(stubOf(id), (_i: RunSession, state) => state.abort('restart for the test')).catch(
    () => undefined,
  );
};
const read = async (id: string) => (await (await call(`/api/runs/${id}`)).json()) as RunSummary;
const spendOf = async (id: string) => runSpendSchema.parse((await read(id)).spend);
const act = (id: string, body: unknown) => postJson(`/api/runs/${id}/actions`, body);
const messageOf = async (response: Response) => ((await response.json()) as ApiError).error.message;
/** The pause the run waits at: its last user_action_required. */
const pauseOf = (events: RunEvent[]) => ofType(events, 'user_action_required').at(-1);

/** Waits until the run pauses at a budget cap for the `n`th time, and returns its events. */
async function budgetPause(id: string, n: number): Promise<RunEvent[]> {
  await waitForStatus(id, 'paused_for_user_action', 40_000);
  const events = await eventsOf(id);
  const pauses = ofType(events, 'user_action_required').filter((e) => e.reason === 'budget_exceeded');
  expect(pauses).toHaveLength(n);
  return events;
}

describe('a run at its cap', () => {
  it('pauses before a model call that could cross its cost cap, with no more than the cap spent', async () => {
    // beta/solver is priced {input: 1, output: 2} $/Mtok; each call's worst case is its prompt's bytes as
    // tokens plus max_tokens (4096) of answer: about $0.0096 for the first, more as the prompt grows, while
    // each costs $0.00018 (the fake's 120 + 30 tokens). This cap lets level 0's calls and a few of level 1's through.
    const cap = 0.0105;
    const run = await createRun({ model: 'beta/solver', endLevel: 10, maxRetries: 10, caps: { maxCostUsd: cap } });
    const events = await budgetPause(run.id, 1);
    const calls = ofType(events, 'llm_call');
    const spentUsd = calls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0);
    expect(calls.length).toBeGreaterThan(1);
    expect(spentUsd).toBeLessThanOrEqual(cap);
    const pause = pauseOf(events);
    expect(pause?.reason).toBe('budget_exceeded');
    expect(pause?.breach).toMatchObject({ cap: 'maxCostUsd', limit: cap });
    expect(pause?.breach?.spent).toBeCloseTo(spentUsd, 9);
    // The call it did not make could have crossed the cap; the ones it made could not.
    expect((pause?.breach?.spent ?? 0) + (pause?.breach?.next ?? 0)).toBeGreaterThan(cap);
    // Mid-level: the level it paused at was started and not solved.
    expect(ofType(events, 'level_complete').map((e) => e.level)).not.toContain(pause?.level);
    expect(ofType(events, 'level_started').map((e) => e.level)).toContain(pause?.level);
    // GET /api/runs/:id says the same.
    const spend = await spendOf(run.id);
    expect(spend.caps).toEqual({ maxCostUsd: cap });
    expect(spend.spent.costUsd).toBeCloseTo(spentUsd, 6);
    expect(spend.spent.modelCalls).toBe(calls.length);
    expect(spend.spent.tokens).toBe(calls.reduce((sum, c) => sum + c.promptTokens + c.completionTokens, 0));

    // Raised, it goes on where it paused: more model calls at the same level, none spent past the new cap.
    const raised = await act(run.id, { action: 'raise', caps: { maxCostUsd: 0.05 } });
    expect(raised.status).toBe(200);
    await vi.waitFor(
      async () => expect(ofType(await eventsOf(run.id), 'llm_call').length).toBeGreaterThan(calls.length),
      {
        timeout: 20_000,
        interval: 50,
      },
    );
    await act(run.id, { action: 'stop' });
    const after = await eventsOf(run.id);
    expect(ofType(after, 'llm_call').reduce((sum, c) => sum + (c.costUsd ?? 0), 0)).toBeLessThanOrEqual(0.05);
    // The call the cap held back is the first thing the run does after the raise (past the pause node), at
    // the level it paused at: no new attempt, nothing run twice.
    const resolved = ofType(after, 'user_action_resolved').at(-1);
    const next = after.find((e) => e.seq > (resolved?.seq ?? 0) && !['status_changed', 'node'].includes(e.type));
    expect(next).toMatchObject({ type: 'llm_call', level: pause?.level });
    expect(ofType(after, 'caps_raised')).toEqual([expect.objectContaining({ caps: { maxCostUsd: 0.05 } })]);
  }, 60_000);

  it('pauses the baseline at exactly its command cap; a raise is checked, logged, and the run goes on', async () => {
    const run = await createRun({ model: 'baseline', endLevel: 20, caps: { maxCommands: 3 } });
    let events = await budgetPause(run.id, 1);
    expect(ofType(events, 'command')).toHaveLength(3);
    expect(pauseOf(events)?.breach).toEqual({ cap: 'maxCommands', spent: 3, limit: 3, next: 1 });

    // Going on as before would cross the cap: only raise or stop answers.
    for (const answer of [
      { action: 'continue' },
      { action: 'continue', hint: 'go on' },
      { action: 'password', value: 'x'.repeat(32) },
      { action: 'resume' },
    ]) {
      const refused = await act(run.id, answer);
      expect(refused.status).toBe(409);
      expect(await messageOf(refused)).toBe(
        `the run is paused at the run's command cap: going on would cross it; raise the cap ({"action":"raise","caps":{"maxCommands":…}}) or stop`,
      );
    }
    const notAbove = await act(run.id, { action: 'raise', caps: { maxCommands: 3 } });
    expect(notAbove.status).toBe(400);
    expect(await messageOf(notAbove)).toBe(
      'maxCommands: 3 commands is not above what the run has spent against it (3 commands); ask for more than that',
    );
    const otherCap = await act(run.id, { action: 'raise', caps: { maxTokens: 1000 } });
    expect(otherCap.status).toBe(400);
    expect(await messageOf(otherCap)).toContain("the run paused at the run's command cap (maxCommands)");
    const nothing = await act(run.id, { action: 'raise' });
    expect(nothing.status).toBe(400);
    const noBatch = await act(run.id, { action: 'raise', caps: { maxCommands: 5 }, batchMaxCostUsd: 3 });
    expect(noBatch.status).toBe(400);
    expect(await messageOf(noBatch)).toContain('this run is in no batch');
    // None of the refusals changed anything.
    expect((await spendOf(run.id)).caps).toEqual({ maxCommands: 3 });
    expect((await read(run.id)).status).toBe('paused_for_user_action');

    const raised = await act(run.id, { action: 'raise', caps: { maxCommands: 6 } });
    expect(raised.status).toBe(200);
    const after = (await raised.json()) as RunSummary;
    expect(after.spend?.caps).toEqual({ maxCommands: 6 });
    expect(after.status).not.toBe('paused_for_user_action');
    events = await budgetPause(run.id, 2);
    // Where it paused, nothing reset: three more commands, then the new cap.
    expect(ofType(events, 'command')).toHaveLength(6);
    expect(pauseOf(events)?.breach).toEqual({ cap: 'maxCommands', spent: 6, limit: 6, next: 1 });
    const [logged] = ofType(events, 'caps_raised');
    expect(logged).toMatchObject({ caps: { maxCommands: 6 }, by: 'an API client' });
    expect(logged?.batchMaxCostUsd).toBeUndefined();
    // The raise answered the pause as a continue, right after it.
    const next = events.find((e) => e.seq === (logged?.seq ?? 0) + 1);
    expect(next).toMatchObject({ type: 'user_action_resolved', action: 'continue', by: 'an API client' });

    // A restart of the run's object mid-budget: the same spent figures and the raised caps.
    const before = await spendOf(run.id);
    await restart(run.id);
    const again = await spendOf(run.id);
    expect(again).toEqual(before);
    expect(again.caps).toEqual({ maxCommands: 6 });
    expect(again.spent.commands).toBe(6);
    // And it still raises and goes on from there.
    expect((await act(run.id, { action: 'raise', caps: { maxCommands: 8 } })).status).toBe(200);
    events = await budgetPause(run.id, 3);
    expect(ofType(events, 'command')).toHaveLength(8);
    await act(run.id, { action: 'stop' });
    // The archive's summary.json has the caps as last raised (kept in the object, not the log) and the raises logged.
    const zip = unzipSync(new Uint8Array(await (await call(`/api/runs/${run.id}/artifacts`)).arrayBuffer()));
    const name = Object.keys(zip).find((path) => path.endsWith('summary.json')) as string;
    const summary = JSON.parse(new TextDecoder().decode(zip[name])) as { caps: unknown; spent: { commands: number } };
    expect(summary.caps).toEqual({ maxCommands: 8 });
    expect(summary.spent.commands).toBe(8);
    const logName = Object.keys(zip).find((path) => path.endsWith('run.log')) as string;
    expect(new TextDecoder().decode(zip[logName])).toContain(
      "an API client raised the run's command cap to 8 commands",
    );
  }, 90_000);

  it('pauses at its time cap, the clock stopped while it waits for a person, and a raise gives it more time', async () => {
    // The baseline thinks 200 ms per call, so a second of running time is a few commands.
    const run = await createRun({ model: 'baseline', endLevel: 20, paceMs: 200, caps: { maxWallSeconds: 1 } });
    let events = await budgetPause(run.id, 1);
    expect(pauseOf(events)?.breach).toMatchObject({ cap: 'maxWallSeconds', limit: 1, next: 0 });
    expect(pauseOf(events)?.breach?.spent).toBeGreaterThanOrEqual(1);
    const paused = await spendOf(run.id);
    expect(paused.spent.wallSeconds).toBeGreaterThanOrEqual(1);
    // Waiting for a person is not running time: the figure holds still while it waits.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await spendOf(run.id)).spent.wallSeconds).toBe(paused.spent.wallSeconds);
    expect((await act(run.id, { action: 'raise', caps: { maxWallSeconds: 1 } })).status).toBe(400);
    expect((await act(run.id, { action: 'raise', caps: { maxWallSeconds: 3 } })).status).toBe(200);
    events = await budgetPause(run.id, 2);
    expect(pauseOf(events)?.breach).toMatchObject({ cap: 'maxWallSeconds', limit: 3 });
    expect((await spendOf(run.id)).spent.wallSeconds).toBeGreaterThanOrEqual(3);
    await act(run.id, { action: 'stop' });
  }, 60_000);

  it('stops a hands-off run at its cap, the cap named in why it ended', async () => {
    const run = await createRun({ model: 'baseline', endLevel: 20, onPause: 'stop', caps: { maxModelCalls: 2 } });
    await waitForStatus(run.id, 'stopped', 40_000);
    const events = await eventsOf(run.id);
    expect(ofType(events, 'llm_call')).toHaveLength(2);
    expect(pauseOf(events)?.breach).toMatchObject({ cap: 'maxModelCalls', spent: 2, limit: 2, next: 1 });
    const [end] = ofType(events, 'run_complete');
    expect(end?.reason).toContain('budget_exceeded: maxModelCalls, 2 model calls spent of 2 model calls');
  }, 60_000);
});
