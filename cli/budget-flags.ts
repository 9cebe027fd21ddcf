// The `run` command's budget flags (issue 31): the caps (--max-cost, --max-tokens, --max-time,
// --max-commands, --max-model-calls), each checked by the schema's own rule for its cap, and
// --on-budget, what the CLI answers when a run pauses at a cap.
import { InvalidArgumentError } from 'commander';
import { costCapSchema, formatCapValue, RUN_CAPS, runCapsSchema } from '../schema/budget.ts';
import type { RunCap, RunCaps } from '../schema/budget.ts';

/** Each cap's flag, in RUN_CAPS order; a refusal names the flag a person typed. */
export const CAP_FLAGS: Record<RunCap, string> = {
  maxCostUsd: '--max-cost',
  maxTokens: '--max-tokens',
  maxWallSeconds: '--max-time',
  maxCommands: '--max-commands',
  maxModelCalls: '--max-model-calls',
};

/** What the CLI answers at a budget pause: ask a person, stop the run, or raise the cap hit by `factor` once. */
export type OnBudget = { kind: 'ask' } | { kind: 'stop' } | { kind: 'raise'; factor: number };

const NUMBER = /^\d+(?:\.\d+)?$/;
const DURATION = /^(\d+(?:\.\d+)?)\s*(s|m|h)?$/i;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** The cap's value checked by the schema's rule for it, or commander's usage error naming the flag. */
function checked(cap: RunCap, value: number): number {
  const parsed = runCapsSchema.shape[cap].safeParse(value);
  if (parsed.success && parsed.data !== undefined) return parsed.data;
  const why = parsed.success ? 'is required' : (parsed.error.issues[0]?.message ?? 'is not a valid cap');
  throw new InvalidArgumentError(`${CAP_FLAGS[cap]} ${why}`);
}

/** The option parser for a cap given as a plain number (dollars, tokens, commands, model calls). */
export function capOption(cap: Exclude<RunCap, 'maxWallSeconds'>) {
  const example = cap === 'maxCostUsd' ? '2 or 0.50' : '50';
  return (text: string): number => {
    const trimmed = text.trim().replace(/^\$/, '');
    if (!NUMBER.test(trimmed)) throw new InvalidArgumentError(`${CAP_FLAGS[cap]} must be a number, e.g. ${example}`);
    return checked(cap, Number(trimmed));
  };
}

/** Seconds from "90", "90s", "15m" or "2h"; null when the text is none of these. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * (UNIT_SECONDS[(match[2] ?? 's').toLowerCase()] ?? 1);
}

/** `--max-time`: seconds, or a number with s, m or h; a whole number of seconds above 0. */
export function durationOption(text: string): number {
  const seconds = parseDuration(text);
  if (seconds === null) throw new InvalidArgumentError('--max-time must be seconds, or like 90s, 15m or 2h');
  // 1.5m is 90 s; 0.25s is not a whole second, which the schema says.
  return checked('maxWallSeconds', Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(3)));
}

/** `--on-budget`: ask, stop, or raise=X with X a number above 1. */
export function onBudgetOption(text: string): OnBudget {
  const value = text.trim().toLowerCase();
  if (value === 'ask' || value === 'stop') return { kind: value };
  const raise = /^raise=(\d+(?:\.\d+)?)$/.exec(value);
  if (!raise) throw new InvalidArgumentError('--on-budget must be ask, stop, or raise=X (e.g. raise=2)');
  const factor = Number(raise[1]);
  if (!(factor > 1) || factor > 1000)
    throw new InvalidArgumentError(
      '--on-budget raise=X multiplies the cap that was hit: X must be above 1 (at most 1000)',
    );
  return { kind: 'raise', factor };
}

/** The flags as the run's caps (undefined when none is given), checked whole by the schema. */
export function capsFrom(flags: Partial<Record<RunCap, number>>): RunCaps | undefined {
  const given = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  if (Object.keys(given).length === 0) return undefined;
  const parsed = runCapsSchema.safeParse(given);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const flag = CAP_FLAGS[issue?.path[0] as RunCap] ?? 'a cap';
  throw new InvalidArgumentError(`${flag} ${issue?.message ?? 'is not a valid cap'}`);
}

/** `--batch-max-cost`: the batch's dollars over all its runs, by the schema's rule for a cost cap. */
export function batchCostOption(text: string): number {
  const trimmed = text.trim().replace(/^\$/, '');
  const parsed = costCapSchema.safeParse(NUMBER.test(trimmed) ? Number(trimmed) : Number.NaN);
  if (!parsed.success)
    throw new InvalidArgumentError(
      `--batch-max-cost ${NUMBER.test(trimmed) ? (parsed.error.issues[0]?.message ?? 'is invalid') : 'must be a number of US dollars, e.g. 20'}`,
    );
  return parsed.data;
}

/**
 * --on-budget when not given: stop for a hands-off run (--on-pause stop) or when nobody can answer
 * (stdin is not a terminal), else ask.
 */
export function defaultOnBudget(onPause: string, interactive: boolean): OnBudget {
  return onPause === 'stop' || !interactive ? { kind: 'stop' } : { kind: 'ask' };
}

/** "caps 3 commands, $2.00" for --dry-run; empty when there is none. */
export function capsText(caps: RunCaps | undefined): string {
  const parts = RUN_CAPS.flatMap((cap) => (caps?.[cap] === undefined ? [] : [formatCapValue(cap, caps[cap])]));
  return parts.length ? `caps ${parts.join(', ')}` : '';
}
