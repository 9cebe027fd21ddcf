// A node's request to stop the graph and wait for a person. Returned, not thrown: the engine saves
// a checkpoint that points back at the node, and re-runs it with `ctx.resume` set to the answer.
export class Interrupt<Payload = unknown, S = Record<string, unknown>> {
  /** What the person is asked; it travels to the caller and is kept in the checkpoint. */
  readonly value: Payload;
  /** Fields to merge into the state before stopping. */
  readonly update: Partial<S> | undefined;

  constructor(value: Payload, update?: Partial<S>) {
    this.value = value;
    this.update = update;
  }
}

/** `return interrupt(payload)` from a node stops the graph until it is resumed. */
export function interrupt<Payload, S>(value: Payload, update?: Partial<S>): Interrupt<Payload, S> {
  return new Interrupt(value, update);
}
