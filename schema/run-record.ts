// The one reader of a run's event log: a pure fold to per-level figures (attempts, retries, pauses by
// reason, what a person did, commands, tokens, cost, time, outcome) and the run's totals. The Durable
// Object's D1 roll-up, the archive, the CLI and the run page all fold with this, event by event or at
// once, so no program counts a figure its own way (docs/outcomes.md).
import { z } from 'zod';
import type { LevelOutcome, OutcomeCounts } from './level-outcome.ts';
import { countOutcomes, isHelped, levelOutcome } from './level-outcome.ts';
import type { RunEvent } from './protocol.ts';
import { solvedBySchema } from './protocol.ts';
import type { PauseReason } from './run.ts';
import { pauseReasonSchema } from './run.ts';
import type { LimitReason } from './budget.ts';
import { capNameSchema, limitReasonSchema } from './budget.ts';

const count = z.number().int().min(0);

/** One level's figures. Plain JSON, so the Durable Object can store it as it is. */
export const levelFiguresSchema = z.object({
  level: count,
  /** Epoch ms of the first event at this level. */
  startedAt: z.number(),
  /** Epoch ms the level was proved; null while it is not. */
  endedAt: z.number().nullable(),
  attempts: count,
  retries: count,
  pauses: count,
  pauseReasons: z.partialRecord(pauseReasonSchema, count),
  continues: count,
  hints: count,
  /** A person's messages the agent read at this level (message_read); help, as a hint is. Figures stored before it: 0. */
  messages: count.default(0),
  passwords: count,
  solved: z.boolean(),
  solvedBy: solvedBySchema.nullable(),
  commands: count,
  /** Requests sent to the model at this level, failed ones included (issue 31's maxModelCalls). Additive. */
  modelCalls: count.default(0),
  promptTokens: count,
  completionTokens: count,
  costUsd: z.number().min(0),
  /** The level's own time as the proxy measured it (level_complete's durationMs). */
  durationMs: count.nullable(),
  /** Why the level ended unsolved, once the run has ended there; null while solved or still open. Additive. */
  limit: limitReasonSchema.nullable().default(null),
});
export type LevelFigures = z.infer<typeof levelFiguresSchema>;

/** Where the fold stands between events: what it needs besides the levels. */
export const recordPlaceSchema = z.object({
  /** The level of the open pause, which the person's answer is for. */
  openPause: count.nullable(),
  /** Why it paused: an answer to `password_required` (the start's login) is no act on the level. */
  openReason: pauseReasonSchema.nullable().default(null),
  /** Epoch ms the run first went running, and when it completed. */
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** Epoch ms of the latest event. */
  lastAt: z.number().nullable(),
  /** At an open budget pause, the cap it names (issue 31). Additive. */
  openCap: capNameSchema.nullable().default(null),
  /** Why the run ended without completing, once it has (schema/budget.ts LIMIT_REASONS). Additive. */
  limit: limitReasonSchema.nullable().default(null),
  /**
   * Ms the run was not running after a pause (waiting for a person, then for its place in the queue), and
   * when the open such wait began (issue 31). Additive.
   */
  pausedMs: count.default(0),
  pausedSince: z.number().nullable().default(null),
});
export type RecordPlace = z.infer<typeof recordPlaceSchema>;

/** The fold's state: every level touched, by level, and its place. */
export type RunRecord = { levels: ReadonlyMap<number, LevelFigures>; place: RecordPlace };

export const emptyRecord: RunRecord = {
  levels: new Map(),
  place: {
    openPause: null,
    openReason: null,
    startedAt: null,
    endedAt: null,
    lastAt: null,
    pausedMs: 0,
    pausedSince: null,
    openCap: null,
    limit: null,
  },
};

const newLevel = (level: number, at: number): LevelFigures => ({
  level,
  startedAt: at,
  endedAt: null,
  attempts: 0,
  retries: 0,
  pauses: 0,
  pauseReasons: {},
  continues: 0,
  hints: 0,
  messages: 0,
  passwords: 0,
  solved: false,
  solvedBy: null,
  commands: 0,
  modelCalls: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  durationMs: null,
  limit: null,
});

/** Why a run left at a pause: the cap a budget pause named, the retries, or else a stop. */
function limitAtPause(place: RecordPlace): LimitReason {
  return place.openCap ?? (place.openReason === 'max_retries' ? 'max_retries' : 'stopped');
}

/** The place with its open pause, if any, ended at `at` and added to the time paused. */
function closePause(place: RecordPlace, at: number): RecordPlace {
  if (place.pausedSince === null) return place;
  return { ...place, pausedMs: place.pausedMs + Math.max(0, at - place.pausedSince), pausedSince: null };
}

/** Folds one event. Levels an event does not touch keep their identity, so a caller can tell which changed. */
export function foldRecord(record: RunRecord, event: RunEvent): RunRecord {
  const at = Date.parse(event.ts);
  let { levels, place } = record;
  place = { ...place, lastAt: at };
  const touch = (level: number, change: (f: LevelFigures) => Partial<LevelFigures>) => {
    const before = levels.get(level) ?? newLevel(level, at);
    const next = new Map(levels);
    next.set(level, { ...before, ...change(before) });
    levels = next;
  };
  switch (event.type) {
    case 'status_changed':
      if (event.to === 'running' && place.startedAt === null) place = { ...place, startedAt: at };
      // Time waiting for a person ends when the run runs again, not at the answer: a run continued into a
      // full queue is still not running (issue 31's wall time).
      if (event.to === 'running') place = closePause(place, at);
      break;
    case 'level_started':
      touch(event.level, (f) => ({ attempts: f.attempts + 1 }));
      break;
    case 'attempt_failed':
      touch(event.level, (f) => ({ retries: f.retries + 1 }));
      break;
    case 'command':
      touch(event.level, (f) => ({ commands: f.commands + 1 }));
      break;
    case 'llm_call':
      touch(event.level, (f) => ({
        modelCalls: f.modelCalls + 1,
        promptTokens: f.promptTokens + event.promptTokens,
        completionTokens: f.completionTokens + event.completionTokens,
        costUsd: f.costUsd + (event.costUsd ?? 0),
      }));
      break;
    case 'user_action_required':
      touch(event.level, (f) => ({
        pauses: f.pauses + 1,
        pauseReasons: { ...f.pauseReasons, [event.reason]: (f.pauseReasons[event.reason] ?? 0) + 1 },
      }));
      place = {
        ...place,
        openPause: event.level,
        openReason: event.reason,
        openCap: event.breach?.cap ?? null,
        pausedSince: place.pausedSince ?? at,
      };
      break;
    case 'user_action_resolved': {
      // The answer is for the level that paused; an answer with no open pause names no level, and the
      // password a run started above level 0 logs in with is the level before's, not help with this one.
      const level = place.openReason === 'password_required' ? null : place.openPause;
      if (event.action === 'stop') place = { ...place, limit: limitAtPause(place) };
      place = { ...place, openPause: null, openReason: null, openCap: null };
      if (level === null || event.action === 'stop') break;
      if (event.action === 'password') touch(level, (f) => ({ passwords: f.passwords + 1 }));
      else if (event.hint) touch(level, (f) => ({ hints: f.hints + 1 }));
      else touch(level, (f) => ({ continues: f.continues + 1 }));
      break;
    }
    case 'takeover_ended':
      // Lines a person entered in the terminal are the level's commands too (a human run has no others).
      if (event.commands) touch(event.level, (f) => ({ commands: f.commands + (event.commands ?? 0) }));
      break;
    case 'message_read':
      // Counted where the agent read it, which is where it could help; a message never read counts nowhere.
      touch(event.level, (f) => ({ messages: f.messages + 1 }));
      break;
    case 'level_complete':
      touch(event.level, () => ({
        solved: true,
        solvedBy: event.solvedBy ?? 'agent',
        endedAt: at,
        durationMs: event.durationMs,
      }));
      break;
    case 'run_complete': {
      const open = place.openReason === null ? 'stopped' : limitAtPause(place);
      const limit = event.status === 'completed' ? null : event.status === 'failed' ? 'failed' : (place.limit ?? open);
      place = { ...closePause(place, at), endedAt: at, openPause: null, openReason: null, openCap: null, limit };
      // The levels it left unsolved say why, so a level's row answers "how many ended at the cost cap" alone.
      if (limit) for (const f of [...levels.values()]) if (!f.solved) touch(f.level, () => ({ limit }));
      break;
    }
    default:
      break;
  }
  return { levels, place };
}

/** Folds a whole log. */
export function recordOf(events: Iterable<RunEvent>, from: RunRecord = emptyRecord): RunRecord {
  let record = from;
  for (const event of events) record = foldRecord(record, event);
  return record;
}

/** A level's figures with its outcome. */
export type LevelResult = LevelFigures & { outcome: LevelOutcome };

/** The outcome of one level's figures. */
export const resultOf = (f: LevelFigures): LevelResult => ({ ...f, outcome: levelOutcome(f) });

/** Every level touched, lowest first, each with its outcome. */
export function levelResults(record: RunRecord): LevelResult[] {
  return [...record.levels.values()].sort((a, b) => a.level - b.level).map(resultOf);
}

/** The run's totals, summed from its levels. */
export type RunTotals = {
  levelsTouched: number;
  levelsSolved: number;
  /** Solved with a hint or the person's password. */
  levelsHelped: number;
  outcomes: OutcomeCounts;
  attempts: number;
  retries: number;
  commands: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  pauses: number;
  pausesByReason: Partial<Record<PauseReason, number>>;
  /** From first running to completion, or to the latest event while the run goes on. */
  wallTimeMs: number;
  /** Why the run ended without completing (null: completed, or not ended). */
  limit: LimitReason | null;
};

/** Sums a record's levels into the run's figures. */
export function runTotals(record: RunRecord): RunTotals {
  const results = levelResults(record);
  const sum = (pick: (f: LevelFigures) => number) => results.reduce((n, f) => n + pick(f), 0);
  const pausesByReason: Partial<Record<PauseReason, number>> = {};
  for (const f of results)
    for (const [reason, n] of Object.entries(f.pauseReasons) as [PauseReason, number][])
      pausesByReason[reason] = (pausesByReason[reason] ?? 0) + n;
  const { startedAt, endedAt, lastAt } = record.place;
  return {
    levelsTouched: results.length,
    levelsSolved: results.filter((f) => f.solved).length,
    levelsHelped: results.filter((f) => isHelped(f.outcome)).length,
    outcomes: countOutcomes(results.map((f) => f.outcome)),
    attempts: sum((f) => f.attempts),
    retries: sum((f) => f.retries),
    commands: sum((f) => f.commands),
    promptTokens: sum((f) => f.promptTokens),
    completionTokens: sum((f) => f.completionTokens),
    costUsd: Number(sum((f) => f.costUsd).toFixed(6)),
    pauses: sum((f) => f.pauses),
    pausesByReason,
    wallTimeMs: startedAt === null ? 0 : Math.max(0, (endedAt ?? lastAt ?? startedAt) - startedAt),
    limit: record.place.limit,
  };
}
