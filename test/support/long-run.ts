// A long run's event log, made in memory: levels 0–32, each with retries, pauses answered with Continue,
// model calls, thinking, commands and their output, as a baseline run answered with Continue many times
// makes. The run page's benchmark and e2e test serve it (long-run-server.ts) at any length.
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { runConfigSchema } from '../../schema/run.ts';

export const LONG_RUN_ID = 'run_longrun000000000000000000';
export const LONG_RUN_END_LEVEL = 32;
/** The bytes of an ELF header, as `cat /bin/true` prints them through a UTF-8 decoder. */
export const ELF_OUTPUT =
  `\u007fELF\u0002\u0001\u0001\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0003\u0000>\u0000\u0001\u0000\u0000\u0000\ufffd\u0019\u0000\u0000\u0000\u0000\u0000\u0000@\u0000\u0000\u0000`.repeat(
    40,
  );
const T0 = Date.UTC(2026, 10, 24, 0, 0, 0);

/** The run's summary as GET /api/runs/:id answers it. */
export function longRunSummary(status: RunSummary['status'], currentLevel: number): RunSummary {
  const config = runConfigSchema.parse({
    model: 'baseline',
    target: 'practice',
    startLevel: 0,
    endLevel: LONG_RUN_END_LEVEL,
    maxRetries: 10,
  });
  const endedAt = status === 'running' ? null : new Date(T0 + 3_600_000).toISOString();
  return {
    id: LONG_RUN_ID,
    config,
    status,
    currentLevel,
    levelsSolved: currentLevel,
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    startedAt: new Date(T0).toISOString(),
    endedAt,
    lastError: null,
  };
}

/** Makes events from seq `next()`; each step is a model call, its thinking, a command and its output. */
export class LongRunLog {
  readonly events: RunEvent[] = [];
  private level = 0;
  private attempt = 1;
  private step = 0;
  private finished = false;

  private readonly perLevel: number;

  /** `expected`: about how many events the log will hold, spread over the 33 levels. */
  constructor(expected: number) {
    // About 4.4 events a step; one step more than fits keeps the last level open for live events.
    this.perLevel = Math.max(10, Math.ceil(expected / (LONG_RUN_END_LEVEL + 1) / 4.4) + 1);
  }

  /** The seq of the newest event. */
  get lastSeq(): number {
    return this.events.length;
  }

  /** Adds events until the log holds `total` of them; returns the ones added. */
  grow(total: number): RunEvent[] {
    const start = this.events.length;
    if (start === 0) {
      this.push({ type: 'status_changed', from: 'queued', to: 'running' });
      this.push({ type: 'level_started', level: 0, attempt: 1, retryCount: 0 });
    }
    while (this.events.length < total) this.cycle();
    return this.events.slice(start);
  }

  /** A cat of a binary file at the current level. */
  binary(): RunEvent[] {
    const start = this.events.length;
    const commandId = `cmd_bin${this.events.length}`;
    this.push({ type: 'command', level: this.level, commandId, command: 'cat /bin/true' });
    this.push({
      type: 'output',
      level: this.level,
      commandId,
      stdout: ELF_OUTPUT,
      stderr: '',
      exitCode: 0,
      durationMs: 3,
      truncated: false,
    });
    return this.events.slice(start);
  }

  /** A Stop: the run ends past its last level's number, as a stop after the last level leaves it. */
  stop(): RunEvent[] {
    const start = this.events.length;
    this.push({ type: 'user_action_resolved', action: 'stop', by: 'user' });
    this.push({ type: 'status_changed', from: 'running', to: 'stopped' });
    this.push({ type: 'run_complete', status: 'stopped', levelsSolved: this.level, reason: 'stopped by a person' });
    return this.events.slice(start);
  }

  get currentLevel(): number {
    return this.level;
  }

  private push(body: Record<string, unknown>): void {
    const seq = this.events.length + 1;
    this.events.push({ seq, ts: new Date(T0 + seq * 50).toISOString(), runId: LONG_RUN_ID, ...body } as RunEvent);
  }

  private cycle(): void {
    const level = this.level;
    const n = ++this.step;
    const callId = `call_${n}`;
    const commandId = `cmd_${n}`;
    this.push({
      type: 'llm_call',
      callId,
      model: 'baseline',
      stage: 'plan',
      level,
      promptTokens: 900,
      completionTokens: 60,
      latencyMs: 20,
      costUsd: 0.0004,
      errorClass: null,
    });
    this.push({
      type: 'thinking',
      level,
      text: `Step ${n}: list the home directory of bandit${level} and read what it holds.`,
    });
    this.push({ type: 'command', level, commandId, command: `ls -la ~ && cat readme-${n}` });
    const stdout = Array.from({ length: 1 + (n % 6) }, (_, i) => `-rw-r----- 1 bandit${level + 1} file-${n}-${i}`);
    this.push({
      type: 'output',
      level,
      commandId,
      stdout: `${stdout.join('\n')}\n`,
      stderr: '',
      exitCode: 0,
      durationMs: 4,
      truncated: false,
    });
    if (n % 10 === 0) this.retry();
    if (n % this.perLevel === 0) this.solveLevel();
  }

  /** An attempt failed, the run paused, a person said Continue, and the level starts again. */
  private retry(): void {
    const level = this.level;
    const lessons = [{ text: `bandit${level}: the password is not in readme`, source: 'model', level }];
    const failed = { level, attempt: this.attempt, retryCount: this.attempt, maxRetries: 10 };
    this.push({ type: 'attempt_failed', ...failed, reason: 'no_progress', lessons });
    const ask = { reason: 'max_retries', level, retryCount: this.attempt, maxRetries: 10, lastError: null, lessons };
    this.push({ type: 'user_action_required', ...ask });
    this.push({ type: 'user_action_resolved', action: 'continue', by: 'user' });
    this.attempt += 1;
    this.push({ type: 'level_started', level, attempt: this.attempt, retryCount: this.attempt - 1 });
  }

  /** The current level proved (the last one's next level is past the range, as a real run's is). */
  solve(): RunEvent[] {
    const start = this.events.length;
    this.solveLevel();
    return this.events.slice(start);
  }

  private solveLevel(): void {
    const level = this.level;
    if (this.finished) return;
    this.finished = level === LONG_RUN_END_LEVEL;
    this.push({ type: 'password_found', level, password: `${String(level).padStart(2, '0')}${'x'.repeat(30)}` });
    this.push({
      type: 'level_complete',
      level,
      nextLevel: level + 1,
      commands: 10,
      durationMs: 1000,
      solvedBy: 'agent',
    });
    if (level < LONG_RUN_END_LEVEL) {
      this.level += 1;
      this.attempt = 1;
      this.push({ type: 'level_started', level: this.level, attempt: 1, retryCount: 0 });
    }
  }
}
