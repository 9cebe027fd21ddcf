// A person's messages enter the agent's state as a person's lessons at its level, from a fresh state or
// a checkpoint, each cut like a hint and kept once; the receipts name each message's seq.
import { describe, expect, it } from 'vitest';
import { runConfigSchema } from '../../schema/run.ts';
import { initialBanditState } from '../../ssh-proxy/agent/bandit-state.ts';
import { readMessages } from '../../ssh-proxy/agent/read-messages.ts';
import { STATE_TEXT_BYTES } from '../../ssh-proxy/agent/state-text.ts';

const state = { ...initialBanditState(runConfigSchema.parse({}), 0), level: 4 };

describe('readMessages', () => {
  it('adds each message as a lesson from a person at the current level, with a receipt', () => {
    const { from, read } = readMessages({ state }, [
      { seq: 7, text: 'try `cat readme`' },
      { seq: 9, text: 'look in inhere' },
    ]);
    expect('state' in from && from.state.lessons).toEqual([
      { text: 'try `cat readme`', source: 'user', level: 4 },
      { text: 'look in inhere', source: 'user', level: 4 },
    ]);
    expect(read).toEqual([
      { level: 4, messageSeq: 7 },
      { level: 4, messageSeq: 9 },
    ]);
  });

  it('changes a checkpoint only in its lessons, keeps a repeated text once and cuts a long one', () => {
    const checkpoint = { version: 1, step: 3, next: 'plan', state, createdAt: new Date(0).toISOString() };
    const long = `\u0007${'x'.repeat(20_000)}`;
    const { from } = readMessages({ checkpoint }, [
      { seq: 2, text: 'Look in inhere' },
      { seq: 3, text: 'look  in inhere' },
      { seq: 4, text: long },
    ]);
    if (!('checkpoint' in from)) throw new Error('expected a checkpoint');
    expect({ ...from.checkpoint, state: undefined }).toEqual({ ...checkpoint, state: undefined });
    const lessons = from.checkpoint.state.lessons;
    expect(lessons.map((l) => l.text.slice(0, 20))).toEqual(['look  in inhere', '^Gxxxxxxxxxxxxxxxxxx']);
    expect(JSON.stringify(lessons[1]?.text).length).toBeLessThanOrEqual(STATE_TEXT_BYTES.note);
  });

  it('leaves the start as it was without messages', () => {
    const start = { state };
    expect(readMessages(start, undefined)).toEqual({ from: start, read: [] });
    expect(readMessages(start, [])).toEqual({ from: start, read: [] });
  });
});
