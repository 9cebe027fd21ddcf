// A command runs on the target at most once, whatever happens to the proxy running it. Before the command
// goes out, its node saves a mark (state.inFlight) in a checkpoint that has left the proxy; the node clears
// the mark when it returns. A node that finds the mark at its start is running again after an earlier call
// died (a proxy killed, a call cut) with the command possibly run: it reports the command lost, with no
// output, and does not run it again. The agent sees that and may choose to run it anew, under a new id.
import { LOST_COMMAND_NOTE } from '../../../schema/lost-command.ts';
import type { BanditState } from '../bandit-state.ts';
import type { ExecResult } from '../../ssh/ssh-session.ts';
import type { SshFailure } from '../../ssh/ssh-failure.ts';
import type { BanditContext } from './bandit-deps.ts';
import { emitOutput } from './bandit-deps.ts';

/** The output of a command an earlier call announced and never finished: sent as its output event, returned. */
export function reportLost(
  ctx: BanditContext,
  level: number,
  inFlight: NonNullable<BanditState['inFlight']>,
): ExecResult {
  const result: ExecResult = {
    ok: true,
    stdout: '',
    stderr: LOST_COMMAND_NOTE,
    exitCode: null,
    durationMs: 0,
    truncated: false,
    timedOut: false,
  };
  emitOutput(ctx, level, inFlight.commandId, result);
  return result;
}

/**
 * Announces a command (its event, then a checkpoint holding the mark and `update`), then runs it. The mark
 * stays in the engine's state until the node returns `inFlight: null`, so a node cut mid-command yields
 * with it and the next call reports the command lost.
 */
export async function runOnce(
  s: BanditState,
  ctx: BanditContext,
  commandId: string,
  command: string,
  update: Partial<BanditState>,
): Promise<ExecResult | { ok: false; failure: SshFailure }> {
  ctx.emit({ type: 'command', level: s.level, commandId, command });
  await ctx.commit?.({ ...update, inFlight: { commandId, command } });
  return ctx.shell.exec(s.level, s.password ?? '', command, ctx.signal);
}
