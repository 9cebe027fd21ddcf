// A run's timeline: spans level → attempt → node → model call or command, each with its start,
// duration, status, tokens and cost, folded from the event log. Pure, for the worker's
// GET /api/runs/:id/timeline and the run page's waterfall.
import { z } from 'zod';
import type { RunEvent } from './protocol.ts';

export const spanKindSchema = z.enum(['level', 'attempt', 'node', 'model_call', 'command']);
export type SpanKind = z.infer<typeof spanKindSchema>;

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
    children: z.array(spanSchema),
  }),
);

/** GET /api/runs/:id/timeline */
export const timelineSchema = z.object({ spans: z.array(spanSchema) });
export type Timeline = z.infer<typeof timelineSchema>;

type Event<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;
const ms = (iso: string) => Date.parse(iso);
const iso = (at: number) => new Date(at).toISOString();

function span(
  kind: SpanKind,
  name: string,
  level: number,
  start: number,
  seq: number,
  fields: Partial<Span> = {},
): Span {
  return {
    kind,
    name,
    level,
    start: iso(start),
    durationMs: 0,
    status: 'open',
    seq,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    children: [],
    ...fields,
  };
}

/** Stretches a span to `end` (epoch ms) if that is later than its current end. */
function reach(target: Span, end: number): void {
  target.durationMs = Math.max(target.durationMs, end - ms(target.start));
}

/** Folds a run's events, oldest first, into level spans. */
export function buildTimeline(events: readonly RunEvent[]): Span[] {
  const levels: Span[] = [];
  const levelSpan = new Map<number, Span>();
  const attemptSpan = new Map<number, Span>();
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

  for (const event of events) {
    const at = ms(event.ts);
    switch (event.type) {
      case 'level_started': {
        const level = levelOf(event.level, at, event.seq);
        const previous = attemptSpan.get(event.level);
        if (previous && previous.status === 'open') reach(previous, at);
        if (previous && previous.status === 'open') previous.status = 'interrupted';
        const attempt = span('attempt', `attempt ${event.attempt}`, event.level, at, event.seq);
        attemptSpan.set(event.level, attempt);
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
        const start = command ? ms(command.ts) : at - event.durationMs;
        waiting.push(
          span('command', command?.command ?? event.commandId, event.level, start, command?.seq ?? event.seq, {
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
          durationMs: event.durationMs,
          status: event.status === 'ok' ? 'ok' : event.status === 'interrupted' ? 'interrupted' : 'error',
          children: waiting,
        });
        waiting = [];
        for (const child of node.children) add(node, child);
        const parent = attemptSpan.get(event.level) ?? levelOf(event.level, start, event.seq);
        parent.children.push(node);
        add(parent, node);
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
      default:
        break;
    }
  }
  return levels;
}

/** Adds a child's figures to a parent and stretches the parent over it, at either end. */
function add(parent: Span, child: Span): void {
  parent.promptTokens += child.promptTokens;
  parent.completionTokens += child.completionTokens;
  parent.costUsd += child.costUsd;
  const childStart = ms(child.start);
  const parentStart = ms(parent.start);
  // A level's first node (connect) starts before the level_started event it emits.
  if (childStart < parentStart) {
    parent.durationMs += parentStart - childStart;
    parent.start = child.start;
  }
  reach(parent, childStart + child.durationMs);
}
