#!/usr/bin/env node
// bandit-runner's command line: list what can run, run one or many (a batch) with live progress,
// watch a run, answer its pause in the terminal, take its terminal (attach) or play levels yourself,
// export, verify, and read the board. It talks to a running stack over REST and WebSocket only
// (--url, --token). Exit codes: cli/exit-codes.ts.
import { Command, CommanderError } from 'commander';
import { registerAttach } from './commands/attach.ts';
import { registerCompare } from './commands/compare.ts';
import { registerList } from './commands/list.ts';
import { registerMessage } from './commands/message.ts';
import { registerPlay } from './commands/play.ts';
import { registerRecords } from './commands/records.ts';
import { registerRun } from './commands/run.ts';
import { registerShare } from './commands/share.ts';
import { registerWatch } from './commands/watch.ts';
import { CliError, EXIT } from './exit-codes.ts';
import type { ExitCode } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { urlFromEnv } from './global-options.ts';
import { safe } from './render/event-line.ts';

const envUrl = urlFromEnv(process.env);
const program = new Command('bandit-runner')
  .description('Watch LLM agents play SSH wargames: run, watch, answer, export, compare.')
  .option(
    '--url <url>',
    'the stack (worker) to talk to; env BANDIT_RUNNER_URL, else http://127.0.0.1:$WORKER_PORT',
    envUrl.ok ? envUrl.url : '',
  )
  .option(
    '--token <token>',
    'the API token (API_TOKEN) or a role token (POST /api/tokens); env BANDIT_RUNNER_TOKEN',
    process.env.BANDIT_RUNNER_TOKEN,
  )
  .option('--no-color', 'no colour (also: NO_COLOR, or output that is not a terminal)')
  .exitOverride()
  .hook('preAction', () => {
    // A malformed BANDIT_RUNNER_URL or WORKER_PORT matters only when --url does not replace it.
    if (!program.opts<GlobalOptions>().url && !envUrl.ok) throw new CliError(envUrl.message, EXIT.usage);
  })
  .addHelpText(
    'after',
    `
Exit codes: 0 completed, 1 failed, 2 bad usage, 3 paused (nobody answered), 4 stopped, 5 stack unreachable,
6 terminal held by another client, 7 terminal closed by the stack, 8 stopped at a budget cap.

Examples:
  $ bandit-runner list models
  $ bandit-runner run --levels 0-15 --model baseline --max-retries 1
  $ bandit-runner run --model quick/mini,ponder/deep --repeats 3 --parallel 3 --on-pause stop
  $ bandit-runner run --model quick/mini --max-cost 2 --max-time 15m --on-budget raise=2
  $ bandit-runner watch run_0mwttwzkcgphqalgd6x27up1o
  $ bandit-runner message run_0mwttwzkcgphqalgd6x27up1o "look for a file of 1033 bytes"
  $ bandit-runner attach run_0mwttwzkcgphqalgd6x27up1o
  $ bandit-runner play --levels 0-2
  $ bandit-runner export run_0mwttwzkcgphqalgd6x27up1o --out artifacts/
  $ bandit-runner compare run_0mwttwzkcgphqalgd6x27up1o run_0mwtu0b3k2e9xq4hd7s1pl6ma
  $ bandit-runner share run_0mwttwzkcgphqalgd6x27up1o --expires 1d`,
  );

let code: ExitCode = EXIT.completed;
const globals = () => program.opts<GlobalOptions>();
const setExit = (c: ExitCode) => {
  code = c;
};
registerList(program, globals, setExit);
registerRun(program, globals, setExit);
registerWatch(program, globals, setExit);
registerRecords(program, globals, setExit);
registerCompare(program, globals, setExit);
registerMessage(program, globals, setExit);
registerAttach(program, globals, setExit);
registerPlay(program, globals, setExit);
registerShare(program, globals, setExit);
// Every error is one line naming the flag or value (commander's own wording); --help shows usage.
for (const command of program.commands) command.exitOverride();

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version end here too, with code 0.
    code = err.exitCode === 0 ? EXIT.completed : EXIT.usage;
  } else if (err instanceof CliError) {
    process.stderr.write(`bandit-runner: ${safe(err.message)}\n`);
    code = err.exitCode;
  } else if (err instanceof Error && err.name === 'ExitPromptError') {
    // Ctrl-C at a prompt: the run goes on on the server; this client stops watching.
    code = EXIT.paused;
  } else {
    process.stderr.write(`bandit-runner: ${safe(err instanceof Error ? err.message : String(err))}\n`);
    code = EXIT.failed;
  }
}
// Output to a pipe is written asynchronously: exit only once it has all gone out.
await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
process.exit(code);
