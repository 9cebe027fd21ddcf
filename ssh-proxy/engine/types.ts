// The shapes the graph engine works with: nodes, routers, checkpoints and how a run ends.
import type { Command } from './command.ts';
import type { Interrupt } from './interrupt.ts';

/** The virtual first and last nodes, as in LangGraph. */
export const START = '__start__';
export const END = '__end__';

/** What every node receives besides the state: the caller's dependencies, the abort signal, and
 * the answer to an interrupt when the node is being resumed. */
export type NodeContext<Ctx> = Ctx & { signal: AbortSignal; resume?: unknown };

/** A node returns fields to merge, a Command (update + goto), or an Interrupt. */
export type NodeResult<S> = Partial<S> | Command<S> | Interrupt<unknown, S>;
export type NodeFn<S, Ctx> = (state: Readonly<S>, ctx: NodeContext<Ctx>) => NodeResult<S> | Promise<NodeResult<S>>;

/** Picks the next node from the state. Pure: no I/O, no clock, no randomness. */
export type RouterFn<S, Ctx> = (state: Readonly<S>, ctx: Ctx) => string;

/** The graph's saved position: run `next` with `state`. Plain JSON. */
export type GraphCheckpoint<S> = {
  version: number;
  step: number;
  next: string;
  state: S;
  createdAt: string;
  interrupt?: unknown;
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

export type RunResult<S> = {
  outcome: RunOutcome;
  state: S;
  step: number;
  interrupt?: unknown;
  error?: string;
};
