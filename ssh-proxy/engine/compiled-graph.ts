// Runs a compiled graph one node at a time: a checkpoint after every node, a step limit, a time
// slice, and an abort signal checked at every node boundary (the safe points).
import type { ZodType } from 'zod';
import { describeIssues } from '../../schema/issues.ts';
import { Command } from './command.ts';
import { Interrupt } from './interrupt.ts';
import type { Edge } from './state-graph.ts';
import type { GraphCheckpoint, NodeContext, NodeFn, NodeRecord, NodeResult, RunResult } from './types.ts';
import { END, START } from './types.ts';

/** Where a run starts: a fresh state at START, or a saved checkpoint. */
export type RunFrom<S, I = unknown> = { state: S } | { checkpoint: GraphCheckpoint<S, I> };

/** One call to `run`: where from, the dependencies, the answer `R` to an interrupt, and the limits. */
export type RunOptions<S, Ctx, R = unknown, I = unknown> = {
  from: RunFrom<S, I>;
  ctx: Ctx;
  /** Present (even when undefined is the answer) only when answering an interrupt. */
  resume?: Command<S, R>;
  signal: AbortSignal;
  /** Most nodes to run in this call. */
  stepLimit: number;
  /** Epoch ms after which the run yields at the next node boundary (at least one node runs). */
  deadline?: number;
  /**
   * Epoch ms at which a node still running is cut (its signal fires) and the run yields from the
   * last checkpoint, as if the node had not started. Bounds a node that outlives the slice.
   */
  cutAt?: number;
  /** Called as each node finishes, with the state the node was given. */
  onNode?: (record: NodeRecord, state: Readonly<S>) => void | Promise<void>;
  onCheckpoint?: (checkpoint: GraphCheckpoint<S, I>) => void | Promise<void>;
  /** After a node's own mid-node checkpoint: resolves once it has left the process (the caller's stream). */
  flushed?: () => Promise<void>;
  now?: () => number;
  /**
   * Asked at each node boundary (not before the resumed node of a call that answers an interrupt):
   * null runs `next`; 'yield' ends the call yielded (after at least one node); a Command merges its
   * update and runs its goto instead of `next`, which the graph may come back to later.
   */
  breakIn?: (next: string, state: Readonly<S>) => BreakDecision<S> | null;
};

/** What a break at a node boundary does: end the call (yield), or divert to another node. */
export type BreakDecision<S> = 'yield' | Command<S>;

/**
 * Checks each checkpoint before it is saved and may hand back another: a state cut to fit its limits,
 * and the node to run next (a pause that says what was cut). The run goes on from what it returns.
 */
export type CheckpointFit<S, Ctx, R = unknown, I = unknown> = (
  checkpoint: GraphCheckpoint<S, I>,
  ctx: NodeContext<Ctx, R, S>,
) => GraphCheckpoint<S, I>;

/**
 * A graph ready to run. `R` is the type of a person's answer and `I` of the question a node asks: both are
 * validated where they enter the program (the route), and flow through here typed, so no node checks again.
 */
export class CompiledGraph<S extends Record<string, unknown>, Ctx, R = unknown, I = unknown> {
  private readonly nodes: ReadonlyMap<string, NodeFn<S, Ctx, R, I>>;
  private readonly edges: ReadonlyMap<string, Edge<S, Ctx>>;
  private readonly stateSchema: ZodType<S>;
  private readonly fit: CheckpointFit<S, Ctx, R, I> | null;
  readonly version: number;

  constructor(
    nodes: ReadonlyMap<string, NodeFn<S, Ctx, R, I>>,
    edges: ReadonlyMap<string, Edge<S, Ctx>>,
    stateSchema: ZodType<S>,
    version: number,
    fit: CheckpointFit<S, Ctx, R, I> | null = null,
  ) {
    this.nodes = nodes;
    this.edges = edges;
    this.stateSchema = stateSchema;
    this.version = version;
    this.fit = fit;
  }

  /**
   * Checks a checkpoint from outside (version, node name, state shape). Never throws. Its interrupt is
   * the caller's to have validated (the route's schema), so it arrives typed.
   */
  loadCheckpoint(raw: {
    version: number;
    step: number;
    next: string;
    state: unknown;
    createdAt: string;
    interrupt?: I;
  }): { ok: true; checkpoint: GraphCheckpoint<S, I> } | { ok: false; message: string } {
    if (raw.version !== this.version) {
      return {
        ok: false,
        message: `checkpoint version ${raw.version} is not supported; this proxy reads version ${this.version}. Start a new run.`,
      };
    }
    if (raw.next !== END && !this.nodes.has(raw.next))
      return { ok: false, message: `checkpoint points at unknown node "${raw.next}"` };
    const state = this.stateSchema.safeParse(raw.state);
    if (!state.success) return { ok: false, message: `checkpoint state is invalid: ${describeIssues(state.error)}` };
    return { ok: true, checkpoint: { ...raw, state: state.data } };
  }

  /** The first node a fresh run executes. */
  entry(state: S, ctx: Ctx): string {
    return this.follow(START, state, ctx);
  }

  /** Runs nodes from `options.from` until the graph ends, interrupts, yields, is aborted or fails. */
  async run(options: RunOptions<S, Ctx, R, I>): Promise<RunResult<S, I>> {
    const now = options.now ?? Date.now;
    const start = 'checkpoint' in options.from ? options.from.checkpoint : null;
    let state: S = start ? start.state : (options.from as { state: S }).state;
    let step = start?.step ?? 0;
    let next = start ? start.next : this.entry(state, options.ctx);
    if (start?.interrupt !== undefined && !options.resume) {
      return { outcome: 'interrupted', state, step, interrupt: start.interrupt };
    }
    let resume = options.resume;
    if (resume?.update) state = { ...state, ...resume.update };

    for (let ran = 0; ; ran++) {
      if (next === END) return { outcome: 'end', state, step };
      if (options.signal.aborted) return { outcome: 'aborted', state, step };
      if (ran >= options.stepLimit)
        return { outcome: 'step_limit', state, step, error: `stopped after ${ran} steps without finishing` };
      if (ran > 0 && options.deadline !== undefined && now() >= options.deadline)
        return { outcome: 'yielded', state, step };
      // A node answering an interrupt gets its answer first; every later boundary may be broken into.
      const broken = ran === 0 && resume ? null : (options.breakIn?.(next, state) ?? null);
      if (broken === 'yield' && ran > 0) return { outcome: 'yielded', state, step };
      if (broken instanceof Command) {
        if (broken.update) state = { ...state, ...broken.update };
        if (broken.goto !== undefined) next = broken.goto;
      }

      const name = next;
      const before = state;
      const node = this.nodes.get(name);
      if (!node) return { outcome: 'error', state, step, error: `no node named "${name}"` };
      const startedAt = now();
      const record = (status: NodeRecord['status'], error: string | null = null): NodeRecord => ({
        name,
        startedAt: new Date(startedAt).toISOString(),
        durationMs: Math.max(0, Math.round(now() - startedAt)),
        status,
        error,
      });

      let result: NodeResult<S, I>;
      const cut = new AbortController();
      const timer =
        options.cutAt === undefined ? undefined : setTimeout(() => cut.abort(), Math.max(0, options.cutAt - now()));
      const signal = options.cutAt === undefined ? options.signal : AbortSignal.any([options.signal, cut.signal]);
      // A mid-node commit is a step of its own: the state as the node says it stands, to run this node again.
      // The engine's state moves with it, so a node cut after a commit yields from what was saved.
      const commit = async (update: Partial<S>) => {
        state = { ...state, ...update };
        step += 1;
        const saved = this.fitted(this.checkpoint(step, name, state, now()), ctx);
        state = saved.state;
        await options.onCheckpoint?.(saved);
        await options.flushed?.();
      };
      const ctx: NodeContext<Ctx, R, S> = resume
        ? { ...options.ctx, signal, resume: resume.resume, commit }
        : { ...options.ctx, signal, commit };
      try {
        result = await node(state, ctx);
      } catch (err) {
        // A node that throws has a bug: expected failures are state. Nothing is saved, so the caller
        // can retry from the last checkpoint once the bug is fixed.
        if (options.signal.aborted) return { outcome: 'aborted', state, step };
        if (cut.signal.aborted) return { outcome: 'yielded', state, step };
        const message = err instanceof Error ? err.message : String(err);
        await options.onNode?.(record('error', message), before);
        return { outcome: 'error', state, step, error: `node "${name}" failed: ${message}` };
      } finally {
        clearTimeout(timer);
      }
      // A node cut short may have returned a half-result; it is not saved. Cut by the caller, the
      // run is over; cut by the clock, it goes on from the last checkpoint next call.
      if (options.signal.aborted) return { outcome: 'aborted', state, step };
      if (cut.signal.aborted) return { outcome: 'yielded', state, step };
      resume = undefined;
      step += 1;

      if (result instanceof Interrupt) {
        if (result.update) state = { ...state, ...result.update };
        await options.onNode?.(record('interrupted'), before);
        const saved = this.fitted(this.checkpoint(step, name, state, now(), result.value), ctx);
        await options.onCheckpoint?.(saved);
        return { outcome: 'interrupted', state: saved.state, step, interrupt: saved.interrupt };
      }
      let goto: string | undefined;
      if (result instanceof Command) {
        if (result.update) state = { ...state, ...result.update };
        goto = result.goto;
        const edge = this.edges.get(name);
        if (goto !== undefined && edge?.kind === 'command' && !edge.targets.includes(goto)) {
          await options.onNode?.(record('error', `goto "${goto}" is not among its ends`), before);
          return {
            outcome: 'error',
            state,
            step,
            error: `node "${name}" jumped to "${goto}", which is not among its ends`,
          };
        }
      } else {
        state = { ...state, ...result };
      }
      try {
        next = goto ?? this.follow(name, state, options.ctx);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await options.onNode?.(record('error', message), before);
        return { outcome: 'error', state, step, error: message };
      }
      await options.onNode?.(record('ok'), before);
      const saved = this.fitted(this.checkpoint(step, next, state, now()), ctx);
      state = saved.state;
      next = saved.next;
      await options.onCheckpoint?.(saved);
    }
  }

  private fitted(checkpoint: GraphCheckpoint<S, I>, ctx: NodeContext<Ctx, R, S>): GraphCheckpoint<S, I> {
    return this.fit ? this.fit(checkpoint, ctx) : checkpoint;
  }

  private follow(from: string, state: S, ctx: Ctx): string {
    const edge = this.edges.get(from);
    if (!edge) throw new Error(`graph: node "${from}" has no outgoing edge`);
    if (edge.kind === 'fixed') return edge.to;
    if (edge.kind === 'command') throw new Error(`graph: node "${from}" must return Command({ goto })`);
    const to = edge.route(state, ctx);
    if (!edge.targets.includes(to))
      throw new Error(`graph: router of "${from}" returned "${to}", which is not among its targets`);
    return to;
  }

  private checkpoint(step: number, next: string, state: S, at: number, interrupt?: I): GraphCheckpoint<S, I> {
    const checkpoint: GraphCheckpoint<S, I> = {
      version: this.version,
      step,
      next,
      state,
      createdAt: new Date(at).toISOString(),
    };
    if (interrupt !== undefined) checkpoint.interrupt = interrupt;
    return checkpoint;
  }
}
