// Answering a paused run in the terminal: the reason, the lessons so far, then continue, a hint, the
// password (typed without echo) or stop — the same answers the web UI's dialog offers. A budget pause
// offers what the dialog does there: raise the cap that was hit (to a limit typed here) or stop.
import { input, password, select } from '@inquirer/prompts';
import { breachText, formatCapValue, raisedLimit } from '../schema/budget.ts';
import { passwordUserOf } from '../schema/pause-password.ts';
import type { PendingAction } from '../schema/protocol.ts';
import type { RunAction } from '../schema/run.ts';
import type { Colors } from './render/colors.ts';
import { limitFromText, raiseAction } from './budget-answer.ts';
import { safe } from './render/event-line.ts';

/** Asks a person at the terminal how to answer `pending`, and returns the answer to send. */
export async function askPause(pending: PendingAction, c: Colors, out: NodeJS.WriteStream): Promise<RunAction> {
  if (pending.reason === 'budget_exceeded') return askBudget(pending, c, out);
  out.write(
    `\n${c.magenta(c.bold(`The run is waiting for you at level ${pending.level}`))} (${pending.reason.replaceAll('_', ' ')})\n`,
  );
  if (pending.lastError) out.write(`  ${safe(pending.lastError)}\n`);
  for (const lesson of pending.lessons)
    out.write(c.dim(`  ${lesson.source === 'user' ? 'hint' : 'lesson'}: ${safe(lesson.text)}\n`));
  if (pending.finalAttempt)
    out.write(
      c.dim(
        `  final attempt ran: ${safe(pending.finalAttempt.commands.join(' ; ')) || '(nothing)'} — ${safe(pending.finalAttempt.outcome)}\n`,
      ),
    );
  const choice = await select({
    message: 'What now?',
    choices: [
      { name: 'Give a hint and continue', value: 'hint' },
      { name: 'Continue (retries reset)', value: 'continue' },
      { name: `Give ${passwordUserOf(pending)}'s password`, value: 'password' },
      { name: 'Stop the run', value: 'stop' },
    ],
  });
  if (choice === 'hint')
    return {
      action: 'continue',
      hint: await input({ message: 'Hint:', validate: (v) => (v.trim() ? true : 'type a hint, or choose Continue') }),
    };
  if (choice === 'continue') return { action: 'continue' };
  if (choice === 'password')
    return {
      action: 'password',
      value: await password({
        message: `Password for ${passwordUserOf(pending)}:`,
        mask: '*',
        validate: (v) => (v.trim() ? true : 'type the password'),
      }),
    };
  return { action: 'stop' };
}

/** At a budget pause: the breach sentence, then raise the cap that was hit (to a typed limit) or stop. */
async function askBudget(pending: PendingAction, c: Colors, out: NodeJS.WriteStream): Promise<RunAction> {
  const breach = pending.breach;
  out.write(`\n${c.magenta(c.bold(`The run is waiting for you at level ${pending.level}`))} (budget exceeded)\n`);
  out.write(`  ${safe(breach ? breachText(breach) : 'paused at a budget cap; raise it to go on, or stop')}\n`);
  if (!breach) return { action: 'stop' };
  const suggested = raisedLimit(breach, 2);
  const choice = await select({
    message: 'What now?',
    choices: [
      { name: 'Raise the cap and continue', value: 'raise' },
      { name: 'Stop the run', value: 'stop' },
    ],
  });
  if (choice === 'stop') return { action: 'stop' };
  const typed = await input({
    message: `New limit (now ${formatCapValue(breach.cap, breach.limit)}):`,
    default: String(suggested),
    validate: (v) => {
      const limit = limitFromText(breach, v);
      return typeof limit === 'number' ? true : limit;
    },
  });
  return raiseAction(breach.cap, limitFromText(breach, typed) as number);
}
