// Two runs side by side, level by level, and the first point where they differ: the one definition the
// API (GET /api/compare), the web page (/compare) and the CLI (`compare`) all show. Figures come from the
// one fold (run-record.ts, level-outcome.ts); the steps and the first difference are defined in run-steps.ts.
import { z } from 'zod';
import { levelOutcomeSchema } from './level-outcome.ts';
import type { RunEvent } from './protocol.ts';
import { levelFiguresSchema, levelResults, recordOf, runTotals } from './run-record.ts';
import type { LevelResult } from './run-record.ts';
import { limitReasonSchema } from './budget.ts';
import { runIdSchema, runStatusSchema, targetSchema } from './run.ts';
import type { RunSummary } from './run.ts';
import { firstDifference, runSteps, sameSteps, stepSchema } from './run-steps.ts';

const count = z.number().int().min(0);

/** Who a side is: the run and what it was asked to do. */
export const runHeadSchema = z.object({
  id: runIdSchema,
  model: z.string(),
  target: targetSchema,
  status: runStatusSchema,
  startLevel: count,
  endLevel: count,
  maxRetries: count,
  levelsSolved: count,
  createdAt: z.string(),
});
export type RunHead = z.infer<typeof runHeadSchema>;

/** One side's figures at a level: the fold's figures with the level's outcome. */
export const compareFiguresSchema = levelFiguresSchema.extend({ outcome: levelOutcomeSchema });

/** One level, both sides (null where a run never reached it). */
export const compareLevelSchema = z.object({
  level: count,
  a: compareFiguresSchema.nullable(),
  b: compareFiguresSchema.nullable(),
  /** Both runs reached the level and took the same steps there, to the same outcome. */
  same: z.boolean(),
  /** The seq of the first event at this level in each run (its `level_started`), for links; null when not reached. */
  firstSeq: z.object({ a: count.nullable(), b: count.nullable() }),
});
export type CompareLevel = z.infer<typeof compareLevelSchema>;

/** A run's totals (run-record.ts runTotals), the figures a comparison shows. */
export const compareTotalsSchema = z.object({
  levelsTouched: count,
  levelsSolved: count,
  levelsHelped: count,
  attempts: count,
  retries: count,
  commands: count,
  promptTokens: count,
  completionTokens: count,
  costUsd: z.number().min(0),
  wallTimeMs: count,
  limit: limitReasonSchema.nullable(),
});
export type CompareTotals = z.infer<typeof compareTotalsSchema>;

/** The first step where the two runs part (run-steps.ts); null when neither differs from the other. */
export const firstDifferenceSchema = z.object({
  level: count,
  /** The step's place among that level's steps, from 0. */
  index: count,
  /** Each run's step there; null for the run that had no more steps. */
  a: stepSchema.nullable(),
  b: stepSchema.nullable(),
});
export type FirstDifference = z.infer<typeof firstDifferenceSchema>;

/** GET /api/compare's answer. */
export const runComparisonSchema = z.object({
  a: runHeadSchema,
  b: runHeadSchema,
  levels: z.array(compareLevelSchema),
  totals: z.object({ a: compareTotalsSchema, b: compareTotalsSchema }),
  firstDifference: firstDifferenceSchema.nullable(),
});
export type RunComparison = z.infer<typeof runComparisonSchema>;

/** GET /api/compare's query: the two run ids. The same id twice is allowed (and is identical). */
export const compareQuerySchema = z.strictObject({ a: runIdSchema, b: runIdSchema });
export type CompareQuery = z.infer<typeof compareQuerySchema>;

/** A run as the comparison reads it: its summary and its whole (redacted) log. */
export type ComparedRun = { run: RunSummary; events: readonly RunEvent[] };

const headOf = (run: RunSummary): RunHead => ({
  id: run.id,
  model: run.config.model,
  target: run.config.target,
  status: run.status,
  startLevel: run.config.startLevel,
  endLevel: run.config.endLevel,
  maxRetries: run.config.maxRetries,
  levelsSolved: run.levelsSolved,
  createdAt: run.createdAt,
});

/** The seq of each level's first event: its first `level_started`, else the first event naming it. */
function firstSeqs(events: readonly RunEvent[]): Map<number, number> {
  const started = new Map<number, number>();
  const named = new Map<number, number>();
  for (const e of events) {
    if (e.type === 'level_started' && !started.has(e.level)) started.set(e.level, e.seq);
    if ('level' in e && typeof e.level === 'number' && !named.has(e.level)) named.set(e.level, e.seq);
  }
  for (const [level, seq] of named) if (!started.has(level)) started.set(level, seq);
  return started;
}

function totalsOf(results: ReturnType<typeof runTotals>): CompareTotals {
  const { levelsTouched, levelsSolved, levelsHelped, attempts, retries, commands } = results;
  const { promptTokens, completionTokens, costUsd, wallTimeMs, limit } = results;
  return {
    levelsTouched,
    levelsSolved,
    levelsHelped,
    attempts,
    retries,
    commands,
    promptTokens,
    completionTokens,
    costUsd,
    wallTimeMs,
    limit,
  };
}

/** Compares two runs: each level's figures side by side, the totals and the first difference. */
export function compareRuns(a: ComparedRun, b: ComparedRun): RunComparison {
  const recordA = recordOf(a.events);
  const recordB = recordOf(b.events);
  const byLevel = (results: LevelResult[]) => new Map(results.map((r) => [r.level, r]));
  const levelsA = byLevel(levelResults(recordA));
  const levelsB = byLevel(levelResults(recordB));
  const stepsA = runSteps(a.events);
  const stepsB = runSteps(b.events);
  const seqA = firstSeqs(a.events);
  const seqB = firstSeqs(b.events);
  const all = [...new Set([...levelsA.keys(), ...levelsB.keys()])].sort((x, y) => x - y);
  const levels = all.map((level): CompareLevel => {
    const fa = levelsA.get(level) ?? null;
    const fb = levelsB.get(level) ?? null;
    return {
      level,
      a: fa,
      b: fb,
      same: fa !== null && fb !== null && fa.outcome === fb.outcome && sameSteps(stepsA, stepsB, level),
      firstSeq: { a: seqA.get(level) ?? null, b: seqB.get(level) ?? null },
    };
  });
  return {
    a: headOf(a.run),
    b: headOf(b.run),
    levels,
    totals: { a: totalsOf(runTotals(recordA)), b: totalsOf(runTotals(recordB)) },
    firstDifference: firstDifference(stepsA, stepsB),
  };
}
