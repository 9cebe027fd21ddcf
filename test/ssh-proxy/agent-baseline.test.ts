// The agent graph over HTTP against the real practice range, with the offline baseline model:
// how far it gets, the pause at max retries, every way to answer it, and yielding in slices.
import { REDACTED } from '../../ssh-proxy/redactor.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyEvent } from '../../schema/protocol.ts';
import { advance, advanceBody, advanceUntilSettled, eventsOf } from '../support/advance-client.ts';
import type { AdvanceReply } from '../support/advance-client.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let services: LoopbackServices;
let firstRun: AdvanceReply;
beforeAll(async () => {
  services = await startLoopbackServices({ PROXY_SLICE_MS: '60000' });
  firstRun = await advance(services, advanceBody('run_baseline00000000000000', { maxRetries: 2 }));
});
afterAll(() => services.close());

const ofType = <T extends ProxyEvent['type']>(events: ProxyEvent[], type: T) =>
  events.filter((e): e is Extract<ProxyEvent, { type: T }> => e.type === type);
const passwordOf = (level: number) => services.range.world.passwords[level] ?? '';
const SSH_KEY_HINT =
  'the key logs in as the next user: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`';

describe('baseline agent on the practice range', () => {
  it('solves the first levels, then pauses at max retries with the pause as the last event', () => {
    const solved = ofType(firstRun.events, 'level_complete').map((e) => e.level);
    console.log(
      `baseline solved levels 0→${solved.length} (${solved.join(', ')}) and paused at level ${solved.length}`,
    );
    expect(solved).toEqual(Array.from({ length: solved.length }, (_, i) => i));
    expect(solved.length).toBeGreaterThanOrEqual(10);

    const last = firstRun.events.at(-1);
    expect(last).toMatchObject({
      type: 'user_action_required',
      reason: 'max_retries',
      level: solved.length,
      retryCount: 2,
      maxRetries: 2,
    });
    expect(ofType(firstRun.events, 'run_complete')).toEqual([]);
    expect(firstRun.end).toMatchObject({
      type: 'end',
      outcome: 'interrupted',
      interrupt: { reason: 'max_retries', level: solved.length },
    });
    expect(firstRun.last?.interrupt).toMatchObject({ reason: 'max_retries' });
    expect(ofType(firstRun.events, 'attempt_failed').map((e) => e.retryCount)).toEqual([1, 2]);
  });

  it('proves each password by logging in as the next level, and reports every node and call', () => {
    const found = ofType(firstRun.events, 'password_found');
    for (const event of found) expect(event.password).toBe(passwordOf(event.level + 1));
    const nodes = ofType(firstRun.events, 'node');
    const commands = ofType(firstRun.events, 'command');
    // One checkpoint per node, and one before each command goes out (its mark), in step order.
    expect(firstRun.checkpoints).toHaveLength(nodes.length + commands.length);
    expect(firstRun.checkpoints.map((c) => c.step)).toEqual(firstRun.checkpoints.map((_, i) => i + 1));
    const marks = firstRun.checkpoints.flatMap((c) => (c.state.inFlight ? [c.state.inFlight] : []));
    expect(marks).toEqual(commands.map(({ commandId, command }) => ({ commandId, command })));
    const outputs = ofType(firstRun.events, 'output');
    expect(outputs.map((o) => o.commandId)).toEqual(commands.map((c) => c.commandId));
    expect(ofType(firstRun.events, 'llm_call').every((c) => c.model === 'baseline' && c.errorClass === null)).toBe(
      true,
    );
    const traces = firstRun.lines.filter((l) => l.type === 'trace');
    expect(traces).toHaveLength(ofType(firstRun.events, 'llm_call').length);
  });

  it('continues with a hint: retries reset, the hint is a user lesson, and the level falls', async () => {
    const reply = await advance(
      services,
      advanceBody('run_baseline00000000000000', { maxRetries: 2 }, firstRun.last, {
        action: 'continue',
        hint: SSH_KEY_HINT,
      }),
    );
    const stuckAt = firstRun.end.interrupt?.level ?? -1;
    expect(ofType(reply.events, 'level_started')[0]).toMatchObject({ level: stuckAt, retryCount: 0, attempt: 3 });
    expect(reply.checkpoints[0]?.state.lessons).toContainEqual({ text: SSH_KEY_HINT, source: 'user', level: stuckAt });
    expect(ofType(reply.events, 'command')[0]?.command).toBe(
      'ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14',
    );
    expect(ofType(reply.events, 'level_complete').map((e) => e.level)).toContain(stuckAt);
    expect(reply.end.outcome).toBe('interrupted');
  });

  it('keeps each lesson once when Continue brings the same lessons again', async () => {
    const again = await advance(
      services,
      advanceBody('run_baseline00000000000000', { maxRetries: 2 }, firstRun.last, { action: 'continue' }),
    );
    const pause = again.events.at(-1);
    expect(pause).toMatchObject({ type: 'user_action_required', reason: 'max_retries', retryCount: 2 });
    const texts = pause?.type === 'user_action_required' ? pause.lessons.map((l) => l.text) : [];
    // The baseline learns "A different approach is needed…" on every failed attempt: four attempts, one lesson.
    expect(texts.filter((t) => t.startsWith('A different approach is needed'))).toHaveLength(1);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('checks a password a person gives: a wrong one pauses again, the right one advances', async () => {
    const level = firstRun.end.interrupt?.level ?? -1;
    const config = { maxRetries: 2 };
    const wrong = await advance(
      services,
      advanceBody('run_baseline00000000000000', config, firstRun.last, { action: 'password', value: 'x'.repeat(32) }),
    );
    expect(wrong.events.at(-1)).toMatchObject({
      type: 'user_action_required',
      reason: 'max_retries',
      lastError: `the password you gave was refused (login as bandit${level + 1} failed)`,
    });
    expect(wrong.end.outcome).toBe('interrupted');
    // The typed value reaches no line but the checkpoint (which the run needs to go on).
    const sent = (reply: typeof wrong) =>
      reply.lines
        .filter((l) => l.type !== 'checkpoint')
        .map((l) => JSON.stringify(l))
        .join('\n');
    expect(sent(wrong)).not.toContain('x'.repeat(32));

    const shaped = await advance(
      services,
      advanceBody('run_baseline00000000000000', config, wrong.last, { action: 'password', value: 'not a password' }),
    );
    expect(shaped.events.at(-1)).toMatchObject({
      type: 'user_action_required',
      lastError: 'the password you gave was refused (it is not shaped like a Bandit password)',
    });
    expect(sent(shaped)).not.toContain('not a password');

    const right = await advance(
      services,
      advanceBody('run_baseline00000000000000', config, shaped.last, {
        action: 'password',
        value: passwordOf(level + 1),
      }),
    );
    // A password a person typed is proven, and said as found, without being repeated.
    expect(ofType(right.events, 'password_found')[0]).toMatchObject({ level, password: REDACTED });
    expect(sent(right)).not.toContain(passwordOf(level + 1));
    expect(right.last?.state.secrets).toEqual(['x'.repeat(32), 'not a password', passwordOf(level + 1)]);
    expect(ofType(right.events, 'level_complete')[0]).toMatchObject({ level, nextLevel: level + 1 });
  });

  it('stops when asked: one run_complete(stopped) and an end line saying so', async () => {
    const reply = await advance(
      services,
      advanceBody('run_baseline00000000000000', { maxRetries: 2 }, firstRun.last, { action: 'stop' }),
    );
    expect(ofType(reply.events, 'run_complete')).toEqual([
      expect.objectContaining({ status: 'stopped', levelsSolved: firstRun.end.interrupt?.level }),
    ]);
    expect(reply.end.outcome).toBe('stopped');
  });

  it('completes a run whose last level it can solve, with run_complete(completed)', async () => {
    const reply = await advance(services, advanceBody('run_baseline11111111111111', { endLevel: 2 }));
    expect(reply.end.outcome).toBe('completed');
    expect(reply.events.at(-1)).toMatchObject({ type: 'run_complete', status: 'completed', levelsSolved: 3 });
  });

  it('asks for the starting password when a run starts above level 0', async () => {
    const config = { startLevel: 5, endLevel: 5 };
    const asked = await advance(services, advanceBody('run_baseline22222222222222', config));
    expect(asked.end.interrupt).toMatchObject({ reason: 'password_required', level: 5 });
    const refused = await advance(
      services,
      advanceBody('run_baseline22222222222222', config, asked.last, { action: 'password', value: 'y'.repeat(32) }),
    );
    expect(refused.end.interrupt).toMatchObject({
      reason: 'password_required',
      lastError: expect.stringMatching(/refused the password you gave/),
    });
    const done = await advance(
      services,
      advanceBody('run_baseline22222222222222', config, refused.last, { action: 'password', value: passwordOf(5) }),
    );
    expect(done.end.outcome).toBe('completed');
  });

  it('sends only what changed after the first checkpoint when asked, and the patches rebuild each checkpoint whole', async () => {
    const body = {
      ...advanceBody('run_baseline44444444444444', { maxRetries: 1, endLevel: 2 }),
      checkpointPatches: true,
    };
    const patched = await advance(services, body);
    const patches = patched.lines.flatMap((l) => (l.type === 'checkpoint_patch' ? [l.patch] : []));
    expect(patched.lines.filter((l) => l.type === 'checkpoint')).toHaveLength(1);
    expect(patches.length).toBe(patched.checkpoints.length - 1);
    // The attempt's history grows by appended turns, not by sending it again.
    expect(patches.some((p) => Array.isArray(p.append.history) && p.append.history.length === 1)).toBe(true);
    expect(patches.every((p) => !('history' in p.set) || (p.set.history as unknown[]).length === 0)).toBe(true);
    // Every rebuilt checkpoint is one the proxy accepts: resuming from the middle one finishes the run.
    const middle = patched.checkpoints[Math.floor(patched.checkpoints.length / 2)]!;
    const resumed = await advanceUntilSettled(services, { ...body, checkpoint: middle });
    expect(resumed.at(-1)?.end.outcome).toBe('completed');
    const bytes = (lines: typeof patched.lines) =>
      lines.filter((l) => l.type.startsWith('checkpoint')).reduce((n, l) => n + JSON.stringify(l).length, 0);
    const whole = await advance(services, advanceBody('run_baseline55555555555555', { maxRetries: 1, endLevel: 2 }));
    console.log(`checkpoint bytes for levels 0-2: ${bytes(whole.lines)} whole, ${bytes(patched.lines)} as patches`);
    expect(bytes(patched.lines)).toBeLessThan(bytes(whole.lines) * 0.7);
  });

  it('yields after each slice and reaches the same pause when called again from each checkpoint', async () => {
    const sliced = await startLoopbackServices({ PROXY_SLICE_MS: '1' });
    try {
      const replies = await advanceUntilSettled(
        sliced,
        advanceBody('run_baseline33333333333333', { endLevel: 3 }),
        200,
      );
      expect(replies.length).toBeGreaterThan(5);
      expect(replies.slice(0, -1).every((r) => r.end.outcome === 'yielded')).toBe(true);
      expect(replies.at(-1)?.end.outcome).toBe('completed');
      const solved = ofType(eventsOf(replies), 'level_complete').map((e) => e.level);
      expect(solved).toEqual([0, 1, 2, 3]);
    } finally {
      await sliced.close();
    }
  });
});
