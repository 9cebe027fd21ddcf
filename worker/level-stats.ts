// A run's figures per level, kept in its Durable Object as events are stored: attempts, retries,
// pauses, whether a person helped, commands, tokens, cost, and when the level was solved. The D1
// mirror upserts the rows that changed into run_levels, which the analytics read.
import type { RunEvent } from '../schema/protocol.ts';
import type { PauseReason } from '../schema/run.ts';

/** One level's figures, as the D1 row holds them. */
export type LevelStatsRow = {
  level: number;
  startedAt: number;
  endedAt: number | null;
  attempts: number;
  retries: number;
  pauses: number;
  pauseReasons: Partial<Record<PauseReason, number>>;
  solved: boolean;
  helped: boolean;
  commands: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
};

type Row = {
  level: number;
  started_at: number;
  ended_at: number | null;
  attempts: number;
  retries: number;
  pauses: number;
  pause_reasons: string;
  solved: number;
  helped: number;
  commands: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  version: number;
  sent: number;
};

/** The per-level figures of one run, and which of them D1 has not taken yet. */
export class LevelStats {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** Counts a stored event against its level. `pausedAt` is the level a person's answer was for. */
  apply(event: RunEvent, pausedAt: number | null): void {
    const at = Date.parse(event.ts);
    const bump = (level: number, set: string, ...values: (number | string | null)[]) => {
      this.sql.exec('INSERT OR IGNORE INTO level_stats (level, started_at) VALUES (?, ?)', level, at);
      this.sql.exec(`UPDATE level_stats SET ${set}, version = version + 1 WHERE level = ?`, ...values, level);
    };
    switch (event.type) {
      case 'level_started':
        return bump(event.level, 'attempts = attempts + 1');
      case 'attempt_failed':
        return bump(event.level, 'retries = retries + 1');
      case 'user_action_required':
        return bump(
          event.level,
          `pauses = pauses + 1, pause_reasons = json_set(pause_reasons, '$.' || ?, coalesce(json_extract(pause_reasons, '$.' || ?), 0) + 1)`,
          event.reason,
          event.reason,
        );
      case 'user_action_resolved':
        // A hint or a password is help; a bare continue or a stop is not.
        if (pausedAt !== null && (event.action === 'password' || event.hint)) bump(pausedAt, 'helped = 1');
        return;
      case 'command':
        return bump(event.level, 'commands = commands + 1');
      case 'llm_call':
        return bump(
          event.level,
          'prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?, cost_usd = cost_usd + ?',
          event.promptTokens,
          event.completionTokens,
          event.costUsd ?? 0,
        );
      case 'level_complete':
        return bump(event.level, 'solved = 1, ended_at = ?', at);
      default:
        return;
    }
  }

  /** Rows D1 has not taken in their current version, each with that version. */
  unsent(): { row: LevelStatsRow; version: number }[] {
    return this.sql
      .exec<Row>('SELECT * FROM level_stats WHERE version > sent ORDER BY level')
      .toArray()
      .map((r) => ({
        row: {
          level: r.level,
          startedAt: r.started_at,
          endedAt: r.ended_at,
          attempts: r.attempts,
          retries: r.retries,
          pauses: r.pauses,
          pauseReasons: JSON.parse(r.pause_reasons) as LevelStatsRow['pauseReasons'],
          solved: r.solved === 1,
          helped: r.helped === 1,
          commands: r.commands,
          promptTokens: r.prompt_tokens,
          completionTokens: r.completion_tokens,
          costUsd: r.cost_usd,
        },
        version: r.version,
      }));
  }

  /** Notes that D1 took these rows at these versions. */
  sent(taken: readonly { row: LevelStatsRow; version: number }[]): void {
    for (const { row, version } of taken)
      this.sql.exec('UPDATE level_stats SET sent = max(sent, ?) WHERE level = ?', version, row.level);
  }
}
