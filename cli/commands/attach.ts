// `bandit-runner attach RUN`: take a run's terminal into your own (raw mode): the agent pauses after
// its current step, you drive the level's shell (`more`, `vi` work), and Ctrl-] hands it back. Also
// the end of `play`: both share `holdTerminal`, which turns how the session ended into an exit code.
import { checkedRunId } from '../run-id-arg.ts';
import type { Command } from 'commander';
import { FINAL_STATUSES, runSummarySchema } from '../../schema/run.ts';
import type { ApiClient } from '../api-client.ts';
import { CliError, EXIT, exitForStatuses } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom } from '../global-options.ts';
import { safe } from '../render/event-line.ts';
import { DETACH_KEY_NAME } from '../terminal/keys.ts';
import { RawTerminal } from '../terminal/raw-terminal.ts';
import type { TerminalSessionOptions } from '../terminal/terminal-session.ts';
import { TerminalSession } from '../terminal/terminal-session.ts';

type AttachOptions = { allowNoTty?: boolean };

/** Why a terminal closed, as the person reads it. */
const CLOSED_BECAUSE: Record<string, string> = {
  idle: 'nobody typed for a while (the idle limit)',
  restart: 'the stack restarted; the run stays paused',
  stopped: 'the run was stopped',
  closed: 'the shell or its SSH login ended',
  handback: 'it was handed back',
  solved: 'the level was solved',
};

/** Registers `attach RUN`. */
export function registerAttach(program: Command, globals: () => GlobalOptions, exit: (code: ExitCode) => void): void {
  program
    .command('attach')
    .argument('<run>', 'the run id (run_…)')
    .description(`Take a run's terminal in this one (the agent pauses); ${DETACH_KEY_NAME} hands it back`)
    .option('--allow-no-tty', 'read keys from a stdin that is not a terminal (no raw mode; its end hands back)')
    .addHelpText(
      'after',
      `
Keys go to the run's shell as you type them (Ctrl-C too); ${DETACH_KEY_NAME} hands the terminal back and
the agent goes on, with a note of what you did. Exit codes: 0 handed back, 6 held by another client,
7 closed by the stack (idle, restart, stop, or the shell ended).

Examples:
  $ bandit-runner attach run_0mwttwzkcgphqalgd6x27up1o`,
    )
    .action(async (runId: string, options: AttachOptions) => exit(await attach(runId, options, globals())));
}

/** Refuses a stdin or stdout that is not a terminal unless the person asked for that. */
export function checkTty(allowNoTty: boolean | undefined): void {
  if (allowNoTty || (process.stdin.isTTY && process.stdout.isTTY)) return;
  throw new CliError(
    'attach needs a terminal: stdin and stdout must be a tty (run it in a terminal, or pass --allow-no-tty)',
    EXIT.usage,
  );
}

async function attach(runId: string, options: AttachOptions, g: GlobalOptions): Promise<ExitCode> {
  checkedRunId(runId);
  checkTty(options.allowNoTty);
  const client = clientFrom(g);
  const run = await client.get(`/api/runs/${runId}`, runSummarySchema);
  if (FINAL_STATUSES.includes(run.status))
    throw new CliError(`${runId} has already ${run.status}: there is no terminal to take`, EXIT.failed);
  return holdTerminal(client, runId, {});
}

/** Holds the run's terminal until the session ends; prints why on stderr and returns the exit code. */
export async function holdTerminal(
  client: ApiClient,
  runId: string,
  extra: Pick<TerminalSessionOptions, 'answerPause'>,
): Promise<ExitCode> {
  const out = process.stdout;
  // After the shell's bytes a notice starts on a line of its own; CR LF, as raw mode may not add the CR.
  let midLine = false;
  const notice = (line: string) => {
    process.stderr.write(`${midLine ? '\r\n' : ''}[bandit-runner] ${safe(line)}\r\n`);
    midLine = false;
  };
  const output = {
    write: (bytes: Uint8Array) => {
      midLine = bytes.length > 0;
      return out.write(bytes);
    },
    get columns() {
      return out.columns;
    },
    get rows() {
      return out.rows;
    },
  };
  const session = new TerminalSession({
    runId,
    open: (since) => client.socket(runId, since),
    terminal: new RawTerminal({ input: process.stdin, output: out }),
    output,
    notice,
    ...extra,
  });
  notice(`${DETACH_KEY_NAME} hands the terminal back and leaves`);
  const end = await session.run();
  switch (end.kind) {
    case 'detached':
      notice('handed back; the terminal is closed');
      return EXIT.completed;
    case 'held':
      throw new CliError(`the terminal is held by ${end.by}; wait until they hand it back`, EXIT.held);
    case 'refused':
      throw new CliError(`the stack refused the terminal: ${end.message}`, EXIT.failed);
    case 'run_ended':
      notice(`the run ${end.status}`);
      return exitForStatuses([end.status]);
    case 'closed': {
      const why = end.reason ? (CLOSED_BECAUSE[end.reason] ?? end.reason) : 'the stack closed it';
      notice(`the terminal closed: ${why}${end.message ? ` (${end.message})` : ''}`);
      return EXIT.terminalClosed;
    }
  }
}
