// `compare`'s text: the two runs' heads, one line per level with both runs' figures side by side, the
// totals, and the first difference in a sentence. Every piece of the stack's text goes through `safe`.
import { OUTCOME_TEXT } from '../../schema/level-outcome.ts';
import type { CompareTotals, RunComparison, RunHead } from '../../schema/run-compare.ts';
import type { LevelResult } from '../../schema/run-record.ts';
import { differenceSentence } from '../../schema/run-steps.ts';
import type { Step } from '../../schema/run-steps.ts';
import type { Colors } from './colors.ts';
import { safe } from './event-line.ts';

type Side = Pick<LevelResult, 'attempts' | 'commands' | 'promptTokens' | 'completionTokens' | 'costUsd'> & {
  outcome: string;
  timeMs: number | null;
};

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)}s`);
const dollars = (usd: number) => (usd === 0 ? '$0' : `$${usd.toFixed(4)}`);

/** One side's cells: outcome, attempts, commands, time, tokens, cost (blank where the run never got there). */
function cells(side: Side | null): string[] {
  if (side === null) return ['—', '', '', '', '', ''];
  return [
    side.outcome,
    String(side.attempts),
    String(side.commands),
    seconds(side.timeMs),
    (side.promptTokens + side.completionTokens).toLocaleString('en-US'),
    dollars(side.costUsd),
  ];
}

const WIDTHS = [13, 4, 5, 7, 9, 9];
const HEAD = ['outcome', 'att', 'cmds', 'time', 'tokens', 'cost'];

function columns(values: string[]): string {
  return values.map((v, i) => v.padEnd(WIDTHS[i] ?? 8).slice(0, WIDTHS[i] ?? 8)).join(' ');
}

const level = (f: LevelResult | null): Side | null =>
  f && { ...f, outcome: OUTCOME_TEXT[f.outcome].label, timeMs: f.durationMs };

const total = (t: CompareTotals): Side => ({
  ...t,
  outcome: `${t.levelsSolved} solved`,
  timeMs: t.wallTimeMs,
});

const shownStep = (s: Step | null): Step | null => s && { ...s, text: safe(s.text) };

function headLine(name: string, head: RunHead): string {
  return `${name}  ${head.id}  ${head.model}  ${head.status}  levels ${head.startLevel}-${head.endLevel}, max retries ${head.maxRetries}`;
}

/** The comparison as lines of text for a terminal, each made safe; differing levels marked `≠` (and in colour). */
export function compareLines(comparison: RunComparison, c: Colors): string[] {
  const { a, b, levels, totals, firstDifference } = comparison;
  const rule = `${' '.repeat(7)}${columns(HEAD)} │ ${columns(HEAD)}`;
  const lines = [safe(headLine('A', a)), safe(headLine('B', b)), '', c.dim(rule)];
  for (const l of levels) {
    const mark = l.same ? ' ' : '≠';
    const text = `${mark} L${String(l.level).padEnd(3)} ${columns(cells(level(l.a)))} │ ${columns(cells(level(l.b)))}`;
    lines.push(l.same ? safe(text) : c.yellow(safe(text)));
  }
  lines.push(c.bold(safe(`  total ${columns(cells(total(totals.a)))} │ ${columns(cells(total(totals.b)))}`)));
  // Each step's text made safe alone first, so one binary command does not turn the sentence into a preview.
  const d = firstDifference && { ...firstDifference, a: shownStep(firstDifference.a), b: shownStep(firstDifference.b) };
  lines.push('', safe(differenceSentence(d)));
  return lines;
}
