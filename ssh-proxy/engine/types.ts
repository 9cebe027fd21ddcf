// The shapes the graph engine works with: nodes, routers, checkpoints and how a run ends.
import type { Command } from './command.ts';
import type { Interrupt } from './interrupt.ts';

/** The virtual first and last nodes, as in LangGraph. */
export const START = '__start__';
export const END = '__end__';

/**
 * What every node receives besides the state: the caller's dependencies, the abort signal, and
 * the answer to an interrupt (`R`, already validated by whoever took it in) when the node is being resumed.
 */
export type NodeContext<Ctx, R = unknown, S = Record<string, unknown>> = Ctx & {
  signal: AbortSignal;
  resume?: R;
  /**
   * Saves a checkpoint in the middle of the node (the state with `update`, to run this same node again)
   * and resolves once it has left the process, so a node makes its intent durable before an effect that
   * must not happen twice (a command on the target). Absent where nothing saves (unit tests of a node).
   */
  commit?: (update: Partial<S>) => Promise<void>;
};

/** A node returns fields to merge, a Command (update + goto), or an Interrupt asking `I`. */
export type NodeResult<S, I = unknown> = Partial<S> | Command<S> | Interrupt<I, S>;
/** One node of a graph: state `S`, dependencies `Ctx`, answers `R`, questions `I`. */
export type NodeFn<S, Ctx, R = unknown, I = unknown> = (
  state: Readonly<S>,
  ctx: NodeContext<Ctx, R, S>,
) => NodeResult<S, I> | Promise<NodeResult<S, I>>;

/** Picks the next node from the state. Pure: no I/O, no clock, no randomness. */
export type RouterFn<S, Ctx> = (state: Readonly<S>, ctx: Ctx) => string;

/** The graph's saved position: run `next` with `state`, and the question `I` it waits on, if any. Plain JSON. */
export type GraphCheckpoint<S, I = unknown> = {
  version: number;
  step: number;
  next: string;
  state: S;
  createdAt: string;
  interrupt?: I;
};

/** One node execution, reported as it finishes. */
export type NodeRecord = {
  name: string;
  startedAt: string;
  durationMs: number;
  status: 'ok' | 'interrupted' | 'error';
  error: string | null;
};

/** How one call to `run` ended. `end`: the graph reached END. */
export type RunOutcome = 'end' | 'interrupted' | 'yielded' | 'aborted' | 'step_limit' | 'error';

/** How one call to `run` ended, with the state and, when interrupted, the question `I`. */
export type RunResult<S, I = unknown> = {
  outcome: RunOutcome;
  state: S;
  step: number;
  interrupt?: I;
  error?: string;
};
