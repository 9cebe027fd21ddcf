// The last guard on the agent's state: a checkpoint that would not fit the line it travels in is
// cut (its largest strings, head and tail kept) and the run pauses with state_too_large, naming
// what was cut, so the run pauses with its own cause instead of being refused downstream forever.
import type { PendingAction, Resume } from '../../schema/protocol.ts';
import { MAX_PROXY_LINE_BYTES } from '../../schema/protocol.ts';
import type { CheckpointFit } from '../engine/compiled-graph.ts';
import type { GraphCheckpoint } from '../engine/types.ts';
import { END } from '../engine/types.ts';
import type { CutField } from '../json-fit.ts';
import { fitJson, jsonBytes } from '../json-fit.ts';
import type { BanditState, Fault } from './bandit-state.ts';
import type { BanditDeps } from './nodes/bandit-deps.ts';

/** The most serialised bytes a checkpoint may take: the line limit, less room for the line around it. */
export const MAX_CHECKPOINT_BYTES = MAX_PROXY_LINE_BYTES - 8 * 1024;

/** Room kept for the fault and error this guard adds to a state it cut. */
const NOTE_ROOM = 4 * 1024;

/** Where `continue` goes after a state_too_large pause, from the node the run was about to run. */
function resumeAfter(next: string, fault: Fault | null): Fault['resumeAt'] {
  if (next === 'pause' && fault) return fault.resumeAt;
  if (next === 'connect' || next === 'plan' || next === 'reflect' || next === 'advance' || next === 'final_attempt')
    return next;
  // execute and validate act on a decision the pause drops: plan makes a new one.
  return 'plan';
}

/** What a person reads: each field cut, its size and what is left of it. */
export function stateTooLargeMessage(cuts: readonly CutField[], bytes: number): string {
  const named = cuts
    .slice(0, 3)
    .map((c) => `${c.path} (${c.bytes.toLocaleString('en-US')} bytes, cut to ${c.kept.toLocaleString('en-US')})`);
  const more = cuts.length > 3 ? ` and ${cuts.length - 3} more` : '';
  const limit = MAX_CHECKPOINT_BYTES.toLocaleString('en-US');
  const what = named.length ? `${named.join(', ')}${more}` : 'no single text was large enough to cut';
  return `the run's state grew to ${bytes.toLocaleString('en-US')} bytes, over the ${limit}-byte checkpoint limit: ${what}; continue goes on with the cut text`;
}

/** The Bandit graph's CheckpointFit: a checkpoint that fits is kept as it is (the common case, measured once per new part). */
export const fitBanditCheckpoint: CheckpointFit<BanditState, BanditDeps, Resume, PendingAction> = (checkpoint, ctx) =>
  fitCheckpoint(checkpoint, ctx, MAX_CHECKPOINT_BYTES);

/** fitBanditCheckpoint with its limit given, for tests. */
export function fitCheckpoint(
  checkpoint: GraphCheckpoint<BanditState, PendingAction>,
  ctx: Pick<BanditDeps, 'emit'>,
  maxBytes: number,
): GraphCheckpoint<BanditState, PendingAction> {
  const bytes = jsonBytes(checkpoint);
  if (bytes <= maxBytes) return checkpoint;
  const { state: original, interrupt: originalInterrupt, ...envelope } = checkpoint;
  // Cut to half the limit, not just under it: the run goes on for many steps before it could come back.
  const room = Math.floor(maxBytes / 2) - jsonBytes(envelope) - NOTE_ROOM;
  const { value, cuts } = fitJson({ state: original, interrupt: originalInterrupt }, room);
  const message = stateTooLargeMessage(cuts, bytes);
  ctx.emit({ type: 'error', code: 'state_too_large', message, level: original.level });
  const resumeAt = resumeAfter(checkpoint.next, original.fault);
  const state: BanditState = {
    ...value.state,
    fault: { reason: 'state_too_large', message, resumeAt },
    lastError: message,
  };
  if (originalInterrupt !== undefined) {
    // Already pausing: the question stays, with this as its reason.
    // fitJson keeps the shape of what it cuts, so the question is still there.
    const interrupt: PendingAction = {
      ...(value.interrupt as PendingAction),
      reason: 'state_too_large',
      lastError: message,
    };
    return { ...envelope, state, interrupt };
  }
  // A run that just ended keeps its end; the error event says what was cut.
  if (checkpoint.next === END) return { ...envelope, state: { ...value.state, lastError: message } };
  return { ...envelope, state, next: 'pause' };
}
