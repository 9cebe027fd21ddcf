// execute: run the planned command over SSH and record what it printed. The third identical
// command in one attempt is a loop: it is not run, and the attempt ends. A command that would cross a cap
// is not run either: the run pauses here with its decision kept, and continue runs it. A command runs at
// most once even if the proxy dies while it runs (command-once.ts).
import { isLostOutput } from '../../../schema/lost-command.ts';
import type { BanditState, Decision } from '../bandit-state.ts';
import { budgetFault } from '../budget-stop.ts';
import type { ExecResult } from '../../ssh/ssh-session.ts';
import type { BanditContext } from './bandit-deps.ts';
import { emitOutput, historyOutput } from './bandit-deps.ts';
import { reportLost, runOnce } from './command-once.ts';

/** How many times one command may run in an attempt before it counts as a loop. */
export const LOOP_REPEATS = 2;

export async function execute(s: BanditState, ctx: BanditContext): Promise<Partial<BanditState>> {
  const decision = s.decision;
  if (decision?.kind !== 'run_command') throw new Error('execute needs a run_command decision');
  const command = decision.command.trim();
  // An earlier call sent this command and died before its output came back: reported lost, not run again.
  if (s.inFlight) return ran(s, ctx, s.inFlight.command, reportLost(ctx, s.level, s.inFlight), s.serial);
  // A command lost with a proxy never answered, so running it again is no loop.
  const repeats = s.history.filter(
    (t) => t.kind === 'command' && t.command === command && !isLostOutput(t.output),
  ).length;
  if (repeats >= LOOP_REPEATS) return { failure: 'loop_detected' };
  const stop = ctx.budget.admitCommand();
  if (stop) return budgetFault(stop, 'execute');

  const serial = s.serial + 1;
  const commandId = `cmd_${serial}`;
  const result = await runOnce(s, ctx, commandId, command, { serial });
  if (!result.ok) {
    // Cut while the command ran: the mark stays, and the next call says it was lost.
    if (result.failure.kind === 'aborted') return {};
    const message = `${result.failure.message}; continue tries again`;
    ctx.emit({ type: 'error', code: `ssh_${result.failure.kind}`, message, level: s.level });
    return {
      serial,
      decision: null,
      inFlight: null,
      fault: { reason: 'ssh_error', message, resumeAt: 'plan' },
      lastError: message,
    };
  }
  emitOutput(ctx, s.level, commandId, result);
  return ran(s, ctx, command, result, serial);
}

/** The state after the decided command's output (or its loss) is known. */
function ran(
  s: BanditState,
  ctx: BanditContext,
  command: string,
  result: ExecResult,
  serial: number,
): Partial<BanditState> {
  const decision = s.decision as Extract<Decision, { kind: 'run_command' }>;
  const spent = s.spent + 1;
  return {
    serial,
    spent,
    levelCommands: s.levelCommands + 1,
    history: [
      ...s.history,
      {
        kind: 'command',
        callId: decision.callId,
        thinking: decision.thinking,
        command,
        output: historyOutput(result),
        exitCode: result.exitCode,
      },
    ],
    decision: null,
    inFlight: null,
    failure: spent >= ctx.config.budget ? 'budget_spent' : null,
  };
}
