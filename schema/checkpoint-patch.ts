// Checkpoints sent as what changed: the proxy's diff of two checkpoints of one call, and its
// application to the previous checkpoint. The diff compares by reference, not by value: the graph
// engine builds each state from the last with spreads, so a field a node did not touch is the same
// object, and a list it added to starts with the same items. Pure, shared by the proxy and clients.
import type { Checkpoint, CheckpointPatch } from './protocol.ts';

type State = Record<string, unknown>;

/** The patch that turns `previous` into `next`. */
export function diffCheckpoint(previous: Checkpoint, next: Checkpoint): CheckpointPatch {
  const set: State = {};
  const append: Record<string, unknown[]> = {};
  for (const [key, value] of Object.entries(next.state)) {
    const before = previous.state[key];
    if (value === before) continue;
    if (Array.isArray(value) && Array.isArray(before) && value.length > before.length && extends_(before, value))
      append[key] = value.slice(before.length);
    else set[key] = value;
  }
  const unset = Object.keys(previous.state).filter((key) => !(key in next.state));
  const { state: _state, ...envelope } = next;
  return { ...envelope, base: previous.step, set, unset, append };
}

/** `previous` with `patch` applied; throws when the patch was made against another checkpoint. */
export function applyCheckpointPatch(previous: Checkpoint, patch: CheckpointPatch): Checkpoint {
  if (patch.base !== previous.step)
    throw new Error(`a checkpoint patch for step ${patch.base} cannot apply to step ${previous.step}`);
  const { base: _base, set, unset, append, ...envelope } = patch;
  const state: State = { ...previous.state, ...set };
  for (const key of unset) delete state[key];
  for (const [key, items] of Object.entries(append)) {
    const list = state[key];
    if (!Array.isArray(list)) throw new Error(`a checkpoint patch appends to "${key}", which is not a list`);
    state[key] = [...list, ...items];
  }
  return { ...envelope, state };
}

/** Whether `list` begins with every item of `prefix`, the same objects in the same order. */
function extends_(prefix: readonly unknown[], list: readonly unknown[]): boolean {
  if (list.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== list[i]) return false;
  return true;
}
