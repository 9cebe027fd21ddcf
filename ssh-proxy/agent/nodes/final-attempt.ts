// final_attempt: the level's retries are used up. Before a person is asked, one more model call (the
// knowledge model, when one is set) gets every lesson and the last commands of each attempt and answers
// with a short command sequence. The graph runs it; a password-shaped token in its output that logs in
// as the next level solves the level. Otherwise the run pauses as it would have, and the question
// says what was tried. A cap reached between its commands pauses it; continue runs the rest.
import { Command } from '../../engine/command.ts';
import type { BanditState } from '../bandit-state.ts';
import { budgetFault, budgetStopped } from '../budget-stop.ts';
import { FINAL_MAX_COMMANDS } from '../../models/agent-model.ts';
import { passwordShapedTokens, passwordShapeProblem } from '../../targets/target.ts';
import type { BanditContext } from './bandit-deps.ts';
import { emitOutput, historyOutput, planInput, reportCalls } from './bandit-deps.ts';
import { reportLost, runOnce } from './command-once.ts';
import { capSerialised } from '../../json-fit.ts';
import { STATE_TEXT_BYTES, stateText, THINKING_EVENT_BYTES } from '../state-text.ts';

/** Candidates tried by login at most; more would be guessing, not a solution. */
const MAX_CANDIDATES = 3;

export async function finalAttempt(
  s: BanditState,
  ctx: BanditContext,
): Promise<Partial<BanditState> | Command<BanditState>> {
  const result = await attempt(s, ctx);
  // Cut mid-command ({}), the mark of the command in flight stays for the next call; any other end clears it.
  if (result instanceof Command)
    return new Command({ goto: result.goto, update: { ...result.update, inFlight: null } });
  return Object.keys(result).length === 0 ? result : { ...result, inFlight: null };
}

async function attempt(s: BanditState, ctx: BanditContext): Promise<Partial<BanditState> | Command<BanditState>> {
  let serial = s.serial;
  // A final attempt a cap paused between its commands goes on with the rest: its model call was made.
  let planned = s.finalRun;
  if (!planned) {
    const live = (text: string) => ctx.live?.(s.level, 'final', text);
    const input = { ...planInput(s, ctx), attempts: s.attemptTails };
    const answer = await ctx.knowledge.finalAttempt(input, ctx.signal, live, ctx.budget);
    serial = reportCalls(s, ctx, answer.calls, ctx.knowledge);
    if (!answer.ok) {
      if (answer.failure.errorClass === 'aborted') return {};
      if (answer.failure.errorClass === 'budget')
        return budgetStopped(answer.failure.stop, 'final_attempt', { serial });
      const why = stateText(answer.failure.message, STATE_TEXT_BYTES.note);
      ctx.emit({
        type: 'error',
        code: `llm_${answer.failure.errorClass}`,
        message: `the final attempt got no answer: ${why}`,
        level: s.level,
      });
      return {
        serial,
        finalReport: { commands: [], outcome: `the final attempt got no answer from ${ctx.knowledge.id}: ${why}` },
        ...retriesSpent(s),
      };
    }
    const { thinking, commands } = answer.value;
    if (thinking)
      ctx.emit({
        type: 'thinking',
        level: s.level,
        text: capSerialised(`Final attempt: ${thinking}`, THINKING_EVENT_BYTES),
      });
    planned = { commands: commands.slice(0, FINAL_MAX_COMMANDS), outputs: [] };
  }

  const ran = planned.commands;
  const outputs = [...planned.outputs];
  let levelCommands = s.levelCommands;
  // The command an earlier call sent and never finished: lost, not run again (command-once.ts).
  if (s.inFlight) outputs.push(historyOutput(reportLost(ctx, s.level, s.inFlight), '\n'));
  for (const command of ran.slice(outputs.length)) {
    const stop = ctx.budget.admitCommand();
    if (stop)
      return { serial, levelCommands, finalRun: { commands: ran, outputs }, ...budgetFault(stop, 'final_attempt') };
    serial += 1;
    levelCommands += 1;
    const commandId = `cmd_${serial}`;
    // Saved with the plan and the outputs so far, so a later call neither asks the model again nor reruns one.
    const finalRun = { commands: ran, outputs: [...outputs] };
    const result = await runOnce(s, ctx, commandId, command, { serial, levelCommands, finalRun });
    if (!result.ok) {
      if (result.failure.kind === 'aborted') return {};
      outputs.push(`[${result.failure.message}]`);
      ctx.emit({ type: 'error', code: `ssh_${result.failure.kind}`, message: result.failure.message, level: s.level });
      continue;
    }
    emitOutput(ctx, s.level, commandId, result);
    outputs.push(historyOutput(result, '\n'));
  }

  const refused = new Set([...s.tried, s.password ?? '']);
  const candidates = [...new Set(outputs.flatMap(passwordShapedTokens))].filter(
    (t) => !refused.has(t) && !passwordShapeProblem(t, s.level + 1),
  );
  const tried: string[] = [];
  for (const candidate of candidates.slice(0, MAX_CANDIDATES)) {
    const login = await ctx.shell.login(s.level + 1, candidate, ctx.signal);
    if (!login.ok && login.failure.kind === 'aborted') return {};
    if (login.ok) {
      ctx.emit({ type: 'password_found', level: s.level, password: candidate });
      const outcome = `solved: ${ctx.target.username(s.level + 1)} accepted a password its output showed`;
      return {
        serial,
        levelCommands,
        found: candidate,
        solvedBy: 'final_attempt',
        fault: null,
        lastError: null,
        finalReport: { commands: ran, outcome },
        finalRun: null,
      };
    }
    tried.push(candidate);
  }
  const outcome =
    ran.length === 0
      ? `${ctx.knowledge.id} proposed no commands`
      : candidates.length === 0
        ? `its ${ran.length} command(s) printed nothing shaped like a password`
        : `${tried.length} candidate(s) from its output did not log in as ${ctx.target.username(s.level + 1)}`;
  const finalReport = { commands: ran, outcome };
  return { serial, levelCommands, tried: [...s.tried, ...tried], finalReport, finalRun: null, ...retriesSpent(s) };
}

/** The run pauses for its spent retries; a continue after a budget pause cleared reflect's fault, so it is said again. */
function retriesSpent(s: BanditState): Partial<BanditState> {
  if (s.fault) return {};
  const message = `no password after ${s.retryCount} attempts at level ${s.level}`;
  return { fault: { reason: 'max_retries', message, resumeAt: 'connect' }, lastError: message };
}
