// `bandit-runner watch RUN`: the run live — thinking as it is written, commands, outputs, levels —
// from its first event, reconnecting with `since` after a dropped socket (no gaps, no repeats).
// When the run pauses and this is a terminal, the pause can be answered here.
import { checkedRunId } from '../run-id-arg.ts';
import type { Command } from 'commander';
import { safeJson } from '../../schema/terminal-text.ts';
import { FINAL_STATUSES, runSummarySchema } from '../../schema/run.ts';
import { RunSocketClient } from '../../schema/run-socket-client.ts';
import { budgetCapOf } from '../budget-answer.ts';
import { exitForRuns } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom, colorsOf } from '../global-options.ts';
import { askPause } from '../pause-prompt.ts';
import { outcomesText } from '../render/progress.ts';
import { eventLines, safe } from '../render/event-line.ts';

type WatchOptions = { verbose?: boolean; answer: boolean; json?: boolean };

export function registerWatch(program: Command, globals: () => GlobalOptions, exit: (code: ExitCode) => void): void {
  program
    .command('watch')
    .argument('<run>', 'the run id (run_…)')
    .description('Follow a run live until it ends, or until it pauses and nobody here answers')
    .option('--verbose', 'also print model calls, graph nodes and status changes')
    .option('--no-answer', 'do not offer to answer a pause, even on a terminal')
    .option('--json', 'print each event as one line of JSON (NDJSON)')
    .addHelpText(
      'after',
      `
Examples:
  $ bandit-runner watch run_0mwttwzkcgphqalgd6x27up1o
  $ bandit-runner watch run_0mwttwzkcgphqalgd6x27up1o --json | jq -c 'select(.type=="command")'`,
    )
    .action(async (runId: string, options: WatchOptions) => exit(await watch(runId, options, globals())));
}

async function watch(runId: string, options: WatchOptions, g: GlobalOptions): Promise<ExitCode> {
  checkedRunId(runId);
  const client = clientFrom(g);
  await client.get(`/api/runs/${runId}`, runSummarySchema);
  const out = process.stdout;
  const c = colorsOf(g, out);
  const interactive = options.answer && !options.json && Boolean(process.stdin.isTTY && out.isTTY);
  let liveOpen = false;
  const follower = new RunSocketClient({
    open: (since) => client.socket(runId, since),
    onEvent: (event) => {
      if (liveOpen) out.write('\n');
      liveOpen = false;
      if (options.json) return void out.write(`${safeJson(event)}\n`);
      for (const line of eventLines(event, c, { verbose: options.verbose })) out.write(`${line}\n`);
    },
    onLive: (delta) => {
      if (options.json) return;
      if (!liveOpen) out.write(c.dim('thinking… '));
      liveOpen = true;
      out.write(c.dim(safe(delta.text)));
    },
    // On stderr, so --json's stdout stays one event per line.
    onReconnect: (wait) => process.stderr.write(c.dim(`(connection lost; reconnecting in ${wait} ms)\n`)),
  });
  follower.start();
  for (;;) {
    const view = await follower.waitFor(
      (s) => (s.run !== null && FINAL_STATUSES.includes(s.run.status)) || s.pending !== null,
    );
    if (view.pending === null || !interactive) {
      follower.close();
      // How each level ended, from the one fold (docs/outcomes.md), once the run is over.
      const levels = outcomesText(view);
      if (!options.json && view.pending === null && levels) out.write(`${c.bold('Levels')} ${levels}\n`);
      return exitForRuns([{ status: view.run!.status, atBudget: budgetCapOf(view.record) !== null }]);
    }
    const action = await askPause(view.pending, c, out);
    await client.post(`/api/runs/${runId}/actions`, action, runSummarySchema);
    await follower.waitFor((s) => s.pending === null || (s.run !== null && FINAL_STATUSES.includes(s.run.status)));
  }
}
