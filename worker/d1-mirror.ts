// The D1 index of a run, fed from its stored events: the llm_calls, executions and commands rows a
// step implies (queued in the outbox with the step), and the batch that writes them with the run row.
// Every insert is idempotent on (run_id, seq), so a batch sent twice after a lost answer adds nothing.
import { recordedWorld } from '../schema/worlds.ts';
import { unrecordedLevelSet } from '../schema/level-sets.ts';
import { commands, executions, llmCalls, runLevels, runs } from '../schema/db.ts';
import { isHelped } from '../schema/level-outcome.ts';
import type { LimitReason } from '../schema/budget.ts';
import type { RunEvent } from '../schema/protocol.ts';
import type { LevelResult } from '../schema/run-record.ts';
import type { RunSummary } from '../schema/run.ts';
import { database } from './db.ts';

type Trace = { request: unknown; response: unknown };
export type MirrorRows = {
  llmCalls: (typeof llmCalls.$inferInsert)[];
  executions: (typeof executions.$inferInsert)[];
  commands: (typeof commands.$inferInsert)[];
};

export const emptyRows = (): MirrorRows => ({ llmCalls: [], executions: [], commands: [] });

/** The rows that stored events imply; `traces` holds raw model requests by callId. */
export function rowsOf(events: readonly RunEvent[], traces: ReadonlyMap<string, Trace>): MirrorRows {
  const rows = emptyRows();
  const commandText = new Map<string, string>();
  for (const event of events) {
    const createdAt = Date.parse(event.ts);
    if (event.type === 'llm_call') {
      const trace = traces.get(event.callId);
      rows.llmCalls.push({
        id: `${event.runId}:${event.seq}`,
        runId: event.runId,
        seq: event.seq,
        level: event.level,
        model: event.model,
        stage: event.stage,
        promptTokens: event.promptTokens,
        completionTokens: event.completionTokens,
        latencyMs: event.latencyMs,
        ttftMs: event.ttftMs ?? null,
        costUsd: event.costUsd,
        errorClass: event.errorClass,
        request: trace?.request ?? null,
        response: trace?.response ?? null,
        createdAt,
      });
    } else if (event.type === 'node') {
      rows.executions.push({
        runId: event.runId,
        seq: event.seq,
        node: event.name,
        level: event.level,
        startedAt: Date.parse(event.startedAt),
        durationMs: event.durationMs,
        status: event.status,
        error: event.error,
      });
    } else if (event.type === 'command') {
      commandText.set(event.commandId, event.command);
    } else if (event.type === 'output') {
      rows.commands.push({
        runId: event.runId,
        seq: event.seq,
        level: event.level,
        command: commandText.get(event.commandId) ?? '',
        exitCode: event.exitCode,
        durationMs: event.durationMs,
        outputBytes: event.stdout.length + event.stderr.length,
        truncated: event.truncated,
        createdAt,
      });
    }
  }
  return rows;
}

/**
 * Writes the run row, the given rows and the changed level roll-ups in one D1 batch; throws when D1 fails.
 * Returns D1's answer to each statement (their meta counts the rows read and written).
 */
export async function sendToD1(
  env: Env,
  run: RunSummary,
  /** The run's tokens and cost, summed by the one fold (schema/run-record.ts). */
  totals: { promptTokens: number; completionTokens: number; costUsd: number; limit: LimitReason | null },
  rows: MirrorRows,
  levels: readonly LevelResult[] = [],
): Promise<unknown[]> {
  const db = database(env);
  const row = {
    id: run.id,
    status: run.status,
    target: run.config.target,
    model: run.config.model,
    startLevel: run.config.startLevel,
    endLevel: run.config.endLevel,
    maxRetries: run.config.maxRetries,
    budget: run.config.budget,
    currentLevel: run.currentLevel,
    levelsSolved: run.levelsSolved,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    costUsd: totals.costUsd,
    lastError: run.lastError,
    createdAt: Date.parse(run.createdAt),
    updatedAt: Date.parse(run.updatedAt),
    startedAt: run.startedAt ? Date.parse(run.startedAt) : null,
    endedAt: run.endedAt ? Date.parse(run.endedAt) : null,
    batchId: run.config.batchId ?? null,
    parentId: run.parentId ?? null,
    forkSeq: run.forkSeq ?? null,
    limitReason: totals.limit,
    levelSet: run.config.levelSet ?? unrecordedLevelSet(run.config.target),
    world: recordedWorld(run.config),
  };
  const { id: _id, createdAt: _createdAt, ...changes } = row;
  // D1 binds at most 100 parameters per statement; chunk the inserts to stay under it.
  const chunks = <T>(items: T[], size: number) =>
    Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
  const statements = [
    db.insert(runs).values(row).onConflictDoUpdate({ target: runs.id, set: changes }),
    ...chunks(rows.llmCalls, 6).map((part) => db.insert(llmCalls).values(part).onConflictDoNothing()),
    ...chunks(rows.executions, 10).map((part) => db.insert(executions).values(part).onConflictDoNothing()),
    ...chunks(rows.commands, 10).map((part) => db.insert(commands).values(part).onConflictDoNothing()),
    // A fork is not a trial of its own (it starts from another run's step): its levels stay out of the board,
    // the levels analytics and the forecast (docs/forks.md); its run row is listed like any run.
    ...(run.parentId ? [] : levels).map((result) => {
      const values = levelRowOf(result);
      return db
        .insert(runLevels)
        .values({
          runId: run.id,
          level: result.level,
          model: run.config.model,
          target: run.config.target,
          levelSet: row.levelSet,
          world: row.world,
          ...values,
        })
        .onConflictDoUpdate({ target: [runLevels.runId, runLevels.level], set: values });
    }),
  ] as const;
  return db.batch(statements as unknown as [(typeof statements)[0], ...(typeof statements)[number][]]);
}

/** A level's folded figures as the run_levels columns hold them. */
function levelRowOf(r: LevelResult) {
  return {
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    attempts: r.attempts,
    retries: r.retries,
    pauses: r.pauses,
    pauseReasons: r.pauseReasons,
    solved: r.solved,
    helped: isHelped(r.outcome),
    outcome: r.outcome,
    commands: r.commands,
    promptTokens: r.promptTokens,
    completionTokens: r.completionTokens,
    costUsd: r.costUsd,
    limitReason: r.limit,
  };
}
