// A run of model "human" through /v1/advance against the real practice range: no agent and no model
// call; each level pauses with human_turn; the password the person proved completes the level (solved
// by the person) and the next level pauses again; a wrong password says so; continue asks again; stop ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelInfo, ProxyEvent } from '../../schema/protocol.ts';
import { advance, advanceBody } from '../support/advance-client.ts';
import type { AdvanceReply } from '../support/advance-client.ts';
import { startLoopbackServices } from '../support/loopback-services.ts';
import type { LoopbackServices } from '../support/loopback-services.ts';

let services: LoopbackServices;
beforeAll(async () => {
  services = await startLoopbackServices();
});
afterAll(() => services.close());

const pass = (n: number) => services.range.world.passwords[n]!;
const types = (events: ProxyEvent[]) => events.map((e) => e.type);
const MODEL_EVENTS = ['llm_call', 'thinking', 'command', 'reflection'];

describe('a "human" run', () => {
  it('is offered by GET /v1/models at no cost', async () => {
    const response = await fetch(`${services.proxyUrl}/v1/models`, {
      headers: { authorization: `Bearer ${services.proxySecret}` },
    });
    const { models } = (await response.json()) as { models: ModelInfo[] };
    expect(models.find((m) => m.id === 'human')).toEqual({
      id: 'human',
      provider: 'human',
      available: true,
      maxConcurrent: null,
      price: { input: 0, output: 0 },
    });
  });

  it('pauses for the person at each level; a proved password completes it as solved by the person', async () => {
    const body = advanceBody('run_humanplayer00000000000', { model: 'human', endLevel: 1 });
    const first = await advance(services, body);
    expect(first.end).toMatchObject({ outcome: 'interrupted', interrupt: { reason: 'human_turn', level: 0 } });
    expect(first.events.at(-1)).toMatchObject({
      type: 'user_action_required',
      reason: 'human_turn',
      lastError: 'your turn: play level 0 in the terminal',
    });
    expect(first.events.filter((e) => e.type === 'level_started')).toMatchObject([{ level: 0, attempt: 1 }]);

    const replies: AdvanceReply[] = [first];
    const answer = async (resume: NonNullable<typeof body.resume>) => {
      const reply = await advance(services, { ...body, checkpoint: replies.at(-1)!.last, resume });
      replies.push(reply);
      return reply;
    };

    const solved = await answer({ action: 'password', value: pass(1) });
    expect(solved.events.find((e) => e.type === 'level_complete')).toMatchObject({
      level: 0,
      nextLevel: 1,
      solvedBy: 'person',
      commands: 0,
    });
    expect(solved.end).toMatchObject({ outcome: 'interrupted', interrupt: { reason: 'human_turn', level: 1 } });

    const wrong = await answer({ action: 'password', value: 'x'.repeat(32) });
    expect(wrong.events.find((e) => e.type === 'error')).toMatchObject({ code: 'wrong_password', level: 1 });
    expect(wrong.end).toMatchObject({
      outcome: 'interrupted',
      interrupt: { reason: 'human_turn', level: 1, lastError: expect.stringMatching(/password you gave was refused/) },
    });

    // Continue asks again, without starting the level over.
    const again = await answer({ action: 'continue' });
    expect(again.end).toMatchObject({ outcome: 'interrupted', interrupt: { reason: 'human_turn', level: 1 } });
    expect(types(again.events)).not.toContain('level_started');

    const last = await answer({ action: 'password', value: pass(2) });
    expect(last.events.find((e) => e.type === 'level_complete')).toMatchObject({ level: 1, solvedBy: 'person' });
    expect(last.end).toMatchObject({ outcome: 'completed' });

    // No model was ever asked: no model call, thinking or command event in the whole run.
    const all = replies.flatMap((r) => types(r.events));
    expect(all.filter((t) => MODEL_EVENTS.includes(t))).toEqual([]);
  });

  it('stop at a human turn ends the run', async () => {
    const body = advanceBody('run_humanstopper00000000000', { model: 'human', endLevel: 3 });
    const first = await advance(services, body);
    const stopped = await advance(services, { ...body, checkpoint: first.last, resume: { action: 'stop' } });
    expect(stopped.end).toMatchObject({ outcome: 'stopped' });
  });
});
