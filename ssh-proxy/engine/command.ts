// LangGraph's Command: a node's way to update state and choose the next node in one return, and a
// caller's way to answer an interrupt (`new Command({ resume })`).
/** What a Command carries; every field is optional. `R` is the answer's type, checked where it came in. */
export type CommandArgs<S, R = unknown> = {
  /** Fields to merge into the state. */
  update?: Partial<S>;
  /** The next node, overriding the node's edges. */
  goto?: string;
  /** The answer to the interrupt the graph stopped at. */
  resume?: R;
};

/** A node's update-and-goto, or a caller's answer to an interrupt. */
export class Command<S = Record<string, unknown>, R = unknown> {
  readonly update: Partial<S> | undefined;
  readonly goto: string | undefined;
  readonly resume: R | undefined;

  constructor(args: CommandArgs<S, R>) {
    this.update = args.update;
    this.goto = args.goto;
    this.resume = args.resume;
  }
}
