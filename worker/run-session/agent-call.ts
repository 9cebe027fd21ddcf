// One advance of a run's agent: a POST /v1/advance call to the proxy with the run's place, its caps and
// spend, and a person's unread messages; each step the proxy commits is stored whole with its checkpoint,
// in one transaction, then held for the sockets. RunSession's alarm runs it and decides what comes next.
import { rowsOf } from '../d1-mirror.ts';
import type { WorkerSettings } from '../env.ts';
import { errorText } from '../error-text.ts';
import type { AdvanceSpend } from '../../schema/budget.ts';
import type { ProxyEvent, ProxyLine, RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { runTotals } from '../../schema/run-record.ts';
import { callProxy } from './proxy-link.ts';
import type { LinkResult } from './proxy-link.ts';
import type { RunSessionParts } from './run-session-parts.ts';
import { effectsOf } from './step-effects.ts';
import type { SavedPlace } from './checkpoint-history.ts';

type Trace = { request: unknown; response: unknown };

/** The agent's proxy calls for one run, one at a time. */
export class AgentCall {
  private readonly storage: DurableObjectStorage;
  private readonly p: RunSessionParts;
  /** The proxy call in progress, so stop and pause can cut it. */
  inflight: AbortController | null = null;

  constructor(storage: DurableObjectStorage, parts: RunSessionParts) {
    this.storage = storage;
    this.p = parts;
  }

  /**
   * One call to the proxy (POST /v1/advance): each step's events are stored with its checkpoint, all or
   * nothing. `breakIn`: a person waits to take the terminal, so the graph pauses before its next node.
   */
  async run(run: RunSummary, settings: WorkerSettings, breakIn: boolean): Promise<LinkResult> {
    let spend: AdvanceSpend | undefined;
    try {
      const granted = await this.p.budget.forAdvance(run, Date.now());
      if ('waitUsd' in granted) return { kind: 'wait_for_batch', needUsd: granted.waitUsd };
      spend = granted.spend;
    } catch (err) {
      return { kind: 'retry', message: `the run queue did not grant this call its batch's budget: ${errorText(err)}` };
    }
    // A stop or a pause that came while the queue answered has no call to cut: none is made.
    if (this.p.store.summary()?.status !== 'running') return { kind: 'aborted' };
    const place = this.p.store.agentPlace();
    const abort = new AbortController();
    this.inflight = abort;
    let step: ProxyEvent[] = [];
    let traces = new Map<string, Trace>();
    const messages = this.p.inbox.unread();
    const request = {
      runId: run.id,
      config: run.config,
      checkpoint: place.checkpoint,
      checkpointPatches: true,
      ...(place.resume ? { resume: place.resume } : {}),
      ...(messages.length ? { messages } : {}),
      ...(breakIn ? { breakIn: 'takeover' as const } : {}),
      ...(spend ? { spend } : {}),
    };
    try {
      return await callProxy(
        settings,
        request,
        abort.signal,
        (line: ProxyLine) => {
          // stop and pause abort this call (act()); nothing after that is kept.
          if (abort.signal.aborted) return;
          if (line.type === 'live') {
            this.p.sockets.live(line.level, line.stage, line.text);
          } else if (line.type === 'event') {
            step.push(line.event);
          } else if (line.type === 'trace') {
            traces.set(line.callId, { request: line.request, response: line.response });
          } else {
            const saved =
              line.type === 'checkpoint'
                ? { checkpoint: line.checkpoint }
                : line.type === 'checkpoint_patch'
                  ? { checkpointPatch: line.patch }
                  : null;
            this.commitStep(run.id, step, traces, saved);
            step = [];
            traces = new Map();
          }
        },
        () => this.p.sockets.flush(),
      );
    } finally {
      this.inflight = null;
      this.p.sockets.flush();
    }
  }

  /** Stores a step's events and checkpoint in one transaction; the events go to the sockets with their chunk. */
  private commitStep(runId: string, bodies: ProxyEvent[], traces: ReadonlyMap<string, Trace>, saved: SavedPlace): void {
    const now = Date.now();
    let events: RunEvent[];
    try {
      events = this.storeStep(runId, bodies, traces, saved, now);
    } catch (err) {
      // The step rolled back, so the request the chain holds in memory was never stored: start over.
      this.p.requests.reset();
      throw err;
    }
    // The step's statements are done: their rows are counted now, so no cursor waits long for it.
    this.p.usage.collect();
    this.p.sockets.clearLive();
    // Sent when the chunk of the stream it came in has been read (advance), with the chunk's other steps.
    this.p.sockets.hold(events);
  }

  /** The step's events, roll-ups, run row, checkpoint and D1 rows, in one transaction. */
  private storeStep(
    runId: string,
    bodies: ProxyEvent[],
    traces: ReadonlyMap<string, Trace>,
    saved: SavedPlace,
    now: number,
  ): RunEvent[] {
    return this.storage.transactionSync(() => {
      const stored = this.p.store.append(runId, bodies, now);
      this.p.levels.applyAll(stored);
      // A message is read when the step that read it is stored: never lost, never read twice.
      this.p.inbox.markRead(stored);
      this.p.store.update({ ...effectsOf(stored), levelsSolved: runTotals(this.p.levels.record).levelsSolved }, now);
      // Once a step is saved, the answer that led to it has been delivered.
      this.p.store.setLoop(saved ? { ...saved, resume: null, proxyFailures: 0 } : {});
      // Kept for forks: the step ends at its last event (a pause's end line saves nothing new, and is kept too).
      if (saved || stored.length > 0) this.p.history.add(stored.at(-1)?.seq ?? this.p.store.lastSeq(), saved);
      // The D1 rows these events imply go in with them: stored together or not at all. Each model
      // request is kept as a delta against the run's previous one.
      this.p.outbox.add(rowsOf(stored, this.p.requests.encodeTraces(stored, traces)));
      return stored;
    });
  }
}
