// LangGraph's Command: a node's way to update state and choose the next node in one return, and a
// caller's way to answer an interrupt (`new Command({ resume })`).
/** What a Command carries; every field is optional. */
export type CommandArgs<S> = {
  /** Fields to merge into the state. */
  update?: Partial<S>;
  /** The next node, overriding the node's edges. */
  goto?: string;
  /** The answer to the interrupt the graph stopped at. */
  resume?: unknown;
};

export class Command<S = Record<string, unknown>> {
  readonly update: Partial<S> | undefined;
  readonly goto: string | undefined;
  readonly resume: unknown;

  constructor(args: CommandArgs<S>) {
    this.update = args.update;
    this.goto = args.goto;
    this.resume = args.resume;
  }
}
