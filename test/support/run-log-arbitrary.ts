// fast-check event logs shaped like real runs: levels in order, attempts with commands and model calls,
// failed attempts, pauses for every reason answered with continue, a hint, a password or stop, a person's
// messages read or still unread, levels solved by the agent, the final attempt or a person, and runs that
// end or stop anywhere.
import fc from 'fast-check';
import type { RunEvent } from '../../schema/protocol.ts';
import type { PauseReason } from '../../schema/run.ts';

type Body = { [K in RunEvent['type']]: Omit<Extract<RunEvent, { type: K }>, 'seq' | 'ts' | 'runId'> }[RunEvent['type']];

const answer = fc.constantFrom('continue', 'hint', 'password', 'stop') as fc.Arbitrary<
  'continue' | 'hint' | 'password' | 'stop'
>;
const reason = fc.constantFrom<PauseReason>('max_retries', 'loop_detected', 'llm_error', 'password_required');
const attempt = fc.record({
  commands: fc.nat(3),
  calls: fc.array(fc.record({ prompt: fc.nat(500), completion: fc.nat(200), cost: fc.option(fc.nat(1000)) }), {
    maxLength: 3,
  }),
  fails: fc.boolean(),
});
const level = fc.record({
  attempts: fc.array(attempt, { minLength: 1, maxLength: 4 }),
  pauses: fc.array(fc.record({ reason, answer }), { maxLength: 3 }),
  solvedBy: fc.constantFrom('agent', 'final_attempt', 'person', 'none', undefined),
  /** A person's message at the level: none, sent but not read yet, or read by the agent. */
  message: fc.constantFrom('none', 'sent', 'read'),
});

/** A run id every generated event carries. */
export const ARBITRARY_RUN_ID = 'run_propertyfold0000000000001';

/** A whole run's event log, numbered from 1, a second apart. */
export const runLogArbitrary = fc
  .record({ start: fc.nat(5), levels: fc.array(level, { minLength: 1, maxLength: 5 }) })
  .map(({ start, levels }) => {
    const bodies: Body[] = [{ type: 'status_changed', from: 'queued', to: 'running' }];
    let stopped = false;
    levels.forEach((l, i) => {
      if (stopped) return;
      const at = start + i;
      let retries = 0;
      if (l.message !== 'none') {
        bodies.push({ type: 'message_sent', level: at, text: 'try `cat readme`', by: 'the web UI' });
        // Numbered from 1 below, so the message's seq is its place in the log.
        if (l.message === 'read') bodies.push({ type: 'message_read', level: at, messageSeq: bodies.length });
      }
      l.attempts.forEach((a, k) => {
        bodies.push({ type: 'level_started', level: at, attempt: k + 1, retryCount: retries });
        for (let c = 0; c < a.commands; c++)
          bodies.push({ type: 'command', level: at, commandId: `c${i}-${k}-${c}`, command: 'ls' });
        for (const [n, call] of a.calls.entries())
          bodies.push({
            type: 'llm_call',
            callId: `m${i}-${k}-${n}`,
            model: 'baseline',
            stage: 'plan',
            level: at,
            promptTokens: call.prompt,
            completionTokens: call.completion,
            latencyMs: 5,
            costUsd: call.cost === null ? null : call.cost / 1e6,
            errorClass: null,
          });
        if (a.fails) {
          retries += 1;
          bodies.push({
            type: 'attempt_failed',
            level: at,
            attempt: k + 1,
            retryCount: retries,
            maxRetries: 3,
            reason: 'no_progress',
            lessons: [],
          });
        }
      });
      for (const p of l.pauses) {
        bodies.push({
          type: 'user_action_required',
          reason: p.reason,
          level: at,
          retryCount: retries,
          maxRetries: 3,
          lastError: null,
          lessons: [],
        });
        bodies.push({
          type: 'user_action_resolved',
          action: p.answer === 'hint' ? 'continue' : p.answer,
          ...(p.answer === 'hint' ? { hint: 'look in the home directory' } : {}),
          by: 'person',
        });
        if (p.answer === 'stop') {
          stopped = true;
          return;
        }
      }
      if (l.solvedBy === 'none') return;
      bodies.push({
        type: 'level_complete',
        level: at,
        nextLevel: at + 1,
        commands: l.attempts.reduce((n, a) => n + a.commands, 0),
        durationMs: 1000,
        ...(l.solvedBy ? { solvedBy: l.solvedBy } : {}),
      });
    });
    bodies.push({ type: 'run_complete', status: stopped ? 'stopped' : 'completed', levelsSolved: 0 });
    return bodies.map(
      (body, i) =>
        ({
          ...body,
          seq: i + 1,
          ts: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
          runId: ARBITRARY_RUN_ID,
        }) as RunEvent,
    );
  });
