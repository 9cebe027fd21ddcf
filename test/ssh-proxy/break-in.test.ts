// POST /v1/break against the real proxy and practice range: a yield ends the call after the node in
// progress; a takeover pauses it (reason "takeover") before the next node, and continue runs that
// node once, so no command is lost or run twice; a password at that pause is validated. ProxyRequest.breakIn
// does the same from a call's start. The route's refusals: 401, 400, 404 no_call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkpoint, ProxyEvent, ProxyRequest } from '../../schema/protocol.ts';
import { advance, advanceBody, parseReply, postAdvance } from '../support/advance-client.ts';
import type { AdvanceReply } from '../support/advance-client.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let services: LoopbackServices;
beforeAll(async () => {
  services = await startLoopbackServices({ PROXY_SLICE_MS: '60000' });
});
afterAll(() => services.close());

/** The baseline thinks this long per plan: the node in progress when the break is asked. */
const PACE_MS = 600;

function postBreak(body: unknown, secret = services.proxySecret): Promise<Response> {
  return fetch(`${services.proxyUrl}/v1/break`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Runs one call, and asks for a break as soon as the `connect` node has finished (plan is then thinking). */
async function advanceWithBreak(body: ProxyRequest, kind: 'yield' | 'takeover'): Promise<AdvanceReply> {
  const response = await postAdvance(services, body);
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let asked = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (!asked && text.includes('"type":"node","level":0,"name":"connect"')) {
      asked = true;
      const answer = await postBreak({ runId: body.runId, kind });
      expect(answer.status).toBe(202);
    }
  }
  expect(asked).toBe(true);
  return parseReply(text);
}

const commandsOf = (events: ProxyEvent[]) => events.flatMap((e) => (e.type === 'command' ? [e.command] : []));
const resumeAtOf = (reply: AdvanceReply) =>
  (reply.last?.state as { fault?: { resumeAt: string } } | undefined)?.fault?.resumeAt;
const nodesOf = (events: ProxyEvent[]) => events.flatMap((e) => (e.type === 'node' ? [e.name] : []));

describe('POST /v1/break', () => {
  it('yield: the call ends yielded after the node in progress, and the next call goes on from there', async () => {
    const runId = 'run_breakyield0000000000000';
    const body = advanceBody(runId, { endLevel: 0, paceMs: PACE_MS });
    const reply = await advanceWithBreak(body, 'yield');
    expect(reply.end).toMatchObject({ type: 'end', outcome: 'yielded' });
    // plan finished (its decision saved), and nothing after it ran.
    expect(nodesOf(reply.events)).toEqual(['connect', 'plan']);
    expect(reply.last?.next).toBe('execute');
    // The break went with the call: the next call runs to the end.
    const rest = await advance(services, { ...body, checkpoint: reply.last });
    expect(rest.end).toMatchObject({ outcome: 'completed' });
    expect(nodesOf(rest.events)[0]).toBe('execute');
  });

  it('takeover: pauses with reason takeover before the next node; continue runs it once', async () => {
    const runId = 'run_breaktakeover000000000';
    const body = advanceBody(runId, { endLevel: 0, paceMs: PACE_MS });
    const reply = await advanceWithBreak(body, 'takeover');
    expect(reply.end).toMatchObject({ outcome: 'interrupted', interrupt: { reason: 'takeover', level: 0 } });
    expect(reply.events.at(-1)).toMatchObject({
      type: 'user_action_required',
      reason: 'takeover',
      lastError: 'a person took the terminal',
    });
    expect(nodesOf(reply.events)).toEqual(['connect', 'plan', 'pause']);
    // The command plan chose was not run, and waits in the checkpoint.
    expect(commandsOf(reply.events)).toEqual([]);
    const paused = reply.last as Checkpoint;
    const state = paused.state as { decision: { kind: string; command: string }; fault: { resumeAt: string } };
    expect(state.fault.resumeAt).toBe('execute');
    expect(state.decision.kind).toBe('run_command');

    const resumed = await advance(services, {
      ...body,
      checkpoint: paused,
      resume: { action: 'continue', hint: 'I looked around in the terminal' },
    });
    expect(resumed.end).toMatchObject({ outcome: 'completed' });
    expect(nodesOf(resumed.events).slice(0, 2)).toEqual(['pause', 'execute']);
    // The pending command ran first and once; without the break the run makes the same moves.
    const commands = commandsOf(resumed.events);
    expect(commands[0]).toBe(state.decision.command);
    const straight = await advance(services, advanceBody('run_breakstraight000000000', { endLevel: 0 }));
    expect(commands).toEqual(commandsOf(straight.events));
    expect(resumed.events.filter((e) => e.type === 'level_started')).toHaveLength(0);
  });

  it('takeover, then the password the person proved: validated, and the level is solved by the person', async () => {
    const runId = 'run_breakpassword000000000';
    const body = advanceBody(runId, { endLevel: 0, paceMs: PACE_MS });
    const reply = await advanceWithBreak(body, 'takeover');
    const password = services.range.world.passwords[1]!;
    const resumed = await advance(services, {
      ...body,
      checkpoint: reply.last,
      resume: { action: 'password', value: password },
    });
    expect(nodesOf(resumed.events).slice(0, 3)).toEqual(['pause', 'validate', 'advance']);
    expect(resumed.events.find((e) => e.type === 'level_complete')).toMatchObject({ level: 0, solvedBy: 'person' });
    expect(commandsOf(resumed.events)).toEqual([]);
    expect(resumed.end).toMatchObject({ outcome: 'completed' });
  });

  it('a wrong password at a takeover pause says so, and continue lets the agent plan again', async () => {
    const runId = 'run_breakwrongpass00000000';
    const body = advanceBody(runId, { endLevel: 0, paceMs: PACE_MS });
    const reply = await advanceWithBreak(body, 'takeover');
    const wrong = await advance(services, {
      ...body,
      checkpoint: reply.last,
      resume: { action: 'password', value: 'x'.repeat(32) },
    });
    expect(wrong.end).toMatchObject({ outcome: 'interrupted', interrupt: { reason: 'takeover' } });
    expect(wrong.events.find((e) => e.type === 'error')).toMatchObject({ code: 'wrong_password' });
    const after = await advance(services, { ...body, checkpoint: wrong.last, resume: { action: 'continue' } });
    expect(nodesOf(after.events).slice(0, 2)).toEqual(['pause', 'plan']);
    expect(after.end).toMatchObject({ outcome: 'completed' });
  });

  it('breakIn in the request pauses before the first node of a fresh call', async () => {
    const body = { ...advanceBody('run_breakinrequest00000000', { endLevel: 0 }), breakIn: 'takeover' as const };
    const reply = await advance(services, body);
    expect(nodesOf(reply.events)).toEqual(['pause']);
    expect(reply.end).toMatchObject({ outcome: 'interrupted', interrupt: { reason: 'takeover' } });
    expect(resumeAtOf(reply)).toBe('connect');
  });

  it('breakIn with a resume lets the resumed node take its answer first, then pauses', async () => {
    const body = advanceBody('run_breakinresume000000000', { endLevel: 0, paceMs: PACE_MS });
    const first = await advanceWithBreak(body, 'takeover');
    const again = await advance(services, {
      ...body,
      checkpoint: first.last,
      resume: { action: 'continue' },
      breakIn: 'takeover',
    });
    // pause took the continue, then the break paused again before execute: the command still waits.
    expect(nodesOf(again.events)).toEqual(['pause', 'pause']);
    expect(commandsOf(again.events)).toEqual([]);
    expect(resumeAtOf(again)).toBe('execute');
  });

  it('404 no_call for a run without a call, 401 without the secret, 400 on a bad body', async () => {
    const none = await postBreak({ runId: 'run_nocallhere0000000000000', kind: 'yield' });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: { code: 'no_call', message: expect.stringMatching(/breakIn/) } });
    expect((await postBreak({ runId: 'run_nocallhere0000000000000', kind: 'yield' }, 'wrong-secret')).status).toBe(401);
    const bad = await postBreak({ runId: 'run_nocallhere0000000000000', kind: 'pause' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 'invalid_request', issues: [expect.stringMatching(/^kind/)] },
    });
    expect((await postBreak('{')).status).toBe(400);
  });
});
