// report.html's transcript: per level, one <details> with each attempt's thinking, commands and outputs,
// the pauses and what a person answered, and how the level ended. Every run text goes through esc().
import { answererText } from '../../schema/answered-by.ts';
import { levelGoal } from '../../schema/levels.ts';
import type { RunEvent, SolvedBy } from '../../schema/protocol.ts';
import type { Target } from '../../schema/run.ts';
import { raiseText } from '../../schema/budget.ts';
import { cut, duration, esc } from './report-markup.ts';

const SOLVED_BY: Record<SolvedBy, string> = {
  agent: 'the agent',
  final_attempt: 'the final attempt',
  person: 'a password a person gave',
};

/** A paragraph of the builder's own words (run text inside already escaped). */
const para = (cls: string, html: string) => `<p class="${cls}">${html}</p>`;
/** A person's or a model's words, escaped, as a quote. */
const quote = (text: string) => `<blockquote>${esc(text)}</blockquote>`;
/** Who answered, as a person reads it, escaped. */
const who = (by: string) => esc(answererText(by));

/** One event as HTML, or null for an event the transcript does not show. */
function entry(event: RunEvent): string | null {
  switch (event.type) {
    case 'level_started':
      return `<h4>Attempt ${event.attempt}</h4>`;
    case 'thinking':
      return `<blockquote class="thinking">${esc(event.text)}</blockquote>`;
    case 'command':
      return `<pre class="command">$ ${esc(event.command)}</pre>`;
    case 'output': {
      const sep = event.stdout && event.stderr && !event.stdout.endsWith('\n') ? '\n' : '';
      const stderr = event.stderr ? `<span class="stderr">${esc(cut(event.stderr))}</span>` : '';
      const body = event.stdout || event.stderr ? `${esc(cut(event.stdout))}${sep}${stderr}` : '(no output)';
      const cutShort = event.truncated ? ', output truncated by the proxy' : '';
      const notes = `exit ${event.exitCode ?? 'none'}, ${duration(event.durationMs)}${cutShort}`;
      return `<pre class="output">${body}</pre>${para('note', notes)}`;
    }
    case 'attempt_failed': {
      const lessons = event.lessons.map((l) => `<li>${esc(l.text)}</li>`).join('');
      const used = `${event.retryCount} of ${event.maxRetries} retries used`;
      return (
        para('failed', `Attempt ${event.attempt} failed (${esc(event.reason)}); ${used}.`) +
        (lessons ? `<ul class="lessons">${lessons}</ul>` : '')
      );
    }
    case 'password_found':
      return para('found', `Password proven for bandit${event.level + 1}: <code>${esc(event.password)}</code>`);
    case 'level_complete': {
      const by = SOLVED_BY[event.solvedBy ?? 'agent'];
      return para('solved', `Solved by ${by} in ${event.commands} command(s), ${duration(event.durationMs)}.`);
    }
    case 'user_action_required':
      return para('paused', `Paused (${esc(event.reason)}): ${esc(event.lastError ?? 'the agent asks for help')}`);
    case 'user_action_resolved':
      return event.hint
        ? para('person', `Hint from ${who(event.by)}:`) + quote(event.hint)
        : para('person', `${who(event.by)} chose ${esc(event.action)}.`);
    case 'message_sent':
      return para('person', `Message from ${who(event.by)}:`) + quote(event.text);
    case 'caps_raised':
      return para('person', `${who(event.by)} raised ${esc(raiseText(event.caps, event.batchMaxCostUsd))}.`);
    case 'takeover_started':
      return para('person', `${who(event.by)} took the terminal (the replay below shows it).`);
    case 'takeover_ended':
      return para('person', `The terminal closed (${esc(event.reason)}) after ${duration(event.durationMs)}.`);
    case 'verify_level':
      return para('verify', `Verification: ${esc(event.verdict)} — ${esc(event.detail)}`);
    case 'error':
      return para('error', `Error <code>${esc(event.code)}</code>: ${esc(event.message)}`);
    default:
      return null;
  }
}

/** Where each level's block finds its events: levels in the order the transcript first shows them, each with its seq ranges. */
export type TranscriptPlan = { level: number; ranges: [number, number][] }[];

/**
 * The transcript's plan, folded an event at a time: an event belongs to the last level any event named, and
 * each level's block holds its shown events in log order. A level's events run in a few seq ranges (one,
 * unless a later level's event came between), so the section is written by reading those ranges again.
 */
export class TranscriptPlanFold {
  private current: number | null = null;
  private lastShown = 0;
  readonly plan: TranscriptPlan = [];
  private readonly byLevel = new Map<number, [number, number][]>();

  add(event: RunEvent): void {
    if ('level' in event && typeof event.level === 'number') this.current = event.level;
    if (this.current === null || entry(event) === null) return;
    let ranges = this.byLevel.get(this.current);
    if (!ranges) {
      ranges = [];
      this.byLevel.set(this.current, ranges);
      this.plan.push({ level: this.current, ranges });
    }
    const last = ranges.at(-1);
    if (last && last[1] === this.lastShown) last[1] = event.seq;
    else ranges.push([event.seq, event.seq]);
    this.lastShown = event.seq;
  }
}

/** The section's opening. */
export const TRANSCRIPT_OPEN = '<section id="transcript"><h2>Transcript</h2>\n';
/** The section's end. */
export const TRANSCRIPT_CLOSE = '\n</section>';
/** What the section holds when no level was started. */
export const NO_LEVEL = '<p>No level was started.</p>';

/** A level's block up to its first event. The id sits on the summary: a link to it (the levels table's) opens the block. */
export function levelBlockOpen(target: Target, level: number): string {
  const goal = esc(levelGoal(target, level));
  const summary = `<summary id="level-${level}">Level ${level} → ${level + 1}: ${goal}</summary>`;
  return `<details class="level" data-level="${level}">${summary}\n`;
}

/** A level's block's end. */
export const LEVEL_BLOCK_CLOSE = '\n</details>';

/** The HTML of `events` within one level's block: each shown event, a line break between two. */
export function levelEntries(events: readonly RunEvent[], first: boolean): { html: string; first: boolean } {
  let html = '';
  for (const event of events) {
    const part = entry(event);
    if (part === null) continue;
    html += first ? part : `\n${part}`;
    first = false;
  }
  return { html, first };
}

/** The transcript section: one collapsible block per level the run touched, in the order it reached them. */
export function transcriptSection(target: Target, events: readonly RunEvent[]): string {
  const fold = new TranscriptPlanFold();
  for (const event of events) fold.add(event);
  const blocks = fold.plan.map(({ level, ranges }) => {
    const within = events.filter((e) => ranges.some(([from, to]) => e.seq >= from && e.seq <= to));
    return levelBlockOpen(target, level) + levelEntries(within, true).html + LEVEL_BLOCK_CLOSE;
  });
  return TRANSCRIPT_OPEN + (blocks.join('\n') || NO_LEVEL) + TRANSCRIPT_CLOSE;
}
