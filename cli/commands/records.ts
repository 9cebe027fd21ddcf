// The commands that read what the stack holds: `export` (the artifacts zip), `verify` (replay a run
// without its model), `board`, `analytics` and `doctor` (each component's health, with its fix).
import type { Command } from 'commander';
import { safeJson } from '../../schema/terminal-text.ts';
import { analyticsModelsSchema, analyticsSummarySchema } from '../../schema/analytics.ts';
import { healthSchema } from '../../schema/api.ts';
import { boardSchema } from '../../schema/board.ts';
import type { Board } from '../../schema/board.ts';
import { runIdSchema, runSummarySchema } from '../../schema/run.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom, colorsOf } from '../global-options.ts';
import { safe } from '../render/event-line.ts';
import { saveInside } from '../save-inside.ts';

type Exit = (code: ExitCode) => void;

function checkedRun(runId: string): string {
  if (!runIdSchema.safeParse(runId).success)
    throw new CliError(`"${runId}" is not a run id (run_ followed by letters and digits)`, EXIT.usage);
  return runId;
}

export function registerRecords(program: Command, globals: () => GlobalOptions, exit: Exit): void {
  program
    .command('export')
    .argument('<run>', 'the run id')
    .description("Save the run's artifacts (transcript, model calls, terminal.cast, replay scripts) as a zip")
    .option('--out <dir>', 'directory to write the zip into', '.')
    .option('--include-secrets', 'keep the passwords and keys in (redacted by default)')
    .addHelpText('after', '\nExample:\n  $ bandit-runner export run_0mwttwzkcgphqalgd6x27up1o --out artifacts/')
    .action(async (runId: string, options: { out: string; includeSecrets?: boolean }) => {
      const bytes = await clientFrom(globals()).download(
        `/api/runs/${checkedRun(runId)}/artifacts${options.includeSecrets ? '?secrets=include' : ''}`,
      );
      // The name is the validated run id and a fixed suffix; whatever name the server sent is ignored.
      const path = saveInside(options.out, `${runId}${options.includeSecrets ? '-with-secrets' : ''}.zip`, bytes);
      process.stdout.write(`${safe(path)}\n`);
      exit(EXIT.completed);
    });

  program
    .command('verify')
    .argument('<run>', 'the run id')
    .description("Start a verification run: the run's solving commands again, with no model")
    .option('--json', 'print the verification run as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  $ bandit-runner verify run_0mwttwzkcgphqalgd6x27up1o && bandit-runner watch <the id it prints>',
    )
    .action(async (runId: string, options: { json?: boolean }) => {
      const run = await clientFrom(globals()).post(`/api/runs/${checkedRun(runId)}/verify`, {}, runSummarySchema);
      process.stdout.write(
        options.json
          ? `${safeJson(run)}\n`
          : `verification run ${run.id} started; follow it with: bandit-runner watch ${run.id}\n`,
      );
      exit(EXIT.completed);
    });

  program
    .command('board')
    .description('Models head to head: levels solved alone, after help, not solved; cost and spread')
    .option('--batch <id>', 'only this batch')
    .option('--target <target>', 'only this target')
    .option('--json', 'print the board as JSON')
    .option('--csv', 'print one row per model as CSV')
    .addHelpText(
      'after',
      '\nExamples:\n  $ bandit-runner board\n  $ bandit-runner board --batch batch_0mwttwzkcgphqalgd6x27 --csv > board.csv',
    )
    .action(async (options: { batch?: string; target?: string; json?: boolean; csv?: boolean }) => {
      const query = new URLSearchParams({
        ...(options.batch ? { batch: options.batch } : {}),
        ...(options.target ? { target: options.target } : {}),
      });
      const board = await clientFrom(globals()).get(`/api/board${query.size ? `?${query}` : ''}`, boardSchema);
      process.stdout.write(
        options.json ? `${safeJson(board, 2)}\n` : safe(options.csv ? boardCsv(board) : boardText(board)),
      );
      exit(EXIT.completed);
    });

  program
    .command('analytics')
    .description('What the runs cost, solved and failed, per model')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExample:\n  $ bandit-runner analytics --json | jq .summary.costUsd')
    .action(async (options: { json?: boolean }) => {
      const client = clientFrom(globals());
      const [summary, models] = await Promise.all([
        client.get('/api/analytics/summary', analyticsSummarySchema),
        client.get('/api/analytics/models', analyticsModelsSchema),
      ]);
      if (options.json) process.stdout.write(`${safeJson({ summary, models: models.models }, 2)}\n`);
      else {
        process.stdout.write(
          `${summary.runs.total} runs, ${summary.levels.solved} levels solved of ${summary.levels.attempted} attempted, $${summary.costUsd.toFixed(4)}, ${summary.modelCalls.count} model calls (${summary.modelCalls.errors} failed)\n`,
        );
        for (const m of models.models)
          process.stdout.write(
            `  ${safe(m.model).padEnd(24)} ${m.runs} runs  ${m.levelsSolved} solved (${m.solvedAlone} alone)  $${m.costUsd.toFixed(4)}\n`,
          );
      }
      exit(EXIT.completed);
    });

  program
    .command('doctor')
    .description("Check the stack's health: each component, and the fix for each problem")
    .option('--json', 'print the health report as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  $ bandit-runner doctor --url https://bandit-runner.example.workers.dev --token "$API_TOKEN"',
    )
    .action(async (options: { json?: boolean }) => {
      const g = globals();
      const c = colorsOf(g, process.stdout);
      const client = clientFrom(g);
      const response = await fetch(`${client.url}/api/health`, {
        headers: g.token ? { authorization: `Bearer ${g.token}` } : {},
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      if (!response)
        throw new CliError(
          `the stack at ${client.url} did not answer; start it with \`npm start\`, or pass --url where it runs`,
          EXIT.unreachable,
        );
      const health = healthSchema.parse(await response.json());
      if (options.json) process.stdout.write(`${safeJson(health, 2)}\n`);
      else {
        for (const [name, component] of Object.entries(health.components)) {
          const ok = (component as { ok: boolean }).ok;
          const reason = (component as { reason?: string }).reason ?? '';
          process.stdout.write(`${ok ? c.green('ok  ') : c.red('DOWN')} ${safe(name).padEnd(15)} ${safe(reason)}\n`);
        }
        process.stdout.write(
          health.ok
            ? c.green('everything answers\n')
            : c.red('a component is down; its line above says what to fix (docs/troubleshooting.md has more)\n'),
        );
      }
      exit(health.ok ? EXIT.completed : EXIT.unreachable);
    });
}

function boardText(board: Board): string {
  if (board.models.length === 0) return 'no runs yet\n';
  const lines = board.models.map(
    (m, i) =>
      `${String(i + 1).padStart(2)}. ${m.model.padEnd(24)} ${m.runs} runs  ${m.levelsSolvedPerRun.mean.toFixed(2)} ± ${m.levelsSolvedPerRun.stderr.toFixed(2)} solved/run  ${m.levelsSolvedAlone} alone  highest L${m.highestLevel ?? '-'}  $${m.costUsd.toFixed(4)}`,
  );
  return `${lines.join('\n')}\n`;
}

function boardCsv(board: Board): string {
  const head =
    'model,runs,levels_solved,levels_solved_alone,highest_level,commands,prompt_tokens,completion_tokens,cost_usd,cost_per_level_solved,wall_time_ms,solved_per_run_mean,solved_per_run_stderr';
  const rows = board.models.map((m) =>
    [
      m.model,
      m.runs,
      m.levelsSolved,
      m.levelsSolvedAlone,
      m.highestLevel ?? '',
      m.commands,
      m.tokens.prompt,
      m.tokens.completion,
      m.costUsd,
      m.costPerLevelSolved ?? '',
      m.wallTimeMs,
      m.levelsSolvedPerRun.mean,
      m.levelsSolvedPerRun.stderr,
    ].join(','),
  );
  return `${[head, ...rows].join('\n')}\n`;
}
