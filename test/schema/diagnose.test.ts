// The failure taxonomy: every class has a card that a record of that kind produces, with its evidence
// and fix, and docs/troubleshooting.md is the page generated from the taxonomy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../schema/diagnose.ts';
import type { FailureClass } from '../../schema/failures.ts';
import { FAILURE_CLASSES, troubleCardSchema } from '../../schema/failures.ts';
import type { LlmErrorClass, PendingAction, RunEvent, RunEventBody } from '../../schema/protocol.ts';
import { runEventSchema } from '../../schema/protocol.ts';
import { troubleshootingDoc } from '../../scripts/troubleshooting-doc.ts';

const RUN = 'run_diagnose000000000000000';

/** A valid log from event bodies, numbered from 1. */
function log(...bodies: RunEventBody[]): RunEvent[] {
  return bodies.map((body, i) =>
    runEventSchema.parse({ ...body, seq: i + 1, runId: RUN, ts: '2026-11-22T00:00:00.000Z' }),
  );
}
const pause = (reason: PendingAction['reason'], lastError: string | null, level = 4): RunEventBody => ({
  type: 'user_action_required',
  reason,
  level,
  retryCount: 3,
  maxRetries: 3,
  lastError,
  lessons: [],
});
const started: RunEventBody = { type: 'level_started', level: 4, attempt: 1, retryCount: 0 };
const command = (id: string, text: string, stderr = ''): RunEventBody[] => [
  { type: 'command', level: 4, commandId: id, command: text },
  {
    type: 'output',
    level: 4,
    commandId: id,
    stdout: '',
    stderr,
    exitCode: stderr ? 1 : 0,
    durationMs: 3,
    truncated: false,
  },
];
const failedCall = (errorClass: LlmErrorClass): RunEventBody => ({
  type: 'llm_call',
  callId: 'llm_9',
  model: 'gpt-x',
  stage: 'plan',
  level: 4,
  promptTokens: 0,
  completionTokens: 0,
  latencyMs: 40,
  costUsd: null,
  errorClass,
});
const error = (code: string, message: string): RunEventBody => ({ type: 'error', code, message, level: 4 });
const attempt = (n: number, reason: 'budget_spent' | 'no_progress' | 'loop_detected'): RunEventBody => ({
  type: 'attempt_failed',
  level: 4,
  attempt: n,
  retryCount: n,
  maxRetries: 3,
  reason,
  lessons: [{ text: `lesson ${n}`, source: 'model', level: 4 }],
});
const llmPause = (errorClass: LlmErrorClass, message: string) =>
  log(started, failedCall(errorClass), error(`llm_${errorClass}`, message), pause('llm_error', message));
const sshPause = (kind: string, message: string) =>
  log(started, ...command('c1', 'ls'), error(`ssh_${kind}`, message), pause('ssh_error', message));

/** One record per class; the test below demands that every class has one. */
const CASES: Record<FailureClass, RunEvent[]> = {
  model_missing_key: llmPause('missing_key', 'OPENAI_API_KEY is not set'),
  model_bad_key: llmPause('bad_key', 'the endpoint refused the API key (401)'),
  model_quota: llmPause('quota_exceeded', 'out of quota'),
  model_rate_limited: llmPause('rate_limited', 'kept rate-limiting'),
  model_timeout: llmPause('timeout', 'did not answer in time'),
  model_outage: llmPause('server_error', 'kept failing (HTTP 503)'),
  model_context_too_long: llmPause('context_too_long', 'the conversation is too long'),
  model_empty_answer: llmPause('empty_response', 'returned an empty answer'),
  model_truncated_answer: llmPause('truncated_response', 'was cut off at its output limit'),
  model_unparseable_tool_call: llmPause('malformed_response', 'answered in text without calling a tool'),
  model_unknown_model: llmPause('unknown_model', 'does not know the model'),
  model_error: llmPause('unknown', 'refused the request: weird'),
  ssh_unreachable: sshPause('unreachable', 'cannot reach the host (ECONNREFUSED)'),
  ssh_timeout: sshPause('timeout', 'no SSH handshake in time'),
  ssh_dropped: sshPause('dropped', 'the connection dropped twice'),
  ssh_auth: sshPause('auth', 'the login was refused'),
  proxy_unreachable: log(
    started,
    error('proxy_retry', 'cannot reach the proxy; retrying in 1 s'),
    error('proxy_retry', 'cannot reach the proxy; retrying in 2 s'),
    pause('proxy_unreachable', 'cannot reach the proxy (5 tries); continue tries again'),
  ),
  state_too_large: log(
    started,
    ...command('c1', 'cat flood'),
    error(
      'state_too_large',
      "the run's state grew to 1,534,221 bytes: history[12].output (1,480,000 bytes, cut to 2,000)",
    ),
    pause(
      'state_too_large',
      "the run's state grew to 1,534,221 bytes: history[12].output (1,480,000 bytes, cut to 2,000); continue goes on with the cut text",
    ),
  ),
  configuration_invalid: log(
    pause('proxy_unreachable', 'worker configuration is invalid: PROXY_URL: must be the SSH proxy base URL', 0),
  ),
  max_retries: log(
    started,
    ...command('c1', 'cat readme', 'cat: readme: No such file or directory'),
    attempt(1, 'no_progress'),
    attempt(2, 'budget_spent'),
    attempt(3, 'no_progress'),
    pause('max_retries', 'no password after 3 attempts'),
  ),
  budget_spent: log(
    started,
    attempt(1, 'budget_spent'),
    attempt(2, 'budget_spent'),
    attempt(3, 'budget_spent'),
    pause('max_retries', 'no password after 3 attempts'),
  ),
  loop_detected: log(
    started,
    ...command('c1', 'ls'),
    attempt(1, 'loop_detected'),
    attempt(2, 'loop_detected'),
    pause('loop_detected', 'the agent repeated "ls" in two attempts'),
  ),
  wrong_password: log(
    started,
    error('wrong_password', 'the password you gave was refused (login as bandit5 failed)'),
    pause('max_retries', 'the password you gave was refused (login as bandit5 failed)'),
  ),
  password_required: log(pause('password_required', "the run starts at level 4; give bandit4's password to begin")),
  paused_by_person: log(started, pause('user_requested', 'paused by a person')),
  terminal_taken: log(started, pause('takeover', 'a person took the terminal')),
  budget_exceeded: log(started, {
    ...pause('budget_exceeded', 'the cost cap'),
    breach: { cap: 'maxCostUsd', spent: 1.99, limit: 2, next: 0.02 },
  } as Parameters<typeof log>[1]),
  your_turn: log(started, pause('human_turn', 'your turn: play level 4 in the terminal')),
  stopped: log(started, { type: 'run_complete', status: 'stopped', levelsSolved: 4, reason: 'stopped by rest' }),
  run_failed: log(started, error('run_failed', 'the proxy refused the run: config.model: "x" is not offered here'), {
    type: 'run_complete',
    status: 'failed',
    levelsSolved: 4,
    reason: 'the proxy refused the run',
  }),
};

describe('failure taxonomy', () => {
  it('has a record for every class, and each record gives that class with its fix and evidence', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(FAILURE_CLASSES).sort());
    for (const [failure, events] of Object.entries(CASES) as [FailureClass, RunEvent[]][]) {
      const card = troubleCardSchema.parse(diagnose(events));
      expect(card.failure, failure).toBe(failure);
      expect(card.fix).toBe(FAILURE_CLASSES[failure].fix);
      expect(card.seq).toBe(events.at(-1)!.seq);
      for (const piece of card.evidence)
        expect(
          events.some((e) => e.seq === piece.seq),
          `${failure} evidence seq`,
        ).toBe(true);
    }
  });

  it('shows the evidence that explains the card', () => {
    const timeout = diagnose(CASES.model_timeout)!;
    expect(timeout.evidence.map((e) => e.label)).toEqual(['error llm_timeout', 'model call llm_9']);
    expect(timeout.what).toBe('did not answer in time');
    const retries = diagnose(CASES.max_retries)!;
    expect(retries.evidence.map((e) => e.text)).toContain(
      '$ cat readme → exit 1; stderr: cat: readme: No such file or directory',
    );
    expect(retries.evidence.filter((e) => e.label.startsWith('attempt'))).toHaveLength(3);
    expect(diagnose(CASES.proxy_unreachable)!.evidence).toHaveLength(2);
    const tooLarge = diagnose(CASES.state_too_large)!;
    expect(tooLarge.what).toMatch(/history\[12\]\.output/);
    expect(tooLarge.evidence.map((e) => e.label)).toEqual(['error state_too_large']);
  });

  it('gives no card to a run that is going, completed, or whose pause was answered', () => {
    expect(diagnose(log(started))).toBeNull();
    expect(diagnose(log(started, { type: 'run_complete', status: 'completed', levelsSolved: 5 }))).toBeNull();
    expect(
      diagnose(
        log(started, pause('max_retries', 'x'), { type: 'user_action_resolved', action: 'continue', by: 'rest' }),
      ),
    ).toBeNull();
  });

  it('docs/troubleshooting.md is the page generated from the taxonomy, with every class on it', () => {
    const page = readFileSync(join(import.meta.dirname, '../../docs/troubleshooting.md'), 'utf8');
    expect(page).toBe(troubleshootingDoc());
    for (const [name, info] of Object.entries(FAILURE_CLASSES)) {
      expect(page).toContain(`\`${name}\``);
      expect(page).toContain(info.fix);
    }
  });
});
