// `bandit-runner play`: a run with model "human" — no agent, you play the levels in your own terminal.
// The harness times each level and checks each password with the login oracle; the terminal reopens at
// the next level after a proven one. Ctrl-] leaves with the run paused (`attach` goes on later).
import type { Command } from 'commander';
import { describeIssues } from '../../schema/issues.ts';
import { HUMAN_MODEL, runConfigSchema, runSummarySchema } from '../../schema/run.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom, colorsOf } from '../global-options.ts';
import { askPause } from '../pause-prompt.ts';
import { parseLevels } from '../run-plan.ts';
import { DETACH_KEY_NAME } from '../terminal/keys.ts';
import { checkTty, holdTerminal } from './attach.ts';

type PlayOptions = { target: string; levels: string; allowNoTty?: boolean };

/** Registers `play`. */
export function registerPlay(program: Command, globals: () => GlobalOptions, exit: (code: ExitCode) => void): void {
  program
    .command('play')
    .description(
      `Play levels yourself in this terminal, timed and checked like a model's run (${DETACH_KEY_NAME} leaves)`,
    )
    .option('--target <target>', 'practice (the local range) or bandit', process.env.BANDIT_RUNNER_TARGET ?? 'practice')
    .option('--levels <range>', 'levels to play, e.g. 0-5 (above 0 asks for the first level password)', '0-5')
    .option('--allow-no-tty', 'read keys from a stdin that is not a terminal (no raw mode; its end leaves)')
    .addHelpText(
      'after',
      `
Each level opens a shell logged in as its user. Find the next password and show it (cat it): each
32-character word in the output is tried with the login oracle, and when one logs in as the next user,
"level N solved in Ts" and the next level opens. ${DETACH_KEY_NAME} leaves; the run stays paused and \`attach RUN\` goes on.
The run shows on the board as model "human".

Examples:
  $ bandit-runner play
  $ bandit-runner play --levels 0-2`,
    )
    .action(async (options: PlayOptions) => exit(await play(options, globals())));
}

async function play(options: PlayOptions, g: GlobalOptions): Promise<ExitCode> {
  checkTty(options.allowNoTty);
  const [startLevel, endLevel] = parseLevels(options.levels);
  const parsed = runConfigSchema.safeParse({ model: HUMAN_MODEL, target: options.target, startLevel, endLevel });
  if (!parsed.success) throw new CliError(`the run is invalid: ${describeIssues(parsed.error)}`, EXIT.usage);
  const client = clientFrom(g);
  const run = await client.post('/api/runs', parsed.data, runSummarySchema);
  const c = colorsOf(g, process.stderr);
  process.stderr.write(c.dim(`run ${run.id} — ${client.url}/run?id=${run.id}\r\n`));
  const code = await holdTerminal(client, run.id, {
    // Starting above level 0 needs that level's password first, asked as `run` asks it.
    answerPause: async (pending) => {
      const action = await askPause(pending, c, process.stderr);
      await client.post(`/api/runs/${run.id}/actions`, action, runSummarySchema);
    },
  });
  const final = await client.get(`/api/runs/${run.id}`, runSummarySchema);
  process.stderr.write(`${final.id}: ${final.status}, ${final.levelsSolved} level(s) solved\n`);
  return code;
}
