// The wire protocol, and its only definition: run events (DO → clients), client messages
// (clients → DO), the proxy request and its NDJSON lines, and the snapshot sent on connect.
// Receivers use safeParse. Changes are additive: event schemas ignore fields they do not know,
// so an older client keeps working against a newer server.
import { z } from 'zod';
import {
  pauseReasonSchema,
  runConfigSchema,
  runIdSchema,
  runStatusSchema,
  runSummarySchema,
  userActionShapes,
} from './run.ts';
import { terminalClientShapes, terminalEventShapes, terminalStateSchema } from './terminal.ts';
import { advanceSpendSchema, budgetBreachSchema, costCapSchema, runCapsSchema } from './budget.ts';
import { forkChangesSchema } from './fork.ts';

/** Why the worker breaks into a proxy call: a message to read at once, or a person taking the terminal. */
export const breakKindSchema = z.enum(['yield', 'takeover']);
export type BreakKind = z.infer<typeof breakKindSchema>;

/** What the proxy puts in place of a secret (a password a person typed, a key) in everything it sends. */
export const REDACTED = '[redacted]';

/** Bumped only for a change that is not additive. Sent first on every socket. */
export const PROTOCOL_VERSION = 1;

/**
 * The WebSocket subprotocol the worker answers with. Browsers offer it next to `token.<API_TOKEN>`;
 * the server picks this one, so the token is never echoed back in the handshake.
 */
export const WS_SUBPROTOCOL = 'bandit-runner.v1';

/** The prefix of the subprotocol that carries the API token (`token.<API_TOKEN>`); the worker reads it. */
export const TOKEN_SUBPROTOCOL_PREFIX = 'token.';

/**
 * The subprotocols a client offers: always WS_SUBPROTOCOL, and the token as `token.<value>` when it
 * has one, so the token rides in the handshake and never in the URL (where logs and Referers keep it).
 */
export function socketProtocols(token: string | null): string[] {
  return token ? [WS_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${token}`] : [WS_SUBPROTOCOL];
}

/** Messages over this size are refused by the Durable Object. */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

/** The longest NDJSON line the proxy sends and the worker reads; outputs are capped far below it. */
export const MAX_PROXY_LINE_BYTES = 1024 * 1024;

/** The largest /v1/advance request body the proxy reads (config, checkpoint and answer). */
export const MAX_PROXY_REQUEST_BYTES = 4 * 1024 * 1024;

const level = z.number().int().min(0);
const count = z.number().int().min(0);
const timestamp = z.iso.datetime({ error: 'must be an ISO 8601 timestamp such as 2026-01-31T12:00:00.000Z' });

/** Something learned from a failed attempt, or a hint from a person (source "user"). */
export const lessonSchema = z.object({
  text: z.string().min(1),
  source: z.enum(['model', 'user']),
  level,
});
export type Lesson = z.infer<typeof lessonSchema>;

/** How a model call failed, when it did. */
export const llmErrorClassSchema = z.enum([
  'missing_key',
  'bad_key',
  'rate_limited',
  'timeout',
  'server_error',
  'empty_response',
  'malformed_response',
  'context_too_long',
  'unknown',
  // Added after protocol version 1 shipped; additive.
  'quota_exceeded',
  'truncated_response',
  'unknown_model',
]);
export type LlmErrorClass = z.infer<typeof llmErrorClassSchema>;

/** Why an attempt at a level ended without a proven password. */
export const attemptFailureSchema = z.enum(['budget_spent', 'loop_detected', 'wrong_password', 'no_progress']);
export type AttemptFailure = z.infer<typeof attemptFailureSchema>;

/** What a model call was for: the next step, lessons from a failed attempt, or the final attempt. */
export const llmStageSchema = z.enum(['plan', 'reflect', 'final']);
export type LlmStage = z.infer<typeof llmStageSchema>;

export const solvedBySchema = z.enum(['agent', 'final_attempt', 'person']);
export type SolvedBy = z.infer<typeof solvedBySchema>;

/**
 * A verification run's verdict on one level: the same password again (reproduced), a new error or a
 * different password (drifted), or no password that logs in (failed).
 */
export const verifyVerdictSchema = z.enum(['reproduced', 'drifted', 'failed']);
export type VerifyVerdict = z.infer<typeof verifyVerdictSchema>;

/** The payload of user_action_required; also held in the snapshot while a run is paused. */
export const pendingActionSchema = z.object({
  reason: pauseReasonSchema,
  level,
  retryCount: count,
  maxRetries: count,
  lastError: z.string().nullable(),
  lessons: z.array(lessonSchema),
  /** What the best-effort final attempt ran before this pause, when it ran. Additive. */
  finalAttempt: z.object({ commands: z.array(z.string()), outcome: z.string() }).optional(),
  /** At a budget_exceeded pause: the cap, what was spent, its limit and what the next step needed. Additive. */
  breach: budgetBreachSchema.optional(),
});
export type PendingAction = z.infer<typeof pendingActionSchema>;

/**
 * Every run event variant, with the envelope fields given. The Durable Object's events carry
 * seq/ts/runId; the proxy's carry only ts, because seq is assigned by the Durable Object.
 */
function eventVariants<Envelope extends z.ZodRawShape>(envelope: Envelope) {
  const variant = <Shape extends z.ZodRawShape>(shape: Shape) => z.object({ ...envelope, ...shape });
  return [
    variant({ type: z.literal('run_created'), config: runConfigSchema }),
    // A fork's first own event (docs/forks.md): the log before it is its parent's, up to forkSeq. Additive.
    variant({
      type: z.literal('forked'),
      parentId: runIdSchema,
      forkSeq: z.number().int().min(1),
      changes: forkChangesSchema,
    }),
    variant({
      type: z.literal('status_changed'),
      from: runStatusSchema,
      to: runStatusSchema,
      reason: z.string().optional(),
    }),
    variant({
      type: z.literal('level_started'),
      level,
      attempt: z.number().int().min(1),
      retryCount: count,
      /** Where the level is played, `host:port` (the replay scripts default to it). Absent in older logs. */
      address: z
        .string()
        .regex(/^[A-Za-z0-9.:[\]-]{1,255}:\d{1,5}$/)
        .optional(),
    }),
    variant({ type: z.literal('thinking'), level, text: z.string() }),
    variant({ type: z.literal('command'), level, commandId: z.string().min(1), command: z.string().min(1) }),
    variant({
      type: z.literal('output'),
      level,
      commandId: z.string().min(1),
      stdout: z.string(),
      stderr: z.string(),
      exitCode: z.number().int().nullable(),
      durationMs: count,
      truncated: z.boolean(),
    }),
    variant({ type: z.literal('password_found'), level, password: z.string().min(1) }),
    variant({
      type: z.literal('level_complete'),
      level,
      nextLevel: level,
      commands: count,
      durationMs: count,
      // Who proved the password: the agent's attempts, its final attempt, or a person. Additive.
      solvedBy: solvedBySchema.optional(),
    }),
    variant({
      type: z.literal('attempt_failed'),
      level,
      attempt: z.number().int().min(1),
      retryCount: count,
      maxRetries: count,
      reason: attemptFailureSchema,
      lessons: z.array(lessonSchema),
    }),
    variant({
      type: z.literal('llm_call'),
      callId: z.string().min(1),
      model: z.string().min(1),
      stage: llmStageSchema,
      level,
      promptTokens: count,
      completionTokens: count,
      latencyMs: count,
      costUsd: z.number().min(0).nullable(),
      errorClass: llmErrorClassSchema.nullable(),
      /** Milliseconds to the first streamed token; absent or null when the call did not stream. Additive. */
      ttftMs: count.nullable().optional(),
    }),
    variant({
      type: z.literal('node'),
      name: z.string().min(1),
      level,
      startedAt: timestamp,
      durationMs: count,
      status: z.enum(['ok', 'interrupted', 'error']),
      error: z.string().nullable(),
    }),
    variant({
      type: z.literal('error'),
      code: z.string().min(1),
      message: z.string().min(1),
      level: level.optional(),
    }),
    variant({ type: z.literal('user_action_required'), ...pendingActionSchema.shape }),
    variant({
      type: z.literal('user_action_resolved'),
      action: z.enum(['continue', 'password', 'stop']),
      hint: z.string().optional(),
      by: z.string().min(1),
    }),
    // A person's message to the running agent, stored when sent (issue 30); additive.
    variant({ type: z.literal('message_sent'), level, text: z.string().min(1), by: z.string().min(1) }),
    // The agent put the message sent at `messageSeq` into its model turn at `level`; additive.
    variant({ type: z.literal('message_read'), level, messageSeq: z.number().int().min(1) }),
    // A person raised the run's caps (the limits named) or its batch's cost cap at a budget pause (issue 31); additive.
    variant({
      type: z.literal('caps_raised'),
      level,
      caps: runCapsSchema,
      batchMaxCostUsd: costCapSchema.optional(),
      by: z.string().min(1),
    }),
    // The shared terminal (issue 30, schema/terminal.ts); additive.
    variant({ type: z.literal('takeover_started'), level, ...terminalEventShapes.takeover_started }),
    variant({ type: z.literal('terminal_output'), level, ...terminalEventShapes.terminal_output }),
    variant({ type: z.literal('takeover_ended'), level, ...terminalEventShapes.takeover_ended }),
    // A verification run's finding for one level of the original run. Added after version 1; additive.
    variant({
      type: z.literal('verify_level'),
      level,
      verdict: verifyVerdictSchema,
      detail: z.string(),
      originalRunId: runIdSchema,
    }),
    variant({
      type: z.literal('run_complete'),
      status: z.enum(['completed', 'failed', 'stopped']),
      levelsSolved: count,
      reason: z.string().optional(),
    }),
  ] as const;
}

const envelope = { seq: z.number().int().min(1), ts: timestamp, runId: runIdSchema };

/** A stored, numbered event, as the Durable Object sends it to clients. */
export const runEventSchema = z.discriminatedUnion('type', eventVariants(envelope));
export type RunEvent = z.infer<typeof runEventSchema>;
export type RunEventType = RunEvent['type'];

/** An event as the proxy emits it, before the Durable Object numbers and stores it. */
export const proxyEventSchema = z.discriminatedUnion('type', eventVariants({ ts: timestamp }));
export type ProxyEvent = z.infer<typeof proxyEventSchema>;

/** Every event type, in protocol order. */
export const RUN_EVENT_TYPES = runEventSchema.options.map((o) => o.shape.type.value);

// ── clients → Durable Object ────────────────────────────────────────────────────────────────

/** What a WebSocket client may send. Unknown fields are refused so typos surface at once. */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('hello'), since: count.optional() }),
  z.discriminatedUnion('action', [
    z.strictObject({ type: z.literal('user_action'), ...userActionShapes.continue }),
    z.strictObject({ type: z.literal('user_action'), ...userActionShapes.password }),
    z.strictObject({ type: z.literal('user_action'), ...userActionShapes.stop }),
    z.strictObject({ type: z.literal('user_action'), ...userActionShapes.message }),
    z.strictObject({ type: z.literal('user_action'), ...userActionShapes.takeover }),
    z.strictObject({ type: z.literal('user_action'), ...userActionShapes.handback }),
    z.strictObject({ type: z.literal('user_action'), ...userActionShapes.raise }),
  ]),
  z.strictObject({ type: z.literal('terminal_input'), ...terminalClientShapes.terminal_input }),
  z.strictObject({ type: z.literal('terminal_resize'), ...terminalClientShapes.terminal_resize }),
  z.strictObject({ type: z.literal('pause') }),
  z.strictObject({ type: z.literal('resume') }),
  z.strictObject({ type: z.literal('stop') }),
  z.strictObject({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

// ── Durable Object → clients ────────────────────────────────────────────────────────────────

/** A model call's text while it is written: live only, never part of the log. */
export const liveTextSchema = z.object({ level, stage: llmStageSchema, text: z.string() });
export type LiveText = z.infer<typeof liveTextSchema>;

/** The state of a run when a client connects; events after lastSeq follow it. */
export const snapshotSchema = z.object({
  run: runSummarySchema,
  lastSeq: count,
  pendingAction: pendingActionSchema.nullable(),
  /** The model call being written right now, its text so far; thinking_delta messages add to it. Additive. */
  live: liveTextSchema.nullable().optional(),
  /** The run's place in the queue (1 is next), while it is queued. Additive. */
  queuePosition: z.number().int().min(1).nullable().optional(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/**
 * Everything the Durable Object sends over a socket. Only `event` and `events` messages are part of
 * the log: `events` carries several in seq order (a replay page, or the events of one agent step), so
 * a client handles both.
 */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('welcome'), protocolVersion: z.number().int(), runId: runIdSchema }),
  z.object({ type: z.literal('snapshot'), ...snapshotSchema.shape }),
  z.object({ type: z.literal('event'), event: runEventSchema }),
  z.object({ type: z.literal('events'), events: z.array(runEventSchema).min(1) }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({ type: z.literal('pong'), ts: timestamp }),
  // More of the model's text while a call is written (live only: the stored thinking event follows). Additive.
  z.object({ type: z.literal('thinking_delta'), level, stage: llmStageSchema, text: z.string().min(1) }),
  // The run's place in the queue changed, or it left the queue (null). Additive.
  z.object({ type: z.literal('queue'), position: z.number().int().min(1).nullable() }),
  // Who holds the run's terminal, and whether it is this socket (issue 30). Additive.
  z.object({ type: z.literal('terminal'), ...terminalStateSchema.shape }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** The log events a server message carries, oldest first; none for the other messages. */
export function eventsOf(message: ServerMessage): RunEvent[] {
  if (message.type === 'event') return [message.event];
  if (message.type === 'events') return message.events;
  return [];
}

// ── Durable Object ⇄ proxy ──────────────────────────────────────────────────────────────────

/** The graph's saved state after a node. Opaque to the worker; the proxy validates its own state. */
export const checkpointSchema = z.object({
  version: z.number().int().min(1),
  step: count,
  next: z.string().min(1),
  state: z.record(z.string(), z.unknown()),
  createdAt: timestamp,
  /** Present when the graph stopped at an interrupt; `next` is then the node that asked. */
  interrupt: pendingActionSchema.optional(),
});
export type Checkpoint = z.infer<typeof checkpointSchema>;

/**
 * A checkpoint as what changed since the previous one of the same call (`base` is that one's step):
 * top-level state fields replaced (`set`) or gone (`unset`), and items added at the end of list
 * fields (`append`). A node changes a few fields and adds a turn to the history, so the line, the
 * Durable Object's write and both sides' serialising stay small while an attempt grows.
 */
export const checkpointPatchSchema = checkpointSchema.omit({ state: true }).extend({
  base: count,
  set: z.record(z.string(), z.unknown()),
  unset: z.array(z.string()),
  append: z.record(z.string(), z.array(z.unknown())),
});
export type CheckpointPatch = z.infer<typeof checkpointPatchSchema>;

/** A person's answer to a pause, handed to the graph as Command({ resume }). */
export const resumeSchema = z.discriminatedUnion('action', [
  z.strictObject(userActionShapes.continue),
  z.strictObject(userActionShapes.password),
  z.strictObject(userActionShapes.stop),
]);
export type Resume = z.infer<typeof resumeSchema>;

/** POST /v1/advance on the proxy. */
export const proxyRequestSchema = z
  .strictObject({
    runId: runIdSchema,
    config: runConfigSchema,
    checkpoint: checkpointSchema.nullable(),
    resume: resumeSchema.optional(),
    /** The caller reads `checkpoint_patch` lines: after the first full checkpoint, only what changed. */
    checkpointPatches: z.boolean().optional(),
    /** A person's unread messages, oldest first; the agent reads them at its next model turn. Additive. */
    messages: z
      .array(z.strictObject({ seq: z.number().int().min(1), text: z.string().min(1) }))
      .max(50)
      .optional(),
    /** A person asked to take the terminal: the graph pauses (reason "takeover") before its next node. Additive. */
    breakIn: breakKindSchema.optional(),
    /** The run's caps and spend, and its batch's allowance for this call (issue 31). Absent: no caps. Additive. */
    spend: advanceSpendSchema.optional(),
  })
  // A private world is named on every channel: without its key the run would land in the shared world unawares.
  .refine((r) => r.config.world !== 'private' || r.config.worldKey !== undefined, {
    path: ['config', 'worldKey'],
    message: 'a run in a private world needs the key of that world (its run id), set by the worker',
  });
export type ProxyRequest = z.infer<typeof proxyRequestSchema>;

/**
 * POST /v1/break on the proxy: the run's call in progress ends at its next node boundary, yielding
 * (a message waits to be read) or pausing for a person's takeover. 404 when the run has no call.
 */
export const breakRequestSchema = z.strictObject({ runId: runIdSchema, kind: breakKindSchema });
export type BreakRequest = z.infer<typeof breakRequestSchema>;

/** How one proxy call ended. */
export const proxyOutcomeSchema = z.enum(['interrupted', 'completed', 'stopped', 'failed', 'yielded']);

/** One NDJSON line of the proxy's answer. */
export const proxyLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('event'), event: proxyEventSchema }),
  z.object({ type: z.literal('checkpoint'), checkpoint: checkpointSchema }),
  z.object({ type: z.literal('checkpoint_patch'), patch: checkpointPatchSchema }),
  // The model's text while a call is written, coalesced; broadcast to watchers, never stored.
  z.object({ type: z.literal('live'), level, stage: llmStageSchema, text: z.string().min(1) }),
  // The raw request and response of one model call, for the llm_calls table; never broadcast.
  z.object({ type: z.literal('trace'), callId: z.string().min(1), request: z.unknown(), response: z.unknown() }),
  z.object({
    type: z.literal('end'),
    outcome: proxyOutcomeSchema,
    interrupt: pendingActionSchema.optional(),
    error: z.string().optional(),
    /**
     * With outcome "yielded": the next model call could cost this many dollars, more than the batch's
     * allowance for the call; the caller asks the batch's owner for more and calls again. Additive.
     */
    allowanceNeededUsd: z.number().min(0).optional(),
  }),
]);
export type ProxyLine = z.infer<typeof proxyLineSchema>;

/** GET /health on the proxy: itself, plus whether the practice range's SSH port answers. */
export const proxyHealthSchema = z.object({
  ok: z.boolean(),
  service: z.literal('ssh-proxy'),
  protocolVersion: z.number().int(),
  uptimeS: z.number().min(0),
  practice: z.object({ ok: z.boolean(), reason: z.string(), address: z.string() }),
});
export type ProxyHealth = z.infer<typeof proxyHealthSchema>;

/** One model a run can use; GET /v1/models on the proxy and GET /api/models on the worker. */
export const modelInfoSchema = z.object({
  /** `provider/model`; "baseline", and the bare names of the OPENAI_MODELS form, have no prefix. */
  id: z.string().min(1),
  /** "baseline", or the name of the provider in the proxy's providers file ("openai" for OPENAI_MODELS). */
  provider: z.string().min(1),
  available: z.boolean(),
  /** Why the model cannot be used right now, when it cannot. */
  reason: z.string().optional(),
  /** Runs of this provider's models that may run at once; null: only the global limit. Additive. */
  maxConcurrent: z.number().int().min(1).nullable().optional(),
  /** USD per million tokens; null when not configured. Additive. */
  price: z
    .object({ input: z.number().min(0), output: z.number().min(0) })
    .nullable()
    .optional(),
});
export const modelListSchema = z.object({ models: z.array(modelInfoSchema) });

/** GET /api/runs/:id/llm-calls/:callId: one model call, its exact request and its response. */
export const llmCallDetailSchema = z.object({
  call: z.object({
    callId: z.string(),
    runId: runIdSchema,
    seq: z.number().int().min(1),
    level,
    model: z.string(),
    stage: z.string(),
    promptTokens: count,
    completionTokens: count,
    latencyMs: count,
    costUsd: z.number().nullable(),
    errorClass: z.string().nullable(),
    createdAt: timestamp,
  }),
  request: z.unknown(),
  response: z.unknown(),
});
export type LlmCallDetail = z.infer<typeof llmCallDetailSchema>;
export type ModelInfo = z.infer<typeof modelInfoSchema>;

/** An event before the Durable Object numbers it: no seq, runId or ts. */
export type RunEventBody = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, 'seq' | 'runId' | 'ts'>
    : never
  : never;
