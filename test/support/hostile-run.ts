// A run's stored log whose every text field holds the hostile payloads of hostile-text.ts: thinking,
// commands, outputs, lessons, pause reasons, hints, errors. The archive test builds files from it and
// the fake stack (fake-run-server.ts) serves it to the CLI, so both meet the same bytes.
import type { RunEvent } from '../../schema/protocol.ts';
import { runEventSchema } from '../../schema/protocol.ts';
import { runConfigSchema } from '../../schema/run.ts';
import type { RunSummary } from '../../schema/run.ts';
import { HOSTILE } from './hostile-text.ts';
import { archiveFiles } from '../../worker/artifacts/build-archive.ts';

export const HOSTILE_RUN_ID = 'run_hostile0000000000000000';
export const PW1 = `${'A'.repeat(31)}z`;

/** Commands a shell must not run on the replaying machine: they are only text to the target. */
export const SHELL_HOSTILE = [
  `echo "$(touch "$REPLAY_MARK")"`,
  'echo `touch "$REPLAY_MARK"`',
  'echo \'a\'"b"; touch "$REPLAY_MARK"',
  'cat readme\ntouch "$REPLAY_MARK"',
  'echo $((1+1)) ${HOME} \\ | & * ?',
];

let seq = 0;
const at = (n: number) => new Date(Date.UTC(2026, 10, 24, 0, 0, 0, n * 10)).toISOString();
const ev = (body: Record<string, unknown>): RunEvent =>
  runEventSchema.parse({ seq: ++seq, ts: at(seq), runId: HOSTILE_RUN_ID, ...body });

/** The log: level 0 solved with shell-hostile commands, then level 1 full of terminal-hostile text. */
export function hostileEvents(): RunEvent[] {
  seq = 0;
  const events: RunEvent[] = [ev({ type: 'level_started', level: 0, attempt: 1, retryCount: 0 })];
  for (const [i, command] of SHELL_HOSTILE.entries()) {
    events.push(ev({ type: 'command', level: 0, commandId: `cmd_s${i}`, command }));
    events.push(
      ev({
        type: 'output',
        level: 0,
        commandId: `cmd_s${i}`,
        stdout: i === 0 ? `${PW1}\n` : 'ok\n',
        stderr: '',
        exitCode: 0,
        durationMs: 2,
        truncated: false,
      }),
    );
  }
  events.push(ev({ type: 'password_found', level: 0, password: PW1 }));
  events.push(
    ev({
      type: 'level_complete',
      level: 0,
      nextLevel: 1,
      commands: SHELL_HOSTILE.length,
      durationMs: 9,
      solvedBy: 'agent',
    }),
  );
  events.push(ev({ type: 'level_started', level: 1, attempt: 1, retryCount: 0 }));
  for (const [i, { text }] of HOSTILE.entries()) {
    events.push(ev({ type: 'thinking', level: 1, text: `thinking ${i}: ${text}` }));
    events.push(ev({ type: 'command', level: 1, commandId: `cmd_h${i}`, command: `echo ${i} ${text.slice(0, 5000)}` }));
    events.push(
      ev({
        type: 'output',
        level: 1,
        commandId: `cmd_h${i}`,
        stdout: text,
        stderr: `err ${i} ${text.slice(0, 5000)}`,
        exitCode: 1,
        durationMs: 2,
        truncated: false,
      }),
    );
  }
  const few = HOSTILE.filter((h) => h.text.length < 5000).map((h) => h.text);
  events.push(
    ev({
      type: 'attempt_failed',
      level: 1,
      attempt: 1,
      reason: 'budget_spent',
      retryCount: 1,
      maxRetries: 1,
      lessons: few.map((text) => ({ text, source: 'model', level: 1 })),
    }),
  );
  events.push(ev({ type: 'error', code: 'provider_error', message: few.join(' | ') }));
  events.push(
    ev({
      type: 'user_action_required',
      reason: 'max_retries',
      level: 1,
      retryCount: 1,
      maxRetries: 1,
      lastError: few.join(' '),
      lessons: [],
      finalAttempt: { commands: few, outcome: few.join(' ') },
    }),
  );
  events.push(ev({ type: 'user_action_resolved', action: 'continue', hint: few.join(' '), by: 'user' }));
  // The review's case: an override left open at the end of a hint, right before the "(user)" label.
  events.push(ev({ type: 'user_action_resolved', action: 'continue', hint: 'try cat readme \u202e', by: 'user' }));
  // A person's message carries the same text, and is read at the agent's next turn.
  const message = ev({ type: 'message_sent', level: 1, text: few.join(' '), by: 'the web UI' });
  events.push(message, ev({ type: 'message_read', level: 1, messageSeq: message.seq }));
  events.push(ev({ type: 'run_complete', status: 'stopped', levelsSolved: 1, reason: few.join(' ') }));
  return events;
}

/** The run as GET /api/runs/:id answers it. */
export function hostileSummary(status: RunSummary['status'] = 'stopped'): RunSummary {
  const config = runConfigSchema.parse({
    model: 'baseline',
    target: 'practice',
    startLevel: 0,
    endLevel: 3,
    maxRetries: 1,
  });
  return {
    id: HOSTILE_RUN_ID,
    config,
    status,
    currentLevel: 1,
    levelsSolved: 1,
    createdAt: at(0),
    updatedAt: at(999),
    startedAt: at(0),
    endedAt: at(999),
    lastError: null,
  };
}

/** The hostile run's archive files, as the worker builds them: with its secrets or redacted, played at `address`. */
export function hostileArchive({
  includeSecrets,
  address = '127.0.0.1:32220',
}: {
  includeSecrets: boolean;
  address?: string | null;
}): ReturnType<typeof archiveFiles> {
  return archiveFiles({
    run: hostileSummary(),
    events: hostileEvents(),
    calls: [],
    verifiedBy: [],
    target: { address, host: '127.0.0.1' },
    includeSecrets,
  });
}
