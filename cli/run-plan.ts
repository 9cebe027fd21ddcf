// From the `run` command's flags to what will be started: one run (POST /api/runs) or a batch
// (POST /api/batches) when there are several models or repeats. Checked with the API's own schemas,
// so a bad value is refused here, before anything starts, with the API's words.
import { createBatchSchema } from '../schema/board.ts';
import type { CreateBatch } from '../schema/board.ts';
import { describeIssues } from '../schema/issues.ts';
import { runConfigSchema } from '../schema/run.ts';
import type { RunConfig } from '../schema/run.ts';
import type { RunCaps } from '../schema/budget.ts';
import { CliError, EXIT } from './exit-codes.ts';

export type OnPauseFlag = 'ask' | 'stop' | 'wait';

export type RunFlags = {
  target: string;
  levels: string;
  model: string;
  repeats: number;
  parallel?: number;
  maxRetries?: number;
  budget?: number;
  /** The baseline's think time per step, ms (`--pace`); unset is full speed. */
  pace?: number;
  onPause: OnPauseFlag;
  /** The run's caps (--max-cost, --max-tokens, …; cli/budget-flags.ts). */
  caps?: RunCaps;
  /** A batch's cost cap over all its runs (--batch-max-cost). */
  batchMaxCost?: number;
  /** shared or private (--world); unset, the server's default (schema/worlds.ts). Checked by the API's schemas. */
  world?: string;
};

export type RunPlan = { kind: 'run'; config: RunConfig } | { kind: 'batch'; batch: CreateBatch };

/** "0-12" → [0, 12]; "5" → [5, 5]. */
export function parseLevels(text: string): [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) throw new CliError(`--levels: "${text}" is not a level or a range such as 0-12`, EXIT.usage);
  return [Number(match[1]), Number(match[2] ?? match[1])];
}

export function planRun(flags: RunFlags): RunPlan {
  const [startLevel, endLevel] = parseLevels(flags.levels);
  const models = flags.model
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (models.length === 0) throw new CliError('--model: name at least one model, e.g. --model baseline', EXIT.usage);
  // "ask" is the CLI answering; the server just waits for it.
  const onPause = flags.onPause === 'stop' ? 'stop' : 'wait';
  const common = {
    target: flags.target,
    startLevel,
    endLevel,
    ...(flags.maxRetries !== undefined ? { maxRetries: flags.maxRetries } : {}),
    ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
    ...(flags.world !== undefined ? { world: flags.world } : {}),
    onPause,
  };
  if (models.length === 1 && flags.repeats === 1) {
    if (flags.batchMaxCost !== undefined)
      throw new CliError(
        '--batch-max-cost caps a batch (several models or --repeats); for one run use --max-cost',
        EXIT.usage,
      );
    const pace = flags.pace !== undefined ? { paceMs: flags.pace } : {};
    const caps = flags.caps ? { caps: flags.caps } : {};
    const parsed = runConfigSchema.safeParse({ ...common, model: models[0], ...pace, ...caps });
    if (!parsed.success) throw new CliError(`the run is invalid: ${describeIssues(parsed.error)}`, EXIT.usage);
    return { kind: 'run', config: parsed.data };
  }
  if (flags.pace !== undefined)
    throw new CliError('--pace slows a single baseline run to watch it; drop it for a batch', EXIT.usage);
  // A batch takes one cost cap over all its runs; the API has no caps for each of a batch's runs.
  if (flags.caps)
    throw new CliError(
      '--max-cost, --max-tokens, --max-time, --max-commands and --max-model-calls cap a single run; ' +
        'for a batch use --batch-max-cost',
      EXIT.usage,
    );
  const parsed = createBatchSchema.safeParse({
    ...common,
    models,
    repeats: flags.repeats,
    ...(flags.parallel !== undefined ? { maxRunning: flags.parallel } : {}),
    ...(flags.batchMaxCost !== undefined ? { maxCostUsd: flags.batchMaxCost } : {}),
  });
  if (!parsed.success) throw new CliError(`the batch is invalid: ${describeIssues(parsed.error)}`, EXIT.usage);
  return { kind: 'batch', batch: parsed.data };
}
