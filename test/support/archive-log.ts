// A run's log for the streamed-archive test: several pages of events (some pages cut by bytes, not by
// count), with every kind of event an archive file shows — retries, pauses answered with hints holding a
// password, a private key in an output, a person's terminal, messages, raised caps, errors, hostile text
// and binary output, and a level's event after the next level began. Deterministic, so an archive of it
// can be compared with a golden one.
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunConfig } from '../../schema/run.ts';
import { runConfigSchema } from '../../schema/run.ts';
import { ELF_OUTPUT } from './long-run.ts';

export const ARCHIVE_RUN_ID = 'run_archivepages0000000000001';
const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);
const LEVELS = 6;

export const archiveRunConfig: RunConfig = runConfigSchema.parse({
  model: 'archive-model',
  target: 'practice',
  startLevel: 0,
  endLevel: LEVELS,
  maxRetries: 10,
});

/** The password a level's run proves (of bandit<level + 1>). */
export const passwordOf = (level: number): string => `Pw${level}${'k'.repeat(20)}${level}q${level}Z9`;

/** A private key an output shows at level 2. */
export const PRIVATE_KEY = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACDhY2xlYW5rZXlmb3J0aGVhcmNoaXZldGVzdG9ubHkAAAAAAAAAAAAAAAAA',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');

/** The log: `steps` steps per level (a step is a model call, thinking, a command, its output and a node). */
export function archiveLog(steps = 110): RunEvent[] {
  const events: RunEvent[] = [];
  const push = (body: Record<string, unknown>) => {
    const seq = events.length + 1;
    events.push({ seq, ts: new Date(T0 + seq * 137).toISOString(), runId: ARCHIVE_RUN_ID, ...body } as RunEvent);
  };
  push({ type: 'run_created', config: archiveRunConfig });
  push({ type: 'status_changed', from: 'queued', to: 'running' });
  let n = 0;
  for (let level = 0; level <= LEVELS; level++) {
    let attempt = 1;
    const address = '127.0.0.1:32220';
    push({ type: 'level_started', level, attempt, retryCount: 0, address });
    for (let step = 1; step <= steps; step++) {
      n += 1;
      const callId = `call_${n}`;
      const commandId = `cmd_${n}`;
      push({
        type: 'llm_call',
        callId,
        model: 'archive-model',
        stage: step === steps && level === 4 ? 'final' : 'plan',
        level,
        promptTokens: 800 + (n % 97),
        completionTokens: 40 + (n % 13),
        latencyMs: 15 + (n % 41),
        costUsd: n % 7 === 0 ? null : 0.0003 + (n % 5) / 10_000,
        errorClass: n % 53 === 0 ? 'timeout' : null,
      });
      push({
        type: 'thinking',
        level,
        text: `Step ${n}: look at bandit${level}'s home <b>again</b> & [read](x) the \`notes\`.\n\u001b]52;c;aGk=\u0007 then go on.`,
      });
      const command = n % 29 === 0 ? 'cat /bin/true' : `ls -la ~ && cat note-${n} | grep -v '\`\`\`'`;
      push({ type: 'command', level, commandId, command });
      // Large outputs now and then, so some pages of the log end on their byte limit rather than their count.
      const big = n % 97 === 0 ? `${'x'.repeat(120)}\n`.repeat(1_400) : '';
      const stdout =
        n % 29 === 0
          ? ELF_OUTPUT
          : `${Array.from({ length: 1 + (n % 5) }, (_, i) => `-rw-r----- 1 bandit${level + 1} note-${n}-${i}`).join('\n')}\n\u001b[31mred\u001b[0m \u202eevil\n${big}`;
      push({
        type: 'output',
        level,
        commandId,
        stdout,
        stderr: n % 11 === 0 ? `cat: note-${n}: Permission denied\n` : '',
        exitCode: n % 11 === 0 ? 1 : 0,
        durationMs: 3 + (n % 17),
        truncated: n % 97 === 0,
      });
      push({
        type: 'node',
        name: n % 3 === 0 ? 'validate' : 'execute',
        level,
        startedAt: new Date(T0 + (events.length - 3) * 137).toISOString(),
        durationMs: 40 + (n % 9),
        status: n % 31 === 0 ? 'error' : 'ok',
        error: n % 31 === 0 ? 'the command timed out' : null,
      });
      if (level === 2 && step === 5) {
        push({
          type: 'output',
          level,
          commandId: `key_${n}`,
          stdout: `${PRIVATE_KEY}\n`,
          stderr: '',
          exitCode: 0,
          durationMs: 2,
          truncated: false,
        });
      }
      if (step % 25 === 0) {
        // A failed attempt, a pause, an answer with a hint that holds the previous level's password, a retry.
        const lessons = [{ text: `bandit${level}: not in note-${n} <i>`, source: 'model', level }];
        push({
          type: 'attempt_failed',
          level,
          attempt,
          retryCount: attempt,
          maxRetries: 10,
          reason: 'no_progress',
          lessons,
        });
        const ask = {
          reason: 'max_retries',
          level,
          retryCount: attempt,
          maxRetries: 10,
          lastError: 'no password yet',
          lessons,
        };
        push({ type: 'user_action_required', ...ask });
        const hint = level > 1 ? `the last one was ${passwordOf(level - 1)}; try find` : undefined;
        push({ type: 'user_action_resolved', action: 'continue', by: 'person', ...(hint ? { hint } : {}) });
        attempt += 1;
        push({ type: 'level_started', level, attempt, retryCount: attempt - 1, address });
      }
      if (level === 3 && step === 30) {
        push({ type: 'message_sent', level, text: 'Look in /etc/bandit_pass, <really>.', by: 'person' });
        push({ type: 'message_read', level, messageSeq: events.length });
        push({ type: 'caps_raised', level, caps: { maxCommands: 900 }, by: 'person' });
        push({ type: 'error', code: 'ssh_error', message: 'connection reset by peer', level });
      }
      if (level === 4 && step === 40) {
        push({ type: 'takeover_started', level, by: 'person', cols: 100, rows: 30 });
        for (let i = 0; i < 30; i++)
          push({
            type: 'terminal_output',
            level,
            data: btoa(`bandit${level}@bandit:~$ ls ${i}\r\n\u001b[1;34mdir-${i}\u001b[0m  file\r\n`),
            ...(i === 10 ? { cols: 80, rows: 24 } : {}),
          });
        push({ type: 'takeover_ended', level, by: 'person', reason: 'closed', durationMs: 12_345 });
      }
    }
    // The password, shown in an output as a shell would (plain, base64 and spaced), then proven.
    const password = passwordOf(level);
    push({
      type: 'output',
      level,
      commandId: `pw_${level}`,
      stdout: `${password}\n${btoa(password)}\n${[...password].join(' ')}\n`,
      stderr: '',
      exitCode: 0,
      durationMs: 2,
      truncated: false,
    });
    push({ type: 'password_found', level, password });
    push({
      type: 'level_complete',
      level,
      nextLevel: level + 1,
      commands: steps,
      durationMs: steps * 700,
      solvedBy: level === 4 ? 'final_attempt' : 'agent',
    });
    if (level === 3) {
      // An event of level 2 after level 3 ended: report.html's transcript groups it under level 2.
      push({ type: 'error', code: 'late_note', message: 'a late note about level 2', level: 2 });
    }
  }
  push({ type: 'status_changed', from: 'running', to: 'completed' });
  push({ type: 'run_complete', status: 'completed', levelsSolved: LEVELS + 1 });
  return events;
}

/** When the log's run was made, started and ended (epoch ms), as its run row holds them. */
export function archiveRunTimes(events: readonly RunEvent[]): { created: number; ended: number } {
  return { created: T0, ended: Date.parse(events.at(-1)!.ts) };
}
