// Reads a run's record and says why it paused or ended badly: one card from the taxonomy in
// failures.ts, with the evidence from the events and the fix. Pure, so the worker, the web app and
// the tests share it.
import type { FailureClass, Evidence, TroubleCard } from './failures.ts';
import { FAILURE_CLASSES } from './failures.ts';
import type { LlmErrorClass, RunEvent } from './protocol.ts';
import { breachText } from './budget.ts';

/** The taxonomy class of each way a model call can fail. */
export const LLM_FAILURES: Record<LlmErrorClass, FailureClass> = {
  missing_key: 'model_missing_key',
  bad_key: 'model_bad_key',
  quota_exceeded: 'model_quota',
  rate_limited: 'model_rate_limited',
  timeout: 'model_timeout',
  server_error: 'model_outage',
  context_too_long: 'model_context_too_long',
  empty_response: 'model_empty_answer',
  truncated_response: 'model_truncated_answer',
  malformed_response: 'model_unparseable_tool_call',
  unknown_model: 'model_unknown_model',
  unknown: 'model_error',
};

const SSH_FAILURES: Record<string, FailureClass> = {
  ssh_unreachable: 'ssh_unreachable',
  ssh_timeout: 'ssh_timeout',
  ssh_dropped: 'ssh_dropped',
  ssh_auth: 'ssh_auth',
};

type Event<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

/** The card for the run's last pause or bad end, or null when it has none (running, completed). */
export function diagnose(events: readonly RunEvent[]): TroubleCard | null {
  const end = findLast(
    events,
    (e): e is Event<'user_action_required'> | Event<'run_complete'> =>
      e.type === 'user_action_required' || e.type === 'run_complete',
  );
  if (!end) return null;
  // A pause that was answered is history; only the one still waiting (or a bad end) gets a card.
  if (end.type === 'user_action_required' && events.some((e) => e.seq > end.seq && e.type === 'user_action_resolved'))
    return null;
  if (end.type === 'run_complete' && end.status === 'completed') return null;
  const before = events.filter((e) => e.seq < end.seq);
  const level =
    end.type === 'user_action_required'
      ? end.level
      : ((findLast(before, (e) => 'level' in e && typeof e.level === 'number') as { level?: number } | undefined)
          ?.level ?? null);
  const { failure, what, evidence } = end.type === 'run_complete' ? ofEnd(end, before) : ofPause(end, before);
  const info = FAILURE_CLASSES[failure];
  return { failure, category: info.category, title: info.title, what, evidence, fix: info.fix, level, seq: end.seq };
}

type Finding = { failure: FailureClass; what: string; evidence: Evidence[] };

function ofEnd(end: Event<'run_complete'>, before: readonly RunEvent[]): Finding {
  if (end.status === 'stopped') return { failure: 'stopped', what: end.reason ?? 'The run was stopped.', evidence: [] };
  const error = findLast(before, (e): e is Event<'error'> => e.type === 'error' && e.code === 'run_failed');
  return {
    failure: 'run_failed',
    what: end.reason ?? error?.message ?? 'The run failed.',
    evidence: error ? [errorEvidence(error)] : [],
  };
}

function ofPause(pause: Event<'user_action_required'>, before: readonly RunEvent[]): Finding {
  const lastError = pause.lastError ?? '';
  const atLevel = before.filter((e) => !('level' in e) || e.level === pause.level);
  switch (pause.reason) {
    case 'llm_error': {
      const error = findLast(atLevel, (e): e is Event<'error'> => e.type === 'error' && e.code.startsWith('llm_'));
      const call = findLast(atLevel, (e): e is Event<'llm_call'> => e.type === 'llm_call' && e.errorClass !== null);
      const errorClass = (call?.errorClass ?? error?.code.slice('llm_'.length)) as LlmErrorClass | undefined;
      const evidence = [...(error ? [errorEvidence(error)] : []), ...(call ? [callEvidence(call)] : [])];
      return {
        failure: (errorClass && LLM_FAILURES[errorClass]) || 'model_error',
        what: error?.message ?? lastError,
        evidence,
      };
    }
    case 'ssh_error': {
      const error = findLast(atLevel, (e): e is Event<'error'> => e.type === 'error' && e.code.startsWith('ssh_'));
      return {
        failure: (error && SSH_FAILURES[error.code]) || 'ssh_dropped',
        what: error?.message ?? lastError,
        evidence: [...(error ? [errorEvidence(error)] : []), ...lastCommand(atLevel)],
      };
    }
    case 'proxy_unreachable': {
      const retries = atLevel
        .filter((e): e is Event<'error'> => e.type === 'error' && e.code === 'proxy_retry')
        .slice(-3);
      const failure = lastError.startsWith('worker configuration is invalid')
        ? 'configuration_invalid'
        : 'proxy_unreachable';
      return { failure, what: lastError, evidence: retries.map(errorEvidence) };
    }
    case 'state_too_large': {
      const error = findLast(atLevel, (e): e is Event<'error'> => e.type === 'error' && e.code === 'state_too_large');
      return {
        failure: 'state_too_large',
        what: lastError || error?.message || "The run's state outgrew its limit.",
        evidence: error ? [errorEvidence(error)] : [],
      };
    }
    case 'loop_detected':
      return {
        failure: 'loop_detected',
        what: lastError,
        evidence: [...attemptEvidence(atLevel), ...lastCommand(atLevel)],
      };
    case 'password_required':
      return { failure: 'password_required', what: lastError, evidence: [] };
    case 'user_requested':
      return { failure: 'paused_by_person', what: lastError || 'Paused by a person.', evidence: [] };
    // A person took the terminal, or plays this level: nothing went wrong, and the way on is theirs.
    case 'takeover':
      return { failure: 'terminal_taken', what: lastError || 'A person took the terminal.', evidence: [] };
    case 'budget_exceeded':
      return { failure: 'budget_exceeded', what: pause.breach ? breachText(pause.breach) : lastError, evidence: [] };
    case 'human_turn':
      return { failure: 'your_turn', what: lastError || `Your turn: play level ${pause.level}.`, evidence: [] };
    case 'max_retries': {
      const refused = findLast(atLevel, (e): e is Event<'error'> => e.type === 'error' && e.code === 'wrong_password');
      // A person's refused password is the newest thing this pause is about.
      if (refused && lastError === refused.message)
        return { failure: 'wrong_password', what: refused.message, evidence: [errorEvidence(refused)] };
      const attempts = atLevel
        .filter((e): e is Event<'attempt_failed'> => e.type === 'attempt_failed')
        .slice(-pause.maxRetries);
      const allSpent = attempts.length > 0 && attempts.every((a) => a.reason === 'budget_spent');
      return {
        failure: allSpent ? 'budget_spent' : 'max_retries',
        what: lastError,
        evidence: [...attemptEvidence(atLevel), ...lastCommand(atLevel)],
      };
    }
  }
}

function findLast<T extends RunEvent>(events: readonly RunEvent[], test: (e: RunEvent) => e is T): T | undefined;
function findLast(events: readonly RunEvent[], test: (e: RunEvent) => boolean): RunEvent | undefined;
function findLast(events: readonly RunEvent[], test: (e: RunEvent) => boolean): RunEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) if (test(events[i]!)) return events[i];
  return undefined;
}

const errorEvidence = (e: Event<'error'>): Evidence => ({ seq: e.seq, label: `error ${e.code}`, text: e.message });

function callEvidence(call: Event<'llm_call'>): Evidence {
  return {
    seq: call.seq,
    label: `model call ${call.callId}`,
    text: `${call.model} (${call.stage}) failed with ${call.errorClass} after ${call.latencyMs} ms`,
  };
}

/** The attempts' endings at the level, oldest first. */
function attemptEvidence(atLevel: readonly RunEvent[]): Evidence[] {
  return atLevel
    .filter((e): e is Event<'attempt_failed'> => e.type === 'attempt_failed')
    .slice(-5)
    .map((a) => ({
      seq: a.seq,
      label: `attempt ${a.attempt}`,
      text: `ended: ${a.reason.replace(/_/g, ' ')}${a.lessons.length ? `; learned: ${a.lessons.map((l) => l.text).join(' / ')}` : ''}`,
    }));
}

/** The last command run at the level and what it printed to stderr. */
function lastCommand(atLevel: readonly RunEvent[]): Evidence[] {
  const output = findLast(atLevel, (e): e is Event<'output'> => e.type === 'output');
  const command =
    output && findLast(atLevel, (e): e is Event<'command'> => e.type === 'command' && e.commandId === output.commandId);
  if (!command || !output) return [];
  const stderr = output.stderr.trim();
  return [
    {
      seq: command.seq,
      label: 'last command',
      text: `$ ${command.command} → exit ${output.exitCode ?? 'none'}${stderr ? `; stderr: ${stderr.slice(0, 300)}` : ''}`,
    },
  ];
}
