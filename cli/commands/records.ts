// The commands that read what the stack holds: `export` (the artifacts zip), `verify` (replay a run
// without its model), `board`, `analytics` and `doctor` (each component's health, with its fix).
import { checkedRunId } from '../run-id-arg.ts';
import type { Command } from 'commander';
import { safeJson } from '../../schema/terminal-text.ts';
import { analyticsModelsSchema, analyticsSummarySchema } from '../../schema/analytics.ts';
import { healthSchema } from '../../schema/api.ts';
import { boardSchema } from '../../schema/board.ts';
import type { Board } from '../../schema/board.ts';
import type { Rate } from '../../schema/board-stats.ts';
import { rateText } from '../../schema/board-stats.ts';
import { runSummarySchema } from '../../schema/run.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom, colorsOf } from '../global-options.ts';
import { safe } from '../render/event-line.ts';
import { saveInside } from '../save-inside.ts';

type Exit = (code: ExitCode) => void;

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
        `/api/runs/${checkedRunId(runId)}/artifacts${options.includeSecrets ? '?secrets=include' : ''}`,
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
      const run = await clientFrom(globals()).post(`/api/runs/${checkedRunId(runId)}/verify`, {}, runSummarySchema);
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
  const rate = (r: Rate | null | undefined) => (r ? `${rateText(r)} 95 % CI` : '-');
  const lines = board.models.map((m, i) =>
    `${String(i + 1).padStart(2)}. ${m.model.padEnd(24)} ${m.levelSet} ${m.world} world  ${m.runs} runs  ${m.levelsSolvedPerRun.mean.toFixed(2)} ± ${m.levelsSolvedPerRun.stderr.toFixed(2)} solved/run  alone ${rate(m.aloneRate)}  highest L${m.highestLevel ?? '-'}  $${m.costUsd.toFixed(4)}  median/solve ${m.medianSolveMs === null ? '-' : `${(m.medianSolveMs / 1000).toFixed(1)} s`} ${m.medianSolveCostUsd === null ? '' : `$${m.medianSolveCostUsd.toFixed(4)}`}`.trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const csvField = (value: string | number | null | undefined): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The board as CSV: one line per row (model on a level set in one world), then one per cell, the `kind` column telling them apart. */
function boardCsv(board: Board): string {
  const head = [
    'kind',
    'model',
    'target',
    'level_set',
    'world',
    'level',
    'runs',
    'levels_solved',
    'levels_solved_alone',
    'helped',
    'not_solved',
    'alone_rate',
    'alone_rate_low95',
    'alone_rate_high95',
    'solved_rate',
    'solved_rate_low95',
    'solved_rate_high95',
    'pass_at_1',
    'pass_at_3',
    'pass_at_5',
    'median_solve_ms',
    'median_solve_cost_usd',
    'highest_level',
    'commands',
    'prompt_tokens',
    'completion_tokens',
    'cost_usd',
    'cost_per_level_solved',
    'wall_time_ms',
    'solved_per_run_mean',
    'solved_per_run_stderr',
  ];
  const interval = (r: Rate | null | undefined) => [r?.rate, r?.low, r?.high];
  const models = board.models.map((m) => [
    'model',
    m.model,
    m.target,
    m.levelSet,
    m.world,
    '',
    m.runs,
    m.levelsSolved,
    m.levelsSolvedAlone,
    '',
    '',
    ...interval(m.aloneRate),
    ...interval(m.solvedRate),
    '',
    '',
    '',
    m.medianSolveMs,
    m.medianSolveCostUsd,
    m.highestLevel,
    m.commands,
    m.tokens.prompt,
    m.tokens.completion,
    m.costUsd,
    m.costPerLevelSolved,
    m.wallTimeMs,
    m.levelsSolvedPerRun.mean,
    m.levelsSolvedPerRun.stderr,
  ]);
  const passAt = (c: Board['cells'][number], k: number) => c.passAt?.find((p) => p.k === k)?.value;
  const cells = board.cells.map((c) => [
    'cell',
    c.model,
    c.target,
    c.levelSet,
    c.world,
    c.level,
    c.runs,
    c.runs - c.notSolved,
    c.alone,
    c.helped,
    c.notSolved,
    ...interval(c.aloneRate),
    ...interval(c.solvedRate),
    passAt(c, 1),
    passAt(c, 3),
    passAt(c, 5),
    c.medianSolveMs,
    c.medianSolveCostUsd,
    ...Array(9).fill(''),
  ]);
  return `${[head, ...models, ...cells].map((row) => row.map(csvField).join(',')).join('\n')}\n`;
}
