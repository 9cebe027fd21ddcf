// The graph builder, in LangGraph's vocabulary: addNode, addEdge, addConditionalEdges, compile.
// compile() checks that every edge names a node, so a typo fails at start-up, not mid-run.
import type { ZodType } from 'zod';
import { CompiledGraph } from './compiled-graph.ts';
import type { CheckpointFit } from './compiled-graph.ts';
import type { NodeFn, RouterFn } from './types.ts';
import { END, START } from './types.ts';

/** Edges out of one node: a fixed target, or a router and the targets it may return. */
export type Edge<S, Ctx> =
  | { kind: 'fixed'; to: string }
  | { kind: 'router'; route: RouterFn<S, Ctx>; targets: readonly string[] }
  /** The node always returns Command({ goto }), to one of `targets`. */
  | { kind: 'command'; targets: readonly string[] };

/** Builds a graph; `R` is the type of a person's answer to an interrupt, `I` of the question asked. */
export class StateGraph<S extends Record<string, unknown>, Ctx, R = unknown, I = unknown> {
  private readonly nodes = new Map<string, NodeFn<S, Ctx, R, I>>();
  private readonly edges = new Map<string, Edge<S, Ctx>>();
  private readonly stateSchema: ZodType<S>;
  private readonly version: number;

  /**
   * @param stateSchema validates a state loaded from a checkpoint.
   * @param version is written into every checkpoint; bump it when the state's shape changes.
   */
  constructor(stateSchema: ZodType<S>, version: number) {
    this.stateSchema = stateSchema;
    this.version = version;
  }

  /** `ends` declares a node that routes itself with Command({ goto }), and where it may go. */
  addNode(name: string, fn: NodeFn<S, Ctx, R, I>, options?: { ends: readonly string[] }): this {
    if (name === START || name === END || this.nodes.has(name)) throw new Error(`graph: node name "${name}" is taken`);
    this.nodes.set(name, fn);
    if (options) this.edges.set(name, { kind: 'command', targets: options.ends });
    return this;
  }

  addEdge(from: string, to: string): this {
    return this.setEdge(from, { kind: 'fixed', to });
  }

  /** `targets` lists every node the router may return; compile() checks them. */
  addConditionalEdges(from: string, route: RouterFn<S, Ctx>, targets: readonly string[]): this {
    return this.setEdge(from, { kind: 'router', route, targets });
  }

  /** `fit` checks every checkpoint before it is saved (see CheckpointFit). */
  compile(options: { fit?: CheckpointFit<S, Ctx, R, I> } = {}): CompiledGraph<S, Ctx, R, I> {
    if (!this.edges.has(START)) throw new Error('graph: add an edge from START');
    for (const [from, edge] of this.edges) {
      const targets = edge.kind === 'fixed' ? [edge.to] : edge.targets;
      for (const to of targets) {
        if (to !== END && !this.nodes.has(to)) throw new Error(`graph: edge ${from} → ${to} names no node`);
      }
    }
    for (const name of this.nodes.keys()) {
      if (!this.edges.has(name)) throw new Error(`graph: node "${name}" has no outgoing edge`);
    }
    return new CompiledGraph(
      new Map(this.nodes),
      new Map(this.edges),
      this.stateSchema,
      this.version,
      options.fit ?? null,
    );
  }

  private setEdge(from: string, edge: Edge<S, Ctx>): this {
    if (from !== START && !this.nodes.has(from)) throw new Error(`graph: add node "${from}" before its edges`);
    if (this.edges.has(from)) throw new Error(`graph: node "${from}" already has its edges`);
    this.edges.set(from, edge);
    return this;
  }
}
