// transcript.md: the run as a person reads it — per level its goal, then each attempt's thinking,
// commands and outputs, the lessons, the pauses and hints, and how the level ended. Every text a
// target, a model or a person wrote goes through plainText (no escapes, no binary), and prose is
// HTML-escaped, so a markdown renderer makes no tag and no link of it; code sits in fences it cannot close.
import { answererText } from '../../schema/answered-by.ts';
import { OUTCOME_TEXT } from '../../schema/level-outcome.ts';
import { levelGoal } from '../../schema/levels.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { levelResults, recordOf, runTotals } from '../../schema/run-record.ts';
import type { RunRecord } from '../../schema/run-record.ts';
import { plainText } from '../../schema/terminal-text.ts';
import { ScreenDecoder, withoutEscapes } from '../../schema/screen-bytes.ts';
import { raiseText } from '../../schema/budget.ts';

/** A screen's bytes as lines of text: escape sequences gone, carriage returns folded into line ends. */
const screenLines = (screen: string): string =>
  withoutEscapes(screen).replace(/\r+\n/g, '\n').replace(/\r/g, '\n').trim();

/** Characters of each output in the transcript; events.jsonl has every one whole. */
const OUTPUT_CHARS = 2_000;

/** A backtick run longer than any in the text, so the text cannot close its own fence or span. */
const ticksFor = (text: string, least: number): string =>
  '`'.repeat(Math.max(least, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
/** Text for prose: escapes made visible, then `&`, `<`, `>` HTML-escaped and `\`, `[`, `]` backslashed (no tag, no link). */
export const prose = (text: string): string =>
  plainText(text)
    .replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'))
    .replace(/[\\[\]]/g, (ch) => `\\${ch}`);
/** A fenced block: markdown shows its content as text, whatever it holds. */
const fence = (raw: string): string => {
  const text = plainText(raw);
  const ticks = ticksFor(text, 3);
  return `${ticks}\n${text.replace(/\n$/, '')}\n${ticks}`;
};
/** An inline code span on one line: newlines shown as spaces, so a blank line cannot end it early. */
const code = (raw: string): string => {
  const text = plainText(raw).replace(/\s*\n\s*/g, ' ');
  const ticks = ticksFor(text, 1);
  return `${ticks} ${text} ${ticks}`;
};
const quote = (text: string): string =>
  prose(text)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
const cut = (text: string): string =>
  text.length > OUTPUT_CHARS
    ? `${text.slice(0, OUTPUT_CHARS)}\n… (${text.length - OUTPUT_CHARS} more characters in events.jsonl)`
    : text;

/** transcript.md's writer: the head from the run's figures, then the text of each page of the log as it comes. */
export class TranscriptWriter {
  private readonly run: RunSummary;
  private readonly record: RunRecord;
  private level: number | null = null;
  private screen = '';
  private screenDecoder = new ScreenDecoder();

  /** `record`: the whole run's fold (summary.json's), for the table of levels at the top. */
  constructor(run: RunSummary, record: RunRecord) {
    this.run = run;
    this.record = record;
  }

  /** The title, the run's line and the table of levels. */
  head(): string {
    const { config } = this.run;
    const totals = runTotals(this.record);
    return [
      `# Run ${this.run.id}`,
      '',
      `${prose(config.model)} on the ${config.target} target, levels ${config.startLevel}–${config.endLevel}, ${config.maxRetries} retries of ${config.budget} steps. ` +
        `Status: **${this.run.status}**, ${totals.levelsSolved} level(s) solved.`,
      '',
      '| level | how it ended | attempts | pauses | commands | tokens | cost |',
      '|---|---|---|---|---|---|---|',
      ...levelResults(this.record).map(
        (l) =>
          `| ${l.level} | ${OUTCOME_TEXT[l.outcome].label} | ${l.attempts} | ${l.pauses} | ${l.commands} | ${l.promptTokens + l.completionTokens} | $${l.costUsd.toFixed(4)} |`,
      ),
    ].join('\n');
  }

  /** The text `events` add, each line after a line break. */
  write(events: readonly RunEvent[]): string {
    const out: string[] = [];
    for (const event of events) this.entry(event, out);
    return out.map((line) => `\n${line}`).join('');
  }

  /** The file's last line break. */
  end(): string {
    return '\n';
  }

  private heading(next: number, out: string[]): void {
    if (this.level === next) return;
    this.level = next;
    out.push('', `## Level ${next} → ${next + 1}`, '', `**Goal:** ${levelGoal(this.run.config.target, next)}`);
  }

  private entry(event: RunEvent, out: string[]): void {
    switch (event.type) {
      case 'level_started':
        this.heading(event.level, out);
        out.push('', `### Attempt ${event.attempt}`);
        break;
      case 'thinking':
        this.heading(event.level, out);
        out.push('', quote(event.text));
        break;
      case 'command':
        this.heading(event.level, out);
        out.push('', fence(`$ ${event.command}`));
        break;
      case 'output': {
        const text =
          event.stdout +
          (event.stderr ? `${event.stdout && !event.stdout.endsWith('\n') ? '\n' : ''}[stderr]\n${event.stderr}` : '');
        out.push(
          fence(cut(text) || '(no output)'),
          `exit ${event.exitCode ?? 'none'}, ${event.durationMs} ms${event.truncated ? ', output truncated by the proxy' : ''}`,
        );
        break;
      }
      case 'attempt_failed':
        out.push(
          '',
          `**Attempt ${event.attempt} failed** (${event.reason}); ${event.retryCount} of ${event.maxRetries} retries used.`,
        );
        if (event.lessons.length)
          out.push('', 'Lessons:', ...event.lessons.map((l) => `- ${prose(l.text).replace(/\n/g, ' ')}`));
        break;
      case 'llm_call':
        if (event.stage === 'final') out.push('', `### Final attempt (${event.model})`);
        break;
      case 'password_found':
        out.push('', `**Password proven** for bandit${event.level + 1}: ${code(event.password)}`);
        break;
      case 'level_complete':
        out.push(
          '',
          `**Solved** by ${event.solvedBy === 'final_attempt' ? 'the final attempt' : event.solvedBy === 'person' ? 'a password a person gave' : 'the agent'} in ${event.commands} command(s), ${(event.durationMs / 1000).toFixed(1)} s.`,
        );
        break;
      case 'user_action_required':
        out.push('', `**Paused** (${event.reason}): ${prose(event.lastError ?? 'the agent asks for help')}`);
        if (event.finalAttempt)
          out.push(
            '',
            `The final attempt ran ${event.finalAttempt.commands.map(code).join(', ') || 'nothing'}: ${prose(event.finalAttempt.outcome)}.`,
          );
        break;
      case 'user_action_resolved':
        out.push(
          '',
          event.hint
            ? `**Hint from a person** (${prose(answererText(event.by))}):`
            : `**A person chose ${event.action}** (${prose(answererText(event.by))}).`,
        );
        if (event.hint) out.push('', quote(event.hint));
        break;
      case 'message_sent':
        out.push('', `**Message from a person** (${prose(answererText(event.by))}), for the agent's next turn:`);
        out.push('', quote(event.text));
        break;
      case 'message_read':
        out.push('', `The agent read the message (event ${event.messageSeq}) at its turn here.`);
        break;
      case 'caps_raised':
        out.push('', `**${prose(answererText(event.by))} raised** ${raiseText(event.caps, event.batchMaxCostUsd)}.`);
        break;
      case 'takeover_started':
        this.screen = '';
        this.screenDecoder = new ScreenDecoder();
        out.push('', `**${prose(answererText(event.by))} took the terminal** (${event.cols}×${event.rows}).`);
        break;
      case 'terminal_output':
        this.screen += this.screenDecoder.next(event.data);
        break;
      case 'takeover_ended': {
        const seen = screenLines(this.screen);
        if (seen)
          out.push(
            '',
            'What their terminal showed (as text; terminal.cast replays it as drawn):',
            '',
            fence(cut(seen)),
          );
        out.push(
          '',
          `The terminal closed (${prose(event.reason)}) after ${Math.round(event.durationMs / 1000)} s${event.provedLevel !== undefined ? `; the session proved level ${event.provedLevel}'s password` : ''}.`,
        );
        this.screen = '';
        break;
      }
      case 'verify_level':
        out.push('', `**Verification: ${event.verdict}** — ${prose(event.detail)}`);
        break;
      case 'error':
        out.push('', `**Error** ${code(event.code)}: ${prose(event.message)}`);
        break;
      case 'run_complete':
        out.push(
          '',
          '---',
          '',
          `Run ${event.status}: ${event.levelsSolved} level(s) solved${event.reason ? ` (${prose(event.reason)})` : ''}.`,
        );
        break;
    }
  }
}

export function transcript(run: RunSummary, events: readonly RunEvent[]): string {
  const writer = new TranscriptWriter(run, recordOf(events));
  return writer.head() + writer.write(events) + writer.end();
}
