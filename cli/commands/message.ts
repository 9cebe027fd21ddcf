// `bandit-runner message RUN "text"`: tells a running agent something without pausing it (issue 30).
// The agent reads it at its next model turn; `watch` shows when it was sent and when it was read.
import { checkedRunId } from '../run-id-arg.ts';
import type { Command } from 'commander';
import { hintSchema, runSummarySchema } from '../../schema/run.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom } from '../global-options.ts';
import { safe } from '../render/event-line.ts';

/** Registers `message RUN TEXT`. */
export function registerMessage(program: Command, globals: () => GlobalOptions, exit: (code: ExitCode) => void): void {
  program
    .command('message')
    .argument('<run>', 'the run id (run_…)')
    .argument('<text>', 'what to tell the agent (1-2000 characters); a command in `backticks` is one to try')
    .description('Message a running agent: it reads the text at its next model turn, without pausing')
    .addHelpText(
      'after',
      `
Examples:
  $ bandit-runner message run_0mwttwzkcgphqalgd6x27up1o "the password is in a file of 1033 bytes"
  $ bandit-runner message run_0mwttwzkcgphqalgd6x27up1o 'try \`find . -size 1033c\`'`,
    )
    .action(async (runId: string, text: string) => exit(await message(runId, text, globals())));
}

async function message(runId: string, text: string, g: GlobalOptions): Promise<ExitCode> {
  checkedRunId(runId);
  const checked = hintSchema.safeParse(text);
  if (!checked.success)
    throw new CliError(`the message ${checked.error.issues[0]?.message ?? 'is not valid'}`, EXIT.usage);
  const run = await clientFrom(g).post(
    `/api/runs/${runId}/actions`,
    { action: 'message', text: checked.data },
    runSummarySchema,
  );
  process.stdout.write(
    `message sent to ${safe(run.id)} (${safe(run.status)}); the agent reads it at its next model turn\n`,
  );
  return EXIT.completed;
}
