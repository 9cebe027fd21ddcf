// What the run page shows, folded from the snapshot and the event log. Pure, so the socket hook
// stays small and the rules (no duplicates, no gaps, when a pause is open) are testable in Node.
import type { LiveText, PendingAction, RunEvent, ServerMessage, Snapshot } from './protocol.ts';
import type { RunSummary } from './run.ts';
import type { RunRecord } from './run-record.ts';
import { emptyRecord, foldRecord } from './run-record.ts';

export type RunViewState = {
  run: RunSummary | null;
  /** Every event from seq 1 (or the first `since`) to lastSeq, in order, each once. */
  events: RunEvent[];
  lastSeq: number;
  /** The open question, if the run waits for a person. */
  pending: PendingAction | null;
  currentLevel: number;
  /** The one fold's per-level figures and outcomes (schema/run-record.ts); the figures below come from it. */
  record: RunRecord;
  /** Levels proved, lowest first. */
  solved: number[];
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** Epoch ms; the clock shows ended − started, or now − started while the run goes on. */
  startedAt: number | null;
  endedAt: number | null;
  /**
   * The model call being written right now, as far as it has come (live only, never in the log).
   * It follows the event at `afterSeq`; only a later event can be the call's own stored result.
   */
  live: (LiveText & { afterSeq: number }) | null;
  /** The run's place in the queue while it waits for a slot. */
  queuePosition: number | null;
};

export const initialViewState: RunViewState = {
  run: null,
  events: [],
  lastSeq: 0,
  pending: null,
  currentLevel: 0,
  record: emptyRecord,
  solved: [],
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  startedAt: null,
  endedAt: null,
  live: null,
  queuePosition: null,
};

const ms = (iso: string | null): number | null => (iso ? Date.parse(iso) : null);

/** The snapshot sets the run and its open question; events after it fill in the rest. */
export function applySnapshot(state: RunViewState, snapshot: Snapshot): RunViewState {
  const { run } = snapshot;
  return {
    ...state,
    run,
    pending: snapshot.pendingAction,
    currentLevel: state.events.length ? state.currentLevel : run.currentLevel,
    startedAt: ms(run.startedAt),
    endedAt: ms(run.endedAt),
    live: snapshot.live ? { ...snapshot.live, afterSeq: snapshot.lastSeq } : null,
    queuePosition: snapshot.queuePosition ?? null,
  };
}

/** A piece of the call being written is added to it; a new call (level or stage) starts afresh. */
export function applyLive(
  state: RunViewState,
  delta: Extract<ServerMessage, { type: 'thinking_delta' }>,
): RunViewState {
  const same = state.live && state.live.level === delta.level && state.live.stage === delta.stage;
  const text = (same ? state.live!.text : '') + delta.text;
  return {
    ...state,
    live: { level: delta.level, stage: delta.stage, text, afterSeq: same ? state.live!.afterSeq : state.lastSeq },
  };
}

/**
 * Appends events in seq order. An event at or below lastSeq is a duplicate and is skipped; one
 * beyond lastSeq + 1 means some were missed, so folding stops there and `gap` asks for a reconnect.
 */
export function applyEvents(state: RunViewState, events: readonly RunEvent[]): { state: RunViewState; gap: boolean } {
  let next = state;
  // The batch is appended once at the end: copying the log per event is quadratic on a long run.
  const added: RunEvent[] = [];
  let gap = false;
  let lastSeq = state.lastSeq;
  for (const event of events) {
    if (event.seq <= lastSeq) continue;
    if (lastSeq > 0 && event.seq !== lastSeq + 1) {
      gap = true;
      break;
    }
    added.push(event);
    lastSeq = event.seq;
    next = fold(next, event);
  }
  if (added.length === 0) return { state: next, gap };
  let record = next.record;
  for (const event of added) record = foldRecord(record, event);
  return { state: { ...next, ...figuresOf(record), events: state.events.concat(added), lastSeq }, gap };
}

function fold(state: RunViewState, event: RunEvent): RunViewState {
  const run = state.run;
  switch (event.type) {
    case 'status_changed': {
      const startedAt = state.startedAt ?? (event.to === 'running' ? Date.parse(event.ts) : null);
      const queuePosition = event.to === 'queued' ? state.queuePosition : null;
      return {
        ...state,
        run: run && { ...run, status: event.to },
        startedAt,
        queuePosition,
        pending: event.to === 'paused_for_user_action' ? state.pending : null,
      };
    }
    case 'level_started':
      return { ...state, currentLevel: event.level };
    // The call's stored thinking has arrived: the live text it grew from is done.
    case 'thinking':
      return withLive(state, endsLive(state, event));
    case 'level_complete':
      return { ...state, currentLevel: event.nextLevel };
    case 'llm_call':
      return withLive(state, endsLive(state, event));
    case 'user_action_required': {
      const { reason, level, retryCount, maxRetries, lastError, lessons, breach } = event;
      // A budget pause's breach (the cap, spent, limit) is part of the question: the dialog and the CLI show it.
      const question = { reason, level, retryCount, maxRetries, lastError, lessons, ...(breach ? { breach } : {}) };
      return { ...state, pending: question };
    }
    case 'user_action_resolved':
      return { ...state, pending: null };
    case 'run_complete':
      // The summary's count is the run's end's: the page offers Verify on it without a reload.
      return {
        ...state,
        pending: null,
        endedAt: Date.parse(event.ts),
        run: run && { ...run, status: event.status, levelsSolved: event.levelsSolved },
      };
    default:
      return state;
  }
}

/** `state` itself when the live text stays: no copy of the state per event of a long replay. */
function withLive(state: RunViewState, live: RunViewState['live']): RunViewState {
  return live === state.live ? state : { ...state, live };
}

/** The live text, unless `event` is the stored result of its call (a replayed older event is not). */
function endsLive(state: RunViewState, event: RunEvent): RunViewState['live'] {
  return state.live && event.seq > state.live.afterSeq ? null : state.live;
}

/**
 * The counters the page and the CLI show, read off the record (the page always replays from seq 1,
 * so they are complete without the snapshot's counts).
 */
function figuresOf(
  record: RunRecord,
): Pick<RunViewState, 'record' | 'solved' | 'promptTokens' | 'completionTokens' | 'costUsd'> {
  const solved: number[] = [];
  let promptTokens = 0;
  let completionTokens = 0;
  let costUsd = 0;
  for (const f of record.levels.values()) {
    if (f.solved) solved.push(f.level);
    promptTokens += f.promptTokens;
    completionTokens += f.completionTokens;
    costUsd += f.costUsd;
  }
  return { record, solved: solved.sort((a, b) => a - b), promptTokens, completionTokens, costUsd };
}
