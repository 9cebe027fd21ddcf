// RunSession: one Durable Object per run. It owns the run's truth (config, status, event log,
// the agent's checkpoint) and its WebSocket clients. Its alarm drives the agent: call the proxy,
// store each step's events with its checkpoint, broadcast them, and go again or wait for a person.
import { DurableObject } from 'cloudflare:workers';
import type { BreakKind, RunEvent } from '../../schema/protocol.ts';
import type { BatchBudget } from '../../schema/budget.ts';
import { breachText } from '../../schema/budget.ts';
import type { RunAction, RunConfig, RunSummary } from '../../schema/run.ts';
import type { Timeline } from '../../schema/timeline.ts';
import type { TroubleCard } from '../../schema/failures.ts';
import type { ForkEntry } from '../../schema/fork.ts';
import { readLimits, readSettings } from '../env.ts';
import { errorBody } from '../errors.ts';
import { breakCall } from './proxy-link.ts';
import { TerminalSeat } from './terminal-seat.ts';
import { refuseAction } from './run-actions.ts';
import { applyAction } from './apply-action.ts';
import { AgentCall } from './agent-call.ts';
import { mirrorRun } from './run-mirror.ts';
import type { ActDeps } from './apply-action.ts';
import { hasRunTable, makeParts } from './run-session-parts.ts';
import type { RunSessionParts, SessionHost } from './run-session-parts.ts';
import type { EventText } from './run-store.ts';
import type { ForkPointResult, ForkStart } from './run-forks.ts';
import { RunReads } from './run-reads.ts';
import { ForkRpcs } from './fork-rpcs.ts';
import { advanceDue } from './advance-due.ts';
import { onSocketMessage } from './socket-message.ts';
import { ObjectUsage } from '../object-usage.ts';

/** The outcome of an action: the run after it, or why it was refused (invalid: HTTP 400; conflict: 409). */
export type ActionResult =
  | { ok: true; run: RunSummary }
  | { ok: false; code: 'conflict' | 'invalid' | 'not_found'; message: string };

export class RunSession extends DurableObject<Env> {
  private built: RunSessionParts | null = null;
  /** The agent's proxy calls; the one in progress is what stop and pause cut. */
  private callPart: AgentCall | null = null;
  /** The run's terminal (issue 30); made with the parts, so its restart check runs once per object start. */
  private seatPart: TerminalSeat | null = null;
  /** What the RPC helpers reach of this object. */
  private readonly host: SessionHost = {
    ctx: this.ctx,
    env: this.env,
    parts: () => this.parts(),
    current: () => this.current(),
    withPrefix: () => this.withPrefix(),
    mirrorAndArm: () => this.mirrorAndArm(),
  };
  private readonly reads = new RunReads(this.host);
  /** What Cloudflare bills for this object, counted as it happens (issue 34); saved when the alarm or an action ends. */
  private readonly usage = new ObjectUsage();
  private readonly forkRpcs = new ForkRpcs(this.host);

  /**
   * The parts, made on first use. Only create() and the paths of a run that exists (holdsRun) reach
   * them, so a request naming an unknown id makes no table and stores nothing.
   */
  private parts(): RunSessionParts {
    if (this.built) return this.built;
    const built = makeParts(this.ctx, this.env, this.usage);
    this.built = built;
    this.callPart = new AgentCall(this.ctx.storage, built);
    const seat = new TerminalSeat({
      ctx: this.ctx,
      env: this.env,
      store: built.store,
      life: built.life,
      sockets: built.sockets,
      schedule: built.schedule,
      act: (action, by) => this.applyAction(action, by),
      breakCall: (kind) => this.breakCall(kind),
    });
    this.seatPart = seat;
    built.sockets.terminalView = (ws) => seat.view(ws);
    seat.endStale();
    return built;
  }

  /** The proxy call in progress, or null. */
  private get inflight(): AbortController | null {
    return this.callPart?.inflight ?? null;
  }

  private get call(): AgentCall {
    this.parts();
    return this.callPart as AgentCall;
  }

  private get seat(): TerminalSeat {
    this.parts();
    return this.seatPart as TerminalSeat;
  }

  /** Ends the call in progress at its next node boundary (the proxy's POST /v1/break); nothing when none runs. */
  private breakCall(kind: BreakKind): void {
    const settings = readSettings(this.env);
    const run = this.store.summary();
    const call = this.inflight;
    if (call && settings.ok && run)
      this.ctx.waitUntil(breakCall(settings.settings, run.id, kind, () => this.inflight === call));
  }

  /** Whether this object was ever given a run, read without writing anything. */
  private holdsRun(): boolean {
    return this.built !== null || hasRunTable(this.ctx.storage.sql);
  }

  private get store() {
    return this.parts().store;
  }
  private get schedule() {
    return this.parts().schedule;
  }
  private get sockets() {
    return this.parts().sockets;
  }
  private get levels() {
    return this.parts().levels;
  }
  private get life() {
    return this.parts().life;
  }
  private get budget() {
    return this.parts().budget;
  }

  /** A fork's parent's events, in memory before any read of its log (fork-links.ts); nothing for other runs. */
  private withPrefix(): Promise<void> {
    return this.holdsRun() ? this.parts().forks.loadPrefix() : Promise.resolve();
  }

  /** The run, or null when this object holds none; reads an unknown object without writing. */
  private current(): RunSummary | null {
    return this.holdsRun() ? this.store.summary() : null;
  }

  /** Health: proves the object is reachable and its storage answers. */
  async ping(): Promise<{ ok: boolean; storage: string }> {
    this.usage.request();
    const one = this.ctx.storage.sql.exec<{ one: number }>('SELECT 1 AS one').one().one;
    return { ok: one === 1, storage: one === 1 ? 'ok' : 'unexpected answer' };
  }

  /** Creates the run held by this object, queued; null if it already holds one. The queue starts it. */
  async create(runId: string, config: RunConfig): Promise<RunSummary | null> {
    this.usage.request();
    const now = Date.now();
    if (!this.store.create(runId, config, now)) return null;
    this.store.setLoop({});
    this.life.record({ type: 'run_created', config }, now);
    const run = await this.mirrorAndArm();
    return { ...run, spend: this.budget.view(run, now) };
  }

  /** Creates this object's run as a fork (docs/forks.md, fork-rpcs.ts); null if it already holds one. */
  async createFork(runId: string, config: RunConfig, start: ForkStart): Promise<RunSummary | null> {
    this.usage.request();
    return this.forkRpcs.createFork(runId, config, start);
  }

  /** Where a fork of this run at `seq` would start (fork-rpcs.ts). */
  async forkPoint(seq: number): Promise<ForkPointResult | null> {
    this.usage.request();
    return this.forkRpcs.forkPoint(seq);
  }

  /** A page of this run's log after `since` and up to `through`, as stored text (a fork's prefix). */
  async eventsThrough(through: number, since: number): Promise<EventText[] | null> {
    this.usage.request();
    return this.forkRpcs.eventsThrough(through, since);
  }

  /** Notes a fork made of this run, for its page's list. */
  async noteFork(runId: string, seq: number): Promise<boolean> {
    this.usage.request();
    return this.forkRpcs.noteFork(runId, seq);
  }

  /** The forks made of this run, oldest first; null when this object holds no run. */
  async forks(): Promise<ForkEntry[] | null> {
    this.usage.request();
    return this.forkRpcs.forks();
  }

  /** The queue gave this run a slot: its loop starts. False when it no longer waits (stopped meanwhile). */
  async start(): Promise<boolean> {
    this.usage.request();
    const run = this.current();
    if (run?.status !== 'queued') return false;
    this.sockets.queuePosition(null);
    // Asked again (the queue's check, after a start cut short by a restart): an advance already due stays as it is.
    if (this.schedule.due(Date.now()).advanceAt === null) this.schedule.nextAdvance(Date.now());
    await this.schedule.arm();
    return true;
  }

  /**
   * The queue holds this run in line: its batch's cost cap is reached. A run not yet started pauses at the cap
   * (a hands-off one stops there), so a person, the CLI or a batch raise answers it like any budget pause.
   */
  async holdAtBatchCap(batch: BatchBudget): Promise<boolean> {
    this.usage.request();
    const run = this.current();
    if (run?.status !== 'queued') return false;
    const breach = { cap: 'batchMaxCostUsd' as const, spent: batch.spentUsd, limit: batch.maxCostUsd, next: 0 };
    const message = `${breachText(breach)} (this run had not started)`;
    this.life.pauseRun(run, 'budget_exceeded', message, breach);
    await this.mirrorAndArm();
    return true;
  }

  /** The run's new place in the queue, for its watchers. */
  async queuePosition(position: number | null): Promise<void> {
    this.usage.request();
    const run = this.current();
    if (run?.status === 'queued') this.sockets.queuePosition(position);
  }

  /** The run, or null when this object holds none. */
  async summary(): Promise<RunSummary | null> {
    this.usage.request();
    return this.current();
  }

  /** The run with its caps, spent figures, its batch's budget and its hosting usage (GET /api/runs/:id; run-reads.ts). */
  async details(): Promise<RunSummary | null> {
    this.usage.request();
    const run = await this.reads.details();
    return run && { ...run, hosting: this.usage.view() };
  }

  /**
   * Sends every level's figures to D1 again, with its outcome: for rows written before the outcome
   * taxonomy (worker/outcome-refold.ts). Starting the object has already folded its log if it needed to.
   * Returns the number of levels sent, or null when this object holds no run.
   */
  async refold(): Promise<number | null> {
    this.usage.request();
    if (!this.current()) return null;
    this.levels.resendAll();
    await this.mirrorAndArm();
    return this.levels.record.levels.size;
  }

  /** A page of stored events after `since` as JSON text, like a socket replay (run-reads.ts). */
  async eventPage(since: number, limit: number): Promise<string | null> {
    this.usage.request();
    return this.reads.eventPage(since, limit);
  }

  /** Why the run paused or ended badly, read from the tail of its log; null when it did not. */
  async diagnosis(): Promise<{ card: TroubleCard | null } | null> {
    this.usage.request();
    return this.reads.diagnosis();
  }

  /** The run's spans (level → attempt → node → model call or command), folded from its whole log. */
  async timeline(): Promise<Timeline | null> {
    this.usage.request();
    return this.reads.timeline();
  }

  /** The run, its verifications and where its log ends now: what the archive reads before paging the log. */
  async archiveHead(): Promise<{ run: RunSummary; verifications: string[]; lastSeq: number } | null> {
    this.usage.request();
    return this.reads.archiveHead();
  }

  /** What the verification and compare routes read: the run, its whole log and its verifications. */
  async fullRecord(): Promise<{ run: RunSummary; events: RunEvent[]; verifications: string[] } | null> {
    this.usage.request();
    return this.reads.fullRecord();
  }

  /** Notes a verification run of this run, for its archive and its page. */
  async addVerification(runId: string): Promise<boolean> {
    this.usage.request();
    if (!this.current()) return false;
    this.store.addVerification(runId, Date.now());
    return true;
  }

  /** A stored token was revoked: its sockets on this run are closed. Returns how many. */
  async closeSocketsOf(tokenId: string): Promise<number> {
    this.usage.request();
    return this.sockets.closeOpenedWith(tokenId);
  }

  /** The seq of a model call in this run's log and the run it is indexed under (a fork's parent, for a shared call). */
  async callSeq(callId: string): Promise<{ seq: number; runId: string } | null> {
    this.usage.request();
    return this.reads.callSeq(callId);
  }

  private actDeps(): ActDeps {
    const calls = { cutCall: () => this.inflight?.abort(), breakCall: (kind: BreakKind) => this.breakCall(kind) };
    return { ...this.parts(), ctx: this.ctx, env: this.env, seat: this.seat, ...calls };
  }

  /** Applies a person's action from REST, checked against the run's state. */
  async act(action: RunAction, by: string): Promise<ActionResult> {
    this.usage.request();
    return this.applyAction(action, by);
  }

  /** Applies a person's action (from REST, a socket or the terminal), checked against the run's state. */
  private async applyAction(action: RunAction, by: string): Promise<ActionResult> {
    const run = this.current();
    if (!run) return { ok: false, code: 'not_found', message: 'no such run' };
    const pending = this.store.pendingAction();
    const refusal = refuseAction(action.action, run.status, pending);
    if (refusal) return { ok: false, code: 'conflict', message: refusal };
    const refused = await applyAction(this.actDeps(), run, action, by);
    if (typeof refused === 'string') return { ok: false, code: 'conflict', message: refused };
    if (refused) return { ok: false, ...refused };
    const after = await this.mirrorAndArm();
    return { ok: true, run: { ...after, spend: this.budget.view(after, Date.now()) } };
  }

  /** Wakes for what is due: a retry of the D1 outbox, the agent's next advance, or both. */
  override async alarm(): Promise<void> {
    this.usage.request();
    // A call still in progress re-arms from the schedule when it ends; nothing scheduled is lost.
    if (this.inflight || !this.holdsRun()) return;
    const started = Date.now();
    try {
      await this.wake();
    } finally {
      this.usage.active(Date.now() - started);
    }
  }

  /** What the alarm does: the terminal's idle check, the agent's next advance or the outbox's retry, then the next alarm. */
  private async wake(): Promise<void> {
    const due = this.schedule.due(Date.now());
    if (due.terminalIdle) this.seat.idleCheck(Date.now());
    if (due.advance) {
      await advanceDue(
        { ...this.parts(), env: this.env, call: this.call, seat: this.seat, mirror: () => this.mirror() },
        due.advanceAt,
      );
    } else if (due.mirror) {
      // An advance flushes the outbox itself; a retry that came due alone is sent here.
      await this.mirror();
    }
    await this.schedule.arm();
    this.usage.save();
  }

  /** WebSocket upgrade from the worker; `?since=N` replays at once without waiting for hello. */
  override async fetch(request: Request): Promise<Response> {
    this.usage.request();
    const run = this.current();
    if (!run) return Response.json(errorBody('not_found', 'no such run'), { status: 404 });
    const limits = readLimits(this.env);
    if (!limits.ok) return Response.json(errorBody('misconfigured', limits.message), { status: 503 });
    // The replay is synchronous once the parent's events are in memory (a fork's).
    await this.withPrefix();
    return this.sockets.accept(request, run, limits.limits.maxSocketsPerRun);
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    this.usage.socketMessage();
    const d = { sockets: this.sockets, seat: this.seat, withPrefix: () => this.withPrefix() };
    return onSocketMessage({ ...d, act: (action, by) => this.applyAction(action, by) }, ws, message);
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    if (this.holdsRun()) this.seat.holderLeft(ws);
    // 1005/1006 carry no close frame and cannot be echoed back.
    if (code !== 1005 && code !== 1006) ws.close(code, 'closing');
  }

  /** The run's rows to D1 (run-mirror.ts); a failure is retried from the alarm, never thrown. */
  private mirror(): Promise<RunSummary> {
    return mirrorRun({ ...this.parts(), env: this.env });
  }

  /** mirror(), then the alarm set for what the action scheduled; alarm() arms once at its own end. */
  private async mirrorAndArm(): Promise<RunSummary> {
    const run = await this.mirror();
    await this.schedule.arm();
    this.usage.save();
    return run;
  }
}
