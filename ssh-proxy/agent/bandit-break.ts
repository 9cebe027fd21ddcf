// A break into a running call, for the Bandit graph: "yield" ends the call at the next node boundary
// (the worker comes straight back with a person's message); "takeover" sends the graph to `pause`
// with a takeover fault whose continue runs the node that was about to run, so nothing is lost or repeated.
import type { BreakKind } from '../../schema/protocol.ts';
import { Command } from '../engine/command.ts';
import type { BreakDecision } from '../engine/compiled-graph.ts';
import type { BanditState, ResumeAt } from './bandit-state.ts';
import { resumeAtSchema } from './bandit-state.ts';

/** The fault's text when a person takes the terminal. */
export const TAKEOVER_MESSAGE = 'a person took the terminal';

/** What the graph does at a boundary before `next`, when `kind` was asked (null: go on). */
export function banditBreak(kind: BreakKind | null, next: string): BreakDecision<BanditState> | null {
  if (kind === null) return null;
  if (kind === 'yield') return 'yield';
  // A pause already on its way keeps its own reason (and its own continue); the run stays paused.
  const resumeAt = resumeAtSchema.safeParse(next);
  if (!resumeAt.success) return null;
  return takeoverPause(resumeAt.data);
}

function takeoverPause(resumeAt: ResumeAt): Command<BanditState> {
  return new Command<BanditState>({
    update: { fault: { reason: 'takeover', message: TAKEOVER_MESSAGE, resumeAt } },
    goto: 'pause',
  });
}
