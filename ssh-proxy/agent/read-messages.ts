// A person's messages to a running agent (issue 30) enter its state as lessons from a person, as a
// hint does, so its next model turn has them in its prompt (and the baseline runs a command they name).
import type { PendingAction, ProxyRequest } from '../../schema/protocol.ts';
import type { RunFrom } from '../engine/compiled-graph.ts';
import type { BanditState } from './bandit-state.ts';
import { keepLessons } from './nodes/keep-lessons.ts';
import { STATE_TEXT_BYTES, stateText } from './state-text.ts';

type From = RunFrom<BanditState, PendingAction>;

/** Where the call starts with `messages` added to the state's lessons, and the read receipts to emit. */
export function readMessages(
  from: From,
  messages: ProxyRequest['messages'],
): { from: From; read: { level: number; messageSeq: number }[] } {
  if (!messages?.length) return { from, read: [] };
  const state = 'checkpoint' in from ? from.checkpoint.state : from.state;
  const lessons = messages.map((m) => ({
    text: stateText(m.text, STATE_TEXT_BYTES.note),
    source: 'user' as const,
    level: state.level,
  }));
  const next = { ...state, lessons: keepLessons([...state.lessons, ...lessons]) };
  const read = messages.map((m) => ({ level: state.level, messageSeq: m.seq }));
  return 'checkpoint' in from
    ? { from: { checkpoint: { ...from.checkpoint, state: next } }, read }
    : { from: { state: next }, read };
}
