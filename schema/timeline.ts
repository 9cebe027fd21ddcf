// A run's timeline: spans level → attempt → node → model call or command, each with its start,
// duration, status, tokens and cost, folded from the event log, and the time a run waited for a
// person as a span of its own. Pure, for the worker's GET /api/runs/:id/timeline and the run page's waterfall.
import { z } from 'zod';
import type { RunEvent } from './protocol.ts';

export const spanKindSchema = z.enum(['level', 'attempt', 'wait', 'node', 'model_call', 'command']);
export type SpanKind = z.infer<typeof spanKindSchema>;

/** How a person answered a pause, as they would name it: a Continue with a hint is a hint. */
export const pauseAnswerSchema = z.enum(['continue', 'hint', 'password', 'stop']);
export type PauseAnswer = z.infer<typeof pauseAnswerSchema>;

/** One span; the leaves (model calls, commands) carry their own figures, the rest sum their children. */
export type Span = {
  kind: SpanKind;
  name: string;
  level: number;
  start: string;
  durationMs: number;
  status: 'ok' | 'error' | 'interrupted' | 'open';
  /** The event the span comes from (for a level or attempt, the one that opened it). */
  seq: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** For a model call: its id (GET /api/runs/:id/llm-calls/:callId) and error class. */
  callId?: string;
  errorClass?: string | null;
  /** For a command: its id and exit code. */
  commandId?: string;
  exitCode?: number | null;
  /** For a wait (user_action_required → user_action_resolved): why it paused, the answer and who gave it. */
  reason?: string;
  answer?: PauseAnswer | null;
  answeredBy?: string | null;
  children: Span[];
};

export const spanSchema: z.ZodType<Span> = z.lazy(() =>
  z.object({
    kind: spanKindSchema,
    name: z.string(),
    level: z.number().int().min(0),
    start: z.iso.datetime(),
    durationMs: z.number().min(0),
    status: z.enum(['ok', 'error', 'interrupted', 'open']),
    seq: z.number().int().min(1),
    promptTokens: z.number().int().min(0),
    completionTokens: z.number().int().min(0),
    costUsd: z.number().min(0),
    callId: z.string().optional(),
    errorClass: z.string().nullable().optional(),
    commandId: z.string().optional(),
    exitCode: z.number().int().nullable().optional(),
    reason: z.string().optional(),
    answer: pauseAnswerSchema.nullable().optional(),
    answeredBy: z.string().nullable().optional(),
    children: z.array(spanSchema),
  }),
);

/** GET /api/runs/:id/timeline */
export const timelineSchema = z.object({ spans: z.array(spanSchema) });
export type Timeline = z.infer<typeof timelineSchema>;

type Event<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;
const ms = (iso: string) => Date.parse(iso);
const iso = (at: number) => new Date(at).toISOString();
/** Each span's start in epoch ms, so a fold of 50,000 events parses each time once, not at every stretch. */
const startMs = new WeakMap<Span, number>();
const startOf = (target: Span): number => startMs.get(target) ?? ms(target.start);
/** An event's own time when it is already written as span starts are (toISOString's form), else written so. */
const asStart = (at: number, written: string): string =>
  written.length === 24 && written.endsWith('Z') ? written : iso(at);

function span(
  kind: SpanKind,
  name: string,
  level: number,
  start: number,
  seq: number,
  fields: Partial<Span> = {},
): Span {
  const made: Span = {
    kind,
    name,
    level,
    start: fields.start ?? iso(start),
    durationMs: 0,
    status: 'open',
    seq,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    children: [],
    ...fields,
  };
  startMs.set(made, start);
  return made;
}

/** Stretches a span to `end` (epoch ms) if that is later than its current end. */
function reach(target: Span, end: number): void {
  target.durationMs = Math.max(target.durationMs, end - startOf(target));
}

/**
 * Folds a run's events, oldest first, into level spans. A pause is a `wait` span under its level: the
 * attempt it interrupted ends where the pause began, and work after the answer opens a resumed attempt
 * (or the next attempt's level_started does), so no attempt's bar holds the time a person took.
 */
export function buildTimeline(events: readonly RunEvent[]): Span[] {
  const fold = timelineFold();
  for (const event of events) fold.add(event);
  return fold.levels;
}

/**
 * buildTimeline an event at a time. `nodes: false` keeps the levels, attempts and waits only (each node's
 * figures still count in them), and forgets a command once its output came: what a fold over a long log
 * needs to hold stays the size of its attempts, not of its events (report.html's timeline).
 */
export function timelineFold(options: { nodes?: boolean } = {}): { add: (event: RunEvent) => void; levels: Span[] } {
  const keepNodes = options.nodes ?? true;
  const levels: Span[] = [];
  const levelSpan = new Map<number, Span>();
  const attemptSpan = new Map<number, Span>();
  // The pause still open, and the one just answered (its resumed pause node belongs to it).
  let openWait: Span | null = null;
  let answered: Span | null = null;
  // A node's model calls and commands are emitted before the node's own record; they wait here.
  let waiting: Span[] = [];
  const commands = new Map<string, Event<'command'>>();

  const levelOf = (level: number, at: number, seq: number): Span => {
    let found = levelSpan.get(level);
    if (!found) {
      found = span('level', `level ${level}`, level, at, seq);
      levelSpan.set(level, found);
      levels.push(found);
    }
    return found;
  };

  const fold = (event: RunEvent): void => {
    const at = ms(event.ts);
    switch (event.type) {
      case 'level_started': {
        const level = levelOf(event.level, at, event.seq);
        const previous = attemptSpan.get(event.level);
        if (previous && previous.status === 'open') reach(previous, at);
        if (previous && previous.status === 'open') previous.status = 'interrupted';
        const attempt = span('attempt', `attempt ${event.attempt}`, event.level, at, event.seq, {
          start: asStart(at, event.ts),
        });
        attemptSpan.set(event.level, attempt);
        answered = null;
        level.children.push(attempt);
        reach(level, at);
        break;
      }
      case 'llm_call':
        waiting.push(
          span('model_call', `${event.model} ${event.stage}`, event.level, at - event.latencyMs, event.seq, {
            durationMs: event.latencyMs,
            status: event.errorClass ? 'error' : 'ok',
            promptTokens: event.promptTokens,
            completionTokens: event.completionTokens,
            costUsd: event.costUsd ?? 0,
            callId: event.callId,
            errorClass: event.errorClass,
          }),
        );
        break;
      case 'command':
        commands.set(event.commandId, event);
        break;
      case 'output': {
        const command = commands.get(event.commandId);
        if (!keepNodes) commands.delete(event.commandId);
        const start = command ? ms(command.ts) : at - event.durationMs;
        waiting.push(
          span('command', command?.command ?? event.commandId, event.level, start, command?.seq ?? event.seq, {
            start: command ? asStart(start, command.ts) : iso(start),
            durationMs: event.durationMs,
            status: event.exitCode === 0 ? 'ok' : 'error',
            commandId: event.commandId,
            exitCode: event.exitCode,
          }),
        );
        break;
      }
      case 'node': {
        const start = ms(event.startedAt);
        const node = span('node', event.name, event.level, start, event.seq, {
          start: asStart(start, event.startedAt),
          durationMs: event.durationMs,
          status: event.status === 'ok' ? 'ok' : event.status === 'interrupted' ? 'interrupted' : 'error',
          children: waiting,
        });
        waiting = [];
        for (const child of node.children) add(node, child);
        // The resumed pause node (the answer acted on) belongs to the wait it ends.
        const parent =
          answered && event.name === 'pause'
            ? answered
            : answered
              ? resumedAttempt(event.level, start, event.seq)
              : parentOf(event.level, start, event.seq);
        if (keepNodes) parent.children.push(node);
        // A wait lasts from question to answer, exactly; the node acting on the answer stretches nothing.
        if (parent.kind !== 'wait') add(parent, node);
        const level = levelOf(event.level, start, event.seq);
        if (parent !== level) add(level, node);
        break;
      }
      case 'attempt_failed': {
        const attempt = attemptSpan.get(event.level);
        if (attempt) {
          reach(attempt, at);
          attempt.status = 'error';
        }
        reach(levelOf(event.level, at, event.seq), at);
        break;
      }
      case 'level_complete': {
        const level = levelOf(event.level, at, event.seq);
        const attempt = attemptSpan.get(event.level);
        if (attempt && attempt.status === 'open') {
          reach(attempt, at);
          attempt.status = 'ok';
        }
        reach(level, at);
        level.status = 'ok';
        break;
      }
      case 'user_action_required': {
        const level = levelOf(event.level, at, event.seq);
        const attempt = attemptSpan.get(event.level);
        if (attempt?.status === 'open') {
          reach(attempt, at);
          attempt.status = 'interrupted';
        }
        openWait = span('wait', `waiting for a person (${event.reason})`, event.level, at, event.seq, {
          reason: event.reason,
          answer: null,
          answeredBy: null,
        });
        level.children.push(openWait);
        reach(level, at);
        break;
      }
      case 'user_action_resolved': {
        if (!openWait) break;
        reach(openWait, at);
        openWait.status = 'ok';
        openWait.answer = event.action === 'continue' && event.hint ? 'hint' : event.action;
        openWait.answeredBy = event.by;
        reach(levelOf(openWait.level, at, event.seq), at);
        answered = openWait;
        openWait = null;
        break;
      }
      default:
        break;
    }
  };
  return { add: fold, levels };

  /** Where a node goes: its level's current attempt, or the level itself before any attempt. */
  function parentOf(level: number, start: number, seq: number): Span {
    return attemptSpan.get(level) ?? levelOf(level, start, seq);
  }

  /** The first work after an answer: a new "resumed" attempt span when the pause closed the last one. */
  function resumedAttempt(level: number, start: number, seq: number): Span {
    answered = null;
    const previous = attemptSpan.get(level);
    if (!previous || previous.status === 'open') return parentOf(level, start, seq);
    const resumed = span('attempt', `${previous.name}, resumed`, level, start, seq);
    attemptSpan.set(level, resumed);
    levelOf(level, start, seq).children.push(resumed);
    return resumed;
  }
}

/** Adds a child's figures to a parent and stretches the parent over it, at either end. */
function add(parent: Span, child: Span): void {
  parent.promptTokens += child.promptTokens;
  parent.completionTokens += child.completionTokens;
  parent.costUsd += child.costUsd;
  const childStart = startOf(child);
  const parentStart = startOf(parent);
  // A level's first node (connect) starts before the level_started event it emits.
  if (childStart < parentStart) {
    parent.durationMs += parentStart - childStart;
    parent.start = child.start;
    startMs.set(parent, childStart);
  }
  reach(parent, childStart + child.durationMs);
}
