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

/** The transcript section: one collapsible block per level the run touched, in the order it reached them. */
export function transcriptSection(target: Target, events: readonly RunEvent[]): string {
  const byLevel = new Map<number, string[]>();
  let current: number | null = null;
  for (const event of events) {
    if ('level' in event && typeof event.level === 'number') current = event.level;
    if (current === null) continue;
    const html = entry(event);
    if (html === null) continue;
    const list = byLevel.get(current) ?? [];
    byLevel.set(current, list);
    list.push(html);
  }
  const blocks = [...byLevel].map(([level, parts]) => {
    // The id sits on the summary: a link to it (the levels table's) opens the block it is in, without script.
    const goal = esc(levelGoal(target, level));
    const summary = `<summary id="level-${level}">Level ${level} → ${level + 1}: ${goal}</summary>`;
    return `<details class="level" data-level="${level}">${summary}\n${parts.join('\n')}\n</details>`;
  });
  const body = blocks.join('\n') || '<p>No level was started.</p>';
  return `<section id="transcript"><h2>Transcript</h2>\n${body}\n</section>`;
}
