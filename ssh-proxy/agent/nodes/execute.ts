// execute: run the planned command over SSH and record what it printed. The third identical
// command in one attempt is a loop: it is not run, and the attempt ends. A command that would cross a cap
// is not run either: the run pauses here with its decision kept, and continue runs it.
import type { BanditState } from '../bandit-state.ts';
import { budgetFault } from '../budget-stop.ts';
import type { BanditContext } from './bandit-deps.ts';
import { emitOutput, historyOutput } from './bandit-deps.ts';

/** How many times one command may run in an attempt before it counts as a loop. */
export const LOOP_REPEATS = 2;

export async function execute(s: BanditState, ctx: BanditContext): Promise<Partial<BanditState>> {
  const decision = s.decision;
  if (decision?.kind !== 'run_command') throw new Error('execute needs a run_command decision');
  const command = decision.command.trim();
  const repeats = s.history.filter((t) => t.kind === 'command' && t.command === command).length;
  if (repeats >= LOOP_REPEATS) return { failure: 'loop_detected' };
  const stop = ctx.budget.admitCommand();
  if (stop) return budgetFault(stop, 'execute');

  const serial = s.serial + 1;
  const commandId = `cmd_${serial}`;
  ctx.emit({ type: 'command', level: s.level, commandId, command });
  const result = await ctx.shell.exec(s.level, s.password ?? '', command, ctx.signal);
  if (!result.ok) {
    if (result.failure.kind === 'aborted') return {};
    const message = `${result.failure.message}; continue tries again`;
    ctx.emit({ type: 'error', code: `ssh_${result.failure.kind}`, message, level: s.level });
    return { serial, decision: null, fault: { reason: 'ssh_error', message, resumeAt: 'plan' }, lastError: message };
  }
  emitOutput(ctx, s.level, commandId, result);
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
    failure: spent >= ctx.config.budget ? 'budget_spent' : null,
  };
}
