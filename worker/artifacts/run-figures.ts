// summary.json, lessons.json and tool_metrics.json: the run's figures, folded from its event log.
import type { Lesson, RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { levelResults, recordOf, runTotals } from '../../schema/run-record.ts';
import { spentOf } from '../../schema/run-spend.ts';

/** summary.json: the run's levels and totals as the one fold reads them, and every pause with its answer. */
export function runSummaryFile(run: RunSummary, events: readonly RunEvent[]) {
  const record = recordOf(events);
  const perLevel = levelResults(record);
  const totals = runTotals(record);
  const pauses: {
    seq: number;
    at: string;
    level: number;
    reason: string;
    lastError: string | null;
    finalAttempt: unknown;
    resolution: { action: string; by: string; hint?: string; at: string } | null;
  }[] = [];
  for (const event of events) {
    if (event.type === 'user_action_required')
      pauses.push({
        seq: event.seq,
        at: event.ts,
        level: event.level,
        reason: event.reason,
        lastError: event.lastError,
        finalAttempt: event.finalAttempt ?? null,
        resolution: null,
      });
    if (event.type === 'user_action_resolved') {
      const open = pauses.findLast((p) => p.resolution === null);
      if (open)
        open.resolution = {
          action: event.action,
          by: event.by,
          ...(event.hint ? { hint: event.hint } : {}),
          at: event.ts,
        };
    }
  }
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

/** Every lesson, by level: what the model learned from each failed attempt and each person's hint. */
export function lessonsFile(events: readonly RunEvent[]) {
  const lessons: (Lesson & { seq: number; at: string; attempt?: number })[] = [];
  let current: number | null = null;
  for (const event of events) {
    if ('level' in event && typeof event.level === 'number') current = event.level;
    if (event.type === 'attempt_failed')
      lessons.push(...event.lessons.map((l) => ({ ...l, seq: event.seq, at: event.ts, attempt: event.attempt })));
    if (event.type === 'user_action_resolved' && event.hint)
      lessons.push({ text: event.hint, source: 'user', level: current ?? 0, seq: event.seq, at: event.ts });
  }
  return { lessons };
}

type Sample = { ok: boolean; ms: number };

/** Calls, success rate, and nearest-rank median and p95 of the durations. */
function stats(samples: readonly Sample[]) {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
  const succeeded = samples.filter((s) => s.ok).length;
  return {
    calls: samples.length,
    succeeded,
    successRate: samples.length ? Number((succeeded / samples.length).toFixed(4)) : null,
    medianMs: rank(0.5),
    p95Ms: rank(0.95),
  };
}

/**
 * Per tool and per level: run_command (succeeded = exit 0), submit_password (a validate node; succeeded
 * = the password logged in), and the model's calls by stage (succeeded = no error).
 */
export function toolMetricsFile(events: readonly RunEvent[]) {
  const samples = new Map<string, Map<number, Sample[]>>();
  const add = (tool: string, level: number, sample: Sample) => {
    const byLevel = samples.get(tool) ?? new Map<number, Sample[]>();
    samples.set(tool, byLevel);
    byLevel.set(level, [...(byLevel.get(level) ?? []), sample]);
  };
  let proven = false;
  for (const event of events) {
    if (event.type === 'output') add('run_command', event.level, { ok: event.exitCode === 0, ms: event.durationMs });
    if (event.type === 'llm_call')
      add(`model_${event.stage}`, event.level, { ok: event.errorClass === null, ms: event.latencyMs });
    if (event.type === 'password_found') proven = true;
    if (event.type === 'node' && event.name === 'validate') {
      add('submit_password', event.level, { ok: proven, ms: event.durationMs });
    }
    if (event.type === 'node') proven = false;
  }
  const tools: Record<string, ReturnType<typeof stats>> = {};
  const byLevel: Record<string, Record<string, ReturnType<typeof stats>>> = {};
  for (const [tool, levels] of [...samples].sort(([a], [b]) => a.localeCompare(b))) {
    tools[tool] = stats([...levels.values()].flat());
    for (const [level, list] of [...levels].sort(([a], [b]) => a - b))
      (byLevel[String(level)] ??= {})[tool] = stats(list);
  }
  return { tools, byLevel };
}
