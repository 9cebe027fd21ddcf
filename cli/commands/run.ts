// `bandit-runner run`: start one run, or a batch when several models or repeats are asked for, show
// each run's progress live, answer a pause in the terminal (or stop or wait, as --on-pause says) and a
// budget pause as --on-budget says, and end with a summary table and an exit code that says how the runs ended.
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { safeJson } from '../../schema/terminal-text.ts';
import { batchSchema } from '../../schema/board.ts';
import type { RunAction, RunSummary } from '../../schema/run.ts';
import { FINAL_STATUSES, runSummarySchema } from '../../schema/run.ts';
import { levelResults, runTotals } from '../../schema/run-record.ts';
import { RunSocketClient } from '../../schema/run-socket-client.ts';
import type { RunViewState } from '../../schema/run-view-state.ts';
import type { CapName } from '../../schema/budget.ts';
import { budgetCapOf, budgetStopText, decideBudget, raisedBy } from '../budget-answer.ts';
import type { OnBudget } from '../budget-flags.ts';
import {
  batchCostOption,
  capOption,
  capsFrom,
  capsText,
  defaultOnBudget,
  durationOption,
  onBudgetOption,
} from '../budget-flags.ts';
import { CliError, EXIT, exitForRuns } from '../exit-codes.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { GlobalOptions } from '../global-options.ts';
import { clientFrom, colorsOf, intOption } from '../global-options.ts';
import { askPause } from '../pause-prompt.ts';
import type { OnPauseFlag, RunFlags, RunPlan } from '../run-plan.ts';
import { planRun } from '../run-plan.ts';
import { defaultWorld } from '../../schema/worlds.ts';
import { forecastLines } from '../render/forecast-lines.ts';
import { forecastOf } from './forecast-print.ts';
import { eventLines, safe } from '../render/event-line.ts';
import { outcomesText, ProgressDisplay, rowText } from '../render/progress.ts';

type RunOptions = Omit<RunFlags, 'onPause' | 'caps'> & {
  onPause: OnPauseFlag;
  maxCost?: number;
  maxTokens?: number;
  maxTime?: number;
  maxCommands?: number;
  maxModelCalls?: number;
  onBudget?: OnBudget;
  dryRun?: boolean;
  follow?: boolean;
  verbose?: boolean;
  json?: boolean;
};

export function registerRun(program: Command, globals: () => GlobalOptions, exit: (code: ExitCode) => void): void {
  program
    .command('run')
    .description('Start a run (or a batch, for several models or repeats) and follow it live')
    .option('--target <target>', 'practice (the local range) or bandit', process.env.BANDIT_RUNNER_TARGET ?? 'practice')
    .option('--levels <range>', 'levels to play, e.g. 0-12 or 5', process.env.BANDIT_RUNNER_LEVELS ?? '0-5')
    .option(
      '--model <models>',
      'a model, or several separated by commas (a batch); see `list models`',
      process.env.BANDIT_RUNNER_MODEL ?? 'baseline',
    )
    .option('--repeats <n>', 'runs per model', intOption('--repeats'), 1)
    .option('--parallel <n>', "at most this many of the batch's runs at once", intOption('--parallel'))
    .option('--max-retries <n>', 'failed attempts at a level before the run pauses', intOption('--max-retries'))
    .option('--budget <n>', 'commands per attempt', intOption('--budget'))
    .option(
      '--world <world>',
      'practice range: shared (the world every login sees; the default for one run) or private (a world of its own; the default for a batch)',
    )
    .option('--pace <ms>', 'baseline only: think time per step, to watch it (e.g. 700; 0 is full speed)', paceOption)
    .option(
      '--on-pause <what>',
      'ask (answer here; wait when not interactive), stop, or wait',
      process.env.BANDIT_RUNNER_ON_PAUSE ?? 'ask',
    )
    .option(
      '--max-cost <usd>',
      "the run's cost cap in US dollars (a priced model only), e.g. 2",
      capOption('maxCostUsd'),
    )
    .option('--max-tokens <n>', "the run's cap on prompt + completion tokens", capOption('maxTokens'))
    .option('--max-time <duration>', "the run's cap on running time: seconds, or 90s, 15m, 2h", durationOption)
    .option('--max-commands <n>', "the run's cap on commands run", capOption('maxCommands'))
    .option('--max-model-calls <n>', "the run's cap on requests to the model", capOption('maxModelCalls'))
    .option('--batch-max-cost <usd>', "a batch's cost cap over all its runs, in US dollars", batchCostOption)
    .option(
      '--on-budget <what>',
      'at a cap: ask (the default on a terminal), stop (the default otherwise), or raise=X (the cap hit × X, once)',
      onBudgetOption,
    )
    .option('--dry-run', 'print what would start, its caps, and its cost and time forecast, and start nothing')
    .option('--follow', 'follow the runs live until they end (the default)')
    .option('--no-follow', 'start and print the run ids, without following them')
    .option('--verbose', "print every event (a single run's story, or each run's)")
    .option('--json', 'print the outcome as JSON for scripts')
    .addHelpText(
      'after',
      `
Examples:
  $ bandit-runner run --levels 0-15 --model baseline --max-retries 1
  $ bandit-runner run --levels 0-5 --pace 700
  $ bandit-runner run --levels 0-12 --world private
  $ bandit-runner run --model quick/mini,ponder/deep --repeats 3 --parallel 3 --on-pause stop
  $ bandit-runner run --model quick/mini --max-cost 2 --max-time 15m --on-budget raise=2
  $ bandit-runner run --levels 0-3 --dry-run --json`,
    )
    .action(async (options: RunOptions) => exit(await run(options, globals())));
}

async function run(options: RunOptions, g: GlobalOptions): Promise<ExitCode> {
  if (!['ask', 'stop', 'wait'].includes(options.onPause))
    throw new CliError(`--on-pause: "${options.onPause}" is not ask, stop or wait`, EXIT.usage);
  const caps = capsFrom({
    maxCostUsd: options.maxCost,
    maxTokens: options.maxTokens,
    maxWallSeconds: options.maxTime,
    maxCommands: options.maxCommands,
    maxModelCalls: options.maxModelCalls,
  });
  const plan = planRun({ ...options, ...(caps ? { caps } : {}) });
  const onBudget = budgetPolicy(options);
  const out = process.stdout;
  const c = colorsOf(g, out);
  const client = clientFrom(g);
  if (options.dryRun) {
    const { forecast, error } = await forecastOf(client, plan);
    if (options.json) out.write(`${safeJson({ dryRun: true, ...plan, forecast, forecastError: error }, 2)}\n`);
    else
      out.write(`${describePlan(plan)}${forecast ? forecastLines(forecast, c).join('\n') : `no forecast: ${error}`}\n`);
    return 0;
  }
  const started: { runId: string; model: string }[] = [];
  let batchId: string | null = null;
  if (plan.kind === 'run') {
    const run = await client.post('/api/runs', plan.config, runSummarySchema);
    started.push({ runId: run.id, model: run.config.model });
  } else {
    const batch = await client.post('/api/batches', plan.batch, batchSchema);
    batchId = batch.id;
    for (const r of batch.runs) started.push({ runId: r.id, model: r.config.model });
  }
  // With both --follow and --no-follow defined, commander leaves the flag unset unless one is given.
  if (options.follow === false) {
    if (options.json) out.write(`${safeJson({ batchId, runs: started.map((s) => s.runId) })}\n`);
    else for (const s of started) out.write(`${s.runId}  ${safe(s.model)}\n`);
    return 0;
  }
  if (!options.json && batchId)
    out.write(c.dim(`batch ${batchId}: ${started.length} runs — ${client.url}/batch?id=${batchId}\n`));
  if (!options.json && !batchId)
    out.write(c.dim(`run ${started[0]!.runId} — ${client.url}/run?id=${started[0]!.runId}\n`));

  const interactive = options.onPause === 'ask' && Boolean(process.stdin.isTTY && out.isTTY);
  const story = options.verbose || (started.length === 1 && !options.json);
  const display = story || options.json ? null : new ProgressDisplay(out, c);
  // The batch's cost cap is one for all its runs: a raise of it by --on-budget counts for every run.
  const batchRaised = new Map<CapName, number>();
  // One prompt at a time: runs that pause together are answered in turn.
  let asking: Promise<void> = Promise.resolve();
  const finals = await Promise.all(
    started.map(async ({ runId, model }) => {
      const follower = new RunSocketClient({
        open: (since) => client.socket(runId, since),
        onEvent: (event) => {
          if (!story || options.json) return;
          const prefix = started.length > 1 ? c.dim(`${runId.slice(-6)} `) : '';
          for (const line of eventLines(event, c, { verbose: options.verbose })) out.write(`${prefix}${line}\n`);
        },
        onState: (view) => display?.update({ runId, model, view }),
      });
      follower.start();
      // The limits --on-budget raise=X raised this run's caps to: each is raised once, then the run stops.
      const raised = new Map<CapName, number>();
      for (;;) {
        // With --on-pause stop the server ends the run at its pause: only the end counts.
        const view = await follower.waitFor((s) => isFinal(s) || (s.pending !== null && options.onPause !== 'stop'));
        if (isFinal(view)) {
          follower.close();
          return { runId, model, view };
        }
        const pending = view.pending!;
        const decision =
          pending.reason === 'budget_exceeded'
            ? decideBudget(onBudget, pending, new Map([...raised, ...batchRaised]))
            : null;
        if (decision?.kind !== 'answer' && !interactive) {
          follower.close();
          return { runId, model, view };
        }
        const answered = (asking = asking.then(async () => {
          display?.hold();
          let action: RunAction;
          if (decision?.kind === 'answer') {
            (options.json ? process.stderr : out).write(`${c.magenta(safe(decision.note))}\n`);
            action = decision.action;
            for (const [cap, to] of raisedBy(action)) (cap === 'batchMaxCostUsd' ? batchRaised : raised).set(cap, to);
          } else action = await askPause(pending, c, out);
          await client.post(`/api/runs/${runId}/actions`, action, runSummarySchema);
        }));
        await answered;
        await follower.waitFor((s) => s.pending === null || isFinal(s));
      }
    }),
  );
  display?.hold();
  const ends = finals.map((f) => ({ status: f.view.run?.status ?? 'unknown', cap: budgetCapOf(f.view.record) }));
  if (options.json) {
    out.write(`${safeJson({ batchId, runs: finals.map(summaryOf) }, 2)}\n`);
  } else {
    out.write(`\n${c.bold('Summary')}\n`);
    for (const f of finals) {
      out.write(`${rowText({ runId: f.runId, model: f.model, view: f.view }, c)}\n`);
      const levels = outcomesText(f.view);
      if (levels) out.write(`  ${c.dim(levels)}\n`);
      const cap = budgetCapOf(f.view.record);
      if (cap) out.write(`  ${c.yellow(budgetStopText(cap, f.view.record))}\n`);
    }
  }
  return exitForRuns(ends.map((e) => ({ status: e.status, atBudget: e.cap !== null })));
}

const isFinal = (s: RunViewState) => s.run !== null && FINAL_STATUSES.includes(s.run.status);

function summaryOf(f: { runId: string; model: string; view: RunViewState }) {
  const run: RunSummary | null = f.view.run;
  return {
    id: f.runId,
    model: f.model,
    status: run?.status ?? null,
    currentLevel: f.view.currentLevel,
    levelsSolved: f.view.solved.length,
    commands: runTotals(f.view.record).commands,
    /** Each level touched and how it ended (docs/outcomes.md). */
    levels: levelResults(f.view.record).map((l) => ({ level: l.level, outcome: l.outcome })),
    promptTokens: f.view.promptTokens,
    completionTokens: f.view.completionTokens,
    costUsd: f.view.costUsd,
    pendingReason: f.view.pending?.reason ?? null,
    /** Why the run ended short (schema/budget.ts LIMIT_REASONS: a cap's name, max_retries, stopped, failed), or null. */
    limitReason: f.view.record.place.limit,
  };
}

/** --on-budget, or its default; a raise or a prompt cannot answer a run the server stops at its pause. */
function budgetPolicy(options: RunOptions): OnBudget {
  const tty = options.onPause === 'ask' && Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const policy = options.onBudget ?? defaultOnBudget(options.onPause, tty);
  if (options.onPause === 'stop' && policy.kind !== 'stop')
    throw new CliError(
      '--on-budget ask or raise=X needs the run to wait at its budget pause: drop --on-pause stop (or use --on-budget stop)',
      EXIT.usage,
    );
  return policy;
}

/** `--pace`: a whole number of milliseconds, 0 or more (the schema checks the upper bound). */
function paceOption(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('--pace must be a whole number of milliseconds, e.g. 700');
  return Number(value);
}

function describePlan(plan: RunPlan): string {
  if (plan.kind === 'run') {
    const c = plan.config;
    const world = c.world ?? defaultWorld(c.target, { batch: false });
    return `would start 1 run: ${c.model} on ${c.target} levels ${c.startLevel}-${c.endLevel}, ${c.maxRetries} retries, budget ${c.budget}${c.paceMs ? `, pace ${c.paceMs} ms` : ''}${c.caps ? `, ${capsText(c.caps)}` : ''}, on pause: ${c.onPause}, ${world} world\n(nothing was started)\n`;
  }
  const b = plan.batch;
  return `would start a batch of ${b.models.length * b.repeats} runs: ${b.models.join(', ')} × ${b.repeats} on ${b.target} levels ${b.startLevel}-${b.endLevel}${b.maxRunning ? `, at most ${b.maxRunning} at once` : ''}${b.maxCostUsd ? `, batch cost cap $${b.maxCostUsd}` : ''}, on pause: ${b.onPause}, ${b.world ?? defaultWorld(b.target, { batch: true })} worlds\n(nothing was started)\n`;
}
