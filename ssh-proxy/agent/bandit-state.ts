// The Bandit agent's state: everything a checkpoint holds, so a fresh proxy can pick a run up.
import { z } from 'zod';
import { budgetBreachSchema } from '../../schema/budget.ts';
import { attemptFailureSchema, lessonSchema, solvedBySchema } from '../../schema/protocol.ts';
import { pauseReasonSchema } from '../../schema/run.ts';
import type { RunConfig } from '../../schema/run.ts';

/** Bumped when the state's shape changes; older checkpoints are then refused with a clear message. */
export const BANDIT_STATE_VERSION = 1;

/** One turn of the current attempt (a command and its output, or a password tried), as the model sees it next time. */
export const turnSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('command'),
    callId: z.string(),
    thinking: z.string(),
    command: z.string(),
    output: z.string(),
    exitCode: z.number().int().nullable(),
  }),
  z.object({
    kind: z.literal('submission'),
    callId: z.string(),
    thinking: z.string(),
    password: z.string(),
    verdict: z.string(),
  }),
]);
export type Turn = z.infer<typeof turnSchema>;

/** What `plan` chose, carried out by `execute` or `validate`. */
export const decisionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('run_command'), callId: z.string(), thinking: z.string(), command: z.string() }),
  z.object({
    kind: z.literal('submit_password'),
    callId: z.string(),
    thinking: z.string(),
    password: z.string(),
    from: z.enum(['model', 'user']),
  }),
]);
export type Decision = z.infer<typeof decisionSchema>;

/** Where a pause's continue goes: for a takeover, the node that was about to run when the person broke in. */
export const resumeAtSchema = z.enum(['connect', 'plan', 'execute', 'validate', 'reflect', 'advance', 'final_attempt']);
export type ResumeAt = z.infer<typeof resumeAtSchema>;

/** A condition only a person can resolve; the graph pauses with it. `resumeAt` is where continue goes. */
export const faultSchema = z.object({
  reason: pauseReasonSchema,
  message: z.string().nullable(),
  resumeAt: resumeAtSchema,
  /** At a budget_exceeded fault: the cap the next step would have crossed. Added after version 1. */
  breach: budgetBreachSchema.optional(),
});
export type Fault = z.infer<typeof faultSchema>;

export const banditStateSchema = z.object({
  /** Logged in (or about to log in) as bandit<level>. */
  level: z.number().int().min(0),
  /** This level's password, once known. */
  password: z.string().nullable(),
  /** The next level's password, once a login has proven it. */
  found: z.string().nullable(),
  levelsSolved: z.number().int().min(0),
  levelStartedAt: z.number(),
  levelCommands: z.number().int().min(0),
  /** Attempts started at this level, including the current one. */
  attempt: z.number().int().min(0),
  /** Failed attempts since the last reset. */
  retryCount: z.number().int().min(0),
  /** Commands and submissions spent in this attempt. */
  spent: z.number().int().min(0),
  history: z.array(turnSchema),
  lessons: z.array(lessonSchema),
  /** Wrong candidates at this level, never submitted twice. */
  tried: z.array(z.string()),
  decision: decisionSchema.nullable(),
  failure: attemptFailureSchema.nullable(),
  /** The command that ended the previous attempt in a loop, to spot a loop that survives a retry. */
  lastLoop: z.string().nullable(),
  fault: faultSchema.nullable(),
  lastError: z.string().nullable(),
  /** Counter for command ids and tool-call ids. */
  serial: z.number().int().min(0),
  finished: z.enum(['completed', 'stopped']).nullable(),
  /** Passwords a person typed: redacted from every event and trace, never from the checkpoint. */
  secrets: z.array(z.string()).default([]),
  // Added after version 1 with defaults, so older checkpoints load as they are.
  /** The last commands of each failed attempt at this level, for the final attempt. */
  attemptTails: z.array(z.object({ attempt: z.number().int().min(1), commands: z.array(z.string()) })).default([]),
  /** The final attempt ran since retries were last reset; what it ran and how it ended. */
  finalReport: z
    .object({ commands: z.array(z.string()), outcome: z.string() })
    .nullable()
    .default(null),
  /** Who proved `found`: the agent's attempts, its final attempt, or a person. */
  solvedBy: solvedBySchema.nullable().default(null),
  /** Why the run ended, when a node ended it (a verification run stopping at its first new error). */
  finishNote: z.string().nullable().default(null),
  /**
   * A final attempt a cap paused between its commands: the commands its model call planned, and the outputs
   * of those already run. Continue runs the rest without asking the model again.
   */
  finalRun: z
    .object({ commands: z.array(z.string()), outputs: z.array(z.string()) })
    .nullable()
    .default(null),
  /**
   * A command announced and sent to the target whose output is not in the state yet. Found at a node's start,
   * the call that sent it died: the command is reported lost, never run twice (nodes/command-once.ts).
   */
  inFlight: z.object({ commandId: z.string(), command: z.string() }).nullable().default(null),
});
export type BanditState = z.infer<typeof banditStateSchema>;

/** Everything that starts over at a new level: logged in as `level` with `password`. */
export function levelStart(level: number, password: string | null, now: number) {
  return {
    level,
    password,
    found: null,
    levelStartedAt: now,
    levelCommands: 0,
    attempt: 0,
    retryCount: 0,
    spent: 0,
    history: [],
    lessons: [],
    tried: [],
    decision: null,
    failure: null,
    lastLoop: null,
    fault: null,
    lastError: null,
    attemptTails: [],
    finalReport: null,
    solvedBy: null,
    finalRun: null,
    inFlight: null,
  } satisfies Partial<BanditState>;
}

/** The state a fresh run starts from. Level 0's password is public; others must be given. */
export function initialBanditState(config: RunConfig, now: number): BanditState {
  const password = config.startLevel === 0 ? 'bandit0' : null;
  return {
    ...levelStart(config.startLevel, password, now),
    levelsSolved: 0,
    serial: 0,
    finished: null,
    secrets: [],
    finishNote: null,
  };
}

/** A fresh attempt: empty history and budget, the same lessons. */
export function freshAttempt(state: BanditState): Partial<BanditState> {
  return { attempt: state.attempt + 1, spent: 0, history: [], decision: null, failure: null, fault: null };
}
