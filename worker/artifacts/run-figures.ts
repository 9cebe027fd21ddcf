// summary.json, lessons.json and tool_metrics.json: the run's figures, folded from its event log an event
// at a time, so the archive reads the log in pages and keeps only the figures.
import type { Lesson, RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { emptyRecord, foldRecord, levelResults, runTotals } from '../../schema/run-record.ts';
import type { RunRecord } from '../../schema/run-record.ts';
import { nearestRankValue } from '../../schema/nearest-rank.ts';
import { spentOf } from '../../schema/run-spend.ts';

type Pause = {
  seq: number;
  at: string;
  level: number;
  reason: string;
  lastError: string | null;
  finalAttempt: unknown;
  resolution: { action: string; by: string; hint?: string; at: string } | null;
};

/** summary.json's fold, an event at a time: the one fold of the run's figures, and every pause with its answer. */
export class SummaryFold {
  record: RunRecord = emptyRecord;
  private readonly pauses: Pause[] = [];

  add(event: RunEvent): void {
    this.record = foldRecord(this.record, event);
    if (event.type === 'user_action_required')
      this.pauses.push({
        seq: event.seq,
        at: event.ts,
        level: event.level,
        reason: event.reason,
        lastError: event.lastError,
        finalAttempt: event.finalAttempt ?? null,
        resolution: null,
      });
    if (event.type === 'user_action_resolved') {
      const open = this.pauses.findLast((p) => p.resolution === null);
      if (open)
        open.resolution = {
          action: event.action,
          by: event.by,
          ...(event.hint ? { hint: event.hint } : {}),
          at: event.ts,
        };
    }
  }

  /** summary.json: the run's levels and totals as the one fold reads them, and every pause with its answer. */
  file(run: RunSummary) {
    const { record, pauses } = this;
    const perLevel = levelResults(record);
    const totals = runTotals(record);
    return {
      runId: run.id,
      status: run.status,
      model: run.config.model,
      target: run.config.target,
      levels: {
        asked: { from: run.config.startLevel, to: run.config.endLevel },
        attempted: totals.levelsTouched,
        solved: totals.levelsSolved,
        solvedAlone: totals.outcomes.solved_alone,
        solvedWithHelp: totals.levelsHelped,
        solvedByFinalAttempt: totals.outcomes.solved_by_final_attempt,
        /** Every level touched, counted by how it ended (docs/outcomes.md). */
        outcomes: totals.outcomes,
      },
      attempts: totals.attempts,
      retries: totals.retries,
      commands: totals.commands,
      tokens: { prompt: totals.promptTokens, completion: totals.completionTokens },
      costUsd: totals.costUsd,
      wallTimeMs: totals.wallTimeMs,
      pausesByReason: totals.pausesByReason,
      /** Why the run ended without completing (docs/budgets.md: the one list of limit reasons); null when it did not. */
      limitReason: totals.limit,
      /** Its caps as last raised, and what it spent against each (issue 31). */
      caps: run.spend?.caps ?? run.config.caps ?? {},
      spent: spentOf(record, Date.parse(run.updatedAt)),
      perLevel: perLevel.map((l) => ({
        level: l.level,
        outcome: l.outcome,
        solved: l.solved,
        solvedBy: l.solvedBy,
        attempts: l.attempts,
        retries: l.retries,
        pauses: l.pauses,
        commands: l.commands,
        tokens: { prompt: l.promptTokens, completion: l.completionTokens },
        costUsd: Number(l.costUsd.toFixed(6)),
        durationMs: l.durationMs,
        limitReason: l.limit,
      })),
      pauses,
    };
  }
}

/** summary.json of a whole log. */
export function runSummaryFile(run: RunSummary, events: readonly RunEvent[]) {
  const fold = new SummaryFold();
  for (const event of events) fold.add(event);
  return fold.file(run);
}

/** lessons.json's fold: what the model learned from each failed attempt and each person's hint, by level. */
export class LessonsFold {
  private readonly lessons: (Lesson & { seq: number; at: string; attempt?: number })[] = [];
  private current: number | null = null;

  add(event: RunEvent): void {
    if ('level' in event && typeof event.level === 'number') this.current = event.level;
    if (event.type === 'attempt_failed')
      this.lessons.push(...event.lessons.map((l) => ({ ...l, seq: event.seq, at: event.ts, attempt: event.attempt })));
    if (event.type === 'user_action_resolved' && event.hint)
      this.lessons.push({ text: event.hint, source: 'user', level: this.current ?? 0, seq: event.seq, at: event.ts });
  }

  file() {
    return { lessons: this.lessons };
  }
}

/** Every lesson, by level: what the model learned from each failed attempt and each person's hint. */
export function lessonsFile(events: readonly RunEvent[]) {
  const fold = new LessonsFold();
  for (const event of events) fold.add(event);
  return fold.file();
}

/** One tool's calls at one level: how many succeeded, and every duration (for the percentiles). */
type Samples = { succeeded: number; ms: number[] };

/** Calls, success rate, and nearest-rank median and p95 of the durations. */
function stats(samples: readonly Samples[]) {
  const sorted = samples.flatMap((s) => s.ms).sort((a, b) => a - b);
  const rank = (percent: number) => nearestRankValue(sorted, percent) ?? 0;
  const succeeded = samples.reduce((n, s) => n + s.succeeded, 0);
  return {
    calls: sorted.length,
    succeeded,
    successRate: sorted.length ? Number((succeeded / sorted.length).toFixed(4)) : null,
    medianMs: rank(50),
    p95Ms: rank(95),
  };
}

/**
 * tool_metrics.json's fold. Per tool and per level: run_command (succeeded = exit 0), submit_password (a
 * validate node; succeeded = the password logged in), and the model's calls by stage (succeeded = no error).
 * It keeps one number per call (its duration), since a percentile needs them all.
 */
export class ToolMetricsFold {
  private readonly samples = new Map<string, Map<number, Samples>>();
  private proven = false;

  private sample(tool: string, level: number, ok: boolean, ms: number): void {
    const byLevel = this.samples.get(tool) ?? new Map<number, Samples>();
    this.samples.set(tool, byLevel);
    const at = byLevel.get(level) ?? { succeeded: 0, ms: [] };
    byLevel.set(level, at);
    if (ok) at.succeeded += 1;
    at.ms.push(ms);
  }

  add(event: RunEvent): void {
    if (event.type === 'output') this.sample('run_command', event.level, event.exitCode === 0, event.durationMs);
    if (event.type === 'llm_call')
      this.sample(`model_${event.stage}`, event.level, event.errorClass === null, event.latencyMs);
    if (event.type === 'password_found') this.proven = true;
    if (event.type === 'node' && event.name === 'validate')
      this.sample('submit_password', event.level, this.proven, event.durationMs);
    if (event.type === 'node') this.proven = false;
  }

  file() {
    const tools: Record<string, ReturnType<typeof stats>> = {};
    const byLevel: Record<string, Record<string, ReturnType<typeof stats>>> = {};
    for (const [tool, levels] of [...this.samples].sort(([a], [b]) => a.localeCompare(b))) {
      tools[tool] = stats([...levels.values()]);
      for (const [level, samples] of [...levels].sort(([a], [b]) => a - b))
        (byLevel[String(level)] ??= {})[tool] = stats([samples]);
    }
    return { tools, byLevel };
  }
}

/** tool_metrics.json of a whole log. */
export function toolMetricsFile(events: readonly RunEvent[]) {
  const fold = new ToolMetricsFold();
  for (const event of events) fold.add(event);
  return fold.file();
}
