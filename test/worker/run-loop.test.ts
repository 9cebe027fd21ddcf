// The Durable Object's loop against a scripted fake proxy (test/support/fake-proxy.ts): a pause
// before the end and no run_complete for it; continue, hint, password and stop; a stream that
// dies mid-step; a proxy that stays down; a stop mid-call; slices that yield.
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { FakeProxyCall } from '../support/fake-proxy-call.ts';
import { findRun } from '../../worker/db.ts';
import { call, createRun, postJson, waitForStatus } from './http.ts';

const getRun = async (id: string) => (await (await call(`/api/runs/${id}`)).json()) as RunSummary;
const eventsOf = async (id: string) =>
  ((await (await call(`/api/runs/${id}/events?limit=1000`)).json()) as { events: RunEvent[] }).events;
const callsOf = async (id: string) =>
  (await (await fetch(`${env.PROXY_URL}/__calls?runId=${id}`)).json()) as FakeProxyCall[];
const types = (events: RunEvent[]) => events.map((e) => e.type);

describe('run loop', () => {
  it('stores the step, pauses before the end, and sends no run_complete for the pause', async () => {
    const run = await createRun({ model: 'script-pause' });
    expect(run.status).toBe('queued');
    const paused = await waitForStatus(run.id, 'paused_for_user_action');
    const events = await eventsOf(run.id);
    expect(types(events)).toEqual([
      'run_created',
      'status_changed',
      'level_started',
      'command',
      'output',
      'llm_call',
      'node',
      'user_action_required',
      'status_changed',
    ]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)).toMatchObject({ type: 'status_changed', from: 'running', to: 'paused_for_user_action' });
    expect(paused.lastError).toBe('no password after 3 attempts');

    const row = await findRun(env, run.id);
    expect(row).toMatchObject({ status: 'paused_for_user_action', promptTokens: 100, completionTokens: 20 });
    const db = env.DB;
    expect(await db.prepare('SELECT request FROM llm_calls WHERE run_id = ?').bind(run.id).first()).toEqual({
      request: JSON.stringify({ messages: ['hi'] }),
    });
    expect(await db.prepare('SELECT command, exit_code FROM commands WHERE run_id = ?').bind(run.id).first()).toEqual({
      command: 'ls',
      exit_code: 0,
    });
    expect(await db.prepare('SELECT node FROM executions WHERE run_id = ?').bind(run.id).first()).toEqual({
      node: 'execute',
    });
  });

  it('continues with a hint: the answer is recorded, handed to the graph, and the run completes once', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const answer = await postJson(`/api/runs/${run.id}/actions`, { action: 'continue', hint: 'read the readme' });
    expect(answer.status).toBe(200);
    const done = await waitForStatus(run.id, 'completed');
    expect(done).toMatchObject({ levelsSolved: 1, currentLevel: 1 });
    const events = await eventsOf(run.id);
    expect(events.filter((e) => e.type === 'user_action_resolved')).toEqual([
      expect.objectContaining({ action: 'continue', hint: 'read the readme', by: 'an API client' }),
    ]);
    expect(events.filter((e) => e.type === 'run_complete')).toHaveLength(1);
    expect(await callsOf(run.id)).toEqual([
      { runId: run.id, step: null, state: null, patches: true, resume: null, aborted: false },
      {
        runId: run.id,
        step: 1,
        state: { step: 1 },
        patches: true,
        resume: { action: 'continue', hint: 'read the readme' },
        aborted: false,
      },
    ]);
  });

  it('hands a password to the graph as the resume value', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    await postJson(`/api/runs/${run.id}/actions`, { action: 'password', value: 'B'.repeat(32) });
    await waitForStatus(run.id, 'completed');
    expect((await callsOf(run.id))[1]?.resume).toEqual({ action: 'password', value: 'B'.repeat(32) });
    // The password itself is not copied into the event log.
    expect(JSON.stringify(await eventsOf(run.id))).not.toContain('B'.repeat(32));
  });

  it('stops a paused run with one run_complete and no further proxy calls', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    const stopped = await getRun(run.id);
    expect(stopped.status).toBe('stopped');
    const events = await eventsOf(run.id);
    expect(events.filter((e) => e.type === 'run_complete')).toEqual([
      expect.objectContaining({ status: 'stopped', reason: 'stopped by an API client' }),
    ]);
    expect(await callsOf(run.id)).toHaveLength(1);
    expect((await postJson(`/api/runs/${run.id}/actions`, { action: 'continue' })).status).toBe(409);
  });

  it('names who answered as a person knows it: the web UI, the CLI, or an API client for anything else', async () => {
    const answer = async (client: string | null, action: Record<string, unknown>) => {
      const run = await createRun({ model: 'script-pause' });
      await waitForStatus(run.id, 'paused_for_user_action');
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (client !== null) headers['x-bandit-client'] = client;
      const response = await call(`/api/runs/${run.id}/actions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(action),
      });
      expect(response.status).toBe(200);
      await waitForStatus(run.id, action.action === 'stop' ? 'stopped' : 'completed');
      return (await eventsOf(run.id)).filter((e) => e.type === 'user_action_resolved' || e.type === 'run_complete');
    };
    expect(await answer('web', { action: 'stop' })).toEqual([
      expect.objectContaining({ type: 'user_action_resolved', action: 'stop', by: 'the web UI' }),
      expect.objectContaining({ type: 'run_complete', reason: 'stopped by the web UI' }),
    ]);
    expect((await answer('cli', { action: 'continue' }))[0]).toMatchObject({ by: 'the CLI' });
    // An unknown name is not trusted as a label: it is an API client like any other.
    expect((await answer('rest', { action: 'continue' }))[0]).toMatchObject({ by: 'an API client' });
  });

  it('retries a stream that died mid-step from the last checkpoint, storing the step once', async () => {
    const run = await createRun({ model: 'script-flaky' });
    await waitForStatus(run.id, 'completed');
    const events = await eventsOf(run.id);
    expect(events.filter((e) => e.type === 'command')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'level_started')).toHaveLength(1);
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      code: 'proxy_retry',
      message: expect.stringMatching(/closed the stream|broke/),
    });
    expect((await callsOf(run.id)).map((c) => c.step)).toEqual([null, 1]);
  });

  it('pauses with proxy_unreachable when the proxy stays down, and continue tries again', async () => {
    const run = await createRun({ model: 'script-down' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const events = await eventsOf(run.id);
    expect(events.filter((e) => e.type === 'error').map((e) => (e as { code: string }).code)).toEqual([
      'proxy_retry',
      'proxy_retry',
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'user_action_required',
      reason: 'proxy_unreachable',
      lastError: expect.stringMatching(/503.*restarting.*3 tries/),
    });
    expect(await callsOf(run.id)).toHaveLength(3);
    await postJson(`/api/runs/${run.id}/actions`, { action: 'continue' });
    await vi.waitFor(async () => expect(await callsOf(run.id)).toHaveLength(6), { timeout: 10_000, interval: 25 });
    await waitForStatus(run.id, 'paused_for_user_action');
  });

  it('refuses a proxy line over the cap and pauses at once with state_too_large, never blaming the proxy address', async () => {
    const run = await createRun({ model: 'script-huge-line' });
    const paused = await waitForStatus(run.id, 'paused_for_user_action');
    expect(paused.lastError).toMatch(
      /^state_too_large: the proxy sent a line over 1048576 bytes.*update the SSH proxy/,
    );
    expect(paused.lastError).not.toMatch(/PROXY_URL|cannot reach|unreachable/);
    const events = await eventsOf(run.id);
    expect(events.filter((e) => e.type === 'thinking')).toEqual([]);
    // Retrying would bring the same line: no proxy_retry, one call, then the pause with its own reason.
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(await callsOf(run.id)).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'user_action_required', reason: 'state_too_large' });
    // Continue calls the proxy again (here the same old proxy, so the same pause).
    await postJson(`/api/runs/${run.id}/actions`, { action: 'continue' });
    await vi.waitFor(async () => expect(await callsOf(run.id)).toHaveLength(2), { timeout: 10_000, interval: 25 });
    await waitForStatus(run.id, 'paused_for_user_action');
  });

  it('stops mid-call: the proxy request is cut and nothing more is stored', async () => {
    const run = await createRun({ model: 'script-slow' });
    await vi.waitFor(
      async () =>
        expect((await eventsOf(run.id)).filter((e) => e.type === 'thinking').length).toBeGreaterThanOrEqual(3),
      { timeout: 10_000, interval: 25 },
    );
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    const count = (await eventsOf(run.id)).length;
    await vi.waitFor(async () => expect((await callsOf(run.id))[0]?.aborted).toBe(true), {
      timeout: 5_000,
      interval: 25,
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const events = await eventsOf(run.id);
    expect(events).toHaveLength(count);
    expect(events.filter((e) => e.type === 'run_complete')).toEqual([expect.objectContaining({ status: 'stopped' })]);
  });

  it('stores checkpoint patches and hands the proxy the whole state again on the next call', async () => {
    const run = await createRun({ model: 'script-patches' });
    await waitForStatus(run.id, 'completed');
    const calls = await callsOf(run.id);
    expect(calls.map((c) => c.patches)).toEqual([true, true]);
    expect(calls.map((c) => c.step)).toEqual([null, 3]);
    expect(calls[1]!.state).toEqual({
      history: [{ turn: 'a' }, { turn: 'b' }, { turn: 'c' }, { turn: 'd' }],
      note: 'second',
    });
    expect((await eventsOf(run.id)).filter((e) => e.type === 'thinking')).toHaveLength(3);
  });

  it('calls again at once after a yield, from the newest checkpoint', async () => {
    const run = await createRun({ model: 'script-yield' });
    await waitForStatus(run.id, 'completed');
    const thoughts = (await eventsOf(run.id))
      .filter((e) => e.type === 'thinking')
      .map((e) => (e as { text: string }).text);
    expect(thoughts).toEqual(['slice 1', 'slice 2', 'slice 3']);
    expect((await callsOf(run.id)).map((c) => c.step)).toEqual([null, 1, 2]);
  });
});
