// Answering a paused run in the terminal: the reason, the lessons so far, then continue, a hint, the
// password (typed without echo) or stop — the same answers the web UI's dialog offers.
import { input, password, select } from '@inquirer/prompts';
import { passwordUserOf } from '../schema/pause-password.ts';
import type { PendingAction } from '../schema/protocol.ts';
import type { RunAction } from '../schema/run.ts';
import type { Colors } from './render/colors.ts';
import { safe } from './render/event-line.ts';

export async function askPause(pending: PendingAction, c: Colors, out: NodeJS.WriteStream): Promise<RunAction> {
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
