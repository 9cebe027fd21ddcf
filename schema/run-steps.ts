// A run as the steps that decide its path, and the first step where two runs part (docs/compare.md):
// the agent's commands, a pause, an attempt that ended, a person's act, and each level's outcome.
// Model text, outputs, timings and spend are not steps: two runs on one path may word and pay differently.
import { z } from 'zod';
import type { RunEvent } from './protocol.ts';

/** What kind of step: the agent's command, an attempt given up, a pause, a person's act, a level's end. */
export const stepKindSchema = z.enum(['command', 'attempt_failed', 'pause', 'person', 'outcome']);
export type StepKind = z.infer<typeof stepKindSchema>;

/** One step: where it is in the log (seq), its level, and what it was, in words (compared as they stand). */
export const stepSchema = z.object({
  seq: z.number().int().min(1),
  level: z.number().int().min(0),
  kind: stepKindSchema,
  text: z.string(),
});
export type Step = z.infer<typeof stepSchema>;

/** The step an event is, if it is one; `open` is the level of the open pause, `current` the level played. */
function stepOf(e: RunEvent, open: number | null, current: number | null): Omit<Step, 'seq'> | null {
  switch (e.type) {
    case 'command':
      return { level: e.level, kind: 'command', text: e.command };
    case 'attempt_failed':
      return { level: e.level, kind: 'attempt_failed', text: `attempt ${e.attempt} failed: ${e.reason}` };
    case 'user_action_required':
      return { level: e.level, kind: 'pause', text: `paused: ${e.reason}` };
    case 'user_action_resolved': {
      const level = open ?? current;
      if (level === null) return null;
      const text = e.action === 'continue' ? (e.hint === undefined ? 'continue' : `hint: ${e.hint}`) : `${e.action}`;
      return { level, kind: 'person', text };
    }
    case 'message_sent':
      return { level: e.level, kind: 'person', text: `message: ${e.text}` };
    case 'caps_raised':
      return { level: e.level, kind: 'person', text: 'raised the caps' };
    case 'takeover_started':
      return { level: e.level, kind: 'person', text: 'took the terminal' };
    case 'level_complete':
      return { level: e.level, kind: 'outcome', text: `solved (${e.solvedBy ?? 'agent'})` };
    default:
      return null;
  }
}

/**
 * The run's steps in log order. The run's end closes the level it was playing when that level was not
 * proved: an outcome step `not solved (<status>)`.
 */
export function runSteps(events: readonly RunEvent[]): Step[] {
  const steps: Step[] = [];
  let open: number | null = null;
  let current: number | null = null;
  const solved = new Set<number>();
  for (const e of events) {
    const step = stepOf(e, open, current);
    if (step) steps.push({ seq: e.seq, ...step });
    if (e.type === 'level_started') current = e.level;
    if (e.type === 'user_action_required') open = e.level;
    if (e.type === 'user_action_resolved') open = null;
    if (e.type === 'level_complete') solved.add(e.level);
    if (e.type === 'run_complete' && current !== null && !solved.has(current))
      steps.push({ seq: e.seq, level: current, kind: 'outcome', text: `not solved (${e.status})` });
  }
  return steps;
}

const sameStep = (x: Step | undefined, y: Step | undefined): boolean =>
  x !== undefined && y !== undefined && x.level === y.level && x.kind === y.kind && x.text === y.text;

/** Whether both runs took the same steps at `level`. */
export function sameSteps(a: readonly Step[], b: readonly Step[], level: number): boolean {
  const at = (steps: readonly Step[]) => steps.filter((s) => s.level === level);
  const x = at(a);
  const y = at(b);
  return x.length === y.length && x.every((s, i) => sameStep(s, y[i]));
}

/** The longest text a difference carries of a step (a command can be long; the log has it whole). */
export const STEP_TEXT_MAX = 500;

const shown = (s: Step | undefined): Step | null =>
  s === undefined
    ? null
    : { ...s, text: s.text.length > STEP_TEXT_MAX ? `${s.text.slice(0, STEP_TEXT_MAX)}…` : s.text };

/**
 * The first place where the two walks part: the first index at which the steps differ in level, kind or
 * text, or one run has a step and the other none. Its level and its index among that level's steps; null
 * when the walks are the same to the end.
 */
export function firstDifference(
  a: readonly Step[],
  b: readonly Step[],
): { level: number; index: number; a: Step | null; b: Step | null } | null {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (sameStep(x, y)) continue;
    const level = (x ?? y)!.level;
    // Steps before i are the same in both, so the level's earlier steps count the same in either run.
    const index = a.slice(0, i).filter((s) => s.level === level).length;
    return { level, index, a: shown(x), b: shown(y) };
  }
  return null;
}

/** What a run did at a step, in words for a sentence ("ran `ls`", "paused: max_retries", "had no more steps"). */
export function stepWords(step: Step | null): string {
  if (step === null) return 'had no more steps';
  // One line: a command's own line breaks are shown, so they cannot pass for lines of their own.
  const text = step.text.replace(/\r\n|\r|\n/g, ' ↵ ');
  switch (step.kind) {
    case 'command':
      return `ran \`${text}\``;
    case 'attempt_failed':
      return `gave up: ${text}`;
    case 'pause':
      return text;
    case 'person':
      return `a person acted: ${text}`;
    case 'outcome':
      return `ended the level: ${text}`;
  }
}

/** Where the runs part, in words: "The runs first differ at level 2, step 4" (a page links each side's words). */
export const differenceLead = (d: { level: number; index: number }): string =>
  `The runs first differ at level ${d.level}, step ${d.index + 1}`;

/** What the comparison says when the runs never part. */
export const NO_DIFFERENCE = 'No difference: both runs took the same steps to the same outcomes.';

/** The first difference as one plain sentence (the CLI's; the web page builds it from the same parts, with links). */
export function differenceSentence(d: { level: number; index: number; a: Step | null; b: Step | null } | null): string {
  if (d === null) return NO_DIFFERENCE;
  const at = (s: Step | null) => (s === null ? '' : ` (seq ${s.seq})`);
  return `${differenceLead(d)}: A ${stepWords(d.a)}${at(d.a)}; B ${stepWords(d.b)}${at(d.b)}.`;
}
