// summary.json, lessons.json and tool_metrics.json: the run's figures, folded from its event log.
import type { Lesson, RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';

type LevelFigures = {
  level: number;
  solved: boolean;
  solvedBy: string | null;
  helped: boolean;
  attempts: number;
  commands: number;
  durationMs: number | null;
};

export function runSummaryFile(run: RunSummary, events: readonly RunEvent[]) {
  const levels = new Map<number, LevelFigures>();
  const at = (level: number) => {
    let figures = levels.get(level);
    if (!figures)
      levels.set(
        level,
        (figures = { level, solved: false, solvedBy: null, helped: false, attempts: 0, commands: 0, durationMs: null }),
      );
    return figures;
  };
  const pauses: {
    seq: number;
    at: string;
    level: number;
    reason: string;
    lastError: string | null;
    finalAttempt: unknown;
    resolution: { action: string; by: string; hint?: string; at: string } | null;
  }[] = [];
  let current = run.config.startLevel;
  let tokens = { prompt: 0, completion: 0 };
  let costUsd = 0;
  for (const event of events) {
    switch (event.type) {
      case 'level_started':
        current = event.level;
        at(event.level).attempts += 1;
        break;
      case 'command':
        at(event.level).commands += 1;
        break;
      case 'level_complete': {
        const figures = at(event.level);
        figures.solved = true;
        figures.solvedBy = event.solvedBy ?? 'agent';
        figures.durationMs = event.durationMs;
        current = event.nextLevel;
        break;
      }
      case 'llm_call':
        tokens = { prompt: tokens.prompt + event.promptTokens, completion: tokens.completion + event.completionTokens };
        costUsd += event.costUsd ?? 0;
        break;
      case 'user_action_required':
        pauses.push({
          seq: event.seq,
          at: event.ts,
          level: event.level,
          reason: event.reason,
          lastError: event.lastError,
          finalAttempt: event.finalAttempt ?? null,
          resolution: null,
        });
        break;
      case 'user_action_resolved': {
        const open = pauses.findLast((p) => p.resolution === null);
        if (open)
          open.resolution = {
            action: event.action,
            by: event.by,
            ...(event.hint ? { hint: event.hint } : {}),
            at: event.ts,
          };
        if (event.action !== 'stop') at(current).helped = true;
        break;
      }
    }
  }
  const perLevel = [...levels.values()].sort((a, b) => a.level - b.level);
  const solved = perLevel.filter((l) => l.solved);
  const started = run.startedAt ? Date.parse(run.startedAt) : null;
  const ended = run.endedAt ? Date.parse(run.endedAt) : Date.parse(events.at(-1)?.ts ?? run.updatedAt);
  return {
    runId: run.id,
    status: run.status,
    model: run.config.model,
    target: run.config.target,
    levels: {
      asked: { from: run.config.startLevel, to: run.config.endLevel },
      attempted: perLevel.length,
      solved: solved.length,
      solvedAutonomously: solved.filter((l) => !l.helped).length,
      solvedWithHelp: solved.filter((l) => l.helped).length,
      solvedByFinalAttempt: solved.filter((l) => l.solvedBy === 'final_attempt').length,
    },
    attempts: perLevel.reduce((n, l) => n + l.attempts, 0),
    commands: perLevel.reduce((n, l) => n + l.commands, 0),
    tokens,
    costUsd: Number(costUsd.toFixed(6)),
    wallTimeMs: started === null ? 0 : Math.max(0, ended - started),
    perLevel,
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
