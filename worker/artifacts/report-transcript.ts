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
      const notes = `exit ${event.exitCode ?? 'none'}, ${duration(event.durationMs)}${event.truncated ? ', output truncated by the proxy' : ''}`;
      return `<pre class="output">${body}</pre><p class="note">${notes}</p>`;
    }
    case 'attempt_failed': {
      const lessons = event.lessons.map((l) => `<li>${esc(l.text)}</li>`).join('');
      return `<p class="failed">Attempt ${event.attempt} failed (${esc(event.reason)}); ${event.retryCount} of ${event.maxRetries} retries used.</p>${lessons ? `<ul class="lessons">${lessons}</ul>` : ''}`;
    }
    case 'password_found':
      return `<p class="found">Password proven for bandit${event.level + 1}: <code>${esc(event.password)}</code></p>`;
    case 'level_complete':
      return `<p class="solved">Solved by ${SOLVED_BY[event.solvedBy ?? 'agent']} in ${event.commands} command(s), ${duration(event.durationMs)}.</p>`;
    case 'user_action_required':
      return `<p class="paused">Paused (${esc(event.reason)}): ${esc(event.lastError ?? 'the agent asks for help')}</p>`;
    case 'user_action_resolved':
      return event.hint
        ? `<p class="person">Hint from ${esc(answererText(event.by))}:</p><blockquote>${esc(event.hint)}</blockquote>`
        : `<p class="person">${esc(answererText(event.by))} chose ${esc(event.action)}.</p>`;
    case 'message_sent':
      return `<p class="person">Message from ${esc(answererText(event.by))}:</p><blockquote>${esc(event.text)}</blockquote>`;
    case 'caps_raised':
      return `<p class="person">${esc(answererText(event.by))} raised ${esc(raiseText(event.caps, event.batchMaxCostUsd))}.</p>`;
    case 'takeover_started':
      return `<p class="person">${esc(answererText(event.by))} took the terminal (the replay below shows it).</p>`;
    case 'takeover_ended':
      return `<p class="person">The terminal closed (${esc(event.reason)}) after ${duration(event.durationMs)}.</p>`;
    case 'verify_level':
      return `<p class="verify">Verification: ${esc(event.verdict)} — ${esc(event.detail)}</p>`;
    case 'error':
      return `<p class="error">Error <code>${esc(event.code)}</code>: ${esc(event.message)}</p>`;
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
  const blocks = [...byLevel].map(
    ([level, parts]) =>
      `<details class="level" data-level="${level}"><summary>Level ${level} → ${level + 1}: ${esc(levelGoal(target, level))}</summary>\n${parts.join('\n')}\n</details>`,
  );
  return `<section id="transcript"><h2>Transcript</h2>\n${blocks.join('\n') || '<p>No level was started.</p>'}\n</section>`;
}
