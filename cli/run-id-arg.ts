// A run id given on the command line, checked before the stack is asked: one message for every command.
import { runIdSchema } from '../schema/run.ts';
import { CliError, EXIT } from './exit-codes.ts';

/** The run id as given, or a usage error (exit 2) saying what a run id looks like; `name` labels which argument. */
export function checkedRunId(runId: string, name?: string): string {
  if (!runIdSchema.safeParse(runId).success)
    throw new CliError(
      `${name ? `${name}: ` : ''}"${runId}" is not a run id (run_ followed by letters and digits); list runs with \`bandit-runner list runs\``,
      EXIT.usage,
    );
  return runId;
}
