// Words and numbers as the UI shows them.
import type { PauseReason, RunStatus } from '../../schema/run.ts';
import type { TerminalEndReason } from '../../schema/terminal.ts';

export const STATUS_LABELS: Record<RunStatus, string> = {
  queued: 'queued',
  running: 'running',
  paused_for_user_action: 'waiting for you',
  completed: 'completed',
  failed: 'failed',
  stopped: 'stopped',
};

/** Why a run waits, in a sentence a person can act on. */
export function pauseReasonText(reason: PauseReason, level: number, maxRetries: number): string {
  switch (reason) {
    case 'max_retries':
      return `The agent used all ${maxRetries} ${maxRetries === 1 ? 'attempt' : 'attempts'} on level ${level} without finding the password.`;
    case 'llm_error':
      return `The model failed on level ${level} (see the last error). Continue tries again.`;
    case 'ssh_error':
      return `The SSH connection failed on level ${level}. Continue tries again.`;
    case 'loop_detected':
      return `The agent kept repeating the same thing on level ${level}. A hint may get it unstuck.`;
    case 'proxy_unreachable':
      return 'The SSH proxy could not be reached. Continue tries again.';
    case 'user_requested':
      return 'The run was paused by a person.';
    case 'password_required':
      return `The run starts at level ${level} and needs that level's password.`;
    case 'state_too_large':
      return `The agent's state outgrew its limit on level ${level}; the largest text was cut. Continue goes on.`;
    case 'takeover':
      return `A person took the terminal on level ${level}. Hand it back to let the agent go on.`;
    case 'human_turn':
      return `Your turn: play level ${level} in the terminal, or give its password.`;
    case 'budget_exceeded':
      return `The next step on level ${level} could cross a budget cap. Raise the cap to go on, or stop.`;
  }
}

/** Why the shared terminal closed, in the words after "The terminal closed (…)". */
export const TERMINAL_END_TEXT: Record<TerminalEndReason, string> = {
  handback: 'handed back',
  idle: 'idle too long',
  restart: 'the stack restarted; the run stays paused',
  stopped: 'the run was stopped',
  closed: 'the shell or its login ended',
  solved: 'level solved; it reopens at the next level',
};

/** 65_000 → "1m 05s". */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

export function formatCost(usd: number): string {
  return usd === 0 ? '$0' : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function formatTime(iso: string | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

/** Strips terminal escape sequences the page cannot render (colours, cursor moves). */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07/g, '');
}
